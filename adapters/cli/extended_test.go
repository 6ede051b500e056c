package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/lineage"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
)

// The renderers of the extended tools' answers (chain, changes); the
// cmd/adrkit goldens pin their whole output, these tests the walks and
// the cases the fixtures do not reach.

// pagedChain serves a chain answer whose f findings come in pages; a
// cursor is the offset as text.
func pagedChain(f int, calls *int, result func(app.FindingsPage) any) PageCall {
	return func(_ context.Context, p app.Page) (app.Result, error) {
		*calls++
		lo := 0
		if p.FindingsCursor != nil {
			fmt.Sscan(*p.FindingsCursor, &lo)
		}
		hi := min(lo+p.FindingsLimit, f)
		page := app.FindingsPage{Items: []adr.Finding{}}
		for i := lo; i < hi; i++ {
			page.Items = append(page.Items, adr.Finding{Rule: fmt.Sprint("r", i), Severity: adr.SeverityWarn})
		}
		if hi < f {
			s := fmt.Sprint(hi)
			page.Cursor = &s
		}
		return app.Result{Structured: app.Answer{Result: result(page)}}, nil
	}
}

func TestWalkPagesChain(t *testing.T) {
	outcomes := map[string]func(app.FindingsPage) any{
		"chain": func(p app.FindingsPage) any {
			return app.ChainAnswer{Outcome: app.OutcomeChain, Chain: []app.ChainNode{{ID: "0001"}}, Findings: p}
		},
		"ambiguous": func(p app.FindingsPage) any {
			return app.AmbiguousChain{Outcome: app.OutcomeAmbiguousLocalID, Candidates: []app.Summary{{ID: "0001"}, {ID: "0001"}}, Findings: p}
		},
	}
	for name, outcome := range outcomes {
		for _, tc := range []struct{ f, calls int }{{0, 1}, {100, 1}, {101, 2}, {250, 3}} {
			calls := 0
			res, err := WalkPages(context.Background(), pagedChain(tc.f, &calls, outcome))
			if err != nil {
				t.Fatal(err)
			}
			got := findingsOf(res.Structured.(app.Answer).Result)
			if len(got) != tc.f || calls != tc.calls {
				t.Errorf("%s, %d findings: merged %d in %d calls, want %d calls", name, tc.f, len(got), calls, tc.calls)
			}
			if _, fnext := cursors(res.Structured.(app.Answer).Result); fnext != nil {
				t.Errorf("%s, %d findings: the merged answer keeps a cursor", name, tc.f)
			}
		}
	}
}

