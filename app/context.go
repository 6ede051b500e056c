package app

import (
	"slices"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/affects"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/markers"
)

// answerContext is get_decision_context over one projection. Every record
// is resolved (its derived findings count whether or not it matched); the
// matches form one flat walk in record order, which is paginated first and
// only then split by status bucket, so a page may fill any bucket or none.
//
// For the command line (in.CommandLine) a corpus with an error finding
// gets an empty walk and no derived findings, as the reference's
// command line answers: the corpus's findings alone, no decision.
// compile is affects.Compile or a memo of it.
func answerContext(p *corpus.Projection, in ContextInput, compile affects.CompileFunc) Result {
	var walk []ContextEntry
	var derived []adr.Finding
	withheld := in.CommandLine && slices.ContainsFunc(p.Findings, stopsCommandLine)
	if !withheld {
		walk, derived = contextWalk(p, in.Files, in.Markers, compile)
	}
	findings := withDerived(p.Findings, derived)

	// The paths are matched as given; only the cursor binding sees them
	// de-duplicated and sorted, so reordering the list keeps a walk going.
	files := sortedUnique(in.Files)
	primary := channel{
		scope: cursor.ContextResults,
		token: in.Cursor,
		limit: in.limit(),
		shape: contextShape(files, in),
		whole: in.whole,
	}
	secondary := findingsChannel(cursor.ContextFindings, in.Page, []any{files, in.findingsLimit()})
	pg, refused, ok := paginate(p, primary, len(walk), secondary, len(findings))
	if !ok {
		return refused
	}
	out := Matches{
		Outcome:         OutcomeMatches,
		Governing:       []ContextEntry{},
		ActiveProposals: []ContextEntry{},
		History:         []ContextEntry{},
		Cursor:          pg.primary.next,
		Findings:        findingsPage(findings, pg.findings),
		Withheld:        withheld,
	}
	for _, e := range walk[pg.primary.lo:pg.primary.hi] {
		switch e.Status.Bucket() {
		case adr.BucketGoverning:
			out.Governing = append(out.Governing, e)
		case adr.BucketActiveProposals:
			out.ActiveProposals = append(out.ActiveProposals, e)
		default:
			out.History = append(out.History, e)
		}
	}
	return answer(p, out)
}

// contextWalk is every record that covers files, in record order: those
// whose affects matchers fire, and those the files declare with markers
// (decls). derived are the findings the call gives besides the corpus's.
func contextWalk(p *corpus.Projection, files []string, decls []markers.Declaration, compile affects.CompileFunc) (walk []ContextEntry, derived []adr.Finding) {
	resolver := affects.NewResolver(files, compile)
	declared := bindMarkers(p, decls)
	for _, r := range p.Records {
		res := resolver.Resolve(r)
		derived = append(derived, res.Findings...)
		switch sites := declared.of(r); {
		case res.Matched():
			walk = append(walk, contextEntryOf(r, res.Fired))
			walk[len(walk)-1].DeclaredBy = sites
		case len(sites) > 0:
			// Declared by a file alone: it governs (or proposes, or is
			// history) with no matcher of its own having fired.
			walk = append(walk, contextEntryOf(r, nil))
			walk[len(walk)-1].DeclaredBy = sites
		}
	}
	if declared != nil {
		derived = append(derived, declared.findings...)
	}
	return walk, derived
}

func contextEntryOf(r *adr.Record, fired []adr.FiredMatcher) ContextEntry {
	fm := r.Frontmatter
	rel := Relations{
		Supersedes:    nonNil(fm.Supersedes),
		RelatesTo:     nonNil(fm.RelatesTo),
		ConflictsWith: nonNil(fm.ConflictsWith),
	}
	if fm.SupersededBy != "" {
		by := fm.SupersededBy
		rel.SupersededBy = &by
	}
	return ContextEntry{
		ID: Text(fm.ID), Title: Text(fm.Title), Status: fm.Status, SourcePath: Text(r.SourcePath),
		FiredMatchers: firedOf(fired), Relations: rel,
	}
}

// withDerived is a tool's findings channel: the corpus findings plus the
// findings this call derived, in canonical order. The projection's own
// slice is never modified.
func withDerived(corpusFindings, derived []adr.Finding) []adr.Finding {
	if len(derived) == 0 {
		return corpusFindings
	}
	all := slices.Concat(corpusFindings, derived)
	adr.SortFindings(all)
	return all
}

// stopsCommandLine reports whether f keeps the command line's explain
// from answering: an error the reference's command line would also find.
// The tool's size cap is not one: the reference's command line reads an
// oversized record as any other, so withholding every decision for it
// would differ from the reference for every file, where leaving the
// record out differs only for the files it covers.
func stopsCommandLine(f adr.Finding) bool {
	return f.Severity == adr.SeverityError && f.Rule != corpus.RuleRecordTooLarge
}
