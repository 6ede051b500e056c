package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

// sampleHistory is a small history with every kind of change:
//
//	c1 added 0001 (proposed)
//	c2 nothing in the ADR directory
//	c3 0001 proposed → accepted; added 0002
//	c4 0002 renamed; a README (not a candidate) added
//	c5 0001 removed; 0002 edited; a broken candidate added (not a record)
func sampleHistory() (*fakeHistory, []string) {
	h := &fakeHistory{}
	c := []string{
		h.commit("1", "0001-a.md=0001 proposed"),
		h.commit("2", "0001-a.md=0001 proposed"),
		h.commit("3", "0001-a.md=0001 accepted", "0002-b.md=0002 proposed"),
		h.commit("4", "0001-a.md=0001 accepted", "0002-bee.md=0002 proposed", "README.md=hello"),
		h.commit("5", "0002-bee.md=0002 proposed Better title", "README.md=hello", "0003-c.md=broken"),
	}
	return h, c
}

// allSample is the whole feed of sampleHistory, as rendered by line.
var allSample = []string{
	"c1 added 0001 docs/adr/0001-a.md (file-created)",
	"c3 status-changed 0001 docs/adr/0001-a.md proposed->accepted",
	"c3 added 0002 docs/adr/0002-b.md (file-created)",
	"c4 renamed 0002 docs/adr/0002-bee.md from docs/adr/0002-b.md",
	"c5 removed 0001 docs/adr/0001-a.md (file-deleted)",
	"c5 edited 0002 docs/adr/0002-bee.md",
}

// line renders a change with its commit's position in commits (c1...).
func line(it ChangeItem, commits []string) string {
	n := "c?"
	for i, h := range commits {
		if h == it.Commit {
			n = fmt.Sprintf("c%d", i+1)
		}
	}
	s := fmt.Sprintf("%s %s %s %s", n, it.Kind, it.ID, it.SourcePath)
	switch it.Kind {
	case feed.Added, feed.Removed:
		s += " (" + string(it.Cause) + ")"
	case feed.Renamed:
		s += " from " + string(it.FromPath)
	case feed.StatusChanged:
		s += fmt.Sprintf(" %s->%s", it.Before, it.After)
	}
	return s
}

// poll calls list_decision_changes through Call, as a client would,
// over an empty corpus.
func poll(t *testing.T, h ports.HistoryReader, since *string, limit int) Result {
	t.Helper()
	args := map[string]any{}
	if since != nil {
		args["since"] = *since
	}
	if limit != 0 {
		args["limit"] = limit
	}
	return callFeed(t, corpusOf(), h, args)
}

// callFeed calls list_decision_changes through Call with any arguments.
func callFeed(t *testing.T, r ports.CorpusReader, h ports.HistoryReader, args map[string]any) Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	svc := New(r, Options{Extended: true, History: h})
	res, err := svc.Call(context.Background(), ToolListDecisionChanges, raw)
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	if res.IsError {
		t.Fatalf("refused: %s", res.Text)
	}
	return res
}

// chainReader serves the chain tool's fixture, which has 4 findings.
func chainReader() *memcorpus.Reader {
	var files []fakeFile
	for _, c := range chainCorpus() {
		files = append(files, regular(strings.TrimPrefix(c.Path, "docs/adr/"), string(c.Content)))
	}
	return corpusOf(files...)
}

func pageOf(t *testing.T, res Result) ChangesAnswer {
	t.Helper()
	a, ok := res.Structured.Result.(ChangesAnswer)
	if !ok {
		t.Fatalf("outcome %T: %s", res.Structured.Result, res.Text)
	}
	return a
}

