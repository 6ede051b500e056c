package render

import (
	"io"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
)

// CommentMarker opens every pull-request comment adrkit check writes: the
// Action finds the comment it posted before by it (and by its author).
const CommentMarker = "<!-- adrkit:check -->"

// MaxCommentLen is the most a pull-request comment may hold: GitHub
// refuses a longer body. It is counted in bytes, which is never less than
// GitHub's count of characters.
const MaxCommentLen = 65536

// commentNoteRoom is kept free for the note that says the comment was
// shortened.
const commentNoteRoom = 400

// WriteCheckComment writes the pull-request comment of a check run
// (CheckComment).
func WriteCheckComment(w io.Writer, rep *app.CheckReport, opts CheckOptions) error {
	return writeString(w, CheckComment(rep, opts, MaxCommentLen))
}

// commentTable is one table of the comment. Rows are whole table lines.
type commentTable struct {
	heading, intro, header string
	rows                   []string
	// after is a paragraph after the table (or in its place when it has
	// no rows).
	after string
}

// CheckComment is the Markdown of a pull-request comment for a check
// run, at most limit bytes: the marker on the first line, the verdict,
// the decisions that cover each changed file (governing, proposals,
// history) with what matched them, the holds, the records the change
// broke and the other findings. When it would be longer, tables are
// shortened by whole rows (a table is never cut inside a row, and keeps
// its header) and a note at the end says how much is left out.
func CheckComment(rep *app.CheckReport, opts CheckOptions, limit int) string {
	var b strings.Builder
	verdict := "passes"
	if opts.FailOn.Failed(rep) {
		verdict = "fails"
	}
	b.WriteString(CommentMarker + "\n")
	b.WriteString("### adrkit check: the change " + verdict + "\n\n")
	b.WriteString(mdText(checkSummary(rep, opts)) + "\n")

	budget := limit - commentNoteRoom
	cut := false // something was left out; everything after it is too
	omittedRows, omittedTables := 0, 0
	for _, t := range commentTables(rep) {
		if cut {
			omittedRows += len(t.rows)
			omittedTables++
			continue
		}
		head := "\n#### " + t.heading + "\n\n"
		if t.intro != "" {
			head += t.intro + "\n\n"
		}
		body := ""
		if len(t.rows) > 0 {
			body = t.header + strings.Join(t.rows, "")
			if t.after != "" {
				body += "\n"
			}
		}
		if t.after != "" {
			body += t.after + "\n"
		}
		if b.Len()+len(head)+len(body) <= budget {
			b.WriteString(head + body)
			continue
		}
		// Shorten this table by whole rows; leave out everything after it.
		cut = true
		n := 0
		size := b.Len() + len(head) + len(t.header)
		for n < len(t.rows) && size+len(t.rows[n]) <= budget {
			size += len(t.rows[n])
			n++
		}
		if n == 0 {
			omittedRows += len(t.rows)
			omittedTables++
			continue
		}
		b.WriteString(head + t.header + strings.Join(t.rows[:n], ""))
		omittedRows += len(t.rows) - n
	}
	if cut {
		note := "\n> **Shortened** to fit GitHub's limit of " + strconv.Itoa(limit) + " characters for a comment:"
		if omittedRows > 0 {
			note += " " + counted(omittedRows, "table row is", "table rows are") + " not shown"
		} else {
			note += " the end is not shown"
		}
		if omittedTables > 0 {
			note += ", including " + counted(omittedTables, "whole section", "whole sections")
		}
		note += ". The workflow log has the whole report (adrkit check --format text).\n"
		b.WriteString(note)
	}
	return b.String()
}

