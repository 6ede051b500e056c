package render

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
)

// WriteOverview renders what "adrkit" alone prints: where the corpus was
// read from, how many decisions there are by status, how many findings
// lint has, every decision in a compact table, and what to try next. It
// is written for someone who has just installed adrkit.
func WriteOverview(w io.Writer, rep *app.LintReport, src Source, st Style) error {
	var b strings.Builder
	b.WriteString(st.Bold("Architecture decisions in "+src.String()) + "\n\n")

	if unread, ok := unreadFolder(rep); ok {
		b.WriteString("  No records: " + unread + "\n" +
			"  If they are decisions kept with adr-tools, MADR or log4brains, see how they would become\n" +
			"  records with adrkit migrate --dry-run, then run adrkit migrate.\n")
	} else if len(rep.Records) == 0 {
		dir := src.Dir
		if dir == "" {
			dir = "<adr dir>"
		}
		b.WriteString("  No decisions yet. Write the first one as " + dir + "/0001-<slug>.md: a Markdown\n" +
			"  file that starts with YAML frontmatter (id, title, status, date).\n")
	} else {
		b.WriteString("  " + counted(len(rep.Records), "decision", "decisions") + ": " + statusCounts(rep.Records, st) + "\n")
	}
	if len(rep.Records) > 0 || len(rep.Findings) > 0 {
		b.WriteString("  " + overviewFindings(rep, st) + "\n")
	}

	if len(rep.Records) > 0 {
		t := table{width: st.width, indent: "  ", header: header(st, "ID", "STATUS", "TITLE")}
		for _, r := range rep.Records {
			t.add(paintedCell(r.ID, st.Bold), statusCell(st, r.Status), plainCell(r.Title))
		}
		b.WriteString("\n" + t.String())
	}

	b.WriteString("\n" + st.Bold("Try next") + "\n")
	hints := table{width: st.width, indent: "  "}
	for _, h := range [][2]string{
		{"adrkit explain <file>...", "which decisions govern these files"},
		{"adrkit search <text>", "find decisions by id, title, tag or body"},
		{"adrkit show <id>", "print one decision in full"},
		{"adrkit lint", "check every record (what CI runs)"},
		{"adrkit graph", "draw how the decisions relate (Mermaid)"},
		{"adrkit mcp", "serve these decisions to a coding agent over MCP"},
		{"adrkit <command> --help", "options and examples"},
	} {
		hints.add(plainCell(h[0]), paintedCell(h[1], st.Dim))
	}
	b.WriteString(hints.String())
	return writeString(w, b.String())
}

// unreadFolder says how many Markdown files lint found where no record
// is: a folder in another format must not look like an empty one.
func unreadFolder(rep *app.LintReport) (string, bool) {
	for _, f := range rep.Findings {
		if f.Rule == app.RuleNoRecords {
			return "the ADR directory holds Markdown files, but none of them is an adrkit record.", true
		}
	}
	return "", false
}

// statusCounts phrases the records per status, in schema order, leaving
// out statuses nobody has: "4 accepted, 1 superseded".
func statusCounts(records []app.Summary, st Style) string {
	n := map[adr.Status]int{}
	other := 0
	for _, r := range records {
		if slices.Contains(adr.Statuses, r.Status) {
			n[r.Status]++
		} else {
			other++
		}
	}
	var parts []string
	for _, s := range adr.Statuses {
		if n[s] > 0 {
			parts = append(parts, st.Status(s, strconv.Itoa(n[s])+" "+string(s)))
		}
	}
	if other > 0 {
		parts = append(parts, strconv.Itoa(other)+" other")
	}
	return strings.Join(parts, ", ")
}

// overviewFindings is the one line about lint's verdict.
func overviewFindings(rep *app.LintReport, st Style) string {
	if len(rep.Findings) == 0 {
		return st.Good("No findings") + st.Dim(": every record is valid.")
	}
	line := counted(len(rep.Findings), "finding", "findings") + " (" + severityCounts(rep) + ")"
	if rep.Count(adr.SeverityError) > 0 {
		line = st.Bad(line)
	} else {
		line = st.Severity(adr.SeverityWarn, line)
	}
	return line + st.Dim("; adrkit lint lists them.")
}

// WriteStatuses renders what "adrkit status" alone prints: the valid
// records grouped by status, in the schema's order of statuses, each
// group in record order, then how to change one. The path gives way
// first in a narrow terminal.
func WriteStatuses(w io.Writer, records []app.Summary, st Style) error {
	var b strings.Builder
	if len(records) == 0 {
		b.WriteString("No decisions yet: adrkit new \"Title\" writes the first one.\n")
		return writeString(w, b.String())
	}
	for _, s := range adr.Statuses {
		t := table{width: st.width, indent: "  ", yield: []int{2}}
		for _, r := range records {
			if r.Status == s {
				t.add(paintedCell(r.ID, st.Bold), plainCell(r.Title), paintedCell(r.SourcePath, st.Dim))
			}
		}
		if len(t.rows) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(st.Status(s, string(s)) + st.Dim(" ("+strconv.Itoa(len(t.rows))+")") + "\n" + t.String())
	}
	b.WriteString("\n" + counted(len(records), "decision", "decisions") + ".\n" + st.Dim("Change one: adrkit status ID STATUS") + "\n")
	return writeString(w, b.String())
}
