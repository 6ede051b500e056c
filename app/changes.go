package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/ports"
)

// Page sizes of list_decision_changes. The feed allows bigger pages than
// the four tools: a change is small, and a poller catching up after a
// weekend should not need hundreds of calls. MaxChangesLimit is exported
// for callers that walk the whole feed in as few calls as they may.
const (
	DefaultChangesLimit = 50
	minChangesLimit     = 1
	MaxChangesLimit     = 200
)

// Outcomes of list_decision_changes.
const (
	OutcomeChanges            = "changes"
	OutcomeRestart            = "restart"
	OutcomeHistoryUnavailable = "history-unavailable"
)

// ChangesInput is the validated argument set of list_decision_changes. A
// nil Since is absent: start from the head without backfill.
type ChangesInput struct {
	Since *string `json:"since,omitzero"`
	// Limit is the page size; 0 means DefaultChangesLimit.
	Limit int `json:"limit,omitzero"`
	// FindingsCursor and FindingsLimit page the findings channel, as in
	// the four tools (FindingsLimit 0 means DefaultLimit).
	FindingsCursor *string `json:"findingsCursor,omitzero"`
	FindingsLimit  int     `json:"findingsLimit,omitzero"`
	// whole reads the feed up to the head and every finding (Whole).
	whole bool
}

// page is the findings half of the input in the four tools' shape; the
// feed's own channel is not a Page (its cursor is a position, not an
// offset).
func (in ChangesInput) page() Page {
	return Page{FindingsCursor: in.FindingsCursor, FindingsLimit: in.FindingsLimit, whole: in.whole}
}

func (in ChangesInput) limit() int {
	switch {
	case in.whole:
		return math.MaxInt
	case in.Limit == 0:
		return DefaultChangesLimit
	}
	return in.Limit
}

// readChanges reads list_decision_changes arguments in schema property
// order: since, limit, findingsCursor, findingsLimit.
func readChanges(r *argReader) ChangesInput {
	var in ChangesInput
	in.Since = r.str("since", false, checkCursor)
	in.Limit = r.pageSize("limit", minChangesLimit, MaxChangesLimit)
	in.FindingsCursor = r.str("findingsCursor", false, checkCursor)
	in.FindingsLimit = r.limit("findingsLimit")
	return in
}

// ChangesAnswer is the changes outcome: one page of the feed.
type ChangesAnswer struct {
	Outcome string       `json:"outcome"`
	Items   []ChangeItem `json:"items"`
	// Cursor continues the feed after this page; never null, because a
	// feed always has a position.
	Cursor string `json:"cursor"`
	// HasMore is true when the page is full: more changes may follow
	// (the next page may still be empty).
	HasMore bool `json:"hasMore"`
	// Head is the commit the feed was read up to; null on a branch
	// without commits.
	Head *string `json:"head"`
	// Findings is a page of the corpus findings, as in the four tools.
	Findings FindingsPage `json:"findings"`
}

// ChangeItem is one record-level change. Members that do not apply to
// the kind are absent.
type ChangeItem struct {
	Kind        feed.Kind  `json:"kind"`
	ID          Text       `json:"id"`
	Title       Text       `json:"title"`
	Status      adr.Status `json:"status"`
	SourcePath  Text       `json:"sourcePath"`
	FromPath    Text       `json:"fromPath,omitempty"`
	Before      adr.Status `json:"before,omitempty"`
	After       adr.Status `json:"after,omitempty"`
	Cause       feed.Cause `json:"cause,omitempty"`
	Commit      string     `json:"commit"`
	CommittedAt string     `json:"committedAt"`
}

// RestartAnswer says the cursor cannot be continued: the client starts
// again from ReplayCursor (every change again) or HeadCursor (none).
type RestartAnswer struct {
	Outcome      string             `json:"outcome"`
	Reason       feed.RestartReason `json:"reason"`
	Message      string             `json:"message"`
	ReplayCursor string             `json:"replayCursor"`
	HeadCursor   string             `json:"headCursor"`
}

// HistoryUnavailable says the history cannot be read at all.
type HistoryUnavailable struct {
	Outcome string                 `json:"outcome"`
	Reason  feed.UnavailableReason `json:"reason"`
	Message string                 `json:"message"`
}

func (r ChangesAnswer) summary() string {
	return summaryChanges(len(r.Items), r.HasMore, len(r.Findings.Items))
}

func (r RestartAnswer) summary() string { return r.Message }

func (r HistoryUnavailable) summary() string { return r.Message }

// WithHistory returns a Service that answers from the same corpus source
// (and memo) as s and reads the history of list_decision_changes from h:
// the command line settles and checks its corpus reader once, then adds
// the history for the one command that needs it.
func (s *Service) WithHistory(h ports.HistoryReader) *Service {
	c := *s
	c.opts.History = h
	return &c
}