// commentTables are the comment's tables in the order they are shown,
// the most important first, since the last ones are the first to go.
func commentTables(rep *app.CheckReport) []commentTable {
	var out []commentTable

	var broke, other []app.CheckFinding
	for _, f := range rep.Findings {
		switch f.Cause {
		case app.CauseHold:
		case app.CauseBroken:
			broke = append(broke, f)
		default:
			other = append(other, f)
		}
	}
	if len(broke) > 0 {
		t := commentTable{heading: "Records this change broke",
			intro:  "Records the change does not touch, which it left with an error or a warning (a reference to a record it removed or renumbered, an id it now shares).",
			header: "| Record | Severity | Rule | Finding |\n|---|---|---|---|\n"}
		for _, f := range broke {
			t.rows = append(t.rows, "| "+mdText(recordName(f))+" | "+string(f.Severity)+failMark(f)+" | "+mdText(f.Rule)+" | "+mdText(messageWithField(f.Finding))+" |\n")
		}
		out = append(out, t)
	}

	if len(rep.Holds) > 0 {
		t := commentTable{heading: "Governing decisions on hold",
			intro:  "These decisions govern changed files, but their line of supersession is not settled: read the action before relying on them.",
			header: "| Decision | Reason | What to do | Changed files |\n|---|---|---|---|\n"}
		for _, h := range rep.Holds {
			t.rows = append(t.rows, "| "+mdText(string(h.Decision.ID)+" "+string(h.Decision.Title))+" | "+mdText(string(h.Reason))+
				" | "+mdText(h.Action)+" | "+codeList(h.Files)+" |\n")
		}
		out = append(out, t)
	}

	files := commentTable{heading: "Decisions covering the changed files",
		header: "| Changed file | Decision | Status | Role | Matched by |\n|---|---|---|---|---|\n"}
	uncovered := 0
	for _, f := range rep.Files {
		n := 0
		for _, g := range []struct {
			role    string
			entries []app.ContextEntry
		}{{"governs", f.Governing}, {"proposal", f.ActiveProposals}, {"history", f.History}} {
			for _, e := range g.entries {
				files.rows = append(files.rows, "| "+codeSpan(f.Path)+" | "+mdText(string(e.ID)+" "+string(e.Title))+" | "+
					string(e.Status)+" | "+g.role+" | "+matchedBy(e)+" |\n")
				n++
			}
		}
		if n == 0 {
			uncovered++
		}
	}
	switch {
	case len(rep.Files) == 0:
		files.after = "No file changed."
	case uncovered == len(rep.Files):
		files.after = "No decision covers any of the " + counted(len(rep.Files), "changed file", "changed files") + "."
	case uncovered > 0:
		files.after = counted(uncovered, "other changed file is", "other changed files are") + " covered by no decision."
	}
	out = append(out, files)

	if len(other) > 0 {
		t := commentTable{heading: "Other findings",
			intro:  "Findings about the changed files and their @adr markers, and errors that were already there (reported as warnings).",
			header: "| Where | Severity | Rule | Why reported | Finding |\n|---|---|---|---|---|\n"}
		for _, f := range other {
			where := "the changed files"
			if f.Path != "" {
				where = codeSpan(f.Path)
			}
			t.rows = append(t.rows, "| "+where+" | "+string(f.Severity)+failMark(f)+" | "+mdText(f.Rule)+" | "+
				string(f.Cause)+" | "+mdText(messageWithField(f.Finding))+" |\n")
		}
		out = append(out, t)
	}
	return out
}

func failMark(f app.CheckFinding) string {
	if f.Fails {
		return " (fails)"
	}
	return ""
}

// recordName is a finding's record: its id and file, or the file.
func recordName(f app.CheckFinding) string {
	if f.ID != "" {
		return f.ID + " (" + f.Path + ")"
	}
	return f.Path
}

// matchedBy says what tied a decision to a file: its affects patterns
// and the @adr markers that declare it.
func matchedBy(e app.ContextEntry) string {
	var parts []string
	for _, m := range e.FiredMatchers {
		parts = append(parts, mdText(string(m.Type))+" "+codeSpan(string(m.Pattern)))
	}
	for _, d := range e.DeclaredBy {
		parts = append(parts, "@adr marker, "+codeSpan(string(d.Path)+":"+strconv.Itoa(d.Line)))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "<br>")
}

func codeList(paths []string) string {
	parts := make([]string, len(paths))
	for i, p := range paths {
		parts[i] = codeSpan(p)
	}
	return strings.Join(parts, "<br>")
}

// codeSpan writes s as an inline code span that is safe in a table cell:
// on one line, its pipes escaped (GitHub reads "\|" in a cell as a pipe,
// even in code), and fenced by more backticks than any run inside it.
func codeSpan(s string) string {
	s = strings.ReplaceAll(oneLine(s), "|", `\|`)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}
