package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/scaffold"
	"github.com/adrkit/adrkit-go/internal/gittest"
)

const oldRecord = "---\nschemaVersion: 0.1.0\nid: \"0002\"\ntitle: Use MySQL\nstatus: accepted # for now\ndate: 2025-01-10\ndeciders: [\"@ana\"]\ntags: [db]\n---\n\n# Use MySQL\n\nWe chose MySQL.\n"

// newRepoWithBranches is a repository whose working tree has records
// 0001 and 0002, a local branch adding 0004, and a remote-tracking branch
// adding 0007: the next free number is 0008.
func newRepoWithBranches(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(root, "docs", "adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := gittest.Init(t, root)
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := map[string]string{
		"docs/adr/0001-first.md":     "---\nid: \"0001\"\ntitle: First one\nstatus: draft\ndate: 2025-01-01\n---\n",
		"docs/adr/0002-use-mysql.md": oldRecord,
	}
	mainHash := repo.Commit(plumbing.ZeroHash, "base", when, base)
	feature := map[string]string{"docs/adr/0004-feature.md": "x"}
	for k, v := range base {
		feature[k] = v
	}
	featureHash := repo.Commit(mainHash, "feature", when, feature)
	remote := map[string]string{"docs/adr/0007-remote.md": "y"}
	for k, v := range base {
		remote[k] = v
	}
	remoteHash := repo.Commit(mainHash, "remote", when, remote)
	repo.SetRef(plumbing.NewBranchReferenceName("main"), mainHash)
	repo.SetRef(plumbing.NewBranchReferenceName("feature"), featureHash)
	repo.SetRef(plumbing.NewRemoteReferenceName("origin", "colleague"), remoteHash)
	for k, v := range base {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(k)), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestNew: the number is free on every branch, the record lints clean,
// --supersedes changes only the old record's status lines, and the exits
// are 2 for usage and 1 for a record that cannot be written.
func TestNew(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	root := newRepoWithBranches(t)
	r := newRunner(t)
	r.hide = append(r.hide, filepath.Dir(root))
	r.wd = filepath.Join(root, "docs")

	got := r.run("new", "Use", "PostgreSQL", "for", "the", "catalogue", "--status", "accepted", "--deciders", "@olaf,team:data",
		"--supersedes", "0002")
	g.Assert(t, "new-supersedes", []byte(got.String()))
	if got.code != 0 {
		t.Fatal(got)
	}
	written, err := os.ReadFile(filepath.Join(root, "docs", "adr", "0008-use-postgresql-for-the-catalogue.md"))
	if err != nil {
		t.Fatal(err)
	}
	g.Assert(t, "new-supersedes-file", written)
	old, _ := os.ReadFile(filepath.Join(root, "docs", "adr", "0002-use-mysql.md"))
	want := strings.Replace(oldRecord, "status: accepted # for now\n", "status: superseded\nsupersededBy: \"0008\"\n", 1)
	if string(old) != want {
		t.Errorf("the old record:\n%s\nwant\n%s", old, want)
	}
	// Accepted, its body still the template's prompts: lint refuses it
	// until they are replaced, and then it lints clean.
	if l := r.run("lint", "--as-of", "2026-06-15"); l.code != 1 || strings.Count(l.stdout, "error  template-text") != 3 ||
		strings.Count(l.stdout, "  line ") != 3 {
		t.Errorf("lint after new: want the three prompts as errors, got\n%s", l)
	}
	filled := string(written)
	for _, left := range scaffold.TemplateText(filled) {
		filled = strings.Replace(filled, left.Prompt, "Filled in by the deciders.", 1)
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "adr", "0008-use-postgresql-for-the-catalogue.md"), []byte(filled), 0o644); err != nil {
		t.Fatal(err)
	}
	if l := r.run("lint", "--as-of", "2026-06-15"); l.code != 0 || strings.Contains(l.stdout, "error") {
		t.Errorf("lint after the prompts were replaced:\n%s", l)
	}

	js := r.run("new", "Cache search results", "--json")
	g.Assert(t, "new-json", []byte(js.String()))
	var res struct{ ID, Path, Status string }
	if err := json.Unmarshal([]byte(js.stdout), &res); err != nil || res.ID != "0009" || res.Status != "draft" {
		t.Errorf("--json: %v %+v", err, res)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"new"}, 2, "a title is needed"},
		{[]string{"new", "ab"}, 2, "3 to 120 characters"},
		{[]string{"new", "Something", "--status", "superseded"}, 2, "superseded comes from"},
		{[]string{"new", "Something", "--status", "accepted"}, 2, "--deciders"},
		{[]string{"new", "Something", "--deciders", "Jane Doe"}, 2, "not an @handle"},
		{[]string{"new", "Something", "--supersedes", "12"}, 2, "record id"},
		{[]string{"new", "Something", "--template", "/nonexistent/t.md"}, 2, "--template"},
		{[]string{"new", "Something", "--supersedes", "0099"}, 1, "no valid record has the id 0099"},
		{[]string{"new", "Something", "--supersedes", "0002"}, 1, "already superseded"},
		{[]string{"--rev", "main", "new", "Something"}, 2, "writes the working tree"},
	} {
		got := r.run(tc.args...)
		if got.code != tc.code || !strings.Contains(got.stderr, tc.want) {
			t.Errorf("%q: %s", tc.args, got)
		}
	}
	names, _ := os.ReadDir(filepath.Join(root, "docs", "adr"))
	if len(names) != 4 {
		t.Errorf("refused runs wrote files: %d entries", len(names))
	}
}

// TestNewTemplateAndFreshRepo: a template fills its placeholders, and a
// repository without an ADR directory gets docs/adr with record 0001.
func TestNewTemplateAndFreshRepo(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	tpl := filepath.Join(t.TempDir(), "t.md")
	if err := os.WriteFile(tpl, []byte("# {{id}}. {{title}}\n\nStatus {{status}} since {{date}}.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t)
	r.wd = root
	if got := r.run("new", "First decision", "--template", tpl); got.code != 0 {
		t.Fatal(got)
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "adr", "0001-first-decision.md"))
	want := "---\nid: \"0001\"\ntitle: First decision\nstatus: draft\ndate: \"2026-06-15\"\n# affects:                 # the files this decision governs (adrkit explain, check and the hook read it)\n#   - type: path\n#     pattern: \"services/payments/**\"\n---\n\n# 0001. First decision\n\nStatus draft since 2026-06-15.\n"
	if err != nil || string(b) != want {
		t.Errorf("%v\n%q\nwant\n%q", err, b, want)
	}
}
