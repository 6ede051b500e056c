package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/internal/gittest"
)

// newGateRepo is a Git repository holding the gate corpus, committed on
// main, driven through its working tree.
func newGateRepo(t *testing.T) *gittest.Worktree {
	t.Helper()
	g := gittest.NewWorktree(t, filepath.Join(t.TempDir(), "repo"))
	g.CopyDir(filepath.Join("testdata", "corpora", "gate"))
	g.Commit("the gate corpus")
	return g
}

// TestCheckChangedSince runs check --changed-since main on branches that
// change the gate corpus in the ways the gate judges: a clean change, a
// change that deletes a record another one relies on, a change that
// touches an already broken record, and uncommitted work.
func TestCheckChangedSince(t *testing.T) {
	cases := []struct {
		name   string
		change func(g *gittest.Worktree)
		args   []string
		code   int
	}{
		{"check-since-clean", func(g *gittest.Worktree) {
			g.Write("services/api/server.go", "// @adr 0005\npackage api\n\nfunc Serve() {}\n")
			g.Commit("serve")
		}, []string{"--format", "json"}, 0},
		{"check-since-breaks-relation", func(g *gittest.Worktree) {
			g.Remove("docs/adr/0003-queue-in-nats.md")
			g.Write("lib/util.go", "package lib\n\nfunc Util() {}\n")
			g.Commit("drop NATS")
		}, nil, 1},
		{"check-since-touches-broken", func(g *gittest.Worktree) {
			g.Write("docs/adr/0007-tracing.md", strings.Replace(gateFile(t, "docs/adr/0007-tracing.md"), "Trace every request", "Trace every request end to end", 1))
			g.Commit("retitle")
		}, []string{"--format", "github"}, 1},
		{"check-since-worktree", func(g *gittest.Worktree) {
			// Nothing committed: staged, unstaged and untracked work.
			g.Write("lib/new.go", "// @adr 0005\npackage lib\n")
			g.Stage("lib/new.go")
			g.Write("services/queue/worker.go", "// @adr 0003\npackage queue\n")
			g.Write("docs/adr/0008-new-idea.md", "---\nid: \"0008\"\ntitle: A new idea\nstatus: proposed\ndate: 2026-06-01\nsupersedes: [\"0003\"]\n---\n")
			g.Write(".gitignore", "*.log\n")
			g.Write("debug.log", "ignored\n")
		}, nil, 0},
	}
	gold := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := newGateRepo(t)
			g.Checkout("feature", true)
			tc.change(g)
			r := newRunner(t)
			r.hide = append(r.hide, filepath.Dir(g.Root()))
			got := r.run(append([]string{"--cwd", g.Root(), "check", "--changed-since", "main"}, tc.args...)...)
			if got.code != tc.code {
				t.Errorf("exit %d, want %d\n%s", got.code, tc.code, got)
			}
			gold.Assert(t, tc.name, []byte(got.String()))
		})
	}
}

func gateFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "corpora", "gate", filepath.FromSlash(p)))
	must(t, err)
	return string(data)
}

