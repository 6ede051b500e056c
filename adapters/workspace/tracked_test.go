package workspace

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
)

// TestRepoFiles: the tracked files are the index's regular files; a head
// is cut at its limit and says there is more; a link is not read; a
// replaced file keeps its mode; a path outside the root is refused.
func TestTrackedRepoFiles(t *testing.T) {
	w := gittest.NewWorktree(t, filepath.Join(t.TempDir(), "repo"))
	w.Write("docs/adr/0001-a.md", "---\n")
	w.Write("src/a.go", "// @adr 0001\npackage a\n")
	w.Write("tool.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(w.Root(), "tool.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.Commit("files")
	w.Write("untracked.go", "package u\n")
	f, err := OpenFolder(w.Root(), "docs/adr")
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.TrackedFiles()
	if want := []string{"docs/adr/0001-a.md", "src/a.go", "tool.sh"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("TrackedFiles: %v %q, want %q", err, got, want)
	}
	head, more, err := f.ReadRepoFile("src/a.go", 5)
	if err != nil || string(head) != "// @a" || !more {
		t.Errorf("a head: %v %q %v", err, head, more)
	}
	whole, more, err := f.ReadRepoFile("src/a.go", -1)
	if err != nil || string(whole) != "// @adr 0001\npackage a\n" || more {
		t.Errorf("the whole file: %v %q %v", err, whole, more)
	}
	if err := f.ReplaceRepoFile("tool.sh", []byte("#!/bin/sh\nexit 0\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(w.Root(), "tool.sh")); err != nil || runtime.GOOS != "windows" && st.Mode().Perm()&0o100 == 0 {
		t.Errorf("the mode after a replace: %v %v", err, st)
	}
	if err := f.ReplaceRepoFile("../outside.txt", []byte("x")); err == nil {
		t.Error("a file outside the repository was written")
	}
	// Last: where links cannot be made, the rest has run.
	linktest.Make(t, "a.go", filepath.Join(w.Root(), "src", "link.go"))
	if _, _, err := f.ReadRepoFile("src/link.go", -1); err == nil {
		t.Error("a link was read")
	}
}
