package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// LintFormat is a lint output format.
type LintFormat string

// The lint output formats.
const (
	LintText   LintFormat = "text"
	LintJSON   LintFormat = "json"
	LintSARIF  LintFormat = "sarif"
	LintGitHub LintFormat = "github"
)

// LintFormats lists the formats in the order help text names them.
var LintFormats = []LintFormat{LintText, LintJSON, LintSARIF, LintGitHub}

// ParseLintFormat reads a --format value for lint.
func ParseLintFormat(s string) (LintFormat, error) {
	for _, f := range LintFormats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("--format must be text, json, sarif or github, got %q", s)
}

// Tool describes this program in machine-readable reports.
type Tool struct {
	Name           string
	Version        string
	InformationURI string
}

// LintOptions is what a lint renderer needs besides the report.
type LintOptions struct {
	Format LintFormat
	Strict bool
	Source Source
	Tool   Tool
	Style  Style
	// Paths are the files the report was limited to (LintReport.Only);
	// nil for the whole corpus.
	Paths []string
}

// WriteLint renders rep in opts.Format.
func WriteLint(w io.Writer, rep *app.LintReport, opts LintOptions) error {
	switch opts.Format {
	case LintJSON:
		return WriteJSON(w, lintJSON(rep, opts))
	case LintSARIF:
		return WriteJSON(w, sarifLog(rep, opts))
	case LintGitHub:
		return writeString(w, githubAnnotations(rep, opts))
	}
	return writeString(w, lintText(rep, opts))
}

