package hooks

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/internal/linktest"
)

func TestRelative(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, base, path string
		want             []string
	}{
		{"absolute inside", root, filepath.Join(root, "src", "a.go"), []string{"src/a.go"}},
		{"relative to base", filepath.Join(root, "src"), "b.go", []string{"src/b.go"}},
		{"new file in new dir", root, filepath.Join("new", "dir", "c.go"), []string{"new/dir/c.go"}},
		{"dot dot inside", root, filepath.Join("src", "..", "d.go"), []string{"d.go"}},
		{"outside", root, filepath.Join(root, "..", "e.go"), nil},
		{"the root itself", root, root, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Relative(root, tc.base, tc.path)
			if tc.want == nil {
				if !errors.Is(err, ErrOutside) {
					t.Fatalf("Relative = %q, %v; want ErrOutside", got, err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("Relative = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// A root reached through a link, and a file that is a link: the path is
// made relative to the real root, and a link inside the repository also
// names its target.
func TestRelativeThroughLinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.MkdirAll(filepath.Join(real, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "src", "target.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	linktest.Make(t, real, filepath.Join(dir, "alias"))
	got, err := Relative(filepath.Join(dir, "alias"), dir, filepath.Join(real, "src", "new.go"))
	if err != nil || !slices.Equal(got, []string{"src/new.go"}) {
		t.Fatalf("through the root's link: %q, %v", got, err)
	}
	linktest.Make(t, "target.go", filepath.Join(real, "src", "link.go"))
	got, err = Relative(real, real, filepath.Join("src", "link.go"))
	if err != nil || !slices.Equal(got, []string{"src/link.go", "src/target.go"}) {
		t.Fatalf("a link to a file: %q, %v", got, err)
	}
	outside := filepath.Join(dir, "outside.go")
	if err := os.WriteFile(outside, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	linktest.Make(t, outside, filepath.Join(real, "src", "out.go"))
	got, err = Relative(real, real, filepath.Join("src", "out.go"))
	if err != nil || !slices.Equal(got, []string{"src/out.go"}) {
		t.Fatalf("a link out of the repository: %q, %v", got, err)
	}
}
