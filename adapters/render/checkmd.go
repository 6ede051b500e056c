package render

import (
	"io"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/app"
)

// WriteCheckMarkdown writes the job summary of a check run, for
// $GITHUB_STEP_SUMMARY: a heading with the verdict, a table of each
// changed file and the decisions governing it (and open proposals), the
// holds, and the findings as a list. Every value from the repository is
// escaped, so that a file name cannot close a table cell or start a link.
func WriteCheckMarkdown(w io.Writer, rep *app.CheckReport, opts CheckOptions) error {
	var b strings.Builder
	verdict := "passes"
	if opts.FailOn.Failed(rep) {
		verdict = "fails"
	}
	b.WriteString("### adrkit check: the change " + verdict + "\n\n")
	b.WriteString(mdText(checkSummary(rep, opts)) + "\n\n")
	if len(rep.Files) > 0 {
		b.WriteString("| Changed file | Governing decisions | Active proposals |\n|---|---|---|\n")
		for _, f := range rep.Files {
			b.WriteString("| " + mdText(f.Path) + " | " + mdEntries(f.Governing) + " | " + mdEntries(f.ActiveProposals) + " |\n")
		}
		b.WriteString("\n")
	}
	if len(rep.Holds) > 0 {
		b.WriteString("**Governing decisions on hold**\n\n")
		for _, h := range rep.Holds {
			b.WriteString("- " + mdText(string(h.Decision.ID)+" "+string(h.Decision.Title)) + " (" + mdText(string(h.Reason)) + "): " + mdText(h.Action) + "\n")
		}
		b.WriteString("\n")
	}
	if slices.ContainsFunc(rep.Findings, func(f app.CheckFinding) bool { return f.Cause != app.CauseHold }) {
		b.WriteString("**Findings**\n\n")
		for _, f := range rep.Findings {
			if f.Cause == app.CauseHold {
				continue // listed above
			}
			where := f.Path
			if where == "" {
				where = "(the changed files)"
			}
			fails := ""
			if f.Fails {
				fails = ", fails"
			}
			b.WriteString("- " + mdText(string(f.Severity)+" "+f.Rule+" ("+string(f.Cause)+fails+") in "+where) + ": " + mdText(messageWithField(f.Finding)) + "\n")
		}
		b.WriteString("\n")
	}
	return writeString(w, b.String())
}

// mdEntries lists records in a table cell: "0005 Title (proposed)".
func mdEntries(es []app.ContextEntry) string {
	if len(es) == 0 {
		return "—"
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = mdText(string(e.ID) + " " + string(e.Title))
	}
	return strings.Join(parts, "<br>")
}

// mdText escapes text for a Markdown table cell or list item (never the
// start of a line): every character that could open emphasis, code, a
// link, an image, HTML, strikethrough or a new cell is backslash-escaped,
// and line breaks become spaces.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '!', '|', '<', '>', '~', '&':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
