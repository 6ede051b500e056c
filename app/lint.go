package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"
	"github.com/adrkit/adrkit-go/domain/scaffold"
	"github.com/adrkit/adrkit-go/ports"
)

// Rule ids only lint emits. The MCP tools never report them: they are
// about how the corpus is kept, not about what it decided.
const (
	// RuleCorpusFileSkipped flags a Markdown file in the ADR directory
	// that looks like it was meant to be a record but is never read.
	RuleCorpusFileSkipped = "corpus-file-skipped"
	// RuleReviewOverdue flags a live decision whose reviewBy date has
	// passed.
	RuleReviewOverdue = "review-overdue"
	// RuleTemplateText flags a prompt of adrkit new's body left in a
	// record: an error once the record is accepted, since the hook and
	// the tools then quote it to agents as the decision.
	RuleTemplateText = "template-text"
	// RuleMatchesNothing flags a live decision's affects path pattern
	// that matches no file of the working tree: a decision that quietly
	// governs nothing.
	RuleMatchesNothing = "affects-matches-nothing"
)

// ErrInvalidLintInput is wrapped by Lint's error when the input itself is
// wrong (a malformed as-of date, no clock): the caller's mistake, not the
// corpus's.
var ErrInvalidLintInput = errors.New("invalid lint input")

// LintInput configures one lint run.
type LintInput struct {
	// AsOf fixes "today" (YYYY-MM-DD) for the reviewBy check, so that a
	// run can be reproduced; empty means the Clock's current UTC date.
	AsOf string
	// Clock supplies today's date when AsOf is empty. Lint reads no other
	// clock.
	Clock ports.Clock
	// Tree is the working tree the corpus is read from, whose tracked
	// files affects-matches-nothing checks patterns against; nil when
	// lint reads a git revision, or no working tree is at hand.
	Tree ports.RepoFiles
}

// LintReport is the outcome of one lint run.
type LintReport struct {
	// proj is the projection the report was made from, for the use cases
	// that need both from one read (Site).
	proj *corpus.Projection

	// AsOf is the date the reviewBy check compared against.
	AsOf string
	// Findings are the corpus findings plus lint's own, in canonical order
	// (adr.CompareFindings), with Line filled in where it is known.
	Findings []adr.Finding
	// RecordCount and ExcludedCount are the projection's counts.
	RecordCount   int
	ExcludedCount int
	// SkippedCount is the number of corpus-file-skipped findings: files
	// that look like records but are not read.
	SkippedCount int
	// Fingerprint is the projection's fingerprint. Lint's own findings do
	// not enter it, so it is the one the MCP tools report for the same
	// bytes.
	Fingerprint string
	// Records summarise the valid records, in canonical (id, sourcePath)
	// order, for reports that list them.
	Records []Summary
}

// Count returns how many findings have severity sev.
func (r *LintReport) Count(sev adr.Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == sev {
			n++
		}
	}
	return n
}

// Failed reports whether the run should fail a build: any error, or with
// strict any warning too. Info findings never fail.
func (r *LintReport) Failed(strict bool) bool {
	if r.Count(adr.SeverityError) > 0 {
		return true
	}
	return strict && r.Count(adr.SeverityWarn) > 0
}

// Lint projects the corpus and reports everything wrong with it: every
// corpus finding (with the source line where it is known), bad affects
// patterns, Markdown files that look like records but are not read, and
// live decisions whose reviewBy date has passed.
//
// The corpus is read once, through a single view, so the stray-file scan
// and the projection see the same directory. An unusable corpus is an
// *ports.UnavailableError (wrapped); a malformed input wraps
// ErrInvalidLintInput.
func (s *Service) Lint(ctx context.Context, in LintInput) (*LintReport, error) {
	today, err := lintToday(in)
	if err != nil {
		return nil, err
	}
	// One recursive listing serves both discovery (its top level) and the
	// stray-file scan (everything), so they cannot disagree.
	ld, err := s.load(ctx, true)
	if err != nil {
		return nil, err
	}
	var skipped []adr.Finding
	for _, e := range ld.entries {
		if f, ok := skippedFinding(e); ok {
			skipped = append(skipped, f)
		}
	}
	proj := ld.proj
	// A template named like a record (0000-TEMPLATE.md) is not a skipped
	// decision: lint leaves it alone, as migrate does.
	skipped = slices.DeleteFunc(skipped, func(f adr.Finding) bool { return templateFinding(f, proj) })
	lines := newSourceLines(ld.files)

	findings := slices.Clone(proj.Findings)
	for i := range findings {
		if findings[i].Line == 0 {
			findings[i].Line = lines.line(findings[i].Path, findings[i].Field)
		}
	}
	resolver := affects.NewResolver(nil, s.memo.compile)
	for _, r := range proj.Records {
		findings = append(findings, badPatterns(r, resolver, lines)...)
		if f, ok := reviewOverdue(r, today, lines); ok {
			findings = append(findings, f)
		}
		findings = append(findings, templateText(r, lines)...)
	}
	if in.Tree != nil {
		unmatched, err := matchesNothing(proj.Records, in.Tree, s.memo.compile, lines)
		if err != nil {
			return nil, err
		}
		findings = append(findings, unmatched...)
	}
	findings = append(findings, skipped...)
	findings = append(findings, renamedLinks(proj.Records, ld.entries)...)
	findings = append(findings, s.adoptionFindings(ctx, ld, lines)...)
	findings = slices.DeleteFunc(findings, func(f adr.Finding) bool { return templateFinding(f, proj) })
	adr.SortFindings(findings)
	records := make([]Summary, len(proj.Records))
	for i, r := range proj.Records {
		records[i] = summaryOf(r)
	}
	return &LintReport{
		Records:       records,
		AsOf:          today,
		Findings:      nonNil(findings),
		RecordCount:   proj.RecordCount,
		ExcludedCount: proj.ExcludedCount,
		SkippedCount:  len(skipped),
		Fingerprint:   proj.Fingerprint,
		proj:          proj,
	}, nil
}

