package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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

// Over HTTP a corpus of the config file with a rev is read from that
// revision (the record deleted from the working tree is still found), and
// one whose revision does not resolve is not ready.
func TestRevisionSourceOverHTTP(t *testing.T) {
	root := commitRepo(t)
	config := filepath.Join(t.TempDir(), "config.yaml")
	writeTestFile(t, config, "corpora:\n"+
		"  - {name: tree, cwd: "+strconv.Quote(root)+"}\n"+
		"  - {name: committed, cwd: "+strconv.Quote(root)+", rev: master}\n"+
		"  - {name: tagged, cwd: "+strconv.Quote(root)+", rev: v9}\n"+
		"auth: none\n")
	s := startHTTP(t, "--http", "127.0.0.1:0", "--config", config)
	for corpus, outcome := range map[string]string{"tree": "not-found", "committed": "found", "tagged": "corpus-unavailable"} {
		got := s.call("/mcp/"+corpus, strings.TrimSpace(getRecord), nil)
		if !strings.Contains(string(got.body), `"outcome":"`+outcome+`"`) {
			t.Errorf("%s: %d %s, want %s", corpus, got.status, got.body, outcome)
		}
	}
	if rec := s.awaitMsg("corpus not ready", 1); rec["path"] != "/mcp/tagged" || !strings.Contains(fmt.Sprint(rec["error"]), "v9") {
		t.Errorf("start-up warning %v", rec)
	}
	if status, body := s.get("/readyz"); status != 503 || body != "not ready: 1 of 3 corpora cannot be read\n" {
		t.Errorf("/readyz: %d %q", status, body)
	}
}
