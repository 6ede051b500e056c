package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/root"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/internal/gittest"
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

// TestJSONPagesMatchHumanWalk pages search, explain and superseded in JSON
// with the smallest page and checks that the pages, joined, are what the
// human mode shows after walking every page itself.
func TestJSONPagesMatchHumanWalk(t *testing.T) {
	r, root := repoRunner(t, "chains")
	// explain answers only for a corpus without errors: its own.
	er, eroot := repoRunner(t, "explain")
	type page struct {
		Result struct {
			Outcome string `json:"outcome"`
			Items   []struct {
				ID         string `json:"id"`
				SourcePath string `json:"sourcePath"`
			} `json:"items"`
			Governing, ActiveProposals, History []struct {
				ID string `json:"id"`
			}
			Cursor   *string `json:"cursor"`
			Findings struct {
				Items  []json.RawMessage `json:"items"`
				Cursor *string           `json:"cursor"`
			} `json:"findings"`
		} `json:"result"`
	}
	walk := func(r *runner, root string, args ...string) (ids []string, findings int) {
		var cursor, fcursor *string
		itemsDone, findingsDone := false, false
		for calls := 0; calls < 50; calls++ {
			a := append(slices.Clone(args), "--json", "--limit", "1", "--findings-limit", "1")
			if cursor != nil {
				a = append(a, "--cursor", *cursor)
			}
			if fcursor != nil {
				a = append(a, "--findings-cursor", *fcursor)
			}
			got := r.run(append([]string{"--cwd", root}, a...)...)
			if got.code != 0 {
				t.Fatalf("%q: %s", a, got)
			}
			var p page
			if err := json.Unmarshal([]byte(got.stdout), &p); err != nil {
				t.Fatal(err)
			}
			// A channel that is done restarts when called without its
			// cursor; those repeats are not counted.
			if !itemsDone {
				for _, it := range p.Result.Items {
					ids = append(ids, it.ID)
				}
				for _, g := range [][]struct {
					ID string `json:"id"`
				}{p.Result.Governing, p.Result.ActiveProposals, p.Result.History} {
					for _, it := range g {
						ids = append(ids, it.ID)
					}
				}
				cursor = p.Result.Cursor
				itemsDone = cursor == nil
			}
			if !findingsDone {
				findings += len(p.Result.Findings.Items)
				fcursor = p.Result.Findings.Cursor
				findingsDone = fcursor == nil
			}
			if itemsDone && findingsDone {
				return ids, findings
			}
		}
		t.Fatalf("%q: paging does not end", args)
		return nil, 0
	}
	for _, tc := range []struct {
		r        *runner
		root     string
		args     []string
		ids      []string
		findings int
		human    []string
	}{
		{r, root, []string{"search", "scheduled"}, []string{"0001", "0002", "0003", "0004"}, 5, []string{"4 decisions match", "4 errors, 1 warning"}},
		{r, root, []string{"superseded"}, []string{"0001", "0002", "0005", "0010"}, 7, []string{"4 superseded decisions", "4 errors, 2 warnings, 1 info"}},
		{er, eroot, []string{"explain", "jobs/nightly/report.go", "workflows/b/c.go"}, []string{"0003", "0005", "0004", "0007", "0001", "0002"}, 3, []string{"6 decisions cover", "2 warnings, 1 info"}},
	} {
		r, root := tc.r, tc.root
		ids, findings := walk(r, root, tc.args...)
		if !slices.Equal(sortedCopy(ids), sortedCopy(tc.ids)) || findings != tc.findings {
			t.Errorf("%q: JSON pages gave %v and %d findings, want %v and %d", tc.args, ids, findings, tc.ids, tc.findings)
		}
		human := r.run(append([]string{"--cwd", root}, tc.args...)...)
		for _, want := range append(tc.human, tc.ids...) {
			if !strings.Contains(human.stdout, want) {
				t.Errorf("%q: human output lacks %q:\n%s", tc.args, want, human.stdout)
			}
		}
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// TestExplainAbsolutePaths: an absolute path inside the repository is
// its repository path (ADR 0033), so it is governed as the relative one
// is and named relative in the answer.
func TestExplainAbsolutePaths(t *testing.T) {
	r, root := repoRunner(t, "clean")
	rel := r.run("--cwd", root, "explain", "services/orders/x.go")
	r.hide = nil
	abs := r.run("--cwd", root, "explain", filepath.Join(root, "services", "orders", "x.go"))
	if rel.code != 0 || !strings.Contains(rel.stdout, "0001") {
		t.Errorf("relative:\n%s", rel)
	}
	if abs.code != 0 || abs.stdout != rel.stdout {
		t.Errorf("absolute: want the relative answer\n%s\nrelative:\n%s", abs, rel)
	}
}

// TestRevision reads the chains corpus from a commit: the answers are
// the working tree's, and an edit after the commit changes only the
// working-tree answers.
func TestRevision(t *testing.T) {
	r, root := repoRunner(t, "chains")
	gittest.CommitWorkingTree(t, root, "docs", "Add the decisions", time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	if err := os.Remove(filepath.Join(root, "docs", "adr", "0010-old-tracing.md")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd        []string
		head, tree string // what the answer holds at HEAD and in the working tree
	}{
		{[]string{"superseded"}, "0010-old-tracing", "3 superseded decisions"},
		{[]string{"lint", "--format", "json"}, `"recordCount": 11`, `"recordCount": 10`},
		{[]string{"graph"}, "adr_0010[", "10 decisions"},
		{[]string{"search", "trace", "--json"}, "0010-old-tracing", `"recordCount": 10`},
	} {
		head := r.run(append([]string{"--cwd", root, "--rev", "HEAD"}, tc.cmd...)...)
		tree := r.run(append([]string{"--cwd", root}, tc.cmd...)...)
		if head.stderr != "" || !strings.Contains(head.stdout, tc.head) {
			t.Errorf("%q at HEAD should hold %q: %s", tc.cmd, tc.head, head)
		}
		if !strings.Contains(tree.stdout, tc.tree) || strings.Contains(tree.stdout, "0010-old-tracing") {
			t.Errorf("%q in the working tree should hold %q and not 0010: %s", tc.cmd, tc.tree, tree)
		}
	}
	got := r.run("--cwd", root, "--rev", "HEAD", "lint", "--format", "json")
	if !strings.Contains(got.stdout, `"rev": "HEAD"`) {
		t.Errorf("lint JSON does not name the revision:\n%s", got.stdout)
	}
	got = r.run("--cwd", root, "--rev", "no-such-branch")
	if got.code != 1 || !strings.Contains(got.stderr, `revision "no-such-branch"`) {
		t.Errorf("unknown revision: %s", got)
	}
}

// handshake opens an MCP session in the 2025 era: initialize, then the
// initialized notification.
const handshake = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// TestMCP serves one session over in-memory stdin/stdout: the same
// answers as adrkit-mcp, status 0 at end of input.
func TestMCP(t *testing.T) {
	r, root := repoRunner(t, "clean")
	r.stdin = handshake +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n"
	// The global options work after the command too.
	got := r.run("mcp", "--cwd", root)
	if got.code != 0 || got.stderr != "" {
		t.Fatalf("%s", got)
	}
	var answers []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(got.stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout holds a non-JSON line %q", line)
		}
		answers = append(answers, m)
	}
	if len(answers) != 2 || !strings.Contains(got.stdout, `Found decision \"0001\"`) {
		t.Fatalf("answers:\n%s", got.stdout)
	}
	// --json prints exactly the structured content the tool returns.
	result, _ := answers[1]["result"].(map[string]any)
	show := r.run("--cwd", root, "show", "0001", "--json")
	var fromCLI any
	if err := json.Unmarshal([]byte(show.stdout), &fromCLI); err != nil {
		t.Fatal(err)
	}
	wire, _ := json.Marshal(result["structuredContent"])
	cli, _ := json.Marshal(fromCLI)
	if string(wire) != string(cli) {
		t.Errorf("show --json differs from get_decision's structuredContent:\n%s\n%s", cli, wire)
	}
	// A malformed line is reported and makes the final status 1.
	r.stdin = `{"jsonrpc":"2.0","id":1}` + "\n"
	got = r.run("--cwd", root, "mcp")
	if got.code != 1 || !strings.HasPrefix(got.stderr, "adrkit: transport error: ") {
		t.Errorf("malformed message: %s", got)
	}
}

// TestOwnDecisionsLint keeps the project's own ADRs valid: adrkit lint on
// docs/adr exits 0, exactly as CI runs it.
func TestOwnDecisionsLint(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not in a git checkout:", err)
	}
	got := newRunner(t).run("--cwd", root, "lint")
	if got.code != 0 {
		t.Fatalf("adrkit lint on docs/adr:\n%s", got)
	}
	if !strings.Contains(got.stdout, "read from docs/adr") {
		t.Errorf("unexpected report:\n%s", got.stdout)
	}
}

// TestHelpEverywhere: --help and -h work on every command, print an
// example, and exit 0 without touching the corpus.
func TestHelpEverywhere(t *testing.T) {
	for _, cmd := range []string{"", "lint", "search", "show", "explain", "superseded", "chain", "changes", "graph", "mcp"} {
		for _, flag := range []string{"--help", "-h"} {
			args := []string{"--cwd", "/nonexistent", flag}
			if cmd != "" {
				args = []string{"--cwd", "/nonexistent", cmd, flag}
			}
			got := newRunner(t).run(args...)
			if got.code != 0 || got.stderr != "" || !strings.Contains(got.stdout, "Examples:") || !strings.Contains(got.stdout, "adrkit "+cmd) {
				t.Errorf("%q: %s", args, got)
			}
		}
	}
	for _, args := range [][]string{{"help"}, {"help", "lint"}} {
		got := newRunner(t).run(args...)
		if got.code != 0 || !strings.Contains(got.stdout, "Examples:") {
			t.Errorf("%q: %s", args, got)
		}
	}
	got := newRunner(t).run("--version")
	if got.code != 0 || !strings.HasPrefix(got.stdout, "adrkit ") {
		t.Errorf("--version: %s", got)
	}
}

// TestMCPTools: adrkit mcp takes --tools (or ADRKIT_MCP_TOOLS) exactly as
// adrkit-mcp does: default serves the four tools, extended adds the
// chain and the feed, the flag wins over the variable, and any other
// value (an empty one included) is a usage error before anything is
// served.
func TestMCPTools(t *testing.T) {
	four := []string{"get_decision", "get_decision_context", "list_superseded", "search_decisions"}
	six := []string{"get_decision", "get_decision_context", "get_supersession_chain", "list_decision_changes", "list_review_queue", "list_superseded", "search_decisions"}
	cases := []struct {
		name   string
		args   []string
		env    map[string]string
		code   int
		tools  []string
		stderr string
	}{
		{"no option", nil, nil, 0, four, ""},
		{"default", []string{"--tools", "default"}, nil, 0, four, ""},
		{"extended", []string{"--tools", "extended"}, nil, 0, six, ""},
		{"variable", nil, map[string]string{"ADRKIT_MCP_TOOLS": "extended"}, 0, six, ""},
		{"flag over variable", []string{"--tools", "default"}, map[string]string{"ADRKIT_MCP_TOOLS": "extended"}, 0, four, ""},
		{"unknown value", []string{"--tools", "all"}, nil, 2, nil,
			"adrkit: --tools must be \"default\" or \"extended\", got \"all\"\nRun 'adrkit mcp --help' for usage.\n"},
		{"empty value", []string{"--tools="}, nil, 2, nil,
			"adrkit: --tools must be \"default\" or \"extended\", got \"\"\nRun 'adrkit mcp --help' for usage.\n"},
		{"empty variable", nil, map[string]string{"ADRKIT_MCP_TOOLS": ""}, 2, nil,
			"adrkit: --tools must be \"default\" or \"extended\", got \"\"\nRun 'adrkit mcp --help' for usage.\n"},
		{"value missing", []string{"--tools"}, nil, 2, nil,
			"adrkit: option --tools needs a value\nRun 'adrkit mcp --help' for usage.\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, "chains")
			if tc.env != nil {
				r.env = tc.env
			}
			r.stdin = handshake +
				`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_supersession_chain","arguments":{"ref":"0001"}}}` + "\n"
			got := r.run(append([]string{"--cwd", root, "mcp"}, tc.args...)...)
			if got.code != tc.code || got.stderr != tc.stderr {
				t.Fatalf("exit %d, stderr %q; want %d, %q\n%s", got.code, got.stderr, tc.code, tc.stderr, got)
			}
			if tc.code != 0 {
				if got.stdout != "" {
					t.Errorf("a refused --tools served anyway:\n%s", got.stdout)
				}
				return
			}
			var list struct {
				Result struct {
					Tools []struct{ Name string } `json:"tools"`
				} `json:"result"`
			}
			var chain struct {
				Result struct {
					IsError           bool           `json:"isError"`
					StructuredContent map[string]any `json:"structuredContent"`
				} `json:"result"`
				Error *struct{ Code int } `json:"error"`
			}
			for line := range strings.SplitSeq(strings.TrimSpace(got.stdout), "\n") {
				var frame struct{ ID int }
				_ = json.Unmarshal([]byte(line), &frame)
				switch frame.ID {
				case 2:
					_ = json.Unmarshal([]byte(line), &list)
				case 3:
					_ = json.Unmarshal([]byte(line), &chain)
				}
			}
			var names []string
			for _, tool := range list.Result.Tools {
				names = append(names, tool.Name)
			}
			if !slices.Equal(sortedCopy(names), tc.tools) {
				t.Errorf("tools/list %q, want %q", names, tc.tools)
			}
			// The chain tool answers only on the extended surface.
			answered := chain.Error == nil && !chain.Result.IsError && chain.Result.StructuredContent != nil
			if extended := len(tc.tools) == len(six); answered != extended {
				t.Errorf("get_supersession_chain answered = %v on the %d-tool surface:\n%s", answered, len(tc.tools), got.stdout)
			}
		})
	}
}