// TestCheckReports: --sarif-file writes the same log as --format sarif,
// which validates against the official schema; --summary appends a
// Markdown table of the changed files.
func TestCheckReports(t *testing.T) {
	g := newGateRepo(t)
	g.Checkout("feature", true)
	g.Write("services/api/server.go", "// @adr 0005, 0099\npackage api\n")
	g.Write("services/queue/worker.go", "// @adr 0002\npackage queue\n")
	g.Write("docs/adr/0006-broken.md", "---\nid: \"0006\"\ntitle: A record broken long ago\nstatus: approved\ndate: 2026-01-13\n---\n\n# Edited\n")
	// The summary escapes a name's Markdown. Windows allows no "|" in a
	// file name: there the name has none, and its golden says so.
	strange, summaryGolden := "strange `name` | with [a](link).go", "check-summary-markdown"
	if runtime.GOOS == "windows" {
		strange, summaryGolden = "strange `name` with [a](link).go", "check-summary-markdown-windows"
	}
	g.Write(strange, "package x\n")
	g.Commit("changes")

	r := newRunner(t)
	dir := t.TempDir()
	sarifFile, summary := filepath.Join(dir, "adrkit.sarif"), filepath.Join(dir, "summary.md")
	must(t, os.WriteFile(summary, []byte("# Earlier step\n\n"), 0o644))
	got := r.run("--cwd", g.Root(), "check", "--changed-since", "main", "--format", "github", "--sarif-file", sarifFile, "--summary", summary)
	if got.code != 1 {
		t.Fatalf("exit %d\n%s", got.code, got)
	}
	sarif := r.run("--cwd", g.Root(), "check", "--changed-since", "main", "--format", "sarif")
	written, err := os.ReadFile(sarifFile)
	must(t, err)
	if string(written) != strings.ReplaceAll(sarif.stdout, "VERSION", factory.Version()) {
		t.Error("--sarif-file and --format sarif differ")
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(sarif.stdout))
	must(t, err)
	if err := compileSARIFSchema(t).Validate(doc); err != nil {
		t.Errorf("check's SARIF does not validate:\n%v", err)
	}
	checkSARIFShape(t, []byte(sarif.stdout), "")
	for _, want := range []string{`"ruleId": "dangling-marker"`, `"ruleId": "stale-marker"`, `"ruleId": "governing-decision-on-hold"`, `"level": "error"`} {
		if !strings.Contains(sarif.stdout, want) {
			t.Errorf("the SARIF log has no %s", want)
		}
	}

	md, err := os.ReadFile(summary)
	must(t, err)
	gold := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	gold.Assert(t, summaryGolden, md)
	if !strings.HasPrefix(string(md), "# Earlier step\n\n### adrkit check") {
		t.Error("--summary does not append")
	}
}

// TestCheckUsage: mistakes are status 2, before anything is read.
func TestCheckUsage(t *testing.T) {
	g := newGateRepo(t)
	r := newRunner(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"unknown revision", []string{"check", "--changed-since", "no-such-branch"}},
		{"empty revision", []string{"check", "--changed-since", ""}},
		{"bad format", []string{"check", "--format", "xml"}},
		{"bad fail-on", []string{"check", "--fail-on", "sometimes"}},
		{"bad as-of", []string{"check", "--as-of", "2026-02-30"}},
		{"path out of the tree", []string{"check", "../x.go"}},
		{"with --rev", []string{"--rev", "HEAD", "check", "lib/util.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := r.run(append([]string{"--cwd", g.Root()}, tc.args...)...)
			if got.code != 2 || got.stdout != "" || !strings.HasPrefix(got.stderr, "adrkit: ") {
				t.Errorf("%s", got)
			}
		})
	}
	// A corpus that cannot be read is not a usage mistake.
	if got := r.run("--cwd", filepath.Join(t.TempDir()), "check"); got.code != 1 {
		t.Errorf("no repository: %s", got)
	}
}

// The gate's rule without a base (files named): an error on an untouched
// record fails only when it is about a relation to a changed record.
func TestCheckWithoutBase(t *testing.T) {
	r, root := repoRunner(t, "gate")
	must(t, os.Remove(filepath.Join(root, "docs", "adr", "0003-queue-in-nats.md")))
	got := r.run("--cwd", root, "check", "docs/adr/0003-queue-in-nats.md", "--format", "json")
	if got.code != 1 || !strings.Contains(got.stdout, `"cause": "broken-by-change"`) {
		t.Errorf("deleting a record another supersedes does not fail:\n%s", got)
	}
	got = r.run("--cwd", root, "check", "lib/util.go", "--format", "json")
	if got.code != 0 || strings.Contains(got.stdout, `"cause": "broken-by-change"`) {
		t.Errorf("an unrelated change fails:\n%s", got)
	}
}
