package workspace

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/linktest"
)

// TestRepoFiles: what the conformance suite cannot see from inside the
// port. A replaced file keeps its permissions (an executable stays
// one), no temporary file is left behind, and a link leading out of the
// repository is followed neither to read nor to write.
func TestRepoFiles(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	f, err := OpenRepoFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Write(".claude/settings.json", []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if err := f.Write("tool.sh", []byte("#!/bin/sh\n")); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		for p, perm := range map[string]os.FileMode{".claude/settings.json": 0o600, "tool.sh": 0o755} {
			if err := os.Chmod(filepath.Join(root, filepath.FromSlash(p)), perm); err != nil {
				t.Fatal(err)
			}
			if err := f.Write(p, []byte("changed\n")); err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil || st.Mode().Perm() != perm {
				t.Errorf("%s after a write: %v %v, want %v", p, st, err, perm)
			}
		}
	}
	entries, _ := os.ReadDir(filepath.Join(root, ".claude"))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".adrkit-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
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
	if _, _, err := f.Read(".cursor/hooks.json", -1); err == nil {
		t.Error("a link leading out of the repository was followed for a read")
	}
}