func TestFeedCursorSemantics(t *testing.T) {
	h, commits := sampleHistory()
	head := commits[4]
	headCursor := feed.Encode(feed.Position{Commit: head}, "docs/adr")
	cases := []struct {
		name   string
		since  *string
		limit  int
		items  []string
		cursor string
		more   bool
		text   string
	}{
		{"no since: the head cursor, no backfill", nil, 0, nil, headCursor, false,
			"Returned 0 decision changes; the feed is up to date; 0 findings on this page."},
		{"0_ replays everything", ptr(feed.ReplayToken), 0, allSample, headCursor, false,
			"Returned 6 decision changes; the feed is up to date; 0 findings on this page."},
		{"a full page has more", ptr(feed.ReplayToken), 2, allSample[:2],
			feed.Encode(feed.Position{Commit: commits[2], Within: 1}, "docs/adr"), true,
			"Returned 2 decision changes; more changes may follow; 0 findings on this page."},
		{"a page ending with its commit's last change", ptr(feed.ReplayToken), 3, allSample[:3],
			feed.Encode(feed.Position{Commit: commits[2]}, "docs/adr"), true, ""},
		{"exactly everything is still a full page", ptr(feed.ReplayToken), 6, allSample, headCursor, true, ""},
		{"inside a commit", ptr(feed.Encode(feed.Position{Commit: commits[2], Within: 1}, "docs/adr")), 0,
			allSample[2:], headCursor, false, ""},
		{"after a commit", ptr(feed.Encode(feed.Position{Commit: commits[2]}, "docs/adr")), 0,
			allSample[3:], headCursor, false, ""},
		{"after a commit without changes", ptr(feed.Encode(feed.Position{Commit: commits[1]}, "docs/adr")), 1,
			allSample[1:2], feed.Encode(feed.Position{Commit: commits[2], Within: 1}, "docs/adr"), true, ""},
		{"at the head", ptr(headCursor), 0, nil, headCursor, false, ""},
		{"a count past the commit's changes resumes after it",
			ptr(feed.Encode(feed.Position{Commit: commits[2], Within: 9}, "docs/adr")), 0, allSample[3:], headCursor, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := poll(t, h, tc.since, tc.limit)
			pg := pageOf(t, res)
			var got []string
			for _, it := range pg.Items {
				got = append(got, line(it, commits))
			}
			if strings.Join(got, "\n") != strings.Join(tc.items, "\n") {
				t.Errorf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.items, "\n"))
			}
			if pg.Cursor != tc.cursor {
				t.Errorf("cursor %q, want %q", pg.Cursor, tc.cursor)
			}
			if pg.HasMore != tc.more {
				t.Errorf("hasMore %v", pg.HasMore)
			}
			if pg.Head == nil || *pg.Head != head {
				t.Errorf("head %v", pg.Head)
			}
			if tc.text != "" && res.Text != tc.text {
				t.Errorf("text %q", res.Text)
			}
		})
	}
}

// Walking the feed page by page, with any page size, gives every change
// once, in order.
func TestFeedWalkEveryLimit(t *testing.T) {
	h, commits := sampleHistory()
	for limit := 1; limit <= 8; limit++ {
		since := feed.ReplayToken
		var got []string
		for pages := 0; ; pages++ {
			if pages > 20 {
				t.Fatalf("limit %d: no end", limit)
			}
			pg := pageOf(t, poll(t, h, &since, limit))
			if len(pg.Items) > limit {
				t.Fatalf("limit %d: page of %d", limit, len(pg.Items))
			}
			for _, it := range pg.Items {
				got = append(got, line(it, commits))
			}
			since = pg.Cursor
			if !pg.HasMore {
				break
			}
		}
		if strings.Join(got, "\n") != strings.Join(allSample, "\n") {
			t.Errorf("limit %d:\n%s", limit, strings.Join(got, "\n"))
		}
	}
}

