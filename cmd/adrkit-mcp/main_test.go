package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/ports"
)

// newRepo makes a minimal repository root: a .git entry and an ADR
// directory holding one record.
func newRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	gittest.MakeRoot(t, root, map[string]string{"docs/adr/0001-adopt-postgres.md": "---\nid: \"0001\"\ntitle: Adopt PostgreSQL\nstatus: accepted\ndate: 2025-01-10\ndeciders: [\"@alice\"]\n" +
		"affects:\n  - type: path\n    pattern: \"src/**\"\n---\n\nWe use Postgres.\n"})
	return root
}

type outcome struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, stdin string, args ...string) outcome {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append([]string{"adrkit-mcp"}, args...), strings.NewReader(stdin), &stdout, &stderr)
	return outcome{code, stdout.String(), stderr.String()}
}

func clearEnv(t *testing.T) {
	t.Helper()
	for _, k := range []string{"ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "ADRKIT_MCP_REV", "ADRKIT_MCP_CONTENT",
		"ADRKIT_MCP_HTTP", "ADRKIT_MCP_CONFIG", "ADRKIT_MCP_TOKEN_FILE"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

func TestCommandLineMistakes(t *testing.T) {
	clearEnv(t)
	repo := newRepo(t)
	for _, args := range [][]string{
		{"--nope"},
		{"--nope=1"},
		{"--cwd", repo, "--dir", "docs/adr", "--verbose"},
		{"--cwd"},
		{"--dir"},
		{"--cwd", repo, "extra"},
		{"--cwd", repo, "--", "--dir"},
		{"--", "x"},
	} {
		got := runCLI(t, "", args...)
		if got.code != 2 {
			t.Errorf("%q: exit %d, want 2", args, got.code)
		}
		if got.stdout != "" {
			t.Errorf("%q: stdout %q, want nothing", args, got.stdout)
		}
		lines := strings.Split(strings.TrimSuffix(got.stderr, "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "adrkit-mcp: ") || !strings.HasPrefix(lines[1], "usage: adrkit-mcp") {
			t.Errorf("%q: stderr %q, want one diagnostic and the usage line", args, got.stderr)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	clearEnv(t)
	for _, args := range [][]string{{"--help"}, {"-h"}, {"--version"}} {
		got := runCLI(t, "", args...)
		if got.code != 0 || got.stdout == "" || got.stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, got.code, got.stdout, got.stderr)
		}
	}
}

func TestStartUpValidation(t *testing.T) {
	clearEnv(t)
	repo := newRepo(t)
	file := filepath.Join(repo, "docs", "adr", "0001-adopt-postgres.md")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cwd", "/nonexistent/adrkit/root"}, "Configured repository root was not found."},
		{[]string{"--cwd", ""}, "Configured repository root was not found."},
		{[]string{"--cwd="}, "Configured repository root was not found."},
		{[]string{"--cwd", file}, "Configured repository root is not a directory."},
		{[]string{"--cwd", t.TempDir()}, "Configured repository root is not a Git worktree."},
		{[]string{"--cwd", repo, "--dir", "nope"}, "Configured ADR directory was not found."},
		{[]string{"--cwd", repo, "--dir", "docs/adr/0001-adopt-postgres.md"}, "Configured ADR directory is not a directory."},
		{[]string{"--cwd", repo, "--dir", ".."}, "Configured ADR directory resolves outside the repository root."},
	} {
		got := runCLI(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", tc.args...)
		// One line: the reason sentence, then what to check (entry.TestDescribe).
		if got.code != 1 || got.stdout != "" || !strings.HasPrefix(got.stderr, "adrkit-mcp: "+tc.want+" ") ||
			strings.Count(got.stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, got.code, got.stdout, got.stderr)
		}
	}
}

func TestStartsAndEndsAtEndOfInput(t *testing.T) {
	clearEnv(t)
	repo := newRepo(t)
	for _, args := range [][]string{
		{"--cwd", repo},
		{"--cwd", repo, "--dir", "docs/adr"},
		{"--cwd=" + repo, "--dir=docs/adr"},
		{"--cwd", repo, "--dir", "no-such-dir", "--dir", "docs/adr"},
		{"--cwd", repo, "--dir", ""},
		{"--cwd", repo, "--dir", filepath.Join(repo, "docs", "adr")},
		{"--cwd", repo, "--"},
	} {
		got := runCLI(t, "", args...)
		if got.code != 0 || got.stdout != "" || got.stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, got.code, got.stdout, got.stderr)
		}
	}
}

