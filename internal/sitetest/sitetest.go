// Package sitetest makes the repositories the decision browser's tests
// build sites of: a copy of a fixture corpus (adapters/site/testdata),
// optionally with a git history, so that the changes page has commits.
// Only tests import it.
package sitetest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// FirstCommit are the records the first commit of a history holds; the
// second holds every record of the fixture.
var FirstCommit = []string{"docs/adr/0002-cache-with-redis.md", "docs/adr/0006-rejected-soap.md"}

// Repo copies the fixture directory src (a repository root holding
// docs/adr) to a fresh root and returns it. With history the root is a
// git repository of two commits, FirstCommit's records and then all of
// them, with fixed dates and signatures (so the same commit ids every
// run); without, it only has the .git entry the reader wants.
func Repo(t testing.TB, src string, history bool) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if !history {
		if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		return root
	}
	all := map[string]string{}
	entries, err := os.ReadDir(filepath.Join(root, "docs", "adr"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(root, "docs", "adr", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		all["docs/adr/"+e.Name()] = string(data)
	}
	first := map[string]string{}
	for _, n := range FirstCommit {
		first[n] = all[n]
	}
	r := gittest.Init(t, root)
	c1 := r.Commit(plumbing.ZeroHash, "two decisions", time.Date(2025, 1, 2, 10, 0, 0, 0, time.UTC), first)
	r.Commit(c1, "the rest", time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC), all)
	return root
}

// Decisions copies an ADR directory (such as this repository's own
// docs/adr) to docs/adr of a fresh root with a .git entry, and returns
// the root: a corpus the fixtures were not written for.
func Decisions(t testing.TB, adrDir string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(filepath.Join(root, "docs", "adr"), os.DirFS(adrDir)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}
