package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
)

func mkdirs(t *testing.T, root string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindRootAndDir(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, ".git", "doc/adr", "services/api/decisions", "services/web")
	if got, ok := FindRoot(filepath.Join(root, "services", "web")); !ok || got != root {
		t.Errorf("FindRoot: %q %v", got, ok)
	}
	if _, ok := FindRoot(t.TempDir()); ok {
		t.Error("a root outside any repository")
	}
	// No .adr-dir: the first default that exists.
	if c, err := FindDir(root, filepath.Join(root, "services", "web")); err != nil || c.Dir != "doc/adr" || c.From != "default" {
		t.Errorf("default: %+v %v", c, err)
	}
	// An .adr-dir at the root, relative to it.
	write(t, filepath.Join(root, ".adr-dir"), "docs/architecture\n")
	if c, err := FindDir(root, root); err != nil || c.Dir != "docs/architecture" || c.From != ".adr-dir" {
		t.Errorf("root .adr-dir: %+v %v", c, err)
	}
	// The nearest .adr-dir wins, relative to its own directory.
	write(t, filepath.Join(root, "services", "api", ".adr-dir"), "decisions")
	if c, err := FindDir(root, filepath.Join(root, "services", "api")); err != nil || c.Dir != "services/api/decisions" {
		t.Errorf("nested .adr-dir: %+v %v", c, err)
	}
	// Nothing at all: docs/adr.
	bare := t.TempDir()
	mkdirs(t, bare, ".git")
	if c, _ := FindDir(bare, bare); c.Dir != "docs/adr" || c.From != "" {
		t.Errorf("fresh repository: %+v", c)
	}
}

// TestFolderWrites: what the conformance suite cannot see from inside
// the port. A replaced file keeps its mode, a link's target is left
// alone, and a directory outside the root is not opened.
func TestFolderWrites(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "docs/adr")
	dir := filepath.Join(root, "docs", "adr")
	write(t, filepath.Join(dir, "0001-a.md"), "old")
	f, err := OpenFolder(root, "docs/adr")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "0001-a.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.Replace("0001-a.md", []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	// The mode is kept; Windows keeps only a read-only attribute, which
	// 0o600 leaves off.
	wantPerm := fs.FileMode(0o600)
	if runtime.GOOS == "windows" {
		wantPerm = 0o666
	}
	st, _ := os.Stat(filepath.Join(dir, "0001-a.md"))
	if b, _ := os.ReadFile(filepath.Join(dir, "0001-a.md")); string(b) != "new" || st.Mode().Perm() != wantPerm {
		t.Errorf("Replace: %q %v", b, st.Mode())
	}
	if _, err := OpenFolder(root, ".."); err == nil {
		t.Error("a folder outside the root was opened")
	}
	linktest.Make(t, "0001-a.md", filepath.Join(dir, "0003-link.md"))
	if err := f.Replace("0003-link.md", []byte("new"), []byte("through")); err == nil {
		t.Error("a link was replaced")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "0001-a.md")); string(b) != "new" {
		t.Errorf("a link's target was written: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "0003-link.md")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link is gone: %v %v", fi, err)
	}
}

// TestRenameCase: the case-only rename of a case-insensitive file system,
// driven directly so that every system runs it. The file moves aside and
// back under its new name, leaving nothing behind; a name taken by
// another link is never replaced, and the file keeps its old name.
func TestRenameCase(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "docs/adr")
	dir := filepath.Join(root, "docs", "adr")
	write(t, filepath.Join(dir, "0002-b.MD"), "b")
	f, err := OpenFolder(root, "docs/adr")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.renameCase("0002-b.MD", "0002-b.md"); err != nil {
		t.Fatal(err)
	}
	if names, _ := f.Names(); !slices.Equal(names, []string{"0002-b.md"}) {
		t.Errorf("after the rename: %v", names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "0002-b.md")); string(b) != "b" {
		t.Errorf("content %q", b)
	}
	// Two links to one file, as a case-insensitive system's two spellings
	// are: where the names are distinct, the new one is taken.
	err = os.Link(filepath.Join(dir, "0002-b.md"), filepath.Join(dir, "0002-B.md"))
	if errors.Is(err, fs.ErrExist) {
		return // a case-insensitive system: the two are one name
	}
	if err != nil {
		t.Fatal(err)
	}
	if !f.sameFile("0002-b.md", "0002-B.md") {
		t.Fatal("two links to one file are not the same file")
	}
	if err := f.renameCase("0002-b.md", "0002-B.md"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("renaming onto another link: %v", err)
	}
	if after, _ := f.Names(); !slices.Equal(after, []string{"0002-B.md", "0002-b.md"}) {
		t.Errorf("after a refused rename: %v", after)
	}
}

// TestNoFolderInsideGit: index --write names its folder by the file's
// directory, so a folder inside git's own (.git/hooks, a submodule's
// .git) is refused however it is spelled, and a dry run plans none there.
func TestNoFolderInsideGit(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, ".git/hooks")
	mkdirs(t, root, "vendor/lib/.git")
	mkdirs(t, root, ".github")
	for _, dir := range []string{".git", ".git/hooks", "vendor/lib/.git", ".git/hooks/.."} {
		if _, err := OpenFolder(root, dir); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("OpenFolder(%q): %v, want fs.ErrInvalid", dir, err)
		}
		if _, err := PlannedFolder(root, dir); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("PlannedFolder(%q): %v, want fs.ErrInvalid", dir, err)
		}
	}
	if _, err := OpenFolder(root, ".github"); err != nil {
		t.Errorf("OpenFolder(.github): %v", err)
	}
}

// TestReplaceAfterAnAppend: another process appends to a record between
// the command's reading and its writing (the lost lines of issue 35):
// Replace refuses, the appended line stays, and no temporary file is left.
func TestReplaceAfterAnAppend(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "docs/adr")
	file := filepath.Join(root, "docs", "adr", "0001-a.md")
	write(t, file, "status: proposed\n")
	f, err := OpenFolder(root, "docs/adr")
	if err != nil {
		t.Fatal(err)
	}
	old, err := f.Read("0001-a.md")
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.WriteString("appended meanwhile\n"); err != nil {
		t.Fatal(err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	err = f.Replace("0001-a.md", old, []byte("status: accepted\n"))
	if !errors.Is(err, ports.ErrChanged) || !strings.Contains(err.Error(), "docs/adr/0001-a.md") {
		t.Errorf("Replace after an append: %v, want ports.ErrChanged naming the file", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "status: proposed\nappended meanwhile\n" {
		t.Errorf("the file holds %q: the append was lost", b)
	}
	if names, _ := f.Names(); len(names) != 1 {
		t.Errorf("names after the refused write: %q", names)
	}
}
