package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// findingsHistory is sampleHistory with a working tree that has
// findings: a record whose replacement is missing. The feed reads the
// history; corpusHealth and the findings come from the corpus as the
// other commands read it.
func findingsHistory(t *testing.T) string {
	t.Helper()
	root, _ := sampleHistory(t)
	dangling := "---\nid: \"0009\"\ntitle: Run cron jobs\nstatus: superseded\ndate: 2026-06-01\ndeciders: [\"@dana\"]\n" +
		"supersededBy: \"0099\"\n---\n\n# Run cron jobs\n"
	for name, content := range map[string]string{
		"0009-cron.md":  dangling,
		"0010-cron.md":  strings.ReplaceAll(strings.ReplaceAll(dangling, "0009", "0010"), "0099", "0098"),
		"0011-draft.md": "no frontmatter here\n",
	} {
		if err := os.WriteFile(filepath.Join(root, "docs", "adr", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestGoldenChangesFindings pins how adrkit changes shows the corpus
// findings: counted before the closing cursor line for a person, paged
// as the tool pages them with --json.
func TestGoldenChangesFindings(t *testing.T) {
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
		{"changes-findings", []string{"changes", "--since", "0_"}},
		{"changes-findings-head", []string{"changes"}},
		{"changes-json-findings", []string{"changes", "--json", "--findings-limit", "1"}},
		{"changes-bad-findings-cursor", []string{"changes", "--json", "--findings-cursor", "nope"}},
		{"changes-findings-cursor-without-json", []string{"changes", "--findings-cursor", "nope"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g.Assert(t, tc.name, []byte(run(t, findingsHistory(t), tc.args...).String()))
		})
	}

	// The findings cursor pages on, and the chain's findings cursor is
	// another channel's.
	root := findingsHistory(t)
	var page struct {
		Result struct {
			Findings struct {
				Items  []map[string]any `json:"items"`
				Cursor *string          `json:"cursor"`
			} `json:"findings"`
		} `json:"result"`
	}
	first := run(t, root, "changes", "--json", "--findings-limit", "2")
	if err := json.Unmarshal([]byte(first.stdout), &page); err != nil || page.Result.Findings.Cursor == nil {
		t.Fatalf("first findings page: %v\n%s", err, first)
	}
	seen := len(page.Result.Findings.Items)
	next := run(t, root, "changes", "--json", "--findings-limit", "2", "--findings-cursor", *page.Result.Findings.Cursor)
	page.Result.Findings.Cursor = nil
	if err := json.Unmarshal([]byte(next.stdout), &page); err != nil || next.code != 0 || page.Result.Findings.Cursor != nil {
		t.Fatalf("second findings page: %v\n%s", err, next)
	}
	human := run(t, root, "changes")
	if seen+len(page.Result.Findings.Items) != 3 || !strings.Contains(human.stdout, "Findings with this answer: 3 errors") {
		t.Errorf("%d + %d findings paged; the human output says:\n%s", seen, len(page.Result.Findings.Items), human)
	}

	var chain struct {
		Result struct {
			Findings struct {
				Cursor *string `json:"cursor"`
			} `json:"findings"`
		} `json:"result"`
	}
	c := run(t, root, "chain", "0009", "--json", "--findings-limit", "1")
	if err := json.Unmarshal([]byte(c.stdout), &chain); err != nil || chain.Result.Findings.Cursor == nil {
		t.Fatalf("chain: %v\n%s", err, c)
	}
	refused := run(t, root, "changes", "--json", "--findings-limit", "1", "--findings-cursor", *chain.Result.Findings.Cursor)
	if refused.code != 2 || !strings.Contains(refused.stderr, "--findings-cursor was refused: Cursor does not belong to this tool channel.") {
		t.Errorf("the chain's findings cursor given to changes:\n%s", refused)
	}
	both := run(t, root, "changes", "--json", "--since", "AQBxJgR2q7wkUQeMGvS-UzpH1o8Rdamaged", "--findings-cursor", "nope")
	if both.code != 2 || !strings.Contains(both.stderr, "--since or --findings-cursor was refused: Cursor could not be decoded.") {
		t.Errorf("two bad cursors:\n%s", both)
	}
	gone := run(t, root, "--dir", "missing", "changes", "--since", "0_")
	if gone.code != 2 || !strings.Contains(gone.stderr, "missing") {
		t.Errorf("without the ADR directory:\n%s", gone)
	}
}

// TestChangesSince: --since takes a revision or a date as well as a
// cursor, and without it a person sees the latest changes.
func TestChangesSince(t *testing.T) {
	root, _ := sampleHistory(t)
	run := func(args ...string) outcome {
		r := newRunner(t)
		r.hide = []string{filepath.Dir(root)}
		return r.run(append([]string{"--cwd", root}, args...)...)
	}
	whole := run("changes", "--since", "0_")
	if latest := run("changes"); latest.code != 0 || latest.stdout != whole.stdout {
		t.Errorf("without --since (fewer than ten changes: all of them):\n%s\nthe whole history:\n%s", latest, whole)
	}
	for _, tc := range []struct {
		since string
		want  func(outcome) bool
	}{
		{"HEAD", func(o outcome) bool { return strings.HasPrefix(o.stdout, "No decision changed.") }},
		{"1970-01-01", func(o outcome) bool { return o.stdout == whole.stdout }},
		{"2026-06-01T12:30:00Z", func(o outcome) bool {
			// The commits at 13:00 and 14:00.
			return strings.Contains(o.stdout, "2026-06-01 13:00") && !strings.Contains(o.stdout, "2026-06-01 12:00")
		}},
		{"2999-01-01", func(o outcome) bool { return strings.HasPrefix(o.stdout, "No decision changed.") }},
		{"HEAD~2", func(o outcome) bool {
			return strings.Contains(o.stdout, "2026-06-01 13:00") && !strings.Contains(o.stdout, "2026-06-01 12:00")
		}},
	} {
		o := run("changes", "--since", tc.since)
		if o.code != 0 || !tc.want(o) {
			t.Errorf("--since %s:\n%s\nthe whole history:\n%s", tc.since, o, whole)
		}
	}
	bad := run("changes", "--since", "no-such-branch")
	if bad.code != 2 || !strings.Contains(bad.stderr, "is not a cursor, a date (YYYY-MM-DD) or a revision") {
		t.Errorf("a revision git does not know:\n%s", bad)
	}
	// Scripts keep the head cursor.
	if js := run("changes", "--json"); js.code != 0 || !strings.Contains(js.stdout, `"items": []`) {
		t.Errorf("--json without --since:\n%s", js)
	}
}
