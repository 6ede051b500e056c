package cli

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
)

// ChangesCall asks list_decision_changes for one page of the feed.
type ChangesCall func(ctx context.Context, in app.ChangesInput) (app.Result, error)

// WalkChanges reads the feed from in.Since up to the head, in pages of
// the largest size the tool accepts, and every page of its findings, as
// WalkPages does for the other tools. It merges the pages into one
// changes answer that ends with the last page's cursor and has a null
// findings cursor: what a person wants on a terminal (the JSON mode
// pages instead). Without in.Since the feed lists nothing by design, and
// only the findings are walked.
//
// A refusal (IsError) or a first answer that is not a page of changes (a
// restart, an invalid cursor, an unreadable corpus or history) is
// returned as it came, and so is an unreadable corpus or history on a
// later page. Any other later page that is not a page of changes is an
// error, not a half-merged answer: a restart means the history was
// rewritten between two calls, an invalid cursor or another corpus
// fingerprint that the corpus changed.
func WalkChanges(ctx context.Context, call ChangesCall, in app.ChangesInput) (app.Result, error) {
	in.Limit, in.FindingsLimit, in.FindingsCursor = app.MaxChangesLimit, walkLimit, nil
	first, err := call(ctx, in)
	if err != nil || first.IsError {
		return first, err
	}
	ans, ok := first.Structured.(app.Answer)
	if !ok {
		return first, nil
	}
	merged, ok := ans.Result.(app.ChangesAnswer)
	if !ok {
		return first, nil
	}
	walkFeed := in.Since != nil
	for merged.HasMore || merged.Findings.Cursor != nil {
		if walkFeed {
			next := merged.Cursor
			in.Since = &next
		}
		in.FindingsCursor = merged.Findings.Cursor
		res, err := call(ctx, in)
		if err != nil || res.IsError {
			return res, err
		}
		a, _ := res.Structured.(app.Answer)
		var page app.ChangesAnswer
		switch r := a.Result.(type) {
		case app.ChangesAnswer:
			page = r
		case app.CorpusUnavailable, app.HistoryUnavailable:
			return res, nil
		case app.RestartAnswer:
			return app.Result{}, errors.New("the history was rewritten while it was being read; run the command again")
		default:
			return app.Result{}, errCorpusChanged
		}
		if a.CorpusHealth == nil || ans.CorpusHealth == nil || a.CorpusHealth.Fingerprint != ans.CorpusHealth.Fingerprint {
			return app.Result{}, errCorpusChanged
		}
		merged.Items = slices.Concat(merged.Items, page.Items)
		merged.Cursor, merged.HasMore, merged.Head = page.Cursor, page.HasMore, page.Head
		merged.Findings = mergeFindings(merged.Findings, page.Findings, in.FindingsCursor != nil)
	}
	ans.Result = merged
	return app.Result{Text: first.Text, Structured: ans}, nil
}

// errCorpusChanged is a later page of the feed answered over another
// corpus than the first: its findings would not add up.
var errCorpusChanged = errors.New("the corpus changed while its pages were being read; run the command again")

// WriteChanges renders a merged list_decision_changes answer (see
// WalkChanges): every change, the note about the corpus findings that
// came with it (as the other commands end), then the command that
// continues from its cursor, always the last line. since says whether the
// feed was asked from a position: without one it lists nothing by
// design, and says so.
func WriteChanges(w io.Writer, r app.ChangesAnswer, since bool, st Style) error {
	var b strings.Builder
	switch {
	case !since:
		b.WriteString("Nothing is listed without --since: the feed starts at the head")
		if r.Head != nil {
			b.WriteString(" (commit " + shortCommit(*r.Head) + ")")
		}
		b.WriteString(".\n")
	case len(r.Items) == 0:
		b.WriteString("No decision changed.\n")
	default:
		t := table{header: header(st, "COMMIT", "DATE (UTC)", "ID", "CHANGE", "DETAIL", "TITLE", "PATH")}
		for _, it := range r.Items {
			t.add(paintedCell(shortCommit(it.Commit), st.Dim), plainCell(changeDate(it.CommittedAt)), paintedCell(it.ID, st.Bold),
				plainCell(it.Kind), plainCell(changeDetail(it)), plainCell(it.Title), paintedCell(it.SourcePath, st.Dim))
		}
		b.WriteString(t.String())
		b.WriteString("\n" + counted(len(r.Items), "change", "changes") + ".\n")
	}
	writeFindingsNote(&b, st, r.Findings.Items)
	b.WriteString(st.Dim("To see what changes next: ") + "adrkit changes --since " + r.Cursor + "\n")
	return writeString(w, b.String())
}

// RestartAdvice words a restart answer for a person: the cursor's commit
// was rewritten away, and the two places to start again from.
func RestartAdvice(r app.RestartAnswer) string {
	return "the cursor's commit is no longer in the history (it was rewritten); " +
		"start again with --since " + r.ReplayCursor + " to list every change, or --since " + r.HeadCursor + " to list only new ones"
}

// shortCommit abbreviates a commit id as git log --oneline does.
func shortCommit(hash string) string {
	if len(hash) > 7 {
		return hash[:7]
	}
	return hash
}

// changeDate shortens the RFC 3339 commit time to minutes.
func changeDate(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// addedCause and removedCause word why a record appeared or went away.
var (
	addedCause = map[feed.Cause]string{
		feed.FileCreated: "new file", feed.BecameValid: "file now valid", feed.IDChanged: "file took this id",
	}
	removedCause = map[feed.Cause]string{
		feed.FileDeleted: "file deleted", feed.BecameInvalid: "file no longer valid", feed.IDChanged: "file has another id now",
	}
)

// changeDetail says what a change did, in a few words.
func changeDetail(it app.ChangeItem) string {
	switch it.Kind {
	case feed.Added:
		return string(it.Status) + ", " + addedCause[it.Cause]
	case feed.Removed:
		return removedCause[it.Cause]
	case feed.Renamed:
		return "from " + string(it.FromPath)
	case feed.StatusChanged:
		return string(it.Before) + " → " + string(it.After)
	}
	return "still " + string(it.Status)
}
