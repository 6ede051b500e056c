package hooks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/adrkit/adrkit-go/internal/linktest"
)

// A link inside the repository names its target, when the target is
// inside too; anything else names nothing more.
func TestLinkTarget(t *testing.T) {
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
	if got, ok := LinkTarget(root, filepath.Join(root, "src", "link.go")); !ok || got != "src/target.go" {
		t.Fatalf("a link to a file inside: %q, %v", got, ok)
	}
	for _, p := range []string{"out.go", "target.go", "new.go"} {
		if got, ok := LinkTarget(root, filepath.Join(root, "src", p)); ok {
			t.Errorf("%s: %q", p, got)
		}
	}
}
