package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/jsstring"
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
	Since *string
	// Limit is the page size; 0 means DefaultChangesLimit.
	Limit int
}

func (in ChangesInput) limit() int {
	if in.Limit == 0 {
		return DefaultChangesLimit
	}
	return in.Limit
}

func (in ChangesInput) issues() []issue {
	var out []issue
	if in.Since != nil {
		for _, m := range checkCursor(*in.Since) {
			out = append(out, issue{path: "since", msg: m})
		}
	}
	if in.Limit != 0 {
		for _, m := range checkPageSize(float64(in.Limit), strconv.Itoa(in.Limit), minChangesLimit, MaxChangesLimit) {
			out = append(out, issue{path: "limit", msg: m})
		}
	}
	return out
}

// parseChanges validates list_decision_changes arguments: since, limit.
func parseChanges(set argSet) (ChangesInput, []issue) {
	r := newArgReader(set)
	var in ChangesInput
	in.Since = r.str("since", false, checkCursor)
	in.Limit = r.pageSize("limit", minChangesLimit, MaxChangesLimit)
	return in, r.finish()
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

// ListDecisionChanges answers list_decision_changes. Invalid input gives
// an isError result, as it would over JSON.
func (s *Service) ListDecisionChanges(ctx context.Context, in ChangesInput) (Result, error) {
	if issues := in.issues(); len(issues) > 0 {
		return refusal(ToolListDecisionChanges, issues), nil
	}
	return s.answerChanges(ctx, in)
}

// answerChanges reads one page of the feed. The answers carry no
// corpusHealth: they describe the git history, not the corpus projection
// the other tools answer from.
func (s *Service) answerChanges(ctx context.Context, in ChangesInput) (Result, error) {
	if s.opts.History == nil {
		return historyUnavailable(feed.NoRepository), nil
	}
	h, err := s.opts.History.OpenHistory(ctx)
	if err != nil {
		return historyFault(err)
	}
	res, err := feedPage(ctx, h, in, s.opts.Parse)
	if err != nil {
		return historyFault(err)
	}
	return res, nil
}

// historyFault turns a history-unavailable error into its answer and
// passes every other error on as a fault.
func historyFault(err error) (Result, error) {
	var hu *ports.HistoryUnavailableError
	if errors.As(err, &hu) {
		return historyUnavailable(hu.Reason), nil
	}
	return Result{}, err
}

func historyUnavailable(r feed.UnavailableReason) Result {
	msg := r.Message()
	return Result{Text: msg, Structured: Answer{Result: HistoryUnavailable{
		Outcome: OutcomeHistoryUnavailable, Reason: r, Message: msg,
	}}}
}

// feedPage computes one page of the feed of h from in.Since.
//
// The feed is the record-level changes of every first-parent commit,
// oldest commit first, each commit's changes in feed.Compare order. A
// position is a commit and how many of its changes were delivered. The
// page walks back from the head to the position's commit (a rewrite that
// dropped it is a restart), then forwards, diffing only the commits whose
// ADR directory differs from their parent's.
func feedPage(ctx context.Context, h ports.History, in ChangesInput, parse corpus.ParseFunc) (Result, error) {
	dir := h.Dir()
	head, hasHead := h.Head()
	headPos := feed.Position{}
	var headRef *string
	if hasHead {
		headPos.Commit = head.Hash
		headRef = &head.Hash
	}
	headCursor := feed.Encode(headPos, dir)
	if in.Since == nil {
		return changesResult(nil, headCursor, false, headRef), nil
	}
	pos, reason := feed.Decode(*in.Since, dir)
	if reason != cursor.OK {
		msg := reason.Message()
		return Result{Text: msg, Structured: Answer{Result: InvalidCursor{
			Outcome: OutcomeInvalidCursor, Reason: reason, Message: msg,
		}}}, nil
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
		return Result{Text: msg, Structured: Answer{Result: RestartAnswer{
			Outcome: OutcomeRestart, Reason: feed.CommitNotInHistory, Message: msg,
			ReplayCursor: feed.ReplayToken, HeadCursor: headCursor,
		}}}, nil
	}
	if len(commits) == 0 {
		return changesResult(nil, headCursor, false, headRef), nil
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
					return changesResult(items, feed.Encode(next, dir), true, headRef), nil
				}
			}
		}
		prev, prevDir = c, c.Dir
	}
	return changesResult(items, headCursor, false, headRef), nil
}

func changesResult(items []ChangeItem, next string, more bool, head *string) Result {
	n := len(items)
	tail := "the feed is up to date."
	if more {
		tail = "more changes may follow."
	}
	text := capSummary(fmt.Sprintf("Returned %d decision %s; %s", n, plural(n, "change", "changes"), tail))
	return Result{Text: text, Structured: Answer{Result: ChangesAnswer{
		Outcome: OutcomeChanges, Items: nonNil(items), Cursor: next, HasMore: more, Head: head,
	}}}
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
