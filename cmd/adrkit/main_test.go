package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExitStatuses is the exit-status contract: 0 success, 1 an unusable
// corpus or a failing check, 2 a command-line mistake (with a pointer to
// the help).
func TestExitStatuses(t *testing.T) {
	outside := t.TempDir()
	cases := []struct {
		name, corpus string
		args         []string
		code         int
	}{
		{"overview despite findings", "findings", nil, 0},
		{"overview of an empty corpus", "empty", nil, 0},
		{"lint clean", "clean", []string{"lint"}, 0},
		{"lint clean strict", "clean", []string{"lint", "--strict"}, 0},
		{"lint errors", "findings", []string{"lint"}, 1},
		{"lint errors json", "findings", []string{"lint", "--format", "json"}, 1},
		{"lint warnings only", "warnings", []string{"lint"}, 0},
		{"lint warnings only strict", "warnings", []string{"lint", "--strict"}, 1},
		{"lint warnings only github strict", "warnings", []string{"lint", "--format", "github", "--strict"}, 1},
		{"lint bad format", "clean", []string{"lint", "--format", "xml"}, 2},
		{"lint bad as-of", "clean", []string{"lint", "--as-of", "2026-13-01"}, 2},
		{"lint as-of not a date", "clean", []string{"lint", "--as-of", "yesterday"}, 2},
		{"lint the directory itself", "clean", []string{"lint", "docs/adr"}, 2},
		{"lint one clean record", "clean", []string{"lint", "docs/adr/0001-use-postgres.md"}, 0},
		{"lint one record of a broken corpus", "findings", []string{"lint", "docs/adr/0001-overdue.md"}, 0},
		{"lint a skipped file", "findings", []string{"lint", "docs/adr/001-short.md", "--strict"}, 1},
		{"lint one broken record", "findings", []string{"lint", "docs/adr/0004-schema-errors.md", "--format", "github"}, 1},
		{"lint a file outside the ADR directory", "clean", []string{"lint", "README.md"}, 2},
		{"lint a record that does not exist", "clean", []string{"lint", "docs/adr/0099-nothing.md"}, 2},
		{"lint a file lint does not read", "clean", []string{"lint", "docs/adr/README.md"}, 2},
		{"lint a path out of the repository", "clean", []string{"lint", "../x.md"}, 2},
		{"bad color", "clean", []string{"--color", "sometimes"}, 2},
		{"unknown command", "clean", []string{"frobnicate"}, 2},
		{"unknown option", "clean", []string{"--verbose"}, 2},
		{"unknown subcommand option", "clean", []string{"lint", "--fix"}, 2},
		{"option without value", "clean", []string{"lint", "--format"}, 2},
		{"search without query lists", "clean", []string{"search"}, 0},
		{"search listing filtered", "clean", []string{"search", "--status", "proposed", "--json"}, 0},
		{"search listing bad status", "clean", []string{"search", "--status", "approved"}, 2},
		{"search blank query", "clean", []string{"search", "   "}, 2},
		{"search bad status", "clean", []string{"search", "x", "--status", "approved"}, 2},
		{"search repeated status", "clean", []string{"search", "x", "--status", "draft", "--status", "draft"}, 2},
		{"search no match", "clean", []string{"search", "kubernetes"}, 0},
		{"show without ref", "clean", []string{"show"}, 2},
		{"show two refs", "clean", []string{"show", "0001", "0002"}, 2},
		{"show bad ref", "clean", []string{"show", "first"}, 2},
		{"show found", "clean", []string{"show", "0001"}, 0},
		{"show found json", "clean", []string{"show", "0001", "--json"}, 0},
		{"show not found", "clean", []string{"show", "0404"}, 1},
		{"show not found json", "clean", []string{"show", "0404", "--json"}, 1},
		{"show ambiguous", "chains", []string{"show", "0009"}, 1},
		{"show federated", "chains", []string{"show", "payments:0042"}, 1},
		{"explain without files", "clean", []string{"explain"}, 2},
		// A path out of the repository is refused: it could only ever
		// answer "nothing governs it" (ADR 0033).
		{"explain path outside", "clean", []string{"explain", "../secrets.txt"}, 2},
		{"explain absolute outside", "clean", []string{"explain", filepath.Join(outside, "x.go")}, 2},
		{"explain empty path", "clean", []string{"explain", ""}, 2},
		{"explain no match", "clean", []string{"explain", "README.md"}, 0},
		{"explain corpus errors", "chains", []string{"explain", "jobs/x.go"}, 1},
		{"explain corpus errors json", "chains", []string{"explain", "jobs/x.go", "--json"}, 1},
		{"superseded extra argument", "clean", []string{"superseded", "0001"}, 2},
		{"graph bad format", "clean", []string{"graph", "--format", "svg"}, 2},
		{"graph json", "chains", []string{"graph", "--format", "json"}, 0},
		{"limit without json", "clean", []string{"superseded", "--limit", "5"}, 2},
		{"cursor without json", "clean", []string{"search", "x", "--cursor", "abc"}, 2},
		{"limit zero", "clean", []string{"superseded", "--json", "--limit", "0"}, 2},
		{"limit too large", "clean", []string{"superseded", "--json", "--limit", "500"}, 2},
		{"limit not a number", "clean", []string{"superseded", "--json", "--limit", "ten"}, 2},
		{"refused cursor", "clean", []string{"superseded", "--json", "--cursor", "not-a-cursor"}, 2},
		{"paging mistake before the corpus is read", "clean", []string{"--dir", "decisions", "superseded", "--limit", "5"}, 2},
		{"chain on hold", "chains", []string{"chain", "0004"}, 1},
		{"chain current", "chains", []string{"chain", "0001"}, 0},
		{"chain ambiguous", "chains", []string{"chain", "0009"}, 1},
		{"chain findings limit zero", "chains", []string{"chain", "0001", "--json", "--findings-limit", "0"}, 2},
		{"chain findings limit too large", "chains", []string{"chain", "0001", "--json", "--findings-limit", "101"}, 2},
		{"changes limit zero", "clean", []string{"changes", "--json", "--limit", "0"}, 2},
		{"mcp bad tools", "clean", []string{"mcp", "--tools", "all"}, 2},
		// A directory the user named that is not there is a set-up mistake.
		{"dir missing", "clean", []string{"--dir", "decisions", "lint"}, 2},
		{"dir is a file", "clean", []string{"--dir", "docs/adr/README.md"}, 2},
		{"dir outside", "clean", []string{"--dir", "..", "search", "x"}, 1},
		{"revision unknown", "clean", []string{"--rev", "v9.9.9"}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			corpus := tc.corpus
			if corpus == "warnings" {
				corpus = "clean"
			}
			r, root := repoRunner(t, corpus)
			if tc.corpus == "warnings" {
				// A stray, misnamed record: a warning and nothing else.
				writeFile(t, filepath.Join(root, "docs", "adr", "003-misnamed.md"), "# not read\n")
			}
			got := r.run(append([]string{"--cwd", root}, tc.args...)...)
			if got.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", got.code, tc.code, got)
			}
			switch tc.code {
			case 2:
				lines := strings.Split(strings.TrimSuffix(got.stderr, "\n"), "\n")
				if len(lines) != 2 || !strings.HasPrefix(lines[0], "adrkit: ") || !strings.HasPrefix(lines[1], "Run 'adrkit") {
					t.Errorf("usage error stderr %q, want a diagnostic and a pointer to --help", got.stderr)
				}
			case 1:
				if got.stderr != "" && (strings.Count(got.stderr, "\n") != 1 || !strings.HasPrefix(got.stderr, "adrkit: ")) {
					t.Errorf("stderr %q, want one adrkit: line", got.stderr)
				}
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRootDiagnostics: an unusable root is one line on stderr, status 1,
// nothing on stdout, for every command.
func TestRootDiagnostics(t *testing.T) {
	notGit := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--cwd", filepath.Join(notGit, "missing")}, "Configured repository root was not found. Check --cwd"},
		{[]string{"--cwd", ""}, "Configured repository root was not found."},
		{[]string{"--cwd="}, "Configured repository root was not found."},
		{[]string{"--cwd", notGit}, "Configured repository root is not a Git worktree. It has no .git entry"},
		{[]string{"--cwd", notGit, "--rev", "HEAD"}, "Configured repository root is not a Git worktree. No Git repository could be opened there"},
	}
	for _, tc := range cases {
		for _, cmd := range [][]string{nil, {"lint"}, {"search", "x"}, {"show", "0001"}, {"explain", "a.go"}, {"superseded"}, {"chain", "0001"}, {"changes"}, {"graph"}, {"mcp"}} {
			r := newRunner(t)
			r.hide = []string{notGit}
			got := r.run(append(slices.Clone(tc.args), cmd...)...)
			if got.code != 1 || got.stdout != "" || !strings.HasPrefix(got.stderr, "adrkit: "+tc.want) || strings.Count(got.stderr, "\n") != 1 {
				t.Errorf("%q %q: %s", tc.args, cmd, got)
			}
		}
	}
}

// TestGlobalOptionSources: flag over ADRKIT_* variable over default,
// an empty variable counting as given.
func TestGlobalOptionSources(t *testing.T) {
	r, root := repoRunner(t, "clean")
	// Move the corpus so that only an explicit --dir finds it.
	if err := os.Rename(filepath.Join(root, "docs", "adr"), filepath.Join(root, "decisions")); err != nil {
		t.Fatal(err)
	}
	ok := func(o outcome) bool {
		return o.code == 0 && strings.Contains(o.stdout, "2 records read from decisions")
	}

	r.env = map[string]string{"ADRKIT_CWD": root, "ADRKIT_DIR": "decisions"}
	if got := r.run("lint"); !ok(got) {
		t.Errorf("from the environment: %s", got)
	}
	r.env = map[string]string{"ADRKIT_CWD": root, "ADRKIT_DIR": "elsewhere"}
	if got := r.run("--dir", "decisions", "lint"); !ok(got) {
		t.Errorf("flag over variable: %s", got)
	}
	if got := r.run("lint"); got.code != 2 || !strings.Contains(got.stderr, `"elsewhere"`) {
		t.Errorf("variable over default: %s", got)
	}
	r.env = map[string]string{"ADRKIT_CWD": ""}
	if got := r.run("lint"); got.code != 1 || !strings.Contains(got.stderr, "root was not found") {
		t.Errorf("empty ADRKIT_CWD counts as given: %s", got)
	}
	// An empty directory means the root itself, which has no records.
	r.env = map[string]string{"ADRKIT_CWD": root, "ADRKIT_DIR": ""}
	if got := r.run("lint"); got.code != 0 || !strings.Contains(got.stdout, "0 records read from the repository root") {
		t.Errorf("empty ADRKIT_DIR is the root: %s", got)
	}
	r.env = map[string]string{"ADRKIT_CWD": root, "ADRKIT_DIR": "decisions", "ADRKIT_REV": "main"}
	if got := r.run("lint"); got.code != 1 || !strings.Contains(got.stderr, "No Git repository could be opened there") {
		t.Errorf("ADRKIT_REV selects the git reader: %s", got)
	}
	// An absolute --dir inside the root is shown relative to it.
	r.env = map[string]string{}
	if got := r.run("--cwd", root, "--dir", filepath.Join(root, "decisions"), "lint"); !ok(got) {
		t.Errorf("absolute --dir: %s", got)
	}
	// The server's variables are the server's: lint reads none of them,
	// adrkit mcp reads them as adrkit-mcp does.
	r.env = map[string]string{"ADRKIT_CWD": root, "ADRKIT_MCP_DIR": "decisions"}
	if got := r.run("lint"); ok(got) {
		t.Errorf("lint read ADRKIT_MCP_DIR: %s", got)
	}
	r.stdin = handshake + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_superseded","arguments":{}}}` + "\n"
	if got := r.run("mcp"); got.code != 0 || !strings.Contains(got.stdout, `"corpusHealth"`) {
		t.Errorf("adrkit mcp did not read ADRKIT_MCP_DIR: %s", got)
	}
}

// TestColor: colour only on a terminal without NO_COLOR, unless --color
// says otherwise; machine formats never.
func TestColor(t *testing.T) {
	r, root := repoRunner(t, "findings")
	cases := []struct {
		terminal bool
		noColor  string // "" unset
		flag     string
		want     bool
	}{
		{false, "", "", false},
		{true, "", "", true},
		{true, "1", "", false},
		{true, "", "auto", true},
		{true, "", "never", false},
		{false, "", "always", true},
		{true, "1", "always", true},
	}
	for _, tc := range cases {
		r.terminal = tc.terminal
		r.env = map[string]string{}
		if tc.noColor != "" {
			r.env["NO_COLOR"] = tc.noColor
		}
		args := []string{"--cwd", root}
		if tc.flag != "" {
			args = append(args, "--color", tc.flag)
		}
		for _, cmd := range [][]string{nil, {"lint"}, {"search", "deploy"}, {"show", "0001"}, {"explain", "deploy/x"}, {"superseded"}} {
			got := r.run(append(slices.Clone(args), cmd...)...)
			if has := strings.Contains(got.stdout, "\x1b["); has != tc.want {
				t.Errorf("terminal=%v NO_COLOR=%q --color=%q %q: colour %v, want %v", tc.terminal, tc.noColor, tc.flag, cmd, has, tc.want)
			}
		}
	}
	// TERM=dumb turns auto off.
	r.terminal, r.env = true, map[string]string{"TERM": "dumb"}
	if got := r.run("--cwd", root); strings.Contains(got.stdout, "\x1b[") {
		t.Error("coloured on a dumb terminal")
	}
	// Machine-readable output is never coloured.
	r.env = map[string]string{}
	for _, cmd := range [][]string{
		{"lint", "--format", "json"}, {"lint", "--format", "sarif"}, {"lint", "--format", "github"},
		{"search", "deploy", "--json"}, {"graph"}, {"graph", "--format", "dot"},
	} {
		got := r.run(append([]string{"--cwd", root, "--color", "always"}, cmd...)...)
		if strings.Contains(got.stdout, "\x1b[") {
			t.Errorf("%q is coloured", cmd)
		}
	}
}

// handshake opens an MCP session in the 2025 era: initialize, then the
// initialized notification.
const handshake = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
