package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestGoldens pins every command's output, in every format, on the
// fixture corpora: clean (two records, a template and a README), findings
// (every kind of finding lint reports, stray Markdown included), chains
// (supersession chains, conflicts, a shared id, references to missing and
// federated records), gate (check's pull-request cases) and explain (a
// valid corpus with every status and @adr markers in its source files). Each golden holds the exit status, stdout and
// stderr. Regenerate with go test ./cmd/adrkit/... -update and review
// every diff.
func TestGoldens(t *testing.T) {
	cases := []struct {
		name, corpus string
		args         []string
	}{
		// The overview: what "adrkit" alone prints.
		{"overview-clean", "clean", nil},
		{"overview-findings", "findings", nil},
		{"overview-chains", "chains", nil},
		{"overview-empty", "empty", nil},

		// lint in every format, on a clean and a broken corpus.
		{"lint-clean-text", "clean", []string{"lint"}},
		{"lint-clean-json", "clean", []string{"lint", "--format", "json"}},
		{"lint-clean-sarif", "clean", []string{"lint", "--format", "sarif"}},
		{"lint-clean-github", "clean", []string{"lint", "--format", "github"}},
		{"lint-findings-text", "findings", []string{"lint"}},
		{"lint-findings-json", "findings", []string{"lint", "--format", "json"}},
		{"lint-findings-sarif", "findings", []string{"lint", "--format", "sarif"}},
		{"lint-findings-github", "findings", []string{"lint", "--format", "github"}},
		{"lint-findings-as-of", "findings", []string{"lint", "--as-of", "2026-01-01", "--format", "github"}},
		{"lint-chains-strict", "chains", []string{"lint", "--strict"}},
		{"lint-paths-text", "findings", []string{"lint", "docs/adr/0004-schema-errors.md", "docs/adr/001-short.md"}},
		{"lint-paths-json", "findings", []string{"lint", "docs/adr/0005-dangling.md", "--format", "json"}},
		{"lint-paths-clean", "chains", []string{"lint", "docs/adr/0003-workflow-engine.md"}},

		// search
		{"search-human", "chains", []string{"search", "scheduled"}},
		{"search-filtered", "chains", []string{"search", "work", "--status", "accepted", "--status", "proposed", "--tag", "scheduling"}},
		{"search-none", "chains", []string{"search", "kubernetes"}},
		{"search-json", "chains", []string{"search", "scheduled", "--json", "--limit", "2", "--findings-limit", "1"}},
		{"search-listing", "chains", []string{"search", "--status", "proposed", "--status", "draft"}},
		{"search-listing-all", "clean", []string{"search"}},
		{"search-listing-none", "clean", []string{"search", "--tag", "kubernetes"}},
		{"search-listing-json", "chains", []string{"search", "--status", "superseded", "--json", "--limit", "1", "--findings-limit", "1"}},

		// show
		{"show-human", "chains", []string{"show", "0003"}},
		{"show-json", "chains", []string{"show", "0003", "--json"}},
		{"show-ambiguous", "chains", []string{"show", "0009"}},
		{"show-ambiguous-json", "chains", []string{"show", "0009", "--json", "--limit", "1"}},
		{"show-not-found", "chains", []string{"show", "0099"}},
		{"show-federated", "chains", []string{"show", "payments:0042"}},

		// explain
		{"explain-human", "explain", []string{"explain", "jobs/legacy/batch.go", "workflows/billing/run.go"}},
		{"explain-json", "explain", []string{"explain", "workflows/billing/run.go", "--json"}},
		{"explain-none", "explain", []string{"explain", "README.md"}},
		{"explain-clean", "clean", []string{"explain", "services/orders/api/handler.go", "migrations/0003_add_index.sql"}},
		{"explain-markers", "explain", []string{"explain", "jobs/nightly/report.go", "workflows/billing/run.go"}},
		{"explain-markers-json", "explain", []string{"explain", "jobs/nightly/report.go", "--json"}},
		// A corpus with an error finding: no decision, status 1.
		{"explain-withheld", "chains", []string{"explain", "jobs/nightly/report.go", "workflows/billing/run.go"}},
		{"explain-withheld-json", "gate", []string{"explain", "services/queue/worker.go", "--json"}},

		// superseded
		{"superseded-human", "chains", []string{"superseded"}},
		{"superseded-json", "chains", []string{"superseded", "--json"}},
		{"superseded-json-page", "chains", []string{"superseded", "--json", "--limit", "1", "--findings-limit", "2"}},
		{"superseded-none", "clean", []string{"superseded"}},

		// graph
		{"graph-mermaid-chains", "chains", []string{"graph"}},
		{"graph-dot-chains", "chains", []string{"graph", "--format", "dot"}},
		{"graph-mermaid-clean", "clean", []string{"graph", "--format", "mermaid"}},
		{"graph-dot-clean", "clean", []string{"graph", "--format", "dot"}},
		{"graph-mermaid-empty", "empty", []string{"graph"}},
		{"graph-json-chains", "chains", []string{"graph", "--format", "json"}},
		{"graph-json-clean", "clean", []string{"graph", "--format", "json"}},

		// check with the files named (no base to compare with).
		{"check-files-text", "gate", []string{"check", "services/api/server.go", "services/queue/worker.go", "lib/util.go", "gone.go"}},
		{"check-files-json", "gate", []string{"check", "services/api/server.go", "services/queue/worker.go", "--format", "json"}},
		{"check-files-sarif", "gate", []string{"check", "services/api/server.go", "services/queue/worker.go", "--format", "sarif"}},
		{"check-files-github", "gate", []string{"check", "services/api/server.go", "services/queue/worker.go", "--format", "github"}},
		{"check-changed-record", "gate", []string{"check", "docs/adr/0006-broken.md", "lib/util.go"}},
		{"check-fail-on-warning", "gate", []string{"check", "services/queue/worker.go", "--fail-on", "warning", "--format", "github"}},
		{"check-nothing", "gate", []string{"check"}},

		// Diagnostics worth pinning word for word.
		{"error-dir-not-found", "clean", []string{"--dir", "decisions"}},
		{"error-bad-ref", "clean", []string{"show", "ADR-42"}},
		{"error-unknown-command", "clean", []string{"lnt"}},
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, tc.corpus)
			args := append([]string{"--cwd", root}, tc.args...)
			g.Assert(t, tc.name, []byte(r.run(args...).String()))
		})
	}
}

