package app

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/ask"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/lineage"
	"github.com/adrkit/adrkit-go/ports"
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
		rank := ask.NewIndex(len(p.Records), func(i int) ask.Doc { return ask.DocOf(p.Records[i]) })
		c.last = &askIndex{fingerprint: p.Fingerprint, rank: rank, lines: lineage.NewIndex(p.Records, p.ByID)}
	}
	return c.last
}

// resembling is the rejected record, other than the record numbered
// self (-1: none), that the ranking answers title with, and the
// confidence; nil below the threshold.
func (ix *askIndex) resembling(p *corpus.Projection, title string, self int) (*adr.Record, float64) {
	rk := ix.rank.Rank(title, 1, func(doc int) bool {
		return doc != self && p.Records[doc].Frontmatter.Status == adr.StatusRejected
	})
	if len(rk.Hits) == 0 || rk.Confidence < ask.Threshold {
		return nil, 0
	}
	return p.Records[rk.Hits[0].Doc], rk.Confidence
}

// ResemblesRejected is the rejected decision a proposal titled title
// asks for again, as check's resembles-rejected judges it, with the
// confidence; nil when none reaches the threshold. It is for a hook that
// sees a record written before any check reads it.
func (s *Service) ResemblesRejected(ctx context.Context, title string) (*Summary, float64, error) {
	p, err := s.Project(ctx)
	if err != nil {
		return nil, 0, err
	}
	r, conf := s.memo.ask.index(p).resembling(p, title, -1)
	if r == nil {
		return nil, 0, nil
	}
	sum := summaryOf(r)
	return &sum, conf, nil
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

// askMagic opens a kept answer index; the number is the format's version.
var askMagic = []byte("adrkit-ask-index/1\n")

// AskOnce answers a question as query_decision does, for a process that
// asks once (adrkit ask): the corpus is read once, as the hook reads it,
// and what an answer needs of the records (the ranking index, the fields
// an answer shows, the corpus health) is kept in the site's store beside
// the hook's index, under the key of the bytes read. Asking an unchanged
// corpus again costs the read and the ranking, not a parse. A refused
// question is an isError Result, as from CallInput.
func AskOnce(ctx context.Context, site *HookSite, in AskInput) (Result, error) {
	if res, refused := refuse(in); refused {
		return res, nil
	}
	h := &hookRun{s: New(site.Reader, Options{}), site: site}
	c, err := h.read(ctx)
	if err == nil {
		key := ""
		if c.key != "" {
			sum := sha256.Sum256([]byte("adrkit-ask/1\x00" + c.key))
			key = hex.EncodeToString(sum[:])
		}
		if data, ok := h.get(ports.ShelfIndex, key); ok {
			if p, ix, err := decodeAsk(data); err == nil {
				return answerAsk(p, ix, in), nil
			}
		}
		var p *corpus.Projection
		if p, err = h.s.projectRead(ctx, c.corpusRead); err == nil {
			ix := h.s.memo.ask.index(p)
			h.put(ports.ShelfIndex, key, encodeAsk(p, ix))
			return answerAsk(p, ix, in), nil
		}
	}
	if u := (*ports.UnavailableError)(nil); errors.As(err, &u) && u.Reason != corpus.CorpusChangedDuringLoad {
		return unavailable(u), nil
	}
	// A corpus that changed while it was read: the read pipeline reads
	// again (and reports any other failure as it does).
	return h.s.CallInput(ctx, in)
}

// encodeAsk writes what an answer needs of p, and ix, sealed.
func encodeAsk(p *corpus.Projection, ix *askIndex) []byte {
	e := &encoder{b: bytes.Clone(askMagic)}
	e.str(p.Fingerprint)
	e.num(p.RecordCount)
	e.num(p.ExcludedCount)
	e.num(len(p.Records))
	for _, r := range p.Records {
		fm := r.Frontmatter
		e.str(r.SourcePath)
		e.str(fm.ID)
		e.str(fm.Title)
		e.str(string(fm.Status))
		e.list(fm.Supersedes)
		e.str(fm.SupersededBy)
	}
	e.b, _ = ix.rank.AppendBinary(e.b)
	return e.seal()
}

// decodeAsk reads what encodeAsk wrote: a projection holding only what
// an answer needs, and its index.
func decodeAsk(data []byte) (*corpus.Projection, *askIndex, error) {
	d, err := unseal(data, askMagic)
	if err != nil {
		return nil, nil, err
	}
	p := &corpus.Projection{Fingerprint: d.str(), RecordCount: d.num(), ExcludedCount: d.num(), ByID: map[string][]*adr.Record{}}
	for range d.count() {
		r := &adr.Record{SourcePath: d.str(), Frontmatter: &adr.Frontmatter{ID: d.str(), Title: d.str(), Status: adr.Status(d.str())}}
		r.Frontmatter.Supersedes, r.Frontmatter.SupersededBy = d.list(), d.str()
		p.Records = append(p.Records, r)
		p.ByID[r.Frontmatter.ID] = append(p.ByID[r.Frontmatter.ID], r)
	}
	if d.bad {
		return nil, nil, errCorrupt
	}
	rank, err := ask.DecodeIndex(d.b)
	if err != nil || rank.Len() != len(p.Records) {
		return nil, nil, errCorrupt
	}
	return p, &askIndex{fingerprint: p.Fingerprint, rank: rank, lines: lineage.NewIndex(p.Records, p.ByID)}, nil
}
