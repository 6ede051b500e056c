package app

import (
	"encoding/json"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// The types in this file are the structured answers. Field order is the
// reference's key order; a nullable member is a pointer without omitempty
// so that it marshals as null; slices are always non-nil so that they
// marshal as [].

// Text is a scalar an answer takes from a record: an id, a title, a
// date, a path, a ref, an affects pattern. It is written as
// JSON.stringify writes a string (jsvalue.AppendString), exactly as the
// frontmatter object of the same answer is. That matters for a lone
// surrogate: a YAML "\ud800" escape is carried in the Go string as WTF-8
// bytes, which encoding/json would write as three U+FFFD, so that
// decision.title and decision.frontmatter.title would disagree. Every
// other string is written as encoding/json writes it, but for U+2028 and
// U+2029, which stay raw as JSON.stringify leaves them.
//
// Lists of refs (relations, a hold's refs) stay plain strings: the schema
// restricts a ref to ASCII, which both encoders write alike, and a Text
// list would copy every record's lists on every answer.
type Text string

// MarshalJSON writes the text as JSON.stringify would.
func (t Text) MarshalJSON() ([]byte, error) {
	return jsvalue.AppendString(make([]byte, 0, len(t)+2), string(t)), nil
}

// Outcome strings (result.outcome).
const (
	OutcomeResults           = "results"
	OutcomeFound             = "found"
	OutcomeNotFound          = "not-found"
	OutcomeAmbiguousLocalID  = "ambiguous-local-id"
	OutcomeFederated         = "federated-log-unavailable"
	OutcomeMatches           = "matches"
	OutcomeEntries           = "entries"
	OutcomeInvalidCursor     = "invalid-cursor"
	OutcomeCorpusUnavailable = "corpus-unavailable"
)

// Answer is the structured content of every tool answer.
type Answer struct {
	// CorpusHealth is absent only on corpus-unavailable.
	CorpusHealth *CorpusHealth `json:"corpusHealth,omitempty"`
	Result       Outcome       `json:"result"`
}

// Outcome is the result member of an answer: one of the outcome types of
// this package (SearchResults, Found, NotFound, Ambiguous, Federated,
// Matches, Entries, ChainAnswer, AmbiguousChain, ChangesAnswer,
// RestartAnswer, HistoryUnavailable, QueueAnswer, InvalidCursor,
// CorpusUnavailable). Each knows its summary line; its findings and
// cursors are its fields.
type Outcome interface {
	// summary is the one-line summary of the outcome (content[0].text).
	summary() string
}

// CorpusHealth summarises the projection the answer was computed from.
type CorpusHealth struct {
	Fingerprint   string `json:"fingerprint"`
	RecordCount   int    `json:"recordCount"`
	ExcludedCount int    `json:"excludedCount"`
}

func healthOf(p *corpus.Projection) *CorpusHealth {
	return &CorpusHealth{Fingerprint: p.Fingerprint, RecordCount: p.RecordCount, ExcludedCount: p.ExcludedCount}
}

// FindingsPage is one page of a tool's findings channel.
type FindingsPage struct {
	Items  []adr.Finding `json:"items"`
	Cursor *string       `json:"cursor"`
}

// InvalidCursor says a supplied cursor was refused.
type InvalidCursor struct {
	Outcome string        `json:"outcome"`
	Reason  cursor.Reason `json:"reason"`
	Message string        `json:"message"`
}

// CorpusUnavailable says the corpus could not be projected at all.
type CorpusUnavailable struct {
	Outcome string                   `json:"outcome"`
	Reason  corpus.UnavailableReason `json:"reason"`
	Message string                   `json:"message"`
}

// Summary identifies a record without its content.
type Summary struct {
	ID         Text       `json:"id"`
	Title      Text       `json:"title"`
	Status     adr.Status `json:"status"`
	SourcePath Text       `json:"sourcePath"`
}

func summaryOf(r *adr.Record) Summary {
	fm := r.Frontmatter
	return Summary{ID: Text(fm.ID), Title: Text(fm.Title), Status: fm.Status, SourcePath: Text(r.SourcePath)}
}

// SearchResults is the results outcome of search_decisions.
type SearchResults struct {
	Outcome  string       `json:"outcome"`
	Items    []SearchItem `json:"items"`
	Cursor   *string      `json:"cursor"`
	Findings FindingsPage `json:"findings"`
}

// SearchItem is one matching record and the fields that matched.
type SearchItem struct {
	ID            Text       `json:"id"`
	Title         Text       `json:"title"`
	Status        adr.Status `json:"status"`
	SourcePath    Text       `json:"sourcePath"`
	MatchedFields []string   `json:"matchedFields"`
}

// Found is the found outcome of get_decision.
type Found struct {
	Outcome  string       `json:"outcome"`
	Decision Decision     `json:"decision"`
	Findings FindingsPage `json:"findings"`
}

// Decision is a whole record as get_decision returns it.
type Decision struct {
	RequestedRef string     `json:"requestedRef"`
	ID           Text       `json:"id"`
	Title        Text       `json:"title"`
	Status       adr.Status `json:"status"`
	SourcePath   Text       `json:"sourcePath"`
	// Frontmatter is the validated value, defaults applied, in schema
	// key order, as JSON text.
	Frontmatter json.RawMessage `json:"frontmatter"`
	Body        string          `json:"body"`
}

// NotFound is the not-found outcome of get_decision.
type NotFound struct {
	Outcome      string       `json:"outcome"`
	RequestedRef string       `json:"requestedRef"`
	Findings     FindingsPage `json:"findings"`
}

// Ambiguous is the ambiguous-local-id outcome of get_decision.
type Ambiguous struct {
	Outcome      string       `json:"outcome"`
	RequestedRef string       `json:"requestedRef"`
	Candidates   []Summary    `json:"candidates"`
	Cursor       *string      `json:"cursor"`
	Findings     FindingsPage `json:"findings"`
}

// Federated is the federated-log-unavailable outcome of get_decision.
type Federated struct {
	Outcome      string       `json:"outcome"`
	RequestedRef string       `json:"requestedRef"`
	Log          string       `json:"log"`
	ID           string       `json:"id"`
	Findings     FindingsPage `json:"findings"`
}

// Matches is the matches outcome of get_decision_context: one page of the
// flat walk, split by status bucket.
type Matches struct {
	Outcome         string         `json:"outcome"`
	Governing       []ContextEntry `json:"governing"`
	ActiveProposals []ContextEntry `json:"activeProposals"`
	History         []ContextEntry `json:"history"`
	Cursor          *string        `json:"cursor"`
	Findings        FindingsPage   `json:"findings"`
	// Withheld says the buckets are empty because the corpus has an
	// error finding and the command line asked for the reference's
	// answer (ContextInput.CommandLine). It is not part of the answer's
	// JSON: the MCP tool never withholds.
	Withheld bool `json:"-"`
}

// ContextEntry is a record whose affects matchers fired, or that a file
// declared.
type ContextEntry struct {
	ID            Text           `json:"id"`
	Title         Text           `json:"title"`
	Status        adr.Status     `json:"status"`
	SourcePath    Text           `json:"sourcePath"`
	FiredMatchers []FiredMatcher `json:"firedMatchers"`
	Relations     Relations      `json:"relations"`
	// DeclaredBy lists the files that declared the record with an "@adr"
	// marker. Only the command line reads markers, so the MCP answer never
	// has the member.
	DeclaredBy []Declared `json:"declaredBy,omitempty"`
}

// FiredMatcher is an affects matcher of the record that matched one of
// the files asked about. It is adr.FiredMatcher with the pattern as Text:
// a pattern is free text from the record.
type FiredMatcher struct {
	Type    adr.MatcherType `json:"type"`
	Pattern Text            `json:"pattern"`
}

// firedOf converts the matchers affects reported.
func firedOf(fired []adr.FiredMatcher) []FiredMatcher {
	out := make([]FiredMatcher, len(fired))
	for i, f := range fired {
		out[i] = FiredMatcher{Type: f.Type, Pattern: Text(f.Pattern)}
	}
	return out
}

// Relations are the record's relation fields, verbatim, never expanded.
type Relations struct {
	Supersedes    []string `json:"supersedes"`
	SupersededBy  *string  `json:"supersededBy"`
	RelatesTo     []string `json:"relatesTo"`
	ConflictsWith []string `json:"conflictsWith"`
}

// Entries is the entries outcome of list_superseded.
type Entries struct {
	Outcome  string            `json:"outcome"`
	Items    []SupersededEntry `json:"items"`
	Cursor   *string           `json:"cursor"`
	Findings FindingsPage      `json:"findings"`
}

// SupersededEntry is a superseded record and the state of its direct
// replacement.
type SupersededEntry struct {
	ID           Text        `json:"id"`
	Title        Text        `json:"title"`
	Status       adr.Status  `json:"status"`
	SourcePath   Text        `json:"sourcePath"`
	SupersededBy Replacement `json:"supersededBy"`
}

// Replacement is the state of a supersededBy target: TargetResolved,
// TargetDangling, TargetAmbiguous or TargetFederated.
type Replacement interface{ replacement() }

func (TargetResolved) replacement()  {}
func (TargetDangling) replacement()  {}
func (TargetAmbiguous) replacement() {}
func (TargetFederated) replacement() {}

// TargetResolved: the replacement is exactly one local record.
type TargetResolved struct {
	Resolved bool    `json:"resolved"`
	Target   Summary `json:"target"`
}

// TargetDangling: no local record holds the replacement id.
type TargetDangling struct {
	Resolved  bool   `json:"resolved"`
	TargetRef Text   `json:"targetRef"`
	Reason    string `json:"reason"`
}

// TargetAmbiguous: several local records hold the replacement id.
type TargetAmbiguous struct {
	Resolved       bool   `json:"resolved"`
	TargetRef      Text   `json:"targetRef"`
	Reason         string `json:"reason"`
	CandidateCount int    `json:"candidateCount"`
}

// TargetFederated: the replacement lives in another log, which this
// server cannot read.
type TargetFederated struct {
	Resolved  bool   `json:"resolved"`
	TargetRef Text   `json:"targetRef"`
	Reason    string `json:"reason"`
	Log       Text   `json:"log"`
	ID        Text   `json:"id"`
}

// nonNil makes an absent list marshal as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// The summary lines of the outcomes.

func (r SearchResults) summary() string { return summaryResults(len(r.Items), len(r.Findings.Items)) }

func (r Found) summary() string { return summaryFound(string(r.Decision.ID), len(r.Findings.Items)) }

func (r NotFound) summary() string { return summaryNotFound(r.RequestedRef, len(r.Findings.Items)) }

func (r Ambiguous) summary() string {
	return summaryAmbiguous(r.RequestedRef, len(r.Candidates), len(r.Findings.Items))
}

func (r Federated) summary() string { return summaryFederated(r.RequestedRef, len(r.Findings.Items)) }

func (r Matches) summary() string {
	return summaryMatches(len(r.Governing), len(r.ActiveProposals), len(r.History), len(r.Findings.Items))
}

func (r Entries) summary() string { return summaryEntries(len(r.Items), len(r.Findings.Items)) }

func (r InvalidCursor) summary() string { return r.Message }

func (r CorpusUnavailable) summary() string { return r.Message }
