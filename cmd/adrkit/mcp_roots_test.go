package main

import (
	"strings"
	"testing"
)

// TestMCPOutsideTheRepository: adrkit mcp started outside any repository
// serves the one CLAUDE_PROJECT_DIR names, and without it answers every
// tool corpus-unavailable, saying why, instead of refusing to start
// (ADR 0044).
func TestMCPOutsideTheRepository(t *testing.T) {
	r, root := repoRunner(t, "clean")
	r.stdin = handshake +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n"
	r.env["CLAUDE_PROJECT_DIR"] = root
	if got := r.run("mcp"); got.code != 0 || !strings.Contains(got.stdout, `Found decision \"0001\"`) {
		t.Errorf("with CLAUDE_PROJECT_DIR:\n%s", got)
	}
	delete(r.env, "CLAUDE_PROJECT_DIR")
	got := r.run("mcp")
	if got.code != 0 || !strings.Contains(got.stdout, `"outcome":"corpus-unavailable","reason":"root-not-git"`) ||
		!strings.Contains(got.stdout, "the client has named no workspace root (MCP roots)") {
		t.Errorf("without:\n%s", got)
	}
}
