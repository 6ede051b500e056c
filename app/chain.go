package app

import (
	"context"
	"fmt"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/lineage"
)

// The extended tools (docs/extended-tools.md). They are answered only by a
// Service created with Options.Extended.
const (
	ToolGetSupersessionChain = "get_supersession_chain"
	ToolListDecisionChanges  = "list_decision_changes"
)

// OutcomeChain is the substantive outcome of get_supersession_chain.
const OutcomeChain = "chain"

// extendedTools is tools/list with the extended surface: every tool, in
// lexicographic order like the four.
var extendedTools = []string{
	ToolGetDecision, ToolGetDecisionContext, ToolGetSupersessionChain,
	ToolListDecisionChanges, ToolListSuperseded, ToolSearchDecisions,
}

// ChainInput is the validated argument set of get_supersession_chain.
// The tool has a findings channel only: the chain is bounded by the hop
// limit each way and is always returned whole.
type ChainInput struct {
	Ref            string
	FindingsCursor *string
	FindingsLimit  int
}

func (in ChainInput) page() Page {
	return Page{FindingsCursor: in.FindingsCursor, FindingsLimit: in.FindingsLimit}
}

func (in ChainInput) issues() []issue {
	var out []issue
	for _, m := range checkRef(in.Ref) {
		out = append(out, issue{path: "ref", msg: m})
	}
	return append(out, in.page().issues()...)
}

// parseChain validates get_supersession_chain arguments in schema
// property order: ref, findingsCursor, findingsLimit.
func parseChain(set argSet) (ChainInput, []issue) {
	r := newArgReader(set)
	var in ChainInput
	if ref := r.str("ref", true, checkRef); ref != nil {
		in.Ref = *ref
	}
	in.FindingsCursor = r.str("findingsCursor", false, checkCursor)
	in.FindingsLimit = r.limit("findingsLimit")
	return in, r.finish()
}

// GetSupersessionChain answers get_supersession_chain. Invalid input
// gives an isError result, as it would over JSON. It answers whether or
// not the Service has the extended surface: a caller in Go has already
// chosen the tool.
func (s *Service) GetSupersessionChain(ctx context.Context, in ChainInput) (Result, error) {
	if issues := in.issues(); len(issues) > 0 {
		return refusal(ToolGetSupersessionChain, issues), nil
	}
	return s.withProjection(ctx, func(p *corpus.Projection) Result { return answerChain(p, in) })
}

// ChainAnswer is the chain outcome.
type ChainAnswer struct {
	Outcome      string       `json:"outcome"`
	RequestedRef string       `json:"requestedRef"`
	Chain        []ChainNode  `json:"chain"`
	Verdict      any          `json:"verdict"`
	Gaps         []ChainGap   `json:"gaps"`
	Findings     FindingsPage `json:"findings"`
}

// ChainNode is one record of a chain, oldest first.
type ChainNode struct {
	ID         Text       `json:"id"`
	Title      Text       `json:"title"`
	Status     adr.Status `json:"status"`
	Date       Text       `json:"date"`
	SourcePath Text       `json:"sourcePath"`
	// Hop is the signed number of replacement steps from the requested
	// record (0): negative for what it replaced, positive for its
	// replacements.
	Hop int `json:"hop"`
}

// ChainCurrent is the current verdict: At governs.
type ChainCurrent struct {
	Verdict lineage.Verdict `json:"verdict"`
	At      Text            `json:"at"`
	Action  string          `json:"action"`
}

// ChainHold is the hold verdict.
type ChainHold struct {
	Verdict lineage.Verdict `json:"verdict"`
	Reason  lineage.Reason  `json:"reason"`
	At      Text            `json:"at"`
	Refs    []string        `json:"refs"`
	Action  string          `json:"action"`
}

// ChainGap is a place where the walk towards older records stopped.
type ChainGap struct {
	At     Text           `json:"at"`
	Ref    Text           `json:"ref"`
	Reason lineage.Reason `json:"reason"`
}

