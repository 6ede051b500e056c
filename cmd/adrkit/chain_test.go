package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// TestGoldenChain pins adrkit chain on the chains corpus: every outcome,
// human and --json. Regenerate with go test ./cmd/adrkit/... -update and
// review every diff.
func TestGoldenChain(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"chain-current", []string{"chain", "0001"}},
		{"chain-not-observed", []string{"chain", "0005"}},
		{"chain-ambiguous-replacement", []string{"chain", "0010"}},
		{"chain-deprecated-gap", []string{"chain", "0006"}},
		{"chain-ungoverned", []string{"chain", "0004"}},
		{"chain-rejected", []string{"chain", "0008"}},
		{"chain-ambiguous-ref", []string{"chain", "0009"}},
		{"chain-not-found", []string{"chain", "0099"}},
		{"chain-federated", []string{"chain", "payments:0042"}},
		{"chain-json", []string{"chain", "0002", "--json", "--findings-limit", "1"}},
		{"chain-json-hold", []string{"chain", "0005", "--json"}},
		{"chain-bad-ref", []string{"chain", "ADR-42"}},
		{"chain-no-ref", []string{"chain"}},
		{"chain-findings-without-json", []string{"chain", "0001", "--findings-limit", "2"}},
		{"chain-bad-findings-cursor", []string{"chain", "0001", "--json", "--findings-cursor", "nope"}},
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, "chains")
			g.Assert(t, tc.name, []byte(r.run(append([]string{"--cwd", root}, tc.args...)...).String()))
		})
	}
	t.Run("help-chain", func(t *testing.T) {
		g.Assert(t, "help-chain", []byte(newRunner(t).run("chain", "--help").String()))
	})
}

// TestGoldenChainColor pins the coloured verdicts.
func TestGoldenChainColor(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	for _, tc := range []struct{ name, ref string }{{"color-chain-current", "0002"}, {"color-chain-hold", "0005"}} {
		t.Run(tc.name, func(t *testing.T) {
			r, root := repoRunner(t, "chains")
			g.Assert(t, tc.name, []byte(r.run("--cwd", root, "--color", "always", "chain", tc.ref).String()))
		})
	}
}

// historyRepo turns a fresh copy of the clean corpus into a real
// repository whose history is built object by object with fixed
// signatures (so commit ids are the same on every run). Each element of
// commits is the whole ADR directory of one commit (name → content); the
// working tree keeps the clean corpus.
func historyRepo(t *testing.T, commits ...map[string]string) (root string, hashes []plumbing.Hash) {
	t.Helper()
	root = newRepo(t, "clean")
	if err := os.RemoveAll(filepath.Join(root, ".git")); err != nil {
		t.Fatal(err)
	}
	repo := gittest.Init(t, root)
	var parent plumbing.Hash
	for i, files := range commits {
		tree := map[string]string{}
		for name, content := range files {
			tree["docs/adr/"+name] = content
		}
		parent = repo.Commit(parent, "commit", time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(i)*time.Hour), tree)
		hashes = append(hashes, parent)
	}
	return root, hashes
}

// record is the text of a small valid record.
func record(id, title, status string) string {
	deciders := ""
	if status == "accepted" || status == "deprecated" {
		deciders = "deciders: [\"@dana\"]\n"
	}
	return "---\nid: \"" + id + "\"\ntitle: " + title + "\nstatus: " + status + "\ndate: 2026-06-01\n" + deciders + "---\n\n# " + title + "\n"
}

// sampleHistory has an add, a status flip, a rename, an edit, a record
// that becomes invalid and a removal.
func sampleHistory(t *testing.T) (string, []plumbing.Hash) {
	return historyRepo(t,
		map[string]string{"0001-orders.md": record("0001", "Store orders in PostgreSQL", "proposed")},
		map[string]string{
			"0001-orders.md": record("0001", "Store orders in PostgreSQL", "accepted"),
			"0002-cache.md":  record("0002", "Cache sessions", "draft"),
		},
		map[string]string{
			"0001-orders.md":        record("0001", "Store orders in PostgreSQL", "accepted"),
			"0002-session-cache.md": record("0002", "Cache sessions in Redis", "draft"),
		},
		map[string]string{
			"0001-orders.md":        "---\nid: broken\n---\n",
			"0002-session-cache.md": record("0002", "Cache sessions in Redis", "draft"),
		},
		map[string]string{
			"0001-orders.md": "---\nid: broken\n---\n",
		},
	)
}

// TestGoldenChanges pins adrkit changes: the head cursor, a replay, a
// page of JSON, a rewritten history and the mistakes.
func TestGoldenChanges(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/golden"))
	run := func(t *testing.T, root string, args ...string) outcome {
		r := newRunner(t)
		r.hide = []string{filepath.Dir(root)}
		return r.run(append([]string{"--cwd", root}, args...)...)
	}
	cases := []struct {
		name string
		args []string
	}{
		{"changes-head", []string{"changes"}},
		{"changes-replay", []string{"changes", "--since", "0_"}},
		{"changes-json-page", []string{"changes", "--since", "0_", "--json", "--limit", "2"}},
		{"changes-json-head", []string{"changes", "--json"}},
		{"changes-bad-cursor", []string{"changes", "--since", "nope"}},
		{"changes-since-revision", []string{"changes", "--since", "HEAD~2"}},
		{"changes-since-date", []string{"changes", "--since", "2026-06-01T12:30:00Z"}},
		{"changes-bad-limit", []string{"changes", "--json", "--limit", "500"}},
		{"changes-limit-without-json", []string{"changes", "--limit", "5"}},
		{"changes-extra-argument", []string{"changes", "0001"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, _ := sampleHistory(t)
			g.Assert(t, tc.name, []byte(run(t, root, tc.args...).String()))
		})
	}
	t.Run("changes-rewritten", func(t *testing.T) {
		root, hashes := sampleHistory(t)
		head := strings.TrimSpace(strings.TrimPrefix(lastLine(run(t, root, "changes").stdout), "To see what changes next: adrkit changes --since "))
		// Rebuild main with another history: the old head is gone.
		if err := os.RemoveAll(filepath.Join(root, ".git")); err != nil {
			t.Fatal(err)
		}
		other := historyRepoAt(t, root, map[string]string{"0003-queue.md": record("0003", "Queue jobs in SQS", "accepted")})
		if other == hashes[len(hashes)-1] {
			t.Fatal("the rewrite kept the head")
		}
		g.Assert(t, "changes-rewritten", []byte(run(t, root, "changes", "--since", head).String()))
	})
	t.Run("changes-no-history", func(t *testing.T) {
		r, root := repoRunner(t, "clean") // an empty .git directory: no repository
		g.Assert(t, "changes-no-history", []byte(r.run("--cwd", root, "changes").String()))
	})
	t.Run("help-changes", func(t *testing.T) {
		g.Assert(t, "help-changes", []byte(newRunner(t).run("changes", "--help").String()))
	})
}

// historyRepoAt is historyRepo over an existing root (which must have no
// .git): it returns the head commit.
func historyRepoAt(t *testing.T, root string, commits ...map[string]string) plumbing.Hash {
	t.Helper()
	tmpRoot, hashes := historyRepo(t, commits...)
	if err := os.Rename(filepath.Join(tmpRoot, ".git"), filepath.Join(root, ".git")); err != nil {
		t.Fatal(err)
	}
	return hashes[len(hashes)-1]
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