// TestMCPContent: mcp --content full (ADRKIT_MCP_CONTENT=full) adds the
// structured answer as JSON text after the summary line, as adrkit-mcp
// does; a refusal stays its one line, and another value is a usage error.
func TestMCPContent(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		env    map[string]string
		code   int
		blocks int
		stderr string
	}{
		{"no option", nil, nil, 0, 1, ""},
		{"summary", []string{"--content", "summary"}, nil, 0, 1, ""},
		{"full", []string{"--content", "full"}, nil, 0, 2, ""},
		{"variable", nil, map[string]string{"ADRKIT_MCP_CONTENT": "full"}, 0, 2, ""},
		{"flag over variable", []string{"--content=summary"}, map[string]string{"ADRKIT_MCP_CONTENT": "full"}, 0, 1, ""},
		{"unknown value", []string{"--content", "json"}, nil, 2, 0,
			"adrkit: --content must be \"summary\" or \"full\", got \"json\"\nRun 'adrkit mcp --help' for usage.\n"},
		{"empty variable", nil, map[string]string{"ADRKIT_MCP_CONTENT": ""}, 2, 0,
			"adrkit: --content must be \"summary\" or \"full\", got \"\"\nRun 'adrkit mcp --help' for usage.\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, "clean")
			if tc.env != nil {
				r.env = tc.env
			}
			r.stdin = handshake +
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n" +
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_superseded","arguments":{"limit":0}}}` + "\n"
			got := r.run(append([]string{"--cwd", root, "mcp"}, tc.args...)...)
			if got.code != tc.code || got.stderr != tc.stderr {
				t.Fatalf("exit %d, stderr %q; want %d, %q\n%s", got.code, got.stderr, tc.code, tc.stderr, got)
			}
			if tc.code != 0 {
				if got.stdout != "" {
					t.Errorf("a refused --content served anyway:\n%s", got.stdout)
				}
				return
			}
			type result struct {
				Content []struct {
					Type, Text string
				} `json:"content"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			}
			frames := map[int]result{}
			for line := range strings.SplitSeq(strings.TrimSpace(got.stdout), "\n") {
				var frame struct {
					ID     int
					Result result
				}
				if err := json.Unmarshal([]byte(line), &frame); err != nil {
					t.Fatalf("stdout holds a non-JSON line %q", line)
				}
				frames[frame.ID] = frame.Result
			}
			found := frames[2]
			if len(found.Content) != tc.blocks || !strings.HasPrefix(found.Content[0].Text, `Found decision "0001"`) {
				t.Fatalf("get_decision content %+v, want %d blocks after the summary line", found.Content, tc.blocks)
			}
			if tc.blocks == 2 {
				var fromText, structured any
				if err := json.Unmarshal([]byte(found.Content[1].Text), &fromText); err != nil || found.Content[1].Type != "text" {
					t.Fatalf("second block %+v is not JSON text: %v", found.Content[1], err)
				}
				if err := json.Unmarshal(found.StructuredContent, &structured); err != nil {
					t.Fatal(err)
				}
				a, _ := json.Marshal(fromText)
				b, _ := json.Marshal(structured)
				if string(a) != string(b) {
					t.Errorf("second block differs from structuredContent:\n%s\n%s", a, b)
				}
			}
			if n := len(frames[3].Content); n != 1 {
				t.Errorf("a refused call has %d content blocks, want its one line", n)
			}
		})
	}
}

// TestUnknownCommandNamesEveryCommand: the unknown-command message lists
// the commands that are registered, in help order, so that a new command
// can never be left out of it.
func TestUnknownCommandNamesEveryCommand(t *testing.T) {
	got := newRunner(t).run("frobnicate")
	tree := root.New(factory.New(factory.Env{Stdout: io.Discard, Stderr: io.Discard}))
	var names []string
	for _, c := range tree.VisibleCommands() {
		names = append(names, c.Name)
	}
	if len(names) < 9 {
		t.Fatalf("only %d commands registered: %q", len(names), names)
	}
	want := "adrkit: unknown command \"frobnicate\"; the commands are " +
		strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + "\n"
	if got.code != 2 || !strings.HasPrefix(got.stderr, want) {
		t.Errorf("%s\nwant stderr to start with %q", got, want)
	}
	for _, n := range []string{"chain", "changes"} {
		if !slices.Contains(names, n) {
			t.Errorf("command %s is not registered", n)
		}
	}
}

// A mistyped command gets the command it most likely meant; a word like
// none of them gets no guess.
func TestUnknownCommandSuggests(t *testing.T) {
	r := newRunner(t)
	for word, want := range map[string]string{
		"explian": `unknown command "explian" (did you mean explain?); the commands are`,
		"stauts":  `unknown command "stauts" (did you mean status?); the commands are`,
		"serach":  `unknown command "serach" (did you mean search?); the commands are`,
		"x":       `unknown command "x"; the commands are`,
	} {
		if got := r.run(word); got.code != 2 || !strings.Contains(got.stderr, want) {
			t.Errorf("%s: %s\nwant %q", word, got, want)
		}
	}
}

// TestMCPFindsTheCorpusAsEveryCommand: with no option, adrkit mcp finds
// the repository root upward from the working directory and the ADR
// directory an .adr-dir file names, as lint does (issue 27 item 2).
func TestMCPFindsTheCorpusAsEveryCommand(t *testing.T) {
	r, root := repoRunner(t, "clean")
	if err := os.Rename(filepath.Join(root, "docs", "adr"), filepath.Join(root, "decisions")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".adr-dir"), []byte("decisions\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.wd = filepath.Join(root, "decisions")
	r.stdin = handshake +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n"
	got := r.run("mcp")
	if got.code != 0 || got.stderr != "" || !strings.Contains(got.stdout, `"sourcePath":"decisions/0001-`) {
		t.Errorf("mcp from a subdirectory:\n%s", got)
	}
	if lint := r.run("lint"); lint.code != 0 || !strings.Contains(lint.stdout, "read from decisions") {
		t.Errorf("lint from the same place:\n%s", lint)
	}
}

// TestMCPExitStatusesAgree: adrkit mcp ends with the statuses adrkit-mcp
// has for the same problem (the conformance cli-* records): 2 for a
// command-line mistake, 1 for an unusable corpus, the ADR directory an
// option names included, where the other commands answer 2.
func TestMCPExitStatusesAgree(t *testing.T) {
	r, root := repoRunner(t, "clean")
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"mcp", "--nope"}, 2},
		{[]string{"mcp", "--tools"}, 2},
		{[]string{"mcp", "extra"}, 2},
		{[]string{"--cwd", filepath.Join(root, "missing"), "mcp"}, 1},
		{[]string{"--cwd", "", "mcp"}, 1},
		{[]string{"--cwd", root, "--dir", "missing", "mcp"}, 1},
		{[]string{"--cwd", root, "--dir", "missing", "lint"}, 2},
	} {
		if got := r.run(tc.args...); got.code != tc.want || got.stdout != "" {
			t.Errorf("%q: %s\nwant exit %d", tc.args, got, tc.want)
		}
	}
}

