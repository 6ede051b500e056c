package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/internal/linktest"
)

func TestRepoPath(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"adapters/mcp/server.go", "README.md", "cmd/x/main.go"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(root, "adapters", "mcp")
	outside := filepath.Dir(root)
	for _, tc := range []struct {
		name, wd, arg, want string
	}{
		{"from the root, as written", root, "adapters/mcp/server.go", "adapters/mcp/server.go"},
		{"from the root, dot-dot inside kept as written", root, "adapters/../adapters/mcp/server.go", "adapters/../adapters/mcp/server.go"},
		{"from the root, a new file", root, "services/new.go", "services/new.go"},
		{"absolute inside", sub, filepath.Join(root, "adapters", "mcp", "server.go"), "adapters/mcp/server.go"},
		{"absolute inside, not existing", root, filepath.Join(root, "new", "file.go"), "new/file.go"},
		{"subdirectory, relative to it", sub, "server.go", "adapters/mcp/server.go"},
		{"subdirectory, dot-dot inside", sub, "../../README.md", "README.md"},
		{"subdirectory, a repository path (git diff --name-only)", sub, "cmd/x/main.go", "cmd/x/main.go"},
		{"subdirectory, a new file", sub, "new.go", "adapters/mcp/new.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RepoPath(root, tc.wd, tc.arg)
			if err != nil || got != tc.want {
				t.Errorf("RepoPath(%q, %q) = %q, %v; want %q", tc.wd, tc.arg, got, err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name, wd, arg string
	}{
		{"absolute outside", root, filepath.Join(outside, "x.go")},
		{"from the root, climbing out", root, "../x.go"},
		{"subdirectory, climbing out", sub, "../../../x.go"},
		{"empty", root, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RepoPath(root, tc.wd, tc.arg)
			if !errors.Is(err, ErrOutsideRepository) {
				t.Errorf("RepoPath(%q, %q) = %q, %v; want ErrOutsideRepository", tc.wd, tc.arg, got, err)
			}
		})
	}
}

func TestRepoPathThroughALink(t *testing.T) {
	real := t.TempDir()
	if err := os.WriteFile(filepath.Join(real, "a.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "repo")
	linktest.Make(t, real, link)
	// The root was found through the link; the user typed the real path.
	got, err := RepoPath(link, link, filepath.Join(real, "a.go"))
	if err != nil || got != "a.go" {
		t.Errorf("got %q, %v; want a.go", got, err)
	}
}

// A path an agent's tool names is governed as written and, for a link to
// a file inside the repository, as its target too; a path outside is
// named by its base name.
func TestEditPaths(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(root, "src", "target.go"), filepath.Join(dir, "outside.go")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	linktest.Make(t, "target.go", filepath.Join(root, "src", "link.go"))
	linktest.Make(t, filepath.Join(dir, "outside.go"), filepath.Join(root, "src", "out.go"))
	files, outside := EditPaths(root, filepath.Join(root, "src"), []string{
		filepath.Join(root, "src", "link.go"), "out.go", "target.go", "new.go", filepath.Join(dir, "outside.go"), root,
	})
	want := []string{"src/link.go", "src/target.go", "src/out.go", "src/target.go", "src/new.go"}
	if !slices.Equal(files, want) || !slices.Equal(outside, []string{"outside.go", "repo"}) {
		t.Fatalf("files %q, outside %q; want %q", files, outside, want)
	}
}

// A directory is in the tree when written inside it, or when a link on
// its way leads there, even a link to a directory not made yet; a loop
// counts as inside.
func TestInTree(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	linktest.Make(t, filepath.Join(root, "sub"), filepath.Join(dir, "to-sub"))
	linktest.Make(t, filepath.Join("repo", ".cache", "none-yet"), filepath.Join(dir, "dangling"))
	linktest.Make(t, "loop", filepath.Join(dir, "loop"))
	linktest.Make(t, dir, filepath.Join(dir, "up"))
	for p, want := range map[string]bool{
		filepath.Join(root, "state"):          true,
		root:                                  true,
		filepath.Join(dir, "to-sub", "state"): true,
		filepath.Join(dir, "dangling", "adrkit", "hooks"): true,
		filepath.Join(dir, "up", "up", "repo", "x"):       true,
		filepath.Join(dir, "loop", "x"):                   true,
		filepath.Join(dir, "cache", "hooks"):              false,
		filepath.Join(dir, "up", "cache"):                 false,
		filepath.Join(dir, "repo-other"):                  false,
	} {
		if got := InTree(root, p); got != want {
			t.Errorf("InTree(%s) = %v, want %v", p, got, want)
		}
	}
}