func TestServesRequestsFromStdin(t *testing.T) {
	clearEnv(t)
	repo := newRepo(t)
	got := runCLI(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", "--cwd", repo)
	if got.code != 0 || got.stdout != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" || got.stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", got.code, got.stdout, got.stderr)
	}
	// A transport diagnostic makes the exit status 1; serving goes on.
	got = runCLI(t, "[]\n"+`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", "--cwd", repo)
	if got.code != 1 || got.stdout != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" ||
		!strings.HasPrefix(got.stderr, "adrkit-mcp: transport error: ") || strings.Count(got.stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", got.code, got.stdout, got.stderr)
	}
}

func TestEnvironmentAndPrecedence(t *testing.T) {
	clearEnv(t)
	repo := newRepo(t)

	t.Setenv("ADRKIT_MCP_CWD", repo)
	t.Setenv("ADRKIT_MCP_DIR", "docs/adr")
	if got := runCLI(t, ""); got.code != 0 || got.stderr != "" {
		t.Errorf("environment only: exit %d, stderr %q", got.code, got.stderr)
	}

	t.Setenv("ADRKIT_MCP_DIR", "no-such-dir")
	if got := runCLI(t, ""); got.code != 1 || !strings.Contains(got.stderr, "ADR directory was not found") {
		t.Errorf("environment dir: exit %d, stderr %q", got.code, got.stderr)
	}
	if got := runCLI(t, "", "--dir", "docs/adr"); got.code != 0 {
		t.Errorf("flag over environment: exit %d, stderr %q", got.code, got.stderr)
	}

	t.Setenv("ADRKIT_MCP_DIR", "")
	if got := runCLI(t, ""); got.code != 0 {
		t.Errorf("empty environment dir (the root itself): exit %d, stderr %q", got.code, got.stderr)
	}
	t.Setenv("ADRKIT_MCP_CWD", "")
	if got := runCLI(t, ""); got.code != 1 || !strings.Contains(got.stderr, "root was not found") {
		t.Errorf("empty environment root: exit %d, stderr %q", got.code, got.stderr)
	}
	if got := runCLI(t, "", "--cwd", repo); got.code != 0 {
		t.Errorf("flag over empty environment: exit %d, stderr %q", got.code, got.stderr)
	}
}

// TestFindsTheCorpusAsEveryCommand: with no option, adrkit-mcp finds the
// repository root upward from the working directory and the ADR
// directory an .adr-dir file names, as every adrkit command does; a
// repository without one is told what starts it.
func TestFindsTheCorpusAsEveryCommand(t *testing.T) {
	clearEnv(t)
	repo := newRepo(t)
	if err := os.Rename(filepath.Join(repo, "docs", "adr"), filepath.Join(repo, "decisions")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".adr-dir"), []byte("decisions\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "src", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n"
	got := runCLI(t, call)
	if got.code != 0 || got.stderr != "" || !strings.Contains(got.stdout, `"sourcePath":"decisions/0001-adopt-postgres.md"`) {
		t.Errorf("from a subdirectory: exit %d, stdout %.300q, stderr %q", got.code, got.stdout, got.stderr)
	}

	if err := os.Remove(filepath.Join(repo, ".adr-dir")); err != nil {
		t.Fatal(err)
	}
	got = runCLI(t, call)
	if got.code != 1 || got.stdout != "" || got.stderr != "adrkit-mcp: "+entry.NoDecisionsYet+"\n" {
		t.Errorf("without an ADR directory: exit %d, stdout %q, stderr %q", got.code, got.stdout, got.stderr)
	}
}

// TestHTTPAddressWithoutPort: a bare port is a usage mistake (2), and the
// answer names the loopback address that serves it.
func TestHTTPAddressWithoutPort(t *testing.T) {
	clearEnv(t)
	for _, tc := range []struct{ addr, want string }{
		{"8080", "give 127.0.0.1:8080"},
		{"localhost", `not "localhost"`},
	} {
		got := runCLI(t, "", "--http", tc.addr, "--cwd", newRepo(t))
		if got.code != 2 || got.stdout != "" || !strings.Contains(got.stderr, tc.want) || !strings.Contains(got.stderr, "usage: adrkit-mcp") {
			t.Errorf("--http %s: exit %d, stderr %q", tc.addr, got.code, got.stderr)
		}
	}
}

// TestWithCause: a corpus that cannot be read is logged with its cause,
// still the same error underneath; anything else passes as it is.
func TestWithCause(t *testing.T) {
	var fail error
	ready := withCause(func(context.Context) error { return fail })
	if err := ready(context.Background()); err != nil {
		t.Errorf("ready = %v", err)
	}
	fail = &ports.UnavailableError{Reason: corpus.DirNotFound}
	if err := ready(context.Background()); !errors.Is(err, fail) || err.Error() != fail.Error() {
		t.Errorf("without a cause: %v", err)
	}
	fail = &ports.UnavailableError{Reason: corpus.DirNotFound, Err: errors.New(`"docs/adr": no such directory`)}
	if err := ready(context.Background()); !errors.Is(err, fail) || !strings.HasSuffix(err.Error(), ` ("docs/adr": no such directory)`) {
		t.Errorf("with a cause: %v", err)
	}
}
