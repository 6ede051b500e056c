package app

import (
	"encoding/json"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
)

// answerGet is get_decision over one projection. A log-qualified ref is
// never looked up locally: this server sees a single log. Only an
// ambiguous id has a candidates channel; on every other outcome a
// supplied cursor that verifies is still refused as not applicable.
func answerGet(p *corpus.Projection, in GetInput) Result {
	ref := adr.ParseRef(in.Ref)
	var holders []*adr.Record
	if !ref.Federated() {
		holders = p.ByID[ref.ID]
	}
	ambiguous := len(holders) > 1

	primary := channel{
		scope:        cursor.DecisionCandidates,
		token:        in.Cursor,
		limit:        in.limit(),
		shape:        []any{in.Ref, in.limit()},
		inapplicable: !ambiguous,
		whole:        in.whole,
	}
	n := 0
	if ambiguous {
		n = len(holders)
	}
	findings := p.Findings
	secondary := findingsChannel(cursor.DecisionFindings, in.Page, []any{in.findingsLimit()})
	pg, refused, ok := paginate(p, primary, n, secondary, len(findings))
	if !ok {
		return refused
	}
	fpage := findingsPage(findings, pg.findings)

	switch {
	case ref.Federated():
		return answer(p, Federated{
			Outcome: OutcomeFederated, RequestedRef: in.Ref, Log: ref.Log, ID: ref.ID, Findings: fpage,
		})
	case len(holders) == 0:
		return answer(p, NotFound{
			Outcome: OutcomeNotFound, RequestedRef: in.Ref, Findings: fpage,
		})
	case !ambiguous:
		r := holders[0]
		fm := r.Frontmatter
		return answer(p, Found{
			Outcome: OutcomeFound,
			Decision: Decision{
				RequestedRef: in.Ref, ID: Text(fm.ID), Title: Text(fm.Title), Status: fm.Status,
				SourcePath: Text(r.SourcePath), Frontmatter: frontmatterJSON(fm), Body: r.Body,
			},
			Findings: fpage,
		})
	}
	page := holders[pg.primary.lo:pg.primary.hi]
	cands := make([]Summary, len(page))
	for i, r := range page {
		cands[i] = summaryOf(r)
	}
	return answer(p, Ambiguous{
		Outcome: OutcomeAmbiguousLocalID, RequestedRef: in.Ref, Candidates: cands,
		Cursor: pg.primary.next, Findings: fpage,
	})
}

// frontmatterJSON is the record's validated frontmatter as JSON text,
// worked out again from its YAML (frontmatter.JSON); null for a record
// built without one (a parsed record always has it).
func frontmatterJSON(fm *adr.Frontmatter) json.RawMessage {
	text, err := frontmatter.JSON(fm)
	if err != nil {
		return json.RawMessage("null")
	}
	return json.RawMessage(text)
}
