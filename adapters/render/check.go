package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/markers"
)

// FailOn is check's --fail-on: what makes the run exit 1.
type FailOn string

// The --fail-on values.
const (
	// FailOnError: an error the change is answerable for (the default).
	FailOnError FailOn = "error"
	// FailOnWarning: that, or any warning check reports.
	FailOnWarning FailOn = "warning"
	// FailOnNever: report only.
	FailOnNever FailOn = "never"
)

// ParseFailOn reads a --fail-on value.
func ParseFailOn(s string) (FailOn, error) {
	switch f := FailOn(s); f {
	case FailOnError, FailOnWarning, FailOnNever:
		return f, nil
	}
	return "", fmt.Errorf("--fail-on must be error, warning or never, got %q", s)
}

// Failed says whether rep fails the run under f.
func (f FailOn) Failed(rep *app.CheckReport) bool {
	switch f {
	case FailOnNever:
		return false
	case FailOnWarning:
		return rep.Failed(true)
	}
	return rep.Failed(false)
}

// CheckOptions is what a check renderer needs besides the report.
type CheckOptions struct {
	Format LintFormat
	FailOn FailOn
	Source Source
	Tool   Tool
	Style  Style
	// Since is the --changed-since revision as given, and Base the merge
	// base it led to; both empty when the files were named.
	Since, Base string
}

// WriteCheck renders rep in opts.Format.
func WriteCheck(w io.Writer, rep *app.CheckReport, opts CheckOptions) error {
	switch opts.Format {
	case LintJSON:
		return WriteJSON(w, checkJSON(rep, opts))
	case LintSARIF:
		return WriteJSON(w, CheckSARIF(rep, opts.Tool))
	case LintGitHub:
		return writeString(w, checkAnnotations(rep, opts))
	}
	return writeString(w, checkText(rep, opts))
}

// CheckSARIF is the SARIF log of a check report.
func CheckSARIF(rep *app.CheckReport, tool Tool) any {
	return sarifLogOf(shownFindings(rep), app.CheckRules(), tool)
}

// causeNote is what a finding's message starts with in reports that show
// no cause column.
func causeNote(c app.Cause) string {
	switch c {
	case app.CauseBroken:
		return "this change broke it: "
	case app.CauseUntouched:
		return "already broken before this change, in a record it does not touch (a warning, not a failure): "
	}
	return ""
}

// shownFindings are the findings of rep as machine reports show them:
// the cause in the message.
func shownFindings(rep *app.CheckReport) []adr.Finding {
	out := make([]adr.Finding, len(rep.Findings))
	for i, f := range rep.Findings {
		out[i] = f.Finding
		out[i].Message = causeNote(f.Cause) + f.Message
	}
	return out
}