// TestNoDecisionsYet: a repository without an ADR directory is told what
// starts one, by every command that reads the corpus (issue 27 item 3).
func TestNoDecisionsYet(t *testing.T) {
	r, root := repoRunner(t, "clean")
	if err := os.RemoveAll(filepath.Join(root, "docs")); err != nil {
		t.Fatal(err)
	}
	r.wd = root
	for _, cmd := range [][]string{nil, {"lint"}, {"mcp"}} {
		got := r.run(cmd...)
		if got.code != 1 || got.stderr != "adrkit: "+entry.NoDecisionsYet+"\n" {
			t.Errorf("%q: %s", cmd, got)
		}
	}
}

// TestPathsAsAShellGivesThem: in a subdirectory, explain and check take
// FILE from that directory, as a shell means it, and still take a
// repository path (what git diff --name-only prints) when that is the
// file that exists; a path outside the repository is a usage error
// (ADR 0033).
func TestPathsAsAShellGivesThem(t *testing.T) {
	r, root := repoRunner(t, "clean")
	sub := filepath.Join(root, "services", "orders")
	must(t, os.MkdirAll(sub, 0o755))
	must(t, os.WriteFile(filepath.Join(sub, "x.go"), []byte("package orders\n"), 0o644))
	r.wd = root
	want := r.run("explain", "services/orders/x.go")
	if want.code != 0 || !strings.Contains(want.stdout, "0001") {
		t.Fatalf("from the root:\n%s", want)
	}
	r.wd = sub
	for _, args := range [][]string{
		{"explain", "x.go"},
		{"explain", "services/orders/x.go"},
		{"explain", "./x.go"},
		{"explain", filepath.Join(sub, "x.go")},
	} {
		if got := r.run(args...); got.code != 0 || got.stdout != want.stdout {
			t.Errorf("%q in services/orders: want the root's answer\n%s", args, got)
		}
	}
	// A file about to be created is taken from the working directory.
	if got := r.run("explain", "new.go"); got.code != 0 || !strings.Contains(got.stdout, "0001") {
		t.Errorf("a new file in services/orders:\n%s", got)
	}
	for _, args := range [][]string{
		{"explain", "../../../x.go"},
		{"explain", filepath.Join(filepath.VolumeName(root)+string(filepath.Separator), "elsewhere", "x.go")},
		{"check", "../../../x.go"},
	} {
		got := r.run(args...)
		if got.code != factory.ExitUsage || !strings.Contains(got.stderr, "is not a path inside the repository") {
			t.Errorf("%q: want status 2 and the refusal\n%s", args, got)
		}
	}
	if got := r.run("check", "x.go"); got.code != 0 || !strings.Contains(got.stdout, "services/orders/x.go") {
		t.Errorf("check x.go in services/orders:\n%s", got)
	}
}