// answerChanges answers list_decision_changes in the four tools' order:
// the corpus first (corpus-unavailable, without corpusHealth, when it
// cannot be projected), then the history (history-unavailable), then the
// cursors, since before findingsCursor, then the page. Every answer past
// the projection carries its corpusHealth: the corpus as the other tools
// serve it right now, from the working tree or the --rev revision.
func (s *Service) answerChanges(ctx context.Context, in ChangesInput) (Result, error) {
	var fault error
	res, err := s.withProjection(ctx, func(p *corpus.Projection) Result {
		var res Result
		res, fault = s.feedAnswer(ctx, p, in)
		return res
	})
	if err != nil {
		return Result{}, err
	}
	if fault != nil {
		return Result{}, fault
	}
	return res, nil
}

// feedAnswer is list_decision_changes over one projection.
func (s *Service) feedAnswer(ctx context.Context, p *corpus.Projection, in ChangesInput) (Result, error) {
	if s.opts.History == nil {
		return historyUnavailable(p, feed.NoRepository), nil
	}
	h, err := s.opts.History.OpenHistory(ctx)
	if err != nil {
		return historyFault(p, err)
	}
	res, err := feedPage(ctx, p, h, in, s.opts.Parse)
	if err != nil {
		return historyFault(p, err)
	}
	return res, nil
}

// historyFault turns a history-unavailable error into its answer and
// passes every other error on as a fault.
func historyFault(p *corpus.Projection, err error) (Result, error) {
	var hu *ports.HistoryUnavailableError
	if errors.As(err, &hu) {
		return historyUnavailable(p, hu.Reason), nil
	}
	return Result{}, err
}

// historyUnavailable is the history-unavailable answer: the corpus was
// projected, so it carries corpusHealth, but there is no page and so no
// findings.
func historyUnavailable(p *corpus.Projection, r feed.UnavailableReason) Result {
	msg := r.Message()
	return answer(p, HistoryUnavailable{Outcome: OutcomeHistoryUnavailable, Reason: r, Message: msg})
}

// feedPage computes one page of the feed of h from in.Since, with a page
// of p's findings.
//
// The feed is the record-level changes of every first-parent commit,
// oldest commit first, each commit's changes in feed.Compare order. A
// position is a commit and how many of its changes were delivered. The
// page walks back from the head to the position's commit (a rewrite that
// dropped it is a restart), then forwards, diffing only the commits whose
// ADR directory differs from their parent's.
//
// Both cursors are checked before the history is walked, since first, as
// the four tools check their primary cursor before their findings
// cursor: a refusal of either is invalid-cursor. A restart is an outcome
// of the walk (the since cursor was sound, its commit is gone); like
// invalid-cursor it has no findings.
func feedPage(ctx context.Context, p *corpus.Projection, h ports.History, in ChangesInput, parse corpus.ParseFunc) (Result, error) {
	dir := h.Dir()
	head, hasHead := h.Head()
	headPos := feed.Position{}
	var headRef *string
	if hasHead {
		headPos.Commit = head.Hash
		headRef = &head.Hash
	}
	headCursor := feed.Encode(headPos, dir)
	var pos feed.Position
	if in.Since != nil {
		var reason cursor.Reason
		if pos, reason = feed.Decode(*in.Since, dir); reason != cursor.OK {
			return invalidCursor(p, reason), nil
		}
	}
	// The findings channel has a scope of its own, so the other tools'
	// findings cursors and this one refuse each other as wrong-channel;
	// the query shape is theirs: the findings limit alone.
	ch := findingsChannel(cursor.ChangesFindings, in.page(), []any{in.page().findingsLimit()})
	fw, reason := ch.resolve(p.Fingerprint, len(p.Findings))
	if reason != cursor.OK {
		return invalidCursor(p, reason), nil
	}
	pg := changesPage{p: p, findings: findingsPage(p.Findings, fw), head: headRef}
	if in.Since == nil {
		return pg.result(nil, headCursor, false), nil
	}

	// Newest first: the commits after the position, then (when a page
	// ended inside it) the position's own commit.
	var commits []ports.Commit
	found := pos.Commit == ""
	for c, ok := head, hasHead; ok; {
		if c.Hash == pos.Commit {
			found = true
			if pos.Within > 0 {
				commits = append(commits, c)
			}
			break
		}
		commits = append(commits, c)
		var err error
		if c, ok, err = h.Parent(ctx, c); err != nil {
			return Result{}, err
		}
	}
	if !found {
		msg := feed.CommitNotInHistory.Message()
		return answer(p, RestartAnswer{
			Outcome: OutcomeRestart, Reason: feed.CommitNotInHistory, Message: msg,
			ReplayCursor: feed.ReplayToken, HeadCursor: headCursor,
		}), nil
	}
	if len(commits) == 0 {
		return pg.result(nil, headCursor, false), nil
	}

	// The parent of the oldest commit to diff: none at the root.
	oldest := commits[len(commits)-1]
	parent, hasParent, err := h.Parent(ctx, oldest)
	if err != nil {
		return Result{}, err
	}
	snaps := snapshotter{h: h, parse: parse, records: map[string]*feed.Record{}, byDir: map[string][]feed.File{}}
	prevDir := ""
	if hasParent {
		prevDir = parent.Dir
	}
	prev := parent

	limit := in.limit()
	var items []ChangeItem
	for i := len(commits) - 1; i >= 0; i-- {
		c := commits[i]
		skip := 0
		if c.Hash == pos.Commit {
			skip = pos.Within
		}
		if c.Dir != prevDir {
			before, err := snaps.of(ctx, prev, prevDir)
			if err != nil {
				return Result{}, err
			}
			after, err := snaps.of(ctx, c, c.Dir)
			if err != nil {
				return Result{}, err
			}
			changes := feed.Diff(before, after)
			for k := skip; k < len(changes); k++ {
				items = append(items, itemOf(changes[k], c))
				if len(items) == limit {
					next := feed.Position{Commit: c.Hash}
					if k+1 < len(changes) {
						next.Within = k + 1
					}
					return pg.result(items, feed.Encode(next, dir), true), nil
				}
			}
		}
		prev, prevDir = c, c.Dir
	}
	return pg.result(items, headCursor, false), nil
}