func TestOutcomeStatus(t *testing.T) {
	cases := []struct {
		name   string
		result any
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

// pagedFeed serves a feed of n changes in pages; a cursor is "c" and the
// offset. rewriteAt > 0 answers a restart to the call that starts there.
func pagedFeed(n, rewriteAt int, limits *[]int) ChangesCall {
	ff := &fakeFeed{n: n, rewriteAt: rewriteAt}
	return func(ctx context.Context, in app.ChangesInput) (app.Result, error) {
		*limits = append(*limits, in.Limit)
		return ff.call(ctx, in)
	}
}

// fakeFeed serves a feed of n changes and a corpus of f findings, both
// in pages: a feed cursor is "c" and the offset, a findings cursor the
// offset as text. Without since the page is empty and its cursor is
// "c" and n (the head).
type fakeFeed struct {
	n, f int
	// rewriteAt > 0 answers a restart to the call that starts there.
	rewriteAt int
	// later, when set, answers every call after the first.
	later func(call int) app.Answer
	calls []app.ChangesInput
}

func (ff *fakeFeed) call(_ context.Context, in app.ChangesInput) (app.Result, error) {
	ff.calls = append(ff.calls, in)
	if ff.later != nil && len(ff.calls) > 1 {
		return app.Result{Text: "later", Structured: ff.later(len(ff.calls))}, nil
	}
	health := &app.CorpusHealth{Fingerprint: "fp", RecordCount: ff.f}
	lo := ff.n
	if in.Since != nil {
		lo = 0
		if *in.Since != feed.ReplayToken {
			fmt.Sscanf(*in.Since, "c%d", &lo)
		}
	}
	if ff.rewriteAt > 0 && lo == ff.rewriteAt {
		return app.Result{Structured: app.Answer{CorpusHealth: health, Result: app.RestartAnswer{Outcome: app.OutcomeRestart, ReplayCursor: feed.ReplayToken, HeadCursor: "head"}}}, nil
	}
	limit := in.Limit
	if limit == 0 {
		limit = app.DefaultChangesLimit
	}
	hi := min(lo+limit, ff.n)
	page := app.ChangesAnswer{Outcome: app.OutcomeChanges, Items: []app.ChangeItem{}, Cursor: fmt.Sprintf("c%d", hi), HasMore: in.Since != nil && hi-lo == limit}
	for i := lo; i < hi; i++ {
		page.Items = append(page.Items, app.ChangeItem{Kind: feed.Edited, ID: app.Text(fmt.Sprintf("%04d", i))})
	}
	flo := 0
	if in.FindingsCursor != nil {
		fmt.Sscan(*in.FindingsCursor, &flo)
	}
	fhi := min(flo+in.FindingsLimit, ff.f)
	page.Findings.Items = []adr.Finding{}
	for i := flo; i < fhi; i++ {
		page.Findings.Items = append(page.Findings.Items, adr.Finding{Rule: fmt.Sprint("r", i), Severity: adr.SeverityWarn})
	}
	if fhi < ff.f {
		c := fmt.Sprint(fhi)
		page.Findings.Cursor = &c
	}
	return app.Result{Text: "page", Structured: app.Answer{CorpusHealth: health, Result: page}}, nil
}

func TestWalkChanges(t *testing.T) {
	since := feed.ReplayToken
	for _, tc := range []struct{ n, calls int }{{0, 1}, {5, 1}, {200, 2}, {201, 2}, {450, 3}} {
		var limits []int
		res, err := WalkChanges(context.Background(), pagedFeed(tc.n, 0, &limits), app.ChangesInput{Since: &since, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		r := res.Structured.(app.Answer).Result.(app.ChangesAnswer)
		if len(r.Items) != tc.n || r.HasMore || r.Cursor != fmt.Sprintf("c%d", tc.n) || len(limits) != tc.calls {
			t.Errorf("%d changes: merged %d, hasMore %v, cursor %s, %d calls", tc.n, len(r.Items), r.HasMore, r.Cursor, len(limits))
		}
		for i, it := range r.Items {
			if it.ID != app.Text(fmt.Sprintf("%04d", i)) {
				t.Fatalf("%d changes: item %d is %s", tc.n, i, it.ID)
			}
		}
		for _, l := range limits {
			if l != app.MaxChangesLimit {
				t.Errorf("walked with pages of %d, want the largest, %d", l, app.MaxChangesLimit)
			}
		}
	}
	// A restart on the first call is the answer; on a later one the
	// history was rewritten under the walk.
	var limits []int
	res, err := WalkChanges(context.Background(), pagedFeed(10, 0, &limits), app.ChangesInput{Since: ptrTo("c0")})
	if err != nil || res.Structured.(app.Answer).Result.(app.ChangesAnswer).Cursor != "c10" {
		t.Errorf("from c0: %+v %v", res, err)
	}
	res, err = WalkChanges(context.Background(), func(context.Context, app.ChangesInput) (app.Result, error) {
		return app.Result{Structured: app.Answer{Result: app.RestartAnswer{Outcome: app.OutcomeRestart}}}, nil
	}, app.ChangesInput{Since: &since})
	if _, ok := res.Structured.(app.Answer).Result.(app.RestartAnswer); err != nil || !ok {
		t.Errorf("a first restart should be returned as it came: %+v %v", res, err)
	}
	if _, err := WalkChanges(context.Background(), pagedFeed(450, 200, &limits), app.ChangesInput{Since: &since}); err == nil ||
		!strings.Contains(err.Error(), "rewritten") {
		t.Errorf("a restart in the middle of the walk: %v, want an error", err)
	}
}

func ptrTo(s string) *string { return &s }

// WalkChanges walks the findings as WalkPages does: every page of 100,
// alongside the feed's pages or after them, never twice, and without
// since (the feed then lists nothing) the findings alone.
func TestWalkChangesFindings(t *testing.T) {
	since := feed.ReplayToken
	cases := []struct {
		name                  string
		since                 *string
		n, f                  int
		calls                 int
		findingsCursorsWalked int
	}{
		{"more findings pages than feed pages", &since, 5, 250, 3, 2},
		{"more feed pages than findings pages", &since, 450, 50, 3, 0},
		{"as many of each", &since, 450, 250, 3, 2},
		{"no findings", &since, 450, 0, 3, 0},
		{"without since only the findings", nil, 450, 250, 3, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ff := &fakeFeed{n: tc.n, f: tc.f}
			// The caller's findings paging is not the walk's.
			in := app.ChangesInput{Since: tc.since, FindingsLimit: 3, FindingsCursor: ptrTo("7")}
			res, err := WalkChanges(context.Background(), ff.call, in)
			if err != nil {
				t.Fatal(err)
			}
			r := res.Structured.(app.Answer).Result.(app.ChangesAnswer)
			wantItems := tc.n
			if tc.since == nil {
				wantItems = 0
			}
			if len(r.Items) != wantItems || len(r.Findings.Items) != tc.f || r.Findings.Cursor != nil || r.HasMore ||
				r.Cursor != fmt.Sprintf("c%d", tc.n) || len(ff.calls) != tc.calls {
				t.Errorf("merged %d changes, %d findings (cursor %v), hasMore %v, cursor %s, %d calls",
					len(r.Items), len(r.Findings.Items), r.Findings.Cursor, r.HasMore, r.Cursor, len(ff.calls))
			}
			for i, f := range r.Findings.Items {
				if f.Rule != fmt.Sprint("r", i) {
					t.Fatalf("finding %d is %s", i, f.Rule)
				}
			}
			walked := 0
			for _, c := range ff.calls {
				if c.FindingsLimit != 100 {
					t.Errorf("findings pages of %d, want 100", c.FindingsLimit)
				}
				if c.FindingsCursor != nil {
					walked++
				}
				if (c.Since == nil) != (tc.since == nil) {
					t.Errorf("since %v in a walk from %v", c.Since, tc.since)
				}
			}
			if ff.calls[0].FindingsCursor != nil || walked != tc.findingsCursorsWalked {
				t.Errorf("findings cursors: first %v, %d walked", ff.calls[0].FindingsCursor, walked)
			}
		})
	}

	// What a later page can say instead of a page of changes.
	changed := errCorpusChanged.Error()
	rewritten := "rewritten"
	page := app.ChangesAnswer{Outcome: app.OutcomeChanges, Items: []app.ChangeItem{}, Cursor: "c9"}
	later := []struct {
		name    string
		answer  app.Answer
		wantErr string
	}{
		{"another corpus", app.Answer{CorpusHealth: &app.CorpusHealth{Fingerprint: "other"}, Result: page}, changed},
		{"no corpusHealth", app.Answer{Result: page}, changed},
		{"a refused findings cursor", app.Answer{CorpusHealth: &app.CorpusHealth{Fingerprint: "fp"}, Result: app.InvalidCursor{Outcome: app.OutcomeInvalidCursor}}, changed},
		{"a restart", app.Answer{CorpusHealth: &app.CorpusHealth{Fingerprint: "fp"}, Result: app.RestartAnswer{Outcome: app.OutcomeRestart}}, rewritten},
		{"the corpus is gone", app.Answer{Result: app.CorpusUnavailable{Outcome: app.OutcomeCorpusUnavailable}}, ""},
		{"the history is gone", app.Answer{CorpusHealth: &app.CorpusHealth{Fingerprint: "fp"}, Result: app.HistoryUnavailable{Outcome: app.OutcomeHistoryUnavailable}}, ""},
	}
	for _, tc := range later {
		t.Run(tc.name, func(t *testing.T) {
			ff := &fakeFeed{n: 5, f: 250, later: func(int) app.Answer { return tc.answer }}
			res, err := WalkChanges(context.Background(), ff.call, app.ChangesInput{Since: &since})
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("err %v, want %q", err, tc.wantErr)
				}
			case err != nil || res.Text != "later":
				t.Errorf("%+v %v: want the later answer as it came", res, err)
			}
		})
	}
}

func TestWriteChanges(t *testing.T) {
	head := "e2fe3230000000000000000000000000000000000"
	cases := []struct {
		name  string
		r     app.ChangesAnswer
		since bool
		want  string
	}{
		{"head", app.ChangesAnswer{Cursor: "CUR", Head: &head}, false,
			"Nothing is listed without --since: the feed starts at the head (commit e2fe323).\nTo see what changes next: adrkit changes --since CUR\n"},
		{"no commits", app.ChangesAnswer{Cursor: "CUR"}, false,
			"Nothing is listed without --since: the feed starts at the head.\nTo see what changes next: adrkit changes --since CUR\n"},
		{"nothing new", app.ChangesAnswer{Cursor: "CUR", Items: []app.ChangeItem{}}, true,
			"No decision changed.\nTo see what changes next: adrkit changes --since CUR\n"},
		{"one of each", app.ChangesAnswer{Cursor: "CUR", Items: []app.ChangeItem{
			{Kind: feed.Added, Cause: feed.IDChanged, ID: "0001", Title: "A\ntitle", Status: adr.StatusDraft, SourcePath: "a.md", Commit: "abc", CommittedAt: "2026-06-01T10:00:00Z"},
			{Kind: feed.Removed, Cause: feed.BecameInvalid, ID: "0002", Title: "B", Status: adr.StatusAccepted, SourcePath: "b.md", Commit: head, CommittedAt: "not a time"},
			{Kind: feed.StatusChanged, ID: "0003", Title: "C", Before: adr.StatusProposed, After: adr.StatusAccepted, SourcePath: "c.md", Commit: head, CommittedAt: "2026-06-01T10:00:00+02:00"},
		}}, true, "" +
			"COMMIT   DATE (UTC)        ID    CHANGE          DETAIL                    TITLE    PATH\n" +
			"abc      2026-06-01 10:00  0001  added           draft, file took this id  A title  a.md\n" +
			"e2fe323  not a time        0002  removed         file no longer valid      B        b.md\n" +
			"e2fe323  2026-06-01 08:00  0003  status-changed  proposed → accepted       C        c.md\n" +
			"\n3 changes.\nTo see what changes next: adrkit changes --since CUR\n"},
		{"findings come before the cursor line", app.ChangesAnswer{Cursor: "CUR", Items: []app.ChangeItem{},
			Findings: app.FindingsPage{Items: []adr.Finding{{Severity: adr.SeverityError}, {Severity: adr.SeverityWarn}, {Severity: adr.SeverityError}}}}, true,
			"No decision changed.\n\nFindings with this answer: 2 errors, 1 warning (adrkit lint explains them).\n" +
				"To see what changes next: adrkit changes --since CUR\n"},
		{"findings at the head", app.ChangesAnswer{Cursor: "CUR", Head: &head,
			Findings: app.FindingsPage{Items: []adr.Finding{{Severity: adr.SeverityInfo}}}}, false,
			"Nothing is listed without --since: the feed starts at the head (commit e2fe323).\n\n" +
				"Findings with this answer: 1 info (adrkit lint explains them).\nTo see what changes next: adrkit changes --since CUR\n"},
	}
	for _, tc := range cases {
		var b strings.Builder
		if err := WriteChanges(&b, tc.r, tc.since, Plain); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, b.String(), tc.want)
		}
	}
}
