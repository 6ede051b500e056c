package app

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/ask"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/lineage"
)

// ToolQueryDecision answers a question in the asker's words (issue 31,
// docs/ask.md); an extended tool.
const ToolQueryDecision = "query_decision"

// The outcomes of query_decision (AskAnswer.Outcome).
const (
	// AskFound: a record answers and its line is in force (Current names
	// the record that governs now).
	AskFound = "found"
	// AskHeld: a record answers but its line holds (Reason): rejected,
	// still a proposal, deprecated, or a chain that cannot be followed.
	AskHeld = "held"
	// AskNoRecord: no record answers with enough confidence; the
	// candidates are only the closest.
	AskNoRecord = "no_record"
)

// defaultAskLimit is how many candidates an answer lists without limit.
const defaultAskLimit = 5

// AskInput is a question for query_decision and adrkit ask.
type AskInput struct {
	Question string `json:"question"`
	// Limit is how many candidates to list, 1 to 20; 0 means 5.
	Limit int `json:"limit,omitzero"`
}

// ToolName implements Input.
func (AskInput) ToolName() string { return ToolQueryDecision }

// setWhole does nothing: an answer is always whole.
func (in *AskInput) setWhole() {}

// readAsk reads query_decision arguments in schema property order:
// question, limit.
func readAsk(r *argReader) AskInput {
	var in AskInput
	if q := r.str("question", true, checkQuestion); q != nil {
		in.Question = *q
	}
	in.Limit = r.pageSize("limit", 1, 20)
	return in
}

func checkQuestion(q string) []string {
	if strings.TrimSpace(q) == "" {
		return []string{"must not be empty"}
	}
	return nil
}

// AskAnswer is the answer to a question (result of query_decision).
type AskAnswer struct {
	// Outcome is AskFound, AskHeld or AskNoRecord. It sits where every
	// tool's outcome does (result.outcome), beside the corpus health, so
	// that corpus-unavailable reads as it does from every tool.
	Outcome string `json:"outcome"`
	// Decision is the record that answers; null for no_record.
	Decision *Summary `json:"decision"`
	// Current is the record in force on Decision's line (itself, or
	// what replaced it); null unless found.
	Current *Summary `json:"current"`
	// Reason is the chain's hold reason when held.
	Reason lineage.Reason `json:"reason,omitempty"`
	// DoNotPropose says that Decision was rejected or replaced: what it
	// says must not be proposed again as if it were open.
	DoNotPropose bool `json:"doNotPropose"`
	// Action is the chain's sentence on what to do; empty for no_record.
	Action     string  `json:"action,omitempty"`
	Confidence float64 `json:"confidence"`
	// Candidates are the best-ranked records, best first.
	Candidates []AskCandidate `json:"candidates"`
	// Truncated says that only the start of a long question was read.
	Truncated bool `json:"truncated,omitzero"`
}

// AskCandidate is one ranked record.
type AskCandidate struct {
	ID     Text       `json:"id"`
	Title  Text       `json:"title"`
	Status adr.Status `json:"status"`
	// Score is the BM25F score, to three decimals.
	Score float64 `json:"score"`
}

// askIndex is the ranking index of one projection, and its lineage.
type askIndex struct {
	fingerprint string
	rank        *ask.Index
	lines       *lineage.Index
}

// askCache keeps the index of the last projection asked, keyed by its
// fingerprint (the hash of every record's bytes as read): rebuilding it
// costs more than reading the corpus.
type askCache struct {
	mu   sync.Mutex
	last *askIndex
}

// index is p's ranking index, built once per projection.
func (c *askCache) index(p *corpus.Projection) *askIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil || c.last.fingerprint != p.Fingerprint {
		docs := make([]ask.Doc, len(p.Records))
		for i, r := range p.Records {
			docs[i] = ask.DocOf(r)
		}
		c.last = &askIndex{fingerprint: p.Fingerprint, rank: ask.NewIndex(docs), lines: lineage.NewIndex(p.Records, p.ByID)}
	}
	return c.last
}

// Ask answers a question as query_decision does: the answer, or an
// error for a refused question or a corpus that cannot be read.
func (s *Service) Ask(ctx context.Context, in AskInput) (AskAnswer, error) {
	res, err := s.CallInput(ctx, in)
	if err != nil {
		return AskAnswer{}, err
	}
	if res.Structured != nil {
		if a, ok := res.Structured.Result.(AskAnswer); ok {
			return a, nil
		}
	}
	return AskAnswer{}, fmt.Errorf("%s: %s", ToolQueryDecision, res.Text)
}

// answerAsk answers a question over one projection.
func answerAsk(p *corpus.Projection, ix *askIndex, in AskInput) Result {
	rk := ix.rank.Rank(in.Question, cmp.Or(in.Limit, defaultAskLimit), nil)
	out := AskAnswer{Outcome: AskNoRecord, Confidence: rk.Confidence, Candidates: make([]AskCandidate, len(rk.Hits)), Truncated: rk.Truncated}
	for i, h := range rk.Hits {
		fm := p.Records[h.Doc].Frontmatter
		out.Candidates[i] = AskCandidate{ID: Text(fm.ID), Title: Text(fm.Title), Status: fm.Status, Score: math.Round(h.Score*1000) / 1000}
	}
	if len(rk.Hits) == 0 || rk.Confidence < ask.Threshold {
		return answer(p, out)
	}
	r := p.Records[rk.Hits[0].Doc]
	d := summaryOf(r)
	out.Decision = &d
	c := lineage.Walk(ix.lines, r)
	out.Action = c.Action
	if c.Verdict == lineage.Current {
		cur := summaryOf(c.At)
		out.Outcome, out.Current = AskFound, &cur
		out.DoNotPropose = c.At != r
	} else {
		out.Outcome, out.Reason = AskHeld, c.Reason
		out.DoNotPropose = c.Reason == lineage.Rejected || r.Frontmatter.Status == adr.StatusSuperseded
	}
	return answer(p, out)
}

func (a AskAnswer) summary() string { return a.Sentence() }

// Sentence is the answer in one line, as a person reads it (the tool's
// summary line): "Decided: 0025 Use ElastiCache for Redis (accepted) -
// confidence 0.82", "Rejected: ... do not propose again", "Replaced:
// ... in force: ...", "Held (reason): ...", or "No record answers this".
func (a AskAnswer) Sentence() string {
	conf := fmt.Sprintf(" - confidence %.2f", a.Confidence)
	if a.Decision == nil {
		var closest []string
		for _, c := range a.Candidates[:min(len(a.Candidates), 3)] {
			closest = append(closest, string(c.ID)+" "+string(c.Title))
		}
		if len(closest) == 0 {
			return "No record answers this"
		}
		return capSummary("No record answers this (closest: " + strings.Join(closest, "; ") + ")" + conf)
	}
	d := a.Decision
	name := fmt.Sprintf("%s %s (%s)", d.ID, d.Title, d.Status)
	switch {
	case a.Outcome == AskFound && a.Current.ID == d.ID && a.Current.SourcePath == d.SourcePath:
		return capSummary("Decided: " + name + conf)
	case a.Outcome == AskFound:
		return capSummary(fmt.Sprintf("Replaced: %s - in force: %s %s (%s); do not propose the old decision again%s",
			name, a.Current.ID, a.Current.Title, a.Current.Status, conf))
	case a.Reason == lineage.Rejected && d.Status == adr.StatusRejected:
		return capSummary("Rejected: " + name + " - do not propose again" + conf)
	}
	return capSummary(fmt.Sprintf("Held (%s): %s - %s%s", a.Reason, name, a.Action, conf))
}
