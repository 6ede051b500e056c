package app

import (
	"fmt"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/lineage"
)

// OutcomeChain is the substantive outcome of get_supersession_chain.
const OutcomeChain = "chain"

// ChainInput is the validated argument set of get_supersession_chain.
// The tool has a findings channel only: the chain is bounded by the hop
// limit each way and is always returned whole.
type ChainInput struct {
	Ref            string  `json:"ref"`
	FindingsCursor *string `json:"findingsCursor,omitzero"`
	FindingsLimit  int     `json:"findingsLimit,omitzero"`
	whole          bool
}

func (in ChainInput) page() Page {
	return Page{FindingsCursor: in.FindingsCursor, FindingsLimit: in.FindingsLimit, whole: in.whole}
}

// readChain reads get_supersession_chain arguments in schema property
// order: ref, findingsCursor, findingsLimit.
func readChain(r *argReader) ChainInput {
	var in ChainInput
	if ref := r.str("ref", true, checkRef); ref != nil {
		in.Ref = *ref
	}
	in.FindingsCursor = r.str("findingsCursor", false, checkCursor)
	in.FindingsLimit = r.limit("findingsLimit")
	return in
}

// ChainAnswer is the chain outcome.
type ChainAnswer struct {
	Outcome      string       `json:"outcome"`
	RequestedRef string       `json:"requestedRef"`
	Chain        []ChainNode  `json:"chain"`
	Verdict      ChainVerdict `json:"verdict"`
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

// ChainVerdict is the verdict of a chain: ChainCurrent or ChainHold.
type ChainVerdict interface{ judgement() lineage.Judgement }

func (v ChainCurrent) judgement() lineage.Judgement {
	return lineage.Judgement{Verdict: v.Verdict, Action: v.Action}
}

func (v ChainHold) judgement() lineage.Judgement {
	return lineage.Judgement{Verdict: v.Verdict, Reason: v.Reason, Action: v.Action}
}

func (r ChainAnswer) summary() string {
	return summaryChain(r.RequestedRef, len(r.Chain), r.Verdict.judgement(), len(r.Findings.Items))
}

func (r AmbiguousChain) summary() string {
	return summaryAmbiguous(r.RequestedRef, len(r.Candidates), len(r.Findings.Items))
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

	ref := adr.ParseRef(in.Ref)
	if ref.Federated() {
		return answer(p, Federated{
			Outcome: OutcomeFederated, RequestedRef: in.Ref, Log: ref.Log, ID: ref.ID, Findings: fpage,
		})
	}
	holders := p.ByID[ref.ID]
	switch len(holders) {
	case 0:
		return answer(p, NotFound{
			Outcome: OutcomeNotFound, RequestedRef: in.Ref, Findings: fpage,
		})
	case 1:
	default:
		cands := make([]Summary, len(holders))
		for i, r := range holders {
			cands[i] = summaryOf(r)
		}
		return answer(p, AmbiguousChain{
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
	return answer(p, out)
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
