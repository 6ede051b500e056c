package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

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