// changeWords says what the change is: the files named, or since when.
func changeWords(opts CheckOptions) string {
	if opts.Since == "" {
		return "the files named"
	}
	s := "the changes since " + strconv.Quote(opts.Since)
	if opts.Base != "" {
		s += " (merge base " + shortHash(opts.Base) + ", and the working tree)"
	}
	return s
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// checkSummary is the last line of the text and GitHub reports.
func checkSummary(rep *app.CheckReport, opts CheckOptions) string {
	governed := 0
	for _, f := range rep.Files {
		if len(f.Governing) > 0 {
			governed++
		}
	}
	s := counted(len(rep.Files), "changed file", "changed files") + ", " + strconv.Itoa(governed) + " governed by an accepted decision"
	if n := len(rep.Holds); n > 0 {
		s += ", " + counted(n, "hold", "holds")
	}
	if len(rep.Findings) == 0 {
		s += "; no findings"
	} else {
		s += "; " + severityCounts(rep)
	}
	verdict := "passes"
	if opts.FailOn.Failed(rep) {
		verdict = "fails"
	}
	return s + ". The change " + verdict + " (--fail-on " + string(opts.FailOn) + ")."
}

// entryCells is one record covering a file, for a person: id, status,
// title, then what matched it.
func entryCells(st Style, e app.ContextEntry) []cell {
	return []cell{paintedCell(e.ID, st.Bold), statusCell(st, e.Status), plainCell(e.Title), paintedCell(coveredBy(e), st.Dim)}
}

// coveredBy says what tied a record to the files: the affects matchers
// that fired and the @adr markers that declared it.
func coveredBy(e app.ContextEntry) string {
	var by []string
	for _, f := range e.FiredMatchers {
		by = append(by, string(f.Type)+" "+string(f.Pattern))
	}
	for _, d := range e.DeclaredBy {
		by = append(by, "@adr in "+string(d.Path)+":"+strconv.Itoa(d.Line))
	}
	return strings.Join(by, ", ")
}

// checkText is the human report: each changed file with what covers it,
// the holds, the findings with why they are reported, and a summary.
func checkText(rep *app.CheckReport, opts CheckOptions) string {
	st := opts.Style
	var b strings.Builder
	b.WriteString(st.Bold("Checked "+changeWords(opts)+" against "+opts.Source.String()) + "\n\n")
	if len(rep.Files) == 0 {
		b.WriteString("No file changed.\n")
	}
	for _, f := range rep.Files {
		b.WriteString(st.Bold(f.Path) + "\n")
		t := table{width: st.width, indent: "  "}
		for _, g := range []struct {
			name    string
			entries []app.ContextEntry
		}{{"governing", f.Governing}, {"proposal", f.ActiveProposals}, {"history", f.History}} {
			for _, e := range g.entries {
				t.add(append([]cell{paintedCell(g.name, st.Dim)}, entryCells(st, e)...)...)
			}
		}
		if len(t.rows) == 0 {
			b.WriteString("  " + st.Dim("No decision covers this file.") + "\n")
		} else {
			b.WriteString(t.String())
		}
		if m := f.Markers; m.State != markers.Scanned {
			b.WriteString("  " + st.Dim("Not read for @adr markers: "+stateWords[m.State]+".") + "\n")
		}
	}

	if len(rep.Holds) > 0 {
		b.WriteString("\n" + st.Bold("Governing decisions on hold") + "\n")
		t := table{width: st.width, indent: "  "}
		for _, h := range rep.Holds {
			sev := adr.SeverityWarn
			t.add(paintedCell(h.Decision.ID, st.Bold), paintedCell(string(h.Reason), func(s string) string { return st.Severity(sev, s) }),
				plainCell(h.Action), paintedCell("governs "+strings.Join(h.Files, ", "), st.Dim))
		}
		b.WriteString(t.String())
	}

	// Holds have their own section above.
	var findings []adr.Finding
	causes := map[adr.Finding]app.CheckFinding{}
	for _, f := range rep.Findings {
		if f.Cause != app.CauseHold {
			findings = append(findings, f.Finding)
			causes[f.Finding] = f
		}
	}
	if len(findings) > 0 {
		b.WriteString("\n" + st.Bold("Findings") + "\n")
		for _, group := range byFile(findings) {
			name := group[0].Path
			if name == "" {
				name = "(the changed files as a whole)"
			}
			b.WriteString("  " + st.Bold(name) + "\n")
			t := table{width: st.width, indent: "    "}
			for _, f := range group {
				line := "-"
				if f.Line > 0 {
					line = "line " + strconv.Itoa(f.Line)
				}
				sev := f.Severity
				cf := causes[f]
				why := string(cf.Cause)
				if cf.Fails {
					why += ", fails"
				}
				t.add(paintedCell(line, st.Dim), paintedCell(string(sev), func(s string) string { return st.Severity(sev, s) }),
					plainCell(f.Rule), paintedCell(why, st.Dim), plainCell(messageWithField(f)))
			}
			b.WriteString(t.String())
		}
	}
	summary := checkSummary(rep, opts)
	switch {
	case opts.FailOn.Failed(rep):
		summary = st.Bad(summary)
	case len(rep.Findings) == 0:
		summary = st.Good(summary)
	}
	b.WriteString("\n" + summary + "\n")
	return b.String()
}

// checkAnnotations is the GitHub Actions report: one workflow command per
// finding (a hold is annotated on each changed file the decision
// governs), then the summary for the log.
func checkAnnotations(rep *app.CheckReport, opts CheckOptions) string {
	var b strings.Builder
	writeAnnotations(&b, shownFindings(rep))
	b.WriteString("adrkit check: " + checkSummary(rep, opts) + "\n")
	return b.String()
}
