package app

import (
	"strconv"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
)

// Rule ids of the findings list_superseded derives. They never enter the
// fingerprint.
const (
	RuleSupersededTargetAmbiguous = "superseded-target-ambiguous"
	RuleSupersededTargetFederated = "superseded-target-federated-unavailable"
)

// Reasons of an unresolved supersededBy target.
const (
	targetDangling  = "dangling"
	targetAmbiguous = "ambiguous"
	targetFederated = "federated-unavailable"
)

// answerSuperseded is list_superseded over one projection: every
// superseded record with the state of its direct replacement (one hop,
// never transitive).
func answerSuperseded(p *corpus.Projection, in SupersededInput) Result {
	var items []SupersededEntry
	var derived []adr.Finding
	for _, r := range p.Records {
		if r.Frontmatter.Status != adr.StatusSuperseded {
			continue
		}
		state, f := replacementOf(p, r)
		s := summaryOf(r)
		items = append(items, SupersededEntry{
			ID: s.ID, Title: s.Title, Status: s.Status, SourcePath: s.SourcePath, SupersededBy: state,
		})
		if f != nil {
			derived = append(derived, *f)
		}
	}
	findings := withDerived(p.Findings, derived)

	primary := channel{scope: cursor.SupersededResults, token: in.Cursor, limit: in.limit(), shape: []any{in.limit()}, whole: in.whole}
	secondary := findingsChannel(cursor.SupersededFindings, in.Page, []any{in.findingsLimit()})
	pg, refused, ok := paginate(p, primary, len(items), secondary, len(findings))
	if !ok {
		return refused
	}
	page := items[pg.primary.lo:pg.primary.hi]
	fpage := findingsPage(findings, pg.findings)
	return answer(p, Entries{
		Outcome: OutcomeEntries, Items: nonNil(page), Cursor: pg.primary.next, Findings: fpage,
	})
}

// replacementOf classifies r's supersededBy target and derives the
// finding the state calls for. A dangling target gets none: the corpus
// already reports it as dangling-supersededBy.
func replacementOf(p *corpus.Projection, r *adr.Record) (Replacement, *adr.Finding) {
	target := r.Frontmatter.SupersededBy
	ref := adr.ParseRef(target)
	if ref.Federated() {
		return TargetFederated{Resolved: false, TargetRef: Text(target), Reason: targetFederated, Log: Text(ref.Log), ID: Text(ref.ID)},
			&adr.Finding{
				Rule:     RuleSupersededTargetFederated,
				Severity: adr.SeverityInfo,
				ID:       r.Frontmatter.ID,
				Message: "supersededBy names " + strconv.Quote(target) + " in the " + strconv.Quote(ref.Log) +
					" log; this server reads a single log, so the replacement cannot be checked",
			}
	}
	holders := p.ByID[ref.ID]
	switch len(holders) {
	case 0:
		return TargetDangling{Resolved: false, TargetRef: Text(target), Reason: targetDangling}, nil
	case 1:
		return TargetResolved{Resolved: true, Target: summaryOf(holders[0])}, nil
	}
	return TargetAmbiguous{Resolved: false, TargetRef: Text(target), Reason: targetAmbiguous, CandidateCount: len(holders)},
		&adr.Finding{
			Rule:     RuleSupersededTargetAmbiguous,
			Severity: adr.SeverityWarn,
			ID:       r.Frontmatter.ID,
			Message: "supersededBy names " + strconv.Quote(target) + ", which " + strconv.Itoa(len(holders)) +
				" local records hold; call get_decision with ref " + strconv.Quote(target) + " to list them",
		}
}