// dateLayout is the only date form reviewBy and --as-of use.
const dateLayout = "2006-01-02"

// lintToday is the date the reviewBy check compares against.
func lintToday(in LintInput) (string, error) {
	if in.AsOf != "" {
		if err := ValidateDate(in.AsOf); err != nil {
			return "", err
		}
		return in.AsOf, nil
	}
	if in.Clock == nil {
		return "", fmt.Errorf("%w: no as-of date and no clock to tell today's date", ErrInvalidLintInput)
	}
	return in.Clock.Now().UTC().Format(dateLayout), nil
}

// ValidateDate checks that s is a calendar date written YYYY-MM-DD, the
// form reviewBy uses; the error wraps ErrInvalidLintInput.
func ValidateDate(s string) error {
	if len(s) != len(dateLayout) {
		return fmt.Errorf("%w: the date must be written YYYY-MM-DD, got %s", ErrInvalidLintInput, strconv.Quote(s))
	}
	if _, err := time.Parse(dateLayout, s); err != nil {
		return fmt.Errorf("%w: %s is not a calendar date written YYYY-MM-DD", ErrInvalidLintInput, strconv.Quote(s))
	}
	return nil
}

// sourceLines finds the file line of a field of a valid record. Findings
// about valid records come without lines (the corpus reports none), and
// only a few records have any, so a record's YAML is parsed again, with
// lines, only when a finding about it needs one, and once at most. It is
// used on one goroutine, after the parallel read.
type sourceLines struct {
	yaml map[string]string // frontmatter text by source path
	docs map[string]*yaml12.Document
	// above is the number of lines before the body, by source path.
	above map[string]int
}

func newSourceLines(files []file) *sourceLines {
	l := &sourceLines{yaml: map[string]string{}, docs: map[string]*yaml12.Document{}, above: map[string]int{}}
	for _, f := range files {
		if f.rec == nil {
			continue
		}
		if parts, err := frontmatter.Split(f.text); err == nil {
			l.yaml[f.Path] = parts.YAML
		}
		if head, ok := strings.CutSuffix(f.text, f.rec.Body); ok {
			l.above[f.Path] = strings.Count(head, "\n")
		}
	}
	return l
}

// bodyLine is the file line of line n (from 1) of the body of the record
// at path; 0 when unknown.
func (l *sourceLines) bodyLine(path string, n int) int {
	above, ok := l.above[path]
	if !ok {
		return 0
	}
	return above + n
}

// line is the file line of field (a "."-joined frontmatter path) in the
// record at path, falling back to its nearest recorded ancestor; 0 when
// unknown (the path is not a valid record's, or its YAML cannot be read
// again).
func (l *sourceLines) line(path, field string) int {
	doc, ok := l.docs[path]
	if !ok {
		if text, valid := l.yaml[path]; valid {
			doc, _ = yaml12.Parse(text)
		}
		l.docs[path] = doc
	}
	return fieldLine(doc, field)
}

// fieldLine is the file line of field (a "."-joined frontmatter path) in
// doc, falling back to its nearest recorded ancestor; 0 when unknown.
func fieldLine(doc *yaml12.Document, field string) int {
	if doc == nil {
		return 0
	}
	l := doc.Line(field)
	if l <= 0 {
		return 0
	}
	// The YAML starts on the line after the opening fence.
	return l + 1
}