func writeString(w io.Writer, s string) error {
	if _, err := io.WriteString(w, s); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// counted phrases n things: "1 error", "2 warnings", "3 info".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// severityCounts phrases the non-zero severity counts of a lint or check
// report: "1 error, 2 warnings"; "" when there are none.
func severityCounts(rep interface{ Count(adr.Severity) int }) string {
	var parts []string
	if n := rep.Count(adr.SeverityError); n > 0 {
		parts = append(parts, counted(n, "error", "errors"))
	}
	if n := rep.Count(adr.SeverityWarn); n > 0 {
		parts = append(parts, counted(n, "warning", "warnings"))
	}
	if n := rep.Count(adr.SeverityInfo); n > 0 {
		parts = append(parts, counted(n, "info", "info"))
	}
	return strings.Join(parts, ", ")
}

// byFile groups findings by path, paths in code-unit order; within a file
// findings go by line (file-wide ones, line 0, first) and then in the
// canonical order they arrived in.
func byFile(findings []adr.Finding) [][]adr.Finding {
	sorted := slices.Clone(findings)
	slices.SortStableFunc(sorted, func(a, b adr.Finding) int {
		return cmp.Or(jsstring.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
	var groups [][]adr.Finding
	for i, f := range sorted {
		if i == 0 || f.Path != sorted[i-1].Path {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], f)
	}
	return groups
}

// lintText is the human report: findings grouped under their file, one
// aligned line each (line, severity, rule, field, message), then one
// summary line.
func lintText(rep *app.LintReport, opts LintOptions) string {
	st := opts.Style
	var b strings.Builder
	for _, group := range byFile(rep.Findings) {
		name := group[0].Path
		if name == "" {
			name = "(the corpus as a whole)"
		}
		b.WriteString(st.Bold(name) + "\n")
		t := table{width: st.width, indent: "  "}
		for _, f := range group {
			line, field := "-", "-"
			if f.Line > 0 {
				line = "line " + strconv.Itoa(f.Line)
			}
			if f.Field != "" {
				field = f.Field
			}
			sev := f.Severity
			t.add(
				paintedCell(line, st.Dim),
				paintedCell(string(sev), func(s string) string { return st.Severity(sev, s) }),
				plainCell(f.Rule),
				paintedCell(field, st.Dim),
				plainCell(f.Message),
			)
		}
		b.WriteString(t.String())
		b.WriteString("\n")
	}
	b.WriteString(lintSummary(rep, opts) + "\n")
	return b.String()
}

// lintSummary is the last line of the text report.
func lintSummary(rep *app.LintReport, opts LintOptions) string {
	st := opts.Style
	read := counted(rep.RecordCount, "record", "records") + " read from " + opts.Source.String()
	if opts.Paths != nil {
		read = counted(len(opts.Paths), "file", "files") + " checked, of the " + read
	}
	if rep.ExcludedCount > 0 {
		read += ", " + counted(rep.ExcludedCount, "file", "files") + " left out"
	}
	if rep.SkippedCount > 0 {
		read += ", " + counted(rep.SkippedCount, "file", "files") + " skipped"
	}
	read += "; reviewBy checked against " + rep.AsOf + "."
	if len(rep.Findings) == 0 {
		return st.Good("No findings.") + " " + read
	}
	files := 0
	for range byFile(rep.Findings) {
		files++
	}
	head := counted(len(rep.Findings), "finding", "findings") + " (" + severityCounts(rep) + ") in " +
		counted(files, "file", "files") + "."
	switch {
	case rep.Failed(opts.Strict):
		head = st.Bad(head)
	case rep.Count(adr.SeverityWarn) > 0:
		head = st.Severity(adr.SeverityWarn, head)
	}
	return head + " " + read
}

// LintJSONSchemaVersion is the version of the JSON lint report's shape
// (docs/cli.md): additions keep it, any other change bumps it.
const LintJSONSchemaVersion = 1

type jsonLintReport struct {
	SchemaVersion int             `json:"schemaVersion"`
	Tool          jsonTool        `json:"tool"`
	Source        jsonSource      `json:"source"`
	AsOf          string          `json:"asOf"`
	Corpus        jsonCorpus      `json:"corpus"`
	Summary       jsonLintSummary `json:"summary"`
	// Paths are the files the report is limited to; absent for the whole
	// corpus.
	Paths    []string      `json:"paths,omitempty"`
	Findings []jsonFinding `json:"findings"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonSource struct {
	Dir string `json:"dir"`
	// Rev is null for the working tree.
	Rev *string `json:"rev"`
}

type jsonCorpus struct {
	Fingerprint   string `json:"fingerprint"`
	RecordCount   int    `json:"recordCount"`
	ExcludedCount int    `json:"excludedCount"`
	SkippedCount  int    `json:"skippedCount"`
}

type jsonLintSummary struct {
	Errors   int  `json:"errors"`
	Warnings int  `json:"warnings"`
	Info     int  `json:"info"`
	Strict   bool `json:"strict"`
	Failed   bool `json:"failed"`
}

// jsonFinding is a finding with its line; optional members are absent
// when empty, as on the MCP wire.
type jsonFinding struct {
	Rule     string       `json:"rule"`
	Severity adr.Severity `json:"severity"`
	Message  string       `json:"message"`
	Path     string       `json:"path,omitempty"`
	ID       string       `json:"id,omitempty"`
	Field    string       `json:"field,omitempty"`
	Pattern  string       `json:"pattern,omitempty"`
	Line     int          `json:"line,omitempty"`
}

func lintJSON(rep *app.LintReport, opts LintOptions) jsonLintReport {
	out := jsonLintReport{
		SchemaVersion: LintJSONSchemaVersion,
		Tool:          jsonTool{Name: opts.Tool.Name, Version: opts.Tool.Version},
		Source:        opts.Source.json(),
		AsOf:          rep.AsOf,
		Corpus: jsonCorpus{
			Fingerprint: rep.Fingerprint, RecordCount: rep.RecordCount,
			ExcludedCount: rep.ExcludedCount, SkippedCount: rep.SkippedCount,
		},
		Summary: jsonLintSummary{
			Errors: rep.Count(adr.SeverityError), Warnings: rep.Count(adr.SeverityWarn), Info: rep.Count(adr.SeverityInfo),
			Strict: opts.Strict, Failed: rep.Failed(opts.Strict),
		},
		Paths:    opts.Paths,
		Findings: make([]jsonFinding, len(rep.Findings)),
	}
	for i, f := range rep.Findings {
		out.Findings[i] = newJSONFinding(f)
	}
	return out
}

// newJSONFinding is f as lint and check print it in JSON.
func newJSONFinding(f adr.Finding) jsonFinding {
	return jsonFinding{
		Rule: f.Rule, Severity: f.Severity, Message: f.Message,
		Path: f.Path, ID: f.ID, Field: f.Field, Pattern: f.Pattern, Line: f.Line,
	}
}

// messageWithField is a finding's message for a report that shows no
// field column: the field, when there is one, follows in parentheses.
func messageWithField(f adr.Finding) string {
	if f.Field == "" {
		return f.Message
	}
	return f.Message + " (field " + f.Field + ")"
}

// githubAnnotations renders findings as GitHub Actions workflow commands,
// which the runner turns into annotations on the files (and on the pull
// request's diff), followed by a plain summary line for the log.
func githubAnnotations(rep *app.LintReport, opts LintOptions) string {
	var b strings.Builder
	writeAnnotations(&b, rep.Findings)
	b.WriteString("adrkit lint: ")
	if len(rep.Findings) == 0 {
		b.WriteString("no findings")
	} else {
		b.WriteString(counted(len(rep.Findings), "finding", "findings") + " (" + severityCounts(rep) + ")")
	}
	b.WriteString(" in " + opts.Source.String() + "\n")
	return b.String()
}

// writeAnnotations writes one workflow command per finding.
func writeAnnotations(b *strings.Builder, findings []adr.Finding) {
	for _, f := range findings {
		b.WriteString("::")
		b.WriteString(githubLevel(f.Severity))
		var props []string
		if f.Path != "" {
			props = append(props, "file="+escapeGitHubProperty(f.Path))
		}
		if f.Line > 0 {
			props = append(props, "line="+strconv.Itoa(f.Line))
		}
		props = append(props, "title="+escapeGitHubProperty("adrkit "+f.Rule))
		b.WriteString(" " + strings.Join(props, ","))
		b.WriteString("::")
		b.WriteString(escapeGitHubData(messageWithField(f)))
		b.WriteString("\n")
	}
}

// githubLevel maps a severity to a workflow command.
func githubLevel(sev adr.Severity) string {
	switch sev {
	case adr.SeverityError:
		return "error"
	case adr.SeverityWarn:
		return "warning"
	}
	return "notice"
}

// escapeGitHubData escapes a workflow command's message the way the
// Actions runner unescapes it: "%", CR and LF.
func escapeGitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeGitHubProperty escapes a workflow command property value: the
// message escapes plus ":" and ",", which delimit properties.
func escapeGitHubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