func TestFeedPollingAndRewrites(t *testing.T) {
	h, commits := sampleHistory()
	start := pageOf(t, poll(t, h, nil, 0)).Cursor

	// New commits after the head cursor are what the next poll returns.
	c6 := h.commit("6", "0002-bee.md=0002 accepted Better title", "README.md=hello", "0003-c.md=0003 draft")
	commits = append(commits, c6)
	h.parents = 0
	pg := pageOf(t, poll(t, h, &start, 0))
	var got []string
	for _, it := range pg.Items {
		got = append(got, line(it, commits))
	}
	want := "c6 status-changed 0002 docs/adr/0002-bee.md proposed->accepted\nc6 added 0003 docs/adr/0003-c.md (became-valid)"
	if strings.Join(got, "\n") != want {
		t.Errorf("after a new commit:\n%s", strings.Join(got, "\n"))
	}
	// The walk back stopped at the cursor's commit: the parent of the
	// one new commit, and the parent of the oldest commit to diff.
	if h.parents > 2 {
		t.Errorf("%d Parent calls for one new commit", h.parents)
	}
	if pg.Items[0].CommittedAt != "2026-12-02T09:05:00Z" {
		t.Errorf("committedAt %q", pg.Items[0].CommittedAt)
	}

	// A force-push that drops c5 and c6: their cursors restart, an
	// older one still continues.
	afterC5 := pg.Cursor
	h.commits = h.commits[:4]
	c5b := h.commit("5b", "0001-a.md=0001 deprecated")
	res := poll(t, h, &afterC5, 0)
	r, ok := res.Structured.Result.(RestartAnswer)
	if !ok {
		t.Fatalf("after a rewrite: %s", res.Text)
	}
	if r.Reason != feed.CommitNotInHistory || r.ReplayCursor != "0_" ||
		r.HeadCursor != feed.Encode(feed.Position{Commit: c5b}, "docs/adr") || res.Text != r.Message {
		t.Errorf("restart %+v / %q", r, res.Text)
	}
	afterC3 := feed.Encode(feed.Position{Commit: commits[2]}, "docs/adr")
	pg = pageOf(t, poll(t, h, &afterC3, 0))
	got = nil
	for _, it := range pg.Items {
		got = append(got, line(it, append(commits[:4:4], c5b)))
	}
	want = "c4 renamed 0002 docs/adr/0002-bee.md from docs/adr/0002-b.md\n" +
		"c5 status-changed 0001 docs/adr/0001-a.md accepted->deprecated\n" +
		"c5 removed 0002 docs/adr/0002-bee.md (file-deleted)"
	if strings.Join(got, "\n") != want {
		t.Errorf("after the rewrite, from c3:\n%s", strings.Join(got, "\n"))
	}
}

func TestFeedRefusedCursors(t *testing.T) {
	h, commits := sampleHistory()
	cases := []struct {
		since string
		want  cursor.Reason
	}{
		{"not-a-cursor", cursor.DecodeFailed},
		{"", cursor.DecodeFailed},
		{cursor.Mint(cursor.SupersededResults, testFP, testFP, 1), cursor.WrongChannel},
		{feed.Encode(feed.Position{Commit: commits[2]}, "decisions"), cursor.QueryMismatch},
	}
	for _, tc := range cases {
		res := poll(t, h, &tc.since, 0)
		ic, ok := res.Structured.Result.(InvalidCursor)
		if !ok || ic.Reason != tc.want || res.Text != tc.want.Message() || res.Structured.CorpusHealth == nil {
			t.Errorf("%q: %s %+v", tc.since, res.Text, res.Structured)
		}
	}
}

