package render

import (
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/lineage"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
)

// The renderers of the extended tools' answers (chain, changes); the
// cmd/adrkit goldens pin their whole output, these tests the cases the
// fixtures do not reach.

func TestOutcomeStatus(t *testing.T) {
	cases := []struct {
		name   string
		result app.Outcome
		want   int
	}{
		{"search results", app.SearchResults{}, 0},
		{"found", app.Found{}, 0},
		{"not found", app.NotFound{}, 1},
		{"ambiguous", app.Ambiguous{}, 1},
		{"federated", app.Federated{}, 1},
		{"chain current", app.ChainAnswer{Verdict: app.ChainCurrent{Verdict: lineage.Current}}, 0},
		{"chain on hold", app.ChainAnswer{Verdict: app.ChainHold{Verdict: lineage.Hold, Reason: lineage.Dangling}}, 1},
		{"chain ambiguous", app.AmbiguousChain{}, 1},
		{"entries", app.Entries{}, 0},
	}
	for _, tc := range cases {
		if got := OutcomeStatus(tc.result); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestWriteChanges(t *testing.T) {
	head := "e2fe3230000000000000000000000000000000000"
	cases := []struct {
		name    string
		r       app.ChangesAnswer
		omitted int
		want    string
	}{
		{"no commits", app.ChangesAnswer{Cursor: "CUR"}, 0,
			"No decision changed.\nTo see what changes next: adrkit changes --since CUR\n"},
		{"nothing new", app.ChangesAnswer{Cursor: "CUR", Items: []app.ChangeItem{}}, 0,
			"No decision changed.\nTo see what changes next: adrkit changes --since CUR\n"},
		{"one of each", app.ChangesAnswer{Cursor: "CUR", Items: []app.ChangeItem{
			{Kind: feed.Added, Cause: feed.IDChanged, ID: "0001", Title: "A\ntitle", Status: adr.StatusDraft, SourcePath: "a.md", Commit: "abc", CommittedAt: "2026-06-01T10:00:00Z"},
			{Kind: feed.Removed, Cause: feed.BecameInvalid, ID: "0002", Title: "B", Status: adr.StatusAccepted, SourcePath: "b.md", Commit: head, CommittedAt: "not a time"},
			{Kind: feed.StatusChanged, ID: "0003", Title: "C", Before: adr.StatusProposed, After: adr.StatusAccepted, SourcePath: "c.md", Commit: head, CommittedAt: "2026-06-01T10:00:00+02:00"},
		}}, 0, "" +
			"COMMIT   DATE (UTC)        ID    CHANGE          DETAIL                    TITLE    PATH\n" +
			"abc      2026-06-01 10:00  0001  added           draft, file took this id  A title  a.md\n" +
			"e2fe323  not a time        0002  removed         file no longer valid      B        b.md\n" +
			"e2fe323  2026-06-01 08:00  0003  status-changed  proposed → accepted       C        c.md\n" +
			"\n3 changes.\nTo see what changes next: adrkit changes --since CUR\n"},
		{"findings come before the cursor line", app.ChangesAnswer{Cursor: "CUR", Items: []app.ChangeItem{},
			Findings: app.FindingsPage{Items: []adr.Finding{{Severity: adr.SeverityError}, {Severity: adr.SeverityWarn}, {Severity: adr.SeverityError}}}}, 0,
			"No decision changed.\n\nFindings with this answer: 2 errors, 1 warning (adrkit lint explains them).\n" +
				"To see what changes next: adrkit changes --since CUR\n"},
		{"the latest changes of more", app.ChangesAnswer{Cursor: "CUR", Head: &head, Items: []app.ChangeItem{
			{Kind: feed.Edited, ID: "0003", Title: "C", Status: adr.StatusAccepted, SourcePath: "c.md", Commit: head, CommittedAt: "2026-06-01T10:00:00Z"},
		}, Findings: app.FindingsPage{Items: []adr.Finding{{Severity: adr.SeverityInfo}}}}, 12,
			"COMMIT   DATE (UTC)        ID    CHANGE  DETAIL          TITLE  PATH\n" +
				"e2fe323  2026-06-01 10:00  0003  edited  still accepted  C      c.md\n" +
				"\n1 change, the latest; 12 earlier changes (adrkit changes --since 0_ lists every change, --since HEAD~20 or --since 2026-01-31 from there).\n\n" +
				"Findings with this answer: 1 info (adrkit lint explains them).\nTo see what changes next: adrkit changes --since CUR\n"},
	}
	for _, tc := range cases {
		var b strings.Builder
		if err := WriteChanges(&b, tc.r, tc.omitted, Style{}); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, b.String(), tc.want)
		}
	}
}
