package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

func adrRecord(id, title, extra string) string {
	return "---\nid: \"" + id + "\"\ntitle: " + title + "\nstatus: draft\ndate: 2026-05-01\n" + extra + "---\n\n# " + title + "\n\nSee [the first](0001-queue.md).\n"
}

// TestRenumberScenario: a branch adds 0003; main takes 0003 after it;
// check --changed-since main fails naming both files and the fix;
// renumber --next moves the branch's record, its relations and its
// markers to 0004; check passes; after the merge lint is clean.
func TestRenumberScenario(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	w := gittest.NewWorktree(t, filepath.Join(t.TempDir(), "repo"))
	w.Write("docs/adr/0001-queue.md", adrRecord("0001", "Use a queue", ""))
	w.Write("docs/adr/0002-retries.md", adrRecord("0002", "Retry with backoff", "relatesTo: [\"0001\"]\n"))
	w.Write("src/pay.go", "// @adr 0002\npackage pay\n")
	w.Commit("base")

	w.Checkout("feature", true)
	w.Write("docs/adr/0003-batch-payments.md", adrRecord("0003", "Batch payments", "supersedes: [\"0002\"]\nrelatesTo:\n  - \"0001\"\n"))
	w.Write("docs/adr/0002-retries.md", strings.Replace(adrRecord("0002", "Retry with backoff", "relatesTo: [\"0001\"]\n"),
		"status: draft\n", "status: superseded\nsupersededBy: \"0003\"\n", 1)+"Replaced by [batches](0003-batch-payments.md).\n")
	w.Write("src/batch.go", "// Package batch pays in batches.\n// @adr 0003, payments:0003\npackage batch\n\n// see @adr 0003 for why\n")
	w.Write("README.md", "# Payments\n\n<!-- @adr 0003 -->\nText about 0003, [batches](docs/adr/0003-batch-payments.md#context).\n")
	w.Commit("feature: batch payments")

	w.Checkout("main", false)
	w.Write("docs/adr/0003-audit-log.md", adrRecord("0003", "Keep an audit log", ""))
	w.Commit("main: audit log")
	mainFile, _ := os.ReadFile(filepath.Join(w.Root(), "docs", "adr", "0003-audit-log.md"))
	w.Checkout("feature", false)

	r := newRunner(t)
	r.wd = w.Root()
	r.hide = append(r.hide, filepath.Dir(w.Root()))

	got := r.run("check", "--changed-since", "main")
	if got.code != 1 || !strings.Contains(got.stdout, "number-taken") ||
		!strings.Contains(got.stdout, "docs/adr/0003-batch-payments.md is new in this change, but its id 0003 is taken on main by docs/adr/0003-audit-log.md: give it a free number with adrkit renumber 0003 --next") {
		t.Fatalf("check before renumbering:\n%s", got)
	}

	dry := r.run("renumber", "0003", "--next", "--dry-run")
	g.Assert(t, "renumber-dry-run", []byte(dry.String()))
	if _, err := os.Stat(filepath.Join(w.Root(), "docs", "adr", "0003-batch-payments.md")); err != nil || dry.code != 0 {
		t.Fatalf("the dry run wrote: %v", err)
	}
	got = r.run("renumber", "0003", "--next")
	if got.code != 0 {
		t.Fatal(got)
	}
	for p, want := range map[string]string{
		"docs/adr/0004-batch-payments.md": adrRecord("0004", "Batch payments", "supersedes: [\"0002\"]\nrelatesTo:\n  - \"0001\"\n"),
		"docs/adr/0002-retries.md": strings.Replace(adrRecord("0002", "Retry with backoff", "relatesTo: [\"0001\"]\n"),
			"status: draft\n", "status: superseded\nsupersededBy: \"0004\"\n", 1) + "Replaced by [batches](0004-batch-payments.md).\n",
		"src/batch.go": "// Package batch pays in batches.\n// @adr 0004, payments:0003\npackage batch\n\n// see @adr 0003 for why\n",
		"README.md":    "# Payments\n\n<!-- @adr 0004 -->\nText about 0003, [batches](docs/adr/0004-batch-payments.md#context).\n",
		"src/pay.go":   "// @adr 0002\npackage pay\n",
	} {
		b, err := os.ReadFile(filepath.Join(w.Root(), filepath.FromSlash(p)))
		if err != nil || string(b) != want {
			t.Errorf("%s: %v\n%q\nwant\n%q", p, err, b, want)
		}
	}
	if _, err := os.Stat(filepath.Join(w.Root(), "docs", "adr", "0003-batch-payments.md")); err == nil {
		t.Error("the old file is still there")
	}
	w.Commit("renumber 0003 to 0004")
	if got := r.run("check", "--changed-since", "main"); got.code != 0 || strings.Contains(got.stdout, "number-taken") {
		t.Errorf("check after renumbering:\n%s", got)
	}

	// The merge: main's record joins the branch's (go-git merges only by
	// fast-forward, so the merged tree is written as git would make it).
	w.Write("docs/adr/0003-audit-log.md", string(mainFile))
	w.Commit("merge main")
	if l := r.run("lint", "--as-of", "2026-06-15"); l.code != 0 || strings.Contains(l.stdout, "error") {
		t.Errorf("lint after the merge:\n%s", l)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"renumber", "0004"}, 2, "or --next, are needed"},
		{[]string{"renumber", "0004", "0005", "--next"}, 2, "or --next, are needed"},
		{[]string{"renumber", "0009", "--next"}, 1, "no valid record has the id 0009"}, // as show and chain
		{[]string{"renumber", "0004", "0004"}, 2, "the record's id already"},
		{[]string{"renumber", "0004", "12"}, 2, "must be a record id"},
		{[]string{"renumber", "0004", "0003"}, 1, "docs/adr/0003-audit-log.md holds the id 0003"},
	} {
		got := r.run(tc.args...)
		if got.code != tc.code || !strings.Contains(got.stderr, tc.want) {
			t.Errorf("%q: %s", tc.args, got)
		}
	}
}