// The feed's answers carry the corpusHealth of the corpus as the other
// tools serve it, and its substantive answers a page of the corpus
// findings, paged with a cursor of the feed's own findings channel.
func TestFeedFindingsChannel(t *testing.T) {
	h, commits := sampleHistory()
	reader := chainReader()
	p, err := New(reader, Options{}).Project(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	health := healthOf(p)
	if len(p.Findings) != 4 {
		t.Fatalf("the fixture has %d findings, want 4", len(p.Findings))
	}

	// Page through the findings one at a time while the feed stays at the
	// head: every page is a changes answer with the same health.
	var got []string
	var fc *string
	for i := 0; ; i++ {
		args := map[string]any{"findingsLimit": 1}
		if fc != nil {
			args["findingsCursor"] = *fc
		}
		res := callFeed(t, reader, h, args)
		a := res.Structured
		if *a.CorpusHealth != *health {
			t.Errorf("page %d: corpusHealth %+v, want %+v", i, a.CorpusHealth, health)
		}
		pg := pageOf(t, res)
		if len(pg.Findings.Items) != 1 {
			t.Fatalf("page %d: %d findings", i, len(pg.Findings.Items))
		}
		if want := "Returned 0 decision changes; the feed is up to date; 1 finding on this page."; res.Text != want {
			t.Errorf("page %d: text %q", i, res.Text)
		}
		got = append(got, pg.Findings.Items[0].Message)
		if fc = pg.Findings.Cursor; fc == nil {
			break
		}
		if i > 4 {
			t.Fatal("the findings do not end")
		}
	}
	if len(got) != len(p.Findings) {
		t.Errorf("paged %d findings, want %d", len(got), len(p.Findings))
	}

	// The default findings page holds all four, with a replay as well.
	res := callFeed(t, reader, h, map[string]any{"since": feed.ReplayToken})
	pg := pageOf(t, res)
	if len(pg.Items) != len(allSample) || len(pg.Findings.Items) != 4 || pg.Findings.Cursor != nil ||
		res.Text != "Returned 6 decision changes; the feed is up to date; 4 findings on this page." {
		t.Errorf("replay: %d changes, findings %+v, %q", len(pg.Items), pg.Findings, res.Text)
	}

	// A restart carries corpusHealth and no findings.
	gone := feed.Encode(feed.Position{Commit: strings.Repeat("cd", 20)}, "docs/adr")
	res = callFeed(t, reader, h, map[string]any{"since": gone})
	if _, ok := res.Structured.Result.(RestartAnswer); !ok || *res.Structured.CorpusHealth != *health {
		t.Errorf("restart: %s %+v", res.Text, res.Structured)
	}
	if strings.Contains(string(render(t, res)), "findings") {
		t.Errorf("a restart has findings: %s", render(t, res))
	}

	// Cursors: since first, then findingsCursor; every refusal carries
	// corpusHealth.
	first := pageOf(t, callFeed(t, reader, h, map[string]any{"findingsLimit": 2})).Findings.Cursor
	if first == nil {
		t.Fatal("no findings cursor")
	}
	other := func(scope cursor.Scope) string { return cursor.Mint(scope, p.Fingerprint, cursor.QueryHash(2), 2) }
	after := feed.Encode(feed.Position{Commit: commits[2]}, "docs/adr")
	cases := []struct {
		name string
		args map[string]any
		want cursor.Reason
	}{
		{"its own cursor", map[string]any{"findingsLimit": 2, "findingsCursor": *first}, cursor.OK},
		{"with a since", map[string]any{"since": after, "findingsLimit": 2, "findingsCursor": *first}, cursor.OK},
		{"garbage", map[string]any{"findingsCursor": "garbage"}, cursor.DecodeFailed},
		{"get_decision's findings cursor", map[string]any{"findingsLimit": 2, "findingsCursor": other(cursor.DecisionFindings)}, cursor.WrongChannel},
		{"the chain's findings cursor", map[string]any{"findingsLimit": 2, "findingsCursor": other(cursor.ChainFindings)}, cursor.WrongChannel},
		{"search's findings cursor", map[string]any{"findingsLimit": 2, "findingsCursor": other(cursor.SearchFindings)}, cursor.WrongChannel},
		{"a feed findings cursor as since", map[string]any{"since": *first}, cursor.WrongChannel},
		{"a feed cursor as findingsCursor", map[string]any{"findingsCursor": after}, cursor.DecodeFailed},
		{"another corpus", map[string]any{"findingsLimit": 2, "findingsCursor": cursor.Mint(cursor.ChangesFindings, testFP, cursor.QueryHash(2), 2)}, cursor.CorpusChanged},
		{"another findings limit", map[string]any{"findingsLimit": 3, "findingsCursor": *first}, cursor.QueryMismatch},
		{"past the end", map[string]any{"findingsLimit": 2, "findingsCursor": cursor.Mint(cursor.ChangesFindings, p.Fingerprint, cursor.QueryHash(2), 4)}, cursor.OffsetOutOfRange},
		{"a bad since wins over a bad findings cursor", map[string]any{"since": "x", "findingsCursor": other(cursor.ChainFindings)}, cursor.DecodeFailed},
		{"a bad findings cursor wins over a restart", map[string]any{"since": gone, "findingsCursor": "x"}, cursor.DecodeFailed},
	}
	for _, tc := range cases {
		res := callFeed(t, reader, h, tc.args)
		a := res.Structured
		if *a.CorpusHealth != *health {
			t.Errorf("%s: corpusHealth %+v", tc.name, a.CorpusHealth)
		}
		ic, refused := a.Result.(InvalidCursor)
		switch {
		case tc.want == cursor.OK && refused:
			t.Errorf("%s: refused %s", tc.name, ic.Reason)
		case tc.want != cursor.OK && (!refused || ic.Reason != tc.want || res.Text != tc.want.Message()):
			t.Errorf("%s: %s, want %s", tc.name, res.Text, tc.want)
		}
	}
}

// The feed's findings cursors and the other tools' refuse each other as
// wrong-channel, both ways, over the same corpus and findings limit.
func TestFeedFindingsCursorsAreTheirOwn(t *testing.T) {
	h, _ := sampleHistory()
	reader := chainReader()
	ctx := context.Background()
	svc := New(reader, Options{Extended: true, History: h})
	feedCursor := pageOf(t, callFeed(t, reader, h, map[string]any{"findingsLimit": 2})).Findings.Cursor
	chain, _ := svc.CallInput(ctx, ChainInput{Ref: "0001", FindingsLimit: 2})
	chainCursor := chain.Structured.Result.(ChainAnswer).Findings.Cursor
	get, _ := svc.CallInput(ctx, GetInput{Ref: "0001", Page: Page{FindingsLimit: 2}})
	getCursor := get.Structured.Result.(Found).Findings.Cursor
	if feedCursor == nil || chainCursor == nil || getCursor == nil {
		t.Fatal("missing findings cursors")
	}
	reason := func(res Result, err error) cursor.Reason {
		if err != nil {
			t.Fatal(err)
		}
		if ic, ok := res.Structured.Result.(InvalidCursor); ok {
			return ic.Reason
		}
		return cursor.OK
	}
	cases := []struct {
		name string
		got  cursor.Reason
		want cursor.Reason
	}{
		{"feed cursor to the feed", reason(svc.CallInput(ctx, ChangesInput{FindingsLimit: 2, FindingsCursor: feedCursor})), cursor.OK},
		{"feed cursor to the chain", reason(svc.CallInput(ctx, ChainInput{Ref: "0001", FindingsLimit: 2, FindingsCursor: feedCursor})), cursor.WrongChannel},
		{"feed cursor to get_decision", reason(svc.CallInput(ctx, GetInput{Ref: "0001", Page: Page{FindingsLimit: 2, FindingsCursor: feedCursor}})), cursor.WrongChannel},
		{"feed cursor to search", reason(svc.CallInput(ctx, SearchInput{Query: "decision", Page: Page{FindingsLimit: 2, FindingsCursor: feedCursor}})), cursor.WrongChannel},
		{"chain cursor to the feed", reason(svc.CallInput(ctx, ChangesInput{FindingsLimit: 2, FindingsCursor: chainCursor})), cursor.WrongChannel},
		{"get_decision cursor to the feed", reason(svc.CallInput(ctx, ChangesInput{FindingsLimit: 2, FindingsCursor: getCursor})), cursor.WrongChannel},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// The order of the checks: arguments, then the corpus, then the history,
// then the cursors.
func TestFeedCheckOrder(t *testing.T) {
	ctx := context.Background()
	h, _ := sampleHistory()
	outcome := func(res Result) string {
		if res.IsError {
			return "isError"
		}
		a := res.Structured
		o := reflectOutcome(t, a.Result)
		if (a.CorpusHealth == nil) != (o == OutcomeCorpusUnavailable) {
			t.Errorf("%s with corpusHealth %v", o, a.CorpusHealth)
		}
		return o
	}
	gone := openFails(unavailableErr(corpus.DirNotFound))
	noHistory := &fakeHistory{openErr: &ports.HistoryUnavailableError{Reason: feed.NoRepository}}
	cases := []struct {
		name   string
		reader *memcorpus.Reader
		h      ports.HistoryReader
		args   string
		want   string
	}{
		{"refused arguments before the corpus", gone, noHistory, `{"limit":0,"since":"x"}`, "isError"},
		{"the corpus before the history", gone, noHistory, `{"since":"x"}`, OutcomeCorpusUnavailable},
		{"the corpus without any history", gone, nil, `{}`, OutcomeCorpusUnavailable},
		{"the history before the cursors", corpusOf(), noHistory, `{"since":"x","findingsCursor":"y"}`, OutcomeHistoryUnavailable},
		{"then the cursors", corpusOf(), h, `{"since":"x"}`, OutcomeInvalidCursor},
	}
	for _, tc := range cases {
		opens := tc.reader.Opens()
		res, err := New(tc.reader, Options{Extended: true, History: tc.h}).Call(ctx, ToolListDecisionChanges, json.RawMessage(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		if got := outcome(res); got != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, got, res.Text, tc.want)
		}
		if tc.want == "isError" && tc.reader.Opens() != opens {
			t.Errorf("%s: refused arguments opened the corpus", tc.name)
		}
	}
	res, _ := New(gone, Options{Extended: true, History: h}).CallInput(ctx, ChangesInput{})
	if res.Text != corpus.DirNotFound.Message() {
		t.Errorf("corpus-unavailable text %q", res.Text)
	}
}

// reflectOutcome reads the outcome member of any result.
func reflectOutcome(t *testing.T, result any) string {
	t.Helper()
	raw, err := json.Marshal(result)
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		Outcome string `json:"outcome"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	return o.Outcome
}

func TestFeedEdgeHistories(t *testing.T) {
	// A branch without commits: the feed is empty, and its cursor is the
	// replay token, so the first commits are not missed.
	empty := &fakeHistory{}
	pg := pageOf(t, poll(t, empty, nil, 0))
	if pg.Cursor != feed.ReplayToken || pg.Head != nil || len(pg.Items) != 0 {
		t.Errorf("unborn: %+v", pg)
	}
	pg = pageOf(t, poll(t, empty, ptr(feed.ReplayToken), 0))
	if pg.Cursor != feed.ReplayToken || pg.HasMore {
		t.Errorf("unborn replay: %+v", pg)
	}
	old := feed.Encode(feed.Position{Commit: strings.Repeat("ab", 20)}, "docs/adr")
	res := poll(t, empty, &old, 0)
	if r, ok := res.Structured.Result.(RestartAnswer); !ok || r.HeadCursor != feed.ReplayToken {
		t.Errorf("unborn with a cursor: %s", res.Text)
	}

	// A directory that appears, disappears and comes back.
	h := &fakeHistory{}
	c := []string{
		h.commit("1", "-"),
		h.commit("2", "0001-a.md=0001 accepted", "0002-b.md=0002 draft"),
		h.commit("3", "-"),
		h.commit("4", "0001-a.md=0001 accepted", "drafts/=x"),
	}
	pg = pageOf(t, poll(t, h, ptr(feed.ReplayToken), 0))
	var got []string
	for _, it := range pg.Items {
		got = append(got, line(it, c))
	}
	want := "c2 added 0001 docs/adr/0001-a.md (file-created)\nc2 added 0002 docs/adr/0002-b.md (file-created)\n" +
		"c3 removed 0001 docs/adr/0001-a.md (file-deleted)\nc3 removed 0002 docs/adr/0002-b.md (file-deleted)\n" +
		"c4 added 0001 docs/adr/0001-a.md (file-created)"
	if strings.Join(got, "\n") != want {
		t.Errorf("directory comes and goes:\n%s", strings.Join(got, "\n"))
	}

	// Invalid and oversized files are not records.
	h = &fakeHistory{}
	c = []string{
		h.commit("1", "0001-a.md=0001 accepted", "0002-b.md=0002 accepted"),
		h.commit("2", "0001-a.md=broken", "0002-b.md="+strings.Repeat("x", 70000)),
		h.commit("3", "0001-a.md=0001 accepted", "0002-b.md=0002 accepted"),
	}
	pg = pageOf(t, poll(t, h, ptr(feed.ReplayToken), 0))
	got = nil
	for _, it := range pg.Items {
		got = append(got, line(it, c))
	}
	want = "c1 added 0001 docs/adr/0001-a.md (file-created)\nc1 added 0002 docs/adr/0002-b.md (file-created)\n" +
		"c2 removed 0001 docs/adr/0001-a.md (became-invalid)\nc2 removed 0002 docs/adr/0002-b.md (became-invalid)\n" +
		"c3 added 0001 docs/adr/0001-a.md (became-valid)\nc3 added 0002 docs/adr/0002-b.md (became-valid)"
	if strings.Join(got, "\n") != want {
		t.Errorf("invalid files:\n%s", strings.Join(got, "\n"))
	}
}

func TestFeedUnavailable(t *testing.T) {
	svc := New(corpusOf(), Options{Extended: true})
	res, err := svc.Call(context.Background(), ToolListDecisionChanges, nil)
	if err != nil {
		t.Fatal(err)
	}
	if hu, ok := res.Structured.Result.(HistoryUnavailable); !ok || hu.Reason != feed.NoRepository ||
		res.Structured.CorpusHealth == nil {
		t.Errorf("without a history: %s %+v", res.Text, res.Structured)
	}

	h := &fakeHistory{openErr: &ports.HistoryUnavailableError{Reason: feed.RevisionNotFound}}
	res = poll(t, h, nil, 0)
	if hu, ok := res.Structured.Result.(HistoryUnavailable); !ok || hu.Reason != feed.RevisionNotFound ||
		res.Text != "Configured git revision does not name a commit." {
		t.Errorf("bad revision: %s", res.Text)
	}

	h.openErr = errors.New("disk on fire")
	if _, err := New(corpusOf(), Options{Extended: true, History: h}).Call(context.Background(), ToolListDecisionChanges, nil); err == nil {
		t.Error("an unexpected failure was not a fault")
	}

	// A shallow history: polling near the head works, a replay does not.
	h, commits := sampleHistory()
	h.missingFrom = 2
	near := feed.Encode(feed.Position{Commit: commits[3]}, "docs/adr")
	if pg := pageOf(t, poll(t, h, &near, 0)); len(pg.Items) != 2 {
		t.Errorf("near the head: %d items", len(pg.Items))
	}
	res = poll(t, h, ptr(feed.ReplayToken), 0)
	if hu, ok := res.Structured.Result.(HistoryUnavailable); !ok || hu.Reason != feed.HistoryIncomplete {
		t.Errorf("replay of a shallow history: %s", res.Text)
	}
}

func TestChangesValidation(t *testing.T) {
	svc := New(corpusOf(), Options{Extended: true, History: &fakeHistory{}})
	cases := []struct{ args, want string }{
		{`{"limit":0}`, "limit: must be an integer from 1 to 200, got 0"},
		{`{"limit":201}`, "limit: must be an integer from 1 to 200, got 201"},
		{`{"limit":1.5}`, "limit: must be an integer from 1 to 200, got 1.5"},
		{`{"limit":"5"}`, "limit: must be an integer from 1 to 200, got string"},
		{`{"limit":null}`, "limit: must be an integer from 1 to 200, got null"},
		{`{"since":5}`, "since: must be a string, got number"},
		{`{"since":null}`, "since: must be a string, got null"},
		{`{"since":"` + strings.Repeat("a", 4097) + `"}`, "since: must be at most 4096 characters (UTF-16 code units), got 4097"},
		{`{"cursor":"x","limit":-1}`, "limit: must be an integer from 1 to 200, got -1; unknown argument \"cursor\""},
		{`{"findingsLimit":0}`, "findingsLimit: must be an integer from 1 to 100, got 0"},
		{`{"findingsLimit":101}`, "findingsLimit: must be an integer from 1 to 100, got 101"},
		{`{"findingsLimit":200,"limit":200}`, "findingsLimit: must be an integer from 1 to 100, got 200"},
		{`{"findingsCursor":null}`, "findingsCursor: must be a string, got null"},
		{`{"findingsCursor":"` + strings.Repeat("a", 4097) + `"}`, "findingsCursor: must be at most 4096 characters (UTF-16 code units), got 4097"},
		{`{"findingsLimit":"1","since":1,"limit":0}`, "since: must be a string, got number; limit: must be an integer from 1 to 200, got 0; findingsLimit: must be an integer from 1 to 100, got string"},
	}
	for _, tc := range cases {
		res, err := svc.Call(context.Background(), ToolListDecisionChanges, json.RawMessage(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		want := "Input validation error: Invalid arguments for tool list_decision_changes: " + tc.want
		if !res.IsError || res.Text != want {
			t.Errorf("%s:\n got %q\nwant %q", tc.args, res.Text, want)
		}
	}
	for _, args := range []string{`{"limit":200}`, `{"limit":1e2}`, `{"limit":1}`, `{}`, ``, `{"findingsLimit":100}`, `{"findingsLimit":1,"findingsCursor":"x"}`} {
		res, err := svc.Call(context.Background(), ToolListDecisionChanges, json.RawMessage(args))
		if err != nil || res.IsError {
			t.Errorf("%s refused: %s %v", args, res.Text, err)
		}
	}

	// The typed entry point refuses the same way.
	res, _ := svc.CallInput(context.Background(), ChangesInput{Limit: 500})
	if !res.IsError || !strings.HasSuffix(res.Text, "limit: must be an integer from 1 to 200, got 500") {
		t.Errorf("typed: %q", res.Text)
	}
	res, _ = svc.CallInput(context.Background(), ChangesInput{FindingsLimit: 101, FindingsCursor: ptr("")})
	if !res.IsError || !strings.HasSuffix(res.Text, "findingsLimit: must be an integer from 1 to 100, got 101") {
		t.Errorf("typed findings: %q", res.Text)
	}
}

// The default surface does not answer the extended tools at all.
func TestDefaultSurfaceHasNoExtendedTools(t *testing.T) {
	svc := New(corpusOf(), Options{History: &fakeHistory{}})
	if got := strings.Join(toolNames(svc), ","); got != "get_decision,get_decision_context,list_superseded,search_decisions" {
		t.Errorf("default tools %s", got)
	}
	for _, tool := range []string{ToolGetSupersessionChain, ToolListDecisionChanges, ToolListReviewQueue, ToolQueryDecision} {
		if _, err := svc.Call(context.Background(), tool, nil); !errors.Is(err, ErrUnknownTool) {
			t.Errorf("%s: %v", tool, err)
		}
	}
	ext := New(corpusOf(), Options{Extended: true})
	if got := strings.Join(toolNames(ext), ","); got != "get_decision,get_decision_context,get_supersession_chain,list_decision_changes,list_review_queue,list_superseded,query_decision,search_decisions" {
		t.Errorf("extended tools %s", got)
	}
}

// TestPageSize: the four tools' limits and the feed's share one reader,
// with the same type rules and wording and each its own bounds.
func TestPageSize(t *testing.T) {
	cases := []struct {
		name   string
		raw    string // "" for an absent property
		lo, hi int
		want   int
		issue  string
	}{
		{"absent is the default", "", 1, 100, 0, ""},
		{"integer", "5", 1, 100, 5, ""},
		{"exponent", "1e2", 1, 100, 100, ""},
		{"integral fraction", "20.0", 1, 200, 20, ""},
		{"over the tools' bound", "150", 1, 100, 0, "n: must be an integer from 1 to 100, got 150"},
		{"within the feed's bound", "150", 1, 200, 150, ""},
		{"over the feed's bound", "201", 1, 200, 0, "n: must be an integer from 1 to 200, got 201"},
		{"zero", "0", 1, 200, 0, "n: must be an integer from 1 to 200, got 0"},
		{"fraction", "1.5", 1, 100, 0, "n: must be an integer from 1 to 100, got 1.5"},
		{"huge literal", "1e999", 1, 200, 0, "n: must be an integer from 1 to 200, got 1e999"},
		{"string", `"5"`, 1, 200, 0, "n: must be an integer from 1 to 200, got string"},
		{"null", "null", 1, 100, 0, "n: must be an integer from 1 to 100, got null"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			set := argSet{vals: map[string]json.RawMessage{}}
			if tc.raw != "" {
				set.order, set.vals["n"] = []string{"n"}, json.RawMessage(tc.raw)
			}
			r := newArgReader(set, nil)
			got := r.pageSize("n", tc.lo, tc.hi)
			var issues []string
			for _, is := range r.finish() {
				issues = append(issues, is.String())
			}
			if got != tc.want || strings.Join(issues, "; ") != tc.issue {
				t.Errorf("pageSize = %d, %q; want %d, %q", got, issues, tc.want, tc.issue)
			}
		})
	}
}

// TestGoldenChangesFindings pins a changes answer over a corpus with
// findings: corpusHealth, a findings page with its cursor, and the
// summary line that counts them. The other feed goldens are in
// TestGoldenExtended.
func TestGoldenChangesFindings(t *testing.T) {
	h, _ := sampleHistory()
	svc := New(chainReader(), Options{Extended: true, History: h})
	res, err := svc.CallInput(context.Background(), ChangesInput{Since: ptr(feed.ReplayToken), Limit: 2, FindingsLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	goldie.New(t, goldie.WithFixtureDir(goldenDir)).Assert(t, "changes-findings", render(t, res))
}

// toolNames lists the names of the tools svc serves.
func toolNames(svc *Service) []string {
	var names []string
	for _, t := range svc.Tools() {
		names = append(names, t.Name)
	}
	return names
}