// badPatterns reports the record's affects matchers that can never match
// (a path glob that does not compile or starts with "/", a malformed
// package pattern). get_decision_context reports them only when asked
// about files; a linter should catch them before anyone asks.
func badPatterns(r *adr.Record, resolver *affects.Resolver, lines *sourceLines) []adr.Finding {
	res := resolver.Resolve(r)
	var out []adr.Finding
	for _, f := range res.Findings {
		if f.Rule != affects.RuleBadPattern {
			continue
		}
		for i, m := range r.Frontmatter.Affects {
			if "affects."+string(m.Type) == f.Field && m.Pattern == f.Pattern {
				f.Line = lines.line(r.SourcePath, "affects."+strconv.Itoa(i)+".pattern")
				break
			}
		}
		out = append(out, f)
	}
	return out
}

// matchesNothing reports the path patterns of live decisions that match
// no file git tracks in tree, each with the nearest pattern that would
// (affects.Nearest) when there is one. A decision kept as history may
// name files long gone. Nothing is reported when git tracks no file (no
// repository): every pattern would be flagged.
func matchesNothing(records []*adr.Record, tree ports.RepoFiles, compile affects.CompileFunc, lines *sourceLines) ([]adr.Finding, error) {
	files, err := tree.TrackedFiles()
	if err != nil {
		return nil, fmt.Errorf("listing the files git tracks: %w", err)
	}
	if len(files) == 0 {
		return nil, nil
	}
	resolver := affects.NewResolver(files, compile)
	var out []adr.Finding
	for _, r := range records {
		if r.Frontmatter.Status.Bucket() == adr.BucketHistory {
			continue
		}
		fired := resolver.Resolve(r).Fired
		var seen []string
		for i, m := range r.Frontmatter.Affects {
			if m.Type != adr.MatcherPath || m.Negate || m.Repo != "" || slices.Contains(seen, m.Pattern) ||
				compile(m.Type, m.Pattern).Problem() != "" || slices.Contains(fired, adr.FiredMatcher{Type: m.Type, Pattern: m.Pattern}) {
				continue
			}
			seen = append(seen, m.Pattern)
			msg := "affects pattern " + strconv.Quote(m.Pattern) + " matches no file git tracks, so the decision governs nothing there"
			if near := affects.Nearest(m.Pattern, files, compile); near != "" {
				msg += "; did you mean " + strconv.Quote(near) + "?"
			} else {
				msg += "; correct the pattern, or commit the files it is about"
			}
			out = append(out, adr.Finding{
				Rule: RuleMatchesNothing, Severity: adr.SeverityWarn, Message: msg,
				Path: r.SourcePath, ID: r.Frontmatter.ID, Field: "affects.path", Pattern: m.Pattern,
				Line: lines.line(r.SourcePath, "affects."+strconv.Itoa(i)+".pattern"),
			})
		}
	}
	return out, nil
}

// templateText reports each prompt of adrkit new's body that the record
// still holds (scaffold.TemplateText, the test the site marks them by):
// an error in an accepted record, which agents are told to follow, a
// warning in one still being written or kept as history.
func templateText(r *adr.Record, lines *sourceLines) []adr.Finding {
	sev := adr.SeverityWarn
	if r.Frontmatter.Status == adr.StatusAccepted {
		sev = adr.SeverityError
	}
	var out []adr.Finding
	for _, left := range scaffold.TemplateText(r.Body) {
		out = append(out, adr.Finding{
			Rule:     RuleTemplateText,
			Severity: sev,
			Message: "the body still holds the template's prompt " + strconv.Quote(left.Prompt) +
				"; replace it with what was decided, in the record's own words",
			Path: r.SourcePath,
			ID:   r.Frontmatter.ID,
			Line: lines.bodyLine(r.SourcePath, left.Line),
		})
	}
	return out
}

// reviewOverdue reports a live decision (draft, proposed or accepted)
// whose reviewBy date is before today. A rejected, superseded or
// deprecated record is history: reviewing it is moot. Dates are compared
// as YYYY-MM-DD strings, which the schema guarantees.
func reviewOverdue(r *adr.Record, today string, lines *sourceLines) (adr.Finding, bool) {
	fm := r.Frontmatter
	if fm.ReviewBy == "" || fm.ReviewBy >= today || fm.Status.Bucket() == adr.BucketHistory {
		return adr.Finding{}, false
	}
	return adr.Finding{
		Rule:     RuleReviewOverdue,
		Severity: adr.SeverityWarn,
		Message: "the decision was due for review by " + fm.ReviewBy + " (today is " + today +
			"); review it, then move reviewBy forward or supersede the decision",
		Path:  r.SourcePath,
		ID:    fm.ID,
		Field: "reviewBy",
		Line:  lines.line(r.SourcePath, "reviewBy"),
	}, true
}