// AmbiguousChain is the ambiguous-local-id outcome of
// get_supersession_chain: every holder of the id, unpaged.
type AmbiguousChain struct {
	Outcome      string       `json:"outcome"`
	RequestedRef string       `json:"requestedRef"`
	Candidates   []Summary    `json:"candidates"`
	Findings     FindingsPage `json:"findings"`
}

// answerChain is get_supersession_chain over one projection. The
// requested ref is resolved as get_decision resolves it; the findings
// channel is the corpus findings, as get_decision's is.
func answerChain(p *corpus.Projection, in ChainInput) Result {
	// The findings channel has a scope of its own, so get_decision's
	// findings cursors and this tool's refuse each other as wrong-channel;
	// the query shape is get_decision's: the findings limit alone.
	ch := findingsChannel(cursor.ChainFindings, in.page(), []any{in.page().findingsLimit()})
	fw, reason := ch.resolve(p.Fingerprint, len(p.Findings))
	if reason != cursor.OK {
		return invalidCursor(p, reason)
	}
	fpage := findingsPage(p.Findings, fw)
	f := len(fpage.Items)

	ref := adr.ParseRef(in.Ref)
	if ref.Federated() {
		return answer(p, summaryFederated(in.Ref, f), Federated{
			Outcome: OutcomeFederated, RequestedRef: in.Ref, Log: ref.Log, ID: ref.ID, Findings: fpage,
		})
	}
	holders := p.ByID[ref.ID]
	switch len(holders) {
	case 0:
		return answer(p, summaryNotFound(in.Ref, f), NotFound{
			Outcome: OutcomeNotFound, RequestedRef: in.Ref, Findings: fpage,
		})
	case 1:
	default:
		cands := make([]Summary, len(holders))
		for i, r := range holders {
			cands[i] = summaryOf(r)
		}
		return answer(p, summaryAmbiguous(in.Ref, len(cands), f), AmbiguousChain{
			Outcome: OutcomeAmbiguousLocalID, RequestedRef: in.Ref, Candidates: cands, Findings: fpage,
		})
	}

	c := lineage.Walk(lineage.NewIndex(p.Records, p.ByID), holders[0])
	out := ChainAnswer{
		Outcome: OutcomeChain, RequestedRef: in.Ref,
		Chain: make([]ChainNode, len(c.Nodes)), Gaps: make([]ChainGap, len(c.Gaps)), Findings: fpage,
	}
	for i, n := range c.Nodes {
		fm := n.Record.Frontmatter
		out.Chain[i] = ChainNode{
			ID: Text(fm.ID), Title: Text(fm.Title), Status: fm.Status, Date: Text(fm.Date), SourcePath: Text(n.Record.SourcePath), Hop: n.Hop,
		}
	}
	for i, g := range c.Gaps {
		out.Gaps[i] = ChainGap{At: Text(g.At.Frontmatter.ID), Ref: Text(g.Ref), Reason: g.Reason}
	}
	at := Text(c.At.Frontmatter.ID)
	if c.Verdict == lineage.Current {
		out.Verdict = ChainCurrent{Verdict: c.Verdict, At: at, Action: c.Action}
	} else {
		out.Verdict = ChainHold{Verdict: c.Verdict, Reason: c.Reason, At: at, Refs: nonNil(c.Refs), Action: c.Action}
	}
	return answer(p, summaryChain(in.Ref, len(out.Chain), c.Judgement, f), out)
}

// summaryChain is the summary line of the chain outcome; it carries the
// verdict's sentence, so an agent that reads only the line can act.
func summaryChain(ref string, n int, j lineage.Judgement, f int) string {
	verdict := "is current"
	if j.Verdict == lineage.Hold {
		verdict = "is on hold (" + string(j.Reason) + ")"
	}
	return capSummary(fmt.Sprintf("Chain of %d %s for \"%s\" %s: %s; %s",
		n, plural(n, "decision", "decisions"), ref, verdict, j.Action, findingsTail(f)))
}