// changesPage is what every changes answer of one call shares: the
// projection, the findings page and the head.
type changesPage struct {
	p        *corpus.Projection
	findings FindingsPage
	head     *string
}

// result is the changes answer with these items and this cursor.
func (c changesPage) result(items []ChangeItem, next string, more bool) Result {
	return answer(c.p, ChangesAnswer{
		Outcome: OutcomeChanges, Items: nonNil(items), Cursor: next, HasMore: more, Head: c.head, Findings: c.findings,
	})
}

// summaryChanges is the summary line of the changes outcome.
func summaryChanges(n int, more bool, f int) string {
	state := "the feed is up to date"
	if more {
		state = "more changes may follow"
	}
	return capSummary(fmt.Sprintf("Returned %d decision %s; %s; %s", n, plural(n, "change", "changes"), state, findingsTail(f)))
}

func itemOf(c feed.Change, at ports.Commit) ChangeItem {
	return ChangeItem{
		Kind: c.Kind, ID: Text(c.ID), Title: Text(c.Title), Status: c.Status, SourcePath: Text(c.SourcePath),
		FromPath: Text(c.FromPath), Before: c.Before, After: c.After, Cause: c.Cause,
		Commit: at.Hash, CommittedAt: at.Time.UTC().Format(time.RFC3339),
	}
}

// snapshotter builds the feed snapshots of one call: each distinct ADR
// directory once, each distinct file content parsed once.
type snapshotter struct {
	h     ports.History
	parse corpus.ParseFunc
	// records memoises what a content holds (nil: not a valid record).
	records map[string]*feed.Record
	byDir   map[string][]feed.File
}

// of returns the snapshot of the ADR directory dir (c.Dir) in commit c:
// its candidate files, as record discovery sees them.
func (s *snapshotter) of(ctx context.Context, c ports.Commit, dir string) ([]feed.File, error) {
	if dir == "" {
		return nil, nil
	}
	if snap, ok := s.byDir[dir]; ok {
		return snap, nil
	}
	files, err := s.h.Files(ctx, c)
	if err != nil {
		return nil, err
	}
	var snap []feed.File
	for _, f := range files {
		if f.Kind != ports.KindRegular || !corpus.IsCandidateName(f.Name) {
			continue
		}
		rec, err := s.record(ctx, f)
		if err != nil {
			return nil, err
		}
		snap = append(snap, feed.File{Path: f.Path, Object: f.Object, Record: rec})
	}
	// Only the previous and the current directory are ever asked for
	// again; keeping two bounds the memory of a long replay.
	if len(s.byDir) >= 2 {
		clear(s.byDir)
	}
	s.byDir[dir] = snap
	return snap, nil
}

// record is what the content of f holds: a valid record as the corpus
// pipeline reads it, or nil (too large, or not valid).
func (s *snapshotter) record(ctx context.Context, f ports.HistoryFile) (*feed.Record, error) {
	if rec, ok := s.records[f.Object]; ok {
		return rec, nil
	}
	data, err := s.h.Read(ctx, f, corpus.MaxRecordBytes)
	var rerr *ports.ReadError
	switch {
	case errors.As(err, &rerr) && rerr.Kind == ports.ReadTooLarge:
		s.records[f.Object] = nil
		return nil, nil
	case err != nil:
		return nil, err
	}
	parse := s.parse
	if parse == nil {
		parse = func(path string, content []byte) (*adr.Record, []adr.Finding) {
			return frontmatter.ParseRecord(path, jsstring.DecodeUTF8(content))
		}
	}
	var rec *feed.Record
	if r, _ := parse(f.Path, data); r != nil {
		fm := r.Frontmatter
		rec = &feed.Record{ID: fm.ID, Title: fm.Title, Status: fm.Status}
	}
	s.records[f.Object] = rec
	return rec, nil
}
