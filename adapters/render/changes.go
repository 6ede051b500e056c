package render

import (
	"io"
	"strings"
	"time"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
)

// WriteChanges renders a whole list_decision_changes answer
// (app.Service.Whole): every change, the note about the corpus findings that
// came with it (as the other commands end), then the command that
// continues from its cursor, always the last line. omitted is the number
// of earlier changes left out (adrkit changes without --since shows the
// latest few).
func WriteChanges(w io.Writer, r app.ChangesAnswer, omitted int, st Style) error {
	var b strings.Builder
	switch {
	case len(r.Items) == 0:
		b.WriteString("No decision changed.\n")
	default:
		t := table{width: st.width, yield: []int{6, 1}, header: header(st, "COMMIT", "DATE (UTC)", "ID", "CHANGE", "DETAIL", "TITLE", "PATH")}
		for _, it := range r.Items {
			t.add(paintedCell(shortCommit(it.Commit), st.Dim), plainCell(changeDate(it.CommittedAt)), paintedCell(it.ID, st.Bold),
				plainCell(it.Kind), plainCell(changeDetail(it)), plainCell(it.Title), paintedCell(it.SourcePath, st.Dim))
		}
		b.WriteString(t.String())
		b.WriteString("\n" + counted(len(r.Items), "change", "changes"))
		if omitted > 0 {
			b.WriteString(", the latest; " + counted(omitted, "earlier change", "earlier changes") +
				" (adrkit changes --since " + feed.ReplayToken + " lists every change, --since HEAD~20 or --since 2026-01-31 from there)")
		}
		b.WriteString(".\n")
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
