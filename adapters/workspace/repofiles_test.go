package workspace

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/linktest"
)

// TestRepoFiles: reads say when a file is missing; writes make their
// directories, replace atomically (no temporary file left), keep an
// existing file's permissions, and never leave the repository, even
// through a symbolic link.
func TestRepoFiles(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	f, err := OpenRepoFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	if _, ok, err := f.Read(".mcp.json"); ok || err != nil {
		t.Fatalf("missing file: %v %v", ok, err)
	}
	if err := f.Write(".claude/settings.json", []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if b, ok, err := f.Read(".claude/settings.json"); !ok || err != nil || string(b) != "{}\n" {
		t.Fatalf("read back %q %v %v", b, ok, err)
	}
	full := filepath.Join(root, ".claude", "settings.json")
	if runtime.GOOS != "windows" {
		if err := os.Chmod(full, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Write(".claude/settings.json", []byte(`{"a": 1}`+"\n")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(full)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("permissions %v, want 0600", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Join(root, ".claude"))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".adrkit-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if err := f.Write(".claude", []byte("x")); err == nil {
		t.Error("a directory was written over")
	}
	if err := f.Write("../escape.json", []byte("x")); err == nil {
		t.Error("a path outside the repository was written")
	}

	linktest.Make(t, outside, filepath.Join(root, ".cursor"))
	if err := f.Write(".cursor/mcp.json", []byte("{}")); err == nil {
		t.Error("a link leading out of the repository was followed for a write")
	}
	if _, err := os.Stat(filepath.Join(outside, "mcp.json")); err == nil {
		t.Error("a file was written outside the repository")
	}
	if err := os.WriteFile(filepath.Join(outside, "hooks.json"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Read(".cursor/hooks.json"); err == nil {
		t.Error("a link leading out of the repository was followed for a read")
	}
}
