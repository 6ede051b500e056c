package app

import (
	"context"
	"slices"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/jsstring"
)

// GovernInput names the files an agent is about to write, for Govern.
type GovernInput struct {
	// Files are repository-relative and "/"-separated; they need not
	// exist (a file being created is governed by its path).
	Files []string
	// Markers is what the heads of the files declare (ReadMarkers).
	Markers MarkerReport
}

// Governance is what covers some files at the moment of an edit: the
// rules of explain and check (affects patterns and @adr markers), read
// from the valid records even when the corpus has errors (unlike
// explain, which withholds its answer then), with the sentence that
// states each decision.
type Governance struct {
	// Files are the files asked about, in UTF-16 code-unit order, each
	// with what covers it.
	Files []GovernedFile
	// Holds are the governing decisions whose line of supersession is on
	// hold, in record order (as check reports them).
	Holds []CheckHold
	// Errors counts the corpus's error findings: the records they are
	// about are not among the valid ones the answer is read from.
	Errors int
}

// GovernedFile is one file and the decisions that cover it, by bucket.
type GovernedFile struct {
	Path            string
	Governing       []GovernEntry
	ActiveProposals []GovernEntry
	History         []GovernEntry
}

// Covered reports whether any decision covers the file.
func (f GovernedFile) Covered() bool {
	return len(f.Governing)+len(f.ActiveProposals)+len(f.History) > 0
}

// GovernEntry is a covering record with the sentence that states its
// decision ("" when its body has none that can be found).
type GovernEntry struct {
	ContextEntry
	Decision string
}

// Govern answers, for files about to be written, which decisions cover
// them. It reads the projection only (not lint's extra checks), so that
// it costs one read of the corpus. An unusable corpus is an
// *ports.UnavailableError (wrapped).
func (s *Service) Govern(ctx context.Context, in GovernInput) (*Governance, error) {
	p, err := s.Project(ctx)
	if err != nil {
		return nil, err
	}
	files := slices.Clone(in.Files)
	slices.SortFunc(files, jsstring.Compare)
	files = slices.Compact(files)

	// Only path matchers can fire for a file; the findings the others
	// raise (a package range that does not parse...) are lint's, and
	// working them out (semver's expressions) would cost a cold process
	// more than the match.
	compile := func(typ adr.MatcherType, pattern string) affects.Compiled {
		if typ != adr.MatcherPath {
			return affects.Compiled{}
		}
		return s.memo.compile(typ, pattern)
	}
	checked := checkFiles(p, files, in.Markers, compile)
	bodies := make(map[Text]string, len(p.Records))
	for _, r := range p.Records {
		bodies[Text(r.SourcePath)] = r.Body
	}
	withDecision := func(es []ContextEntry) []GovernEntry {
		out := make([]GovernEntry, len(es))
		for i, e := range es {
			out[i] = GovernEntry{ContextEntry: e}
			if e.Status.Bucket() == adr.BucketGoverning {
				out[i].Decision = adr.DecisionSentence(bodies[e.SourcePath])
			}
		}
		return out
	}
	g := &Governance{Files: make([]GovernedFile, len(checked)), Holds: checkHolds(p, checked)}
	for i, f := range checked {
		g.Files[i] = GovernedFile{
			Path: f.Path, Governing: withDecision(f.Governing),
			ActiveProposals: withDecision(f.ActiveProposals), History: withDecision(f.History),
		}
	}
	g.Errors = countErrors(p.Findings)
	return g, nil
}

// Digest is a short account of the whole corpus for the start of an
// agent's session.
type Digest struct {
	// Counts are the valid records by status, in schema order, statuses
	// with none left out.
	Counts []StatusCount
	// Rejected are the rejected decisions, in record order.
	Rejected []Summary
	// Records counts the valid records; Errors the error findings.
	Records, Errors int
}

// StatusCount is how many valid records have one status.
type StatusCount struct {
	Status adr.Status
	Count  int
}

// Digest reads the corpus once and counts it. An unusable corpus is an
// *ports.UnavailableError (wrapped).
func (s *Service) Digest(ctx context.Context) (*Digest, error) {
	p, err := s.Project(ctx)
	if err != nil {
		return nil, err
	}
	by := map[adr.Status]int{}
	d := &Digest{Records: len(p.Records), Errors: countErrors(p.Findings)}
	for _, r := range p.Records {
		by[r.Frontmatter.Status]++
		if r.Frontmatter.Status == adr.StatusRejected {
			d.Rejected = append(d.Rejected, summaryOf(r))
		}
	}
	for _, st := range adr.Statuses {
		if by[st] > 0 {
			d.Counts = append(d.Counts, StatusCount{Status: st, Count: by[st]})
		}
	}
	return d, nil
}

// countErrors counts the findings of error severity.
func countErrors(fs []adr.Finding) int {
	n := 0
	for _, f := range fs {
		if f.Severity == adr.SeverityError {
			n++
		}
	}
	return n
}
