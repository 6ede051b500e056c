package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// commitRepo turns newRepo's root into a real repository with the record
// committed, then deletes the record from the working tree: only a
// revision read can still see it.
func commitRepo(t *testing.T) string {
	t.Helper()
	root := newRepo(t)
	gittest.CommitWorkingTree(t, root, "docs", "record", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err := os.Remove(filepath.Join(root, "docs", "adr", "0001-adopt-postgres.md")); err != nil {
		t.Fatal(err)
	}
	return root
}

const getRecord = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n"

func TestRevisionSource(t *testing.T) {
	clearEnv(t)
	root := commitRepo(t)

	worktree := runCLI(t, getRecord, "--cwd", root)
	if worktree.code != 0 || !strings.Contains(worktree.stdout, `"outcome":"not-found"`) {
		t.Fatalf("working tree: exit %d, stdout %s, stderr %s", worktree.code, worktree.stdout, worktree.stderr)
	}
	for _, rev := range []string{"HEAD", "master"} {
		got := runCLI(t, getRecord, "--cwd", root, "--rev", rev)
		if got.code != 0 || !strings.Contains(got.stdout, `"outcome":"found"`) {
			t.Errorf("--rev %s: exit %d, stdout %s, stderr %s", rev, got.code, got.stdout, got.stderr)
		}
	}
	t.Setenv("ADRKIT_MCP_REV", "HEAD")
	if got := runCLI(t, getRecord, "--cwd", root); !strings.Contains(got.stdout, `"outcome":"found"`) {
		t.Errorf("ADRKIT_MCP_REV=HEAD: stdout %s, stderr %s", got.stdout, got.stderr)
	}
	os.Unsetenv("ADRKIT_MCP_REV")

	missing := runCLI(t, getRecord, "--cwd", root, "--rev", "v9")
	if missing.code != 1 || missing.stdout != "" {
		t.Fatalf("--rev v9: exit %d, stdout %q", missing.code, missing.stdout)
	}
	if !strings.HasPrefix(missing.stderr, "adrkit-mcp: ") || !strings.Contains(missing.stderr, `"v9"`) || strings.Count(missing.stderr, "\n") != 1 {
		t.Errorf("--rev v9: stderr %q, want one diagnostic naming the revision", missing.stderr)
	}
}