// TestShortRef: show reads a short number as the four-digit id
// (toolcmd.ShortRef's own cases are beside it).
func TestShortRef(t *testing.T) {
	r, root := repoRunner(t, "clean")
	r.wd = root
	if got, want := r.run("show", "1"), r.run("show", "0001"); got.code != 0 || got.stdout != want.stdout {
		t.Errorf("show 1: want show 0001's answer\n%s", got)
	}
}

// TestShowBrokenRecord: show of an id whose file fails validation names
// the file and what is wrong with it instead of "no such record".
func TestShowBrokenRecord(t *testing.T) {
	r, root := repoRunner(t, "clean")
	r.wd = root
	must(t, os.WriteFile(filepath.Join(root, "docs", "adr", "0009-broken.md"),
		[]byte("---\nid: \"0009\"\ntitle: Broken\nstatus: acceptedd\ndate: 2026-01-01\ndeciders: [\"@dana\"]\n---\n# Broken\n"), 0o644))
	got := r.run("show", "9")
	want := "\"0009\" is in docs/adr/0009-broken.md, which is not read as a record:\n" +
		"  line 4: "
	if got.code != 1 || !strings.HasPrefix(got.stdout, want) || !strings.Contains(got.stdout, "(invalid-enum-value)\n") {
		t.Errorf("want the file and the finding:\n%s", got)
	}
}