// TestGoldenHelp pins the help of every command: each has an example.
func TestGoldenHelp(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, cmd := range []string{"", "lint", "check", "search", "show", "explain", "superseded", "graph", "site", "new", "migrate", "status", "renumber", "index", "mcp", "hook", "init", "doctor"} {
		name := "help-" + cmd
		args := []string{cmd, "--help"}
		if cmd == "" {
			name, args = "help-adrkit", []string{"--help"}
		}
		t.Run(name, func(t *testing.T) {
			g.Assert(t, name, []byte(newRunner(t).run(args...).String()))
		})
	}
}

// TestGoldenColor pins a coloured overview and lint report, so that a
// change of palette is a reviewed diff.
func TestGoldenColor(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, tc := range []struct {
		name, corpus string
		args         []string
	}{
		{"color-overview-findings", "findings", []string{"--color", "always"}},
		{"color-lint-findings", "findings", []string{"--color", "always", "lint"}},
		{"color-explain", "explain", []string{"--color", "always", "explain", "jobs/nightly/report.go"}},
		// On a terminal 80 columns wide, tables wrap their titles between
		// words; search shows where the text matched.
		{"terminal-80-overview", "chains", []string{"--color", "never"}},
		{"terminal-80-search", "chains", []string{"--color", "never", "search", "scheduled"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, tc.corpus)
			if strings.HasPrefix(tc.name, "terminal-80") {
				r.terminal, r.env["COLUMNS"] = true, "80"
			}
			g.Assert(t, tc.name, []byte(r.run(append([]string{"--cwd", root}, tc.args...)...).String()))
		})
	}
}

func TestFixturesExist(t *testing.T) {
	for _, c := range []string{"clean", "findings", "chains"} {
		if _, err := os.Stat(filepath.Join("testdata", "corpora", c, "docs", "adr")); err != nil {
			t.Errorf("fixture corpus %s: %v", c, err)
		}
	}
}

// TestGoldenFirstHour pins what a newcomer sees on a repository that has
// no decisions yet (where adrkit looked and the next step) and on the
// way to the first record (issue 27).
func TestGoldenFirstHour(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	fresh := func(t *testing.T) (*runner, string) {
		r := newRunner(t)
		root := filepath.Join(t.TempDir(), "repo")
		must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
		r.hide, r.wd = append(r.hide, filepath.Dir(root)), root
		return r, root
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"first-hour-overview", nil},
		{"first-hour-lint", []string{"lint"}},
		{"first-hour-new-dry-run", []string{"new", "Use PostgreSQL for orders", "--dry-run"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, root := fresh(t)
			g.Assert(t, tc.name, []byte(r.run(tc.args...).String()))
			if _, err := os.Stat(filepath.Join(root, "docs")); err == nil {
				t.Errorf("%q wrote docs/", tc.args)
			}
		})
	}
	t.Run("first-hour-new-then-lint", func(t *testing.T) {
		r, root := fresh(t)
		dry := r.run("new", "Use PostgreSQL for orders", "--dry-run")
		wrote := r.run("new", "Use PostgreSQL for orders")
		data, err := os.ReadFile(filepath.Join(root, "docs", "adr", "0001-use-postgresql-for-orders.md"))
		if err != nil || wrote.code != 0 {
			t.Fatalf("new: %v\n%s", err, wrote)
		}
		// The dry run printed exactly the file the real run wrote.
		if !strings.HasSuffix(dry.stdout, string(data)) {
			t.Errorf("the dry run showed\n%s\nthe file is\n%s", dry.stdout, data)
		}
		if lint := r.run("lint"); lint.code != 0 {
			t.Errorf("the new record does not lint clean:\n%s", lint)
		}
		g.Assert(t, "first-hour-new-then-lint", []byte(wrote.String()+string(data)))
	})
}
