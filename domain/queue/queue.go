// Package queue holds the review queue: which proposed decisions wait for
// review, their SLA state against a date, in what order they are worked,
// what is incomplete about each, and which files never reached the queue.
// It is the reference's QueueReport v1, field for field; the messages are
// ours. Pure: the date comes from the caller.
package queue

import (
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// Version is the report format's version.
const Version = "1"

// SLAState is where a queued decision stands against its deadline.
type SLAState string

// The SLA states, in precedence order: the first that applies wins.
const (
	// Decided: review.decidedAt is set.
	Decided SLAState = "decided"
	// Escalated: review.escalatedAt is set.
	Escalated SLAState = "escalated"
	// Overdue: the deadline is before the as-of date.
	Overdue SLAState = "overdue"
	// Due: the deadline is the as-of date.
	Due SLAState = "due"
	// WithinSLA: the deadline is after the as-of date.
	WithinSLA SLAState = "within-sla"
	// MissingSLA: queued (review.queuedAt) but without a deadline.
	MissingSLA SLAState = "missing-sla"
	// NotQueued: neither queued nor given a deadline.
	NotQueued SLAState = "not-queued"
)

// States are the SLA states in queue order, most urgent first.
var States = []SLAState{Overdue, Escalated, Due, WithinSLA, MissingSLA, NotQueued, Decided}

// urgency is a state's place in States.
func urgency(s SLAState) int {
	for i, st := range States {
		if st == s {
			return i
		}
	}
	return len(States)
}

// Item finding codes (info or warn: they never fail a run).
const (
	CodeTierAbsent           = "item.tier-absent"
	CodeReviewByBeforeQueued = "item.review-by-before-queued"
	CodeDecidersEmpty        = "item.deciders-empty"
	// CodeDeadlineOutOfRange is ours: where the deadline cannot be
	// written, the reference stops the whole run.
	CodeDeadlineOutOfRange = "item.deadline-out-of-range"
)

// Corpus finding codes.
const (
	CodeCorpusReadError      = "corpus.read-error"
	CodeCorpusParseError     = "corpus.parse-error"
	CodeCorpusOneWayDoorAuto = "corpus.one-way-door-auto-tier"
	CodeCorpusSchemaInvalid  = "corpus.schema-invalid"
	CodeCorpusFileSkipped    = "corpus.file-skipped"
)

const (
	ruleCorpusFileSkipped = "corpus-file-skipped"
	ruleOneWayDoorAuto    = "one-way-door-disallows-auto"
)

// tierLabels are the fixed descriptions of the routing tiers.
var tierLabels = map[string]string{
	"auto":  "expedited routing; human acceptance required",
	"async": "asynchronous human review",
	"arb":   "ARB human review",
}

// corpusCodes maps the rule of a finding about a file that never became
// a record to the queue's code. A rule not listed is a schema problem.
var corpusCodes = map[string]string{
	"file-read":           CodeCorpusReadError,
	"record-too-large":    CodeCorpusReadError,
	"record-stat-error":   CodeCorpusReadError,
	"frontmatter-parse":   CodeCorpusParseError,
	"frontmatter-fence":   CodeCorpusParseError,
	ruleOneWayDoorAuto:    CodeCorpusOneWayDoorAuto,
	ruleCorpusFileSkipped: CodeCorpusFileSkipped,
}

// Str is a string of the report, written as JSON.stringify writes it (a
// lone surrogate carried as WTF-8 stays one escape).
type Str string

// MarshalJSON writes the string as JSON.stringify would.
func (s Str) MarshalJSON() ([]byte, error) {
	return jsvalue.AppendString(make([]byte, 0, len(s)+2), string(s)), nil
}

// Report is the review queue as of one date (QueueReport v1). Field order
// is the report's key order.
type Report struct {
	Version             string          `json:"version"`
	AsOf                string          `json:"asOf"`
	CorpusFingerprint   string          `json:"corpusFingerprint"`
	TotalItems          int             `json:"totalItems"`
	TotalCorpusFindings int             `json:"totalCorpusFindings"`
	ItemsWithFindings   int             `json:"itemsWithFindings"`
	Items               []Item          `json:"items"`
	CorpusFindings      []CorpusFinding `json:"corpusFindings"`
}

// Item is one proposed decision in the queue. A pointer or Str pointer
// member is null when the record does not say.
type Item struct {
	ID                       Str           `json:"id"`
	Title                    Str           `json:"title"`
	SourcePath               Str           `json:"sourcePath"`
	Tier                     *string       `json:"tier"`
	TierLabel                *string       `json:"tierLabel"`
	QueuedAt                 *string       `json:"queuedAt"`
	SLADays                  *int64        `json:"slaDays"`
	ReviewBy                 *string       `json:"reviewBy"`
	SLAState                 SLAState      `json:"slaState"`
	DeadlineDate             *string       `json:"deadlineDate"`
	RoutingTargets           []Str         `json:"routingTargets"`
	Quorum                   *int64        `json:"quorum"`
	ApprovalCount            int           `json:"approvalCount"`
	UnresolvedObjectionCount int           `json:"unresolvedObjectionCount"`
	ResolvedObjectionCount   int           `json:"resolvedObjectionCount"`
	EscalatedAt              *string       `json:"escalatedAt"`
	DecidedAt                *string       `json:"decidedAt"`
	ItemFindings             []ItemFinding `json:"itemFindings"`
}

// ItemFinding is something incomplete about a queued decision: info or
// warn, never failing the run.
type ItemFinding struct {
	Code     string       `json:"code"`
	Severity adr.Severity `json:"severity"`
	Message  string       `json:"message"`
}

// CorpusFinding is about a file that could not become a queue item: error
// for one that could not be read or is not a valid record, warn for one
// that was never read as a record (corpus.file-skipped).
type CorpusFinding struct {
	SourcePath Str          `json:"sourcePath"`
	Code       string       `json:"code"`
	Severity   adr.Severity `json:"severity"`
	Message    string       `json:"message"`
}

// Input is what the queue is built from.
type Input struct {
	// AsOf is the UTC date (YYYY-MM-DD) the SLA states are computed
	// against (ResolveAsOf).
	AsOf string
	// Records are the corpus's valid records.
	Records []*adr.Record
	// Findings are the corpus findings, including those about files
	// discovery never read (corpus-file-skipped).
	Findings []adr.Finding
	// Fingerprint is the corpus fingerprint, reported as it is.
	Fingerprint string
}

// Build builds the queue: every proposed record an item, in queue order;
// the files that never became records as corpus findings.
func Build(in Input) *Report {
	items := []Item{}
	for _, r := range in.Records {
		if r.Frontmatter.Status != adr.StatusProposed {
			continue
		}
		items = append(items, buildItem(r, in.AsOf))
	}
	SortItems(items)
	cf := corpusFindings(in.Records, in.Findings)
	withFindings := 0
	for _, it := range items {
		if len(it.ItemFindings) > 0 {
			withFindings++
		}
	}
	return &Report{
		Version: Version, AsOf: in.AsOf, CorpusFingerprint: in.Fingerprint,
		TotalItems: len(items), TotalCorpusFindings: len(cf), ItemsWithFindings: withFindings,
		Items: items, CorpusFindings: cf,
	}
}

// Failed reports whether the run fails: a corpus finding at error.
func (r *Report) Failed() bool {
	for _, f := range r.CorpusFindings {
		if f.Severity == adr.SeverityError {
			return true
		}
	}
	return false
}

func ptr[T any](v T) *T { return &v }

// instant is a schema datetime as the report writes it. The schema has
// validated it, so a value that does not read is kept as written.
func instant(s string) string {
	if t, ok := parseInstant(s); ok {
		return isoString(t)
	}
	return s
}

// queuedDate is the UTC date of review.queuedAt (the first ten characters
// of its written form).
func queuedDate(s string) string {
	if t, ok := parseInstant(s); ok {
		return calendarDate(t)
	}
	return s
}

func buildItem(r *adr.Record, asOf string) Item {
	fm := r.Frontmatter
	rev := fm.Review
	if rev == nil {
		rev = &adr.Review{}
	}
	it := Item{
		ID: Str(fm.ID), Title: Str(fm.Title), SourcePath: Str(strings.ReplaceAll(r.SourcePath, `\`, "/")),
		SLADays: rev.SLADays, Quorum: rev.Quorum, RoutingTargets: []Str{},
		ApprovalCount: len(rev.Approvals), ItemFindings: []ItemFinding{},
	}
	if rev.Tier != "" {
		it.Tier, it.TierLabel = ptr(rev.Tier), ptr(tierLabels[rev.Tier])
	}
	if rev.QueuedAt != "" {
		it.QueuedAt = ptr(instant(rev.QueuedAt))
	}
	if fm.ReviewBy != "" {
		it.ReviewBy = ptr(fm.ReviewBy)
	}
	if rev.EscalatedAt != "" {
		it.EscalatedAt = ptr(instant(rev.EscalatedAt))
	}
	if rev.DecidedAt != "" {
		it.DecidedAt = ptr(instant(rev.DecidedAt))
	}
	for _, d := range fm.Deciders {
		it.RoutingTargets = append(it.RoutingTargets, Str(d))
	}
	for _, o := range rev.Objections {
		if o.Resolved {
			it.ResolvedObjectionCount++
		} else {
			it.UnresolvedObjectionCount++
		}
	}

	// The deadline: reviewBy, else the UTC date of queuedAt plus slaDays.
	unwritable := false
	switch {
	case fm.ReviewBy != "":
		it.DeadlineDate = ptr(fm.ReviewBy)
	case rev.QueuedAt != "" && rev.SLADays != nil:
		if d, ok := addDays(queuedDate(rev.QueuedAt), *rev.SLADays); ok {
			it.DeadlineDate = ptr(d)
		} else {
			unwritable = true
		}
	}
	it.SLAState = slaState(rev, it.DeadlineDate, asOf)
	it.ItemFindings = itemFindings(fm, rev, unwritable)
	return it
}

// slaState is the first state that applies, in precedence order. Dates
// compare as strings, as the reference compares them.
func slaState(rev *adr.Review, deadline *string, asOf string) SLAState {
	switch {
	case rev.DecidedAt != "":
		return Decided
	case rev.EscalatedAt != "":
		return Escalated
	case deadline != nil && asOf > *deadline:
		return Overdue
	case deadline != nil && asOf == *deadline:
		return Due
	case deadline != nil:
		return WithinSLA
	case rev.QueuedAt != "":
		return MissingSLA
	}
	return NotQueued
}

// itemFindings are what is incomplete about a queued decision.
func itemFindings(fm *adr.Frontmatter, rev *adr.Review, unwritable bool) []ItemFinding {
	out := []ItemFinding{}
	if unwritable {
		// The reference stops with an error here; one record's absurd
		// slaDays should not cost the whole queue.
		out = append(out, ItemFinding{Code: CodeDeadlineOutOfRange, Severity: adr.SeverityWarn,
			Message: "review.queuedAt plus review.slaDays is more than 100,000,000 days from 1970, not a date that " +
				"can be written, so the decision is treated as having no deadline"})
	}
	// Only a record with a review block has begun to enter review, as
	// the reference judges it: a bare reviewBy is a deadline, not a
	// request for routing.
	if fm.Review != nil && rev.Tier == "" {
		out = append(out, ItemFinding{Code: CodeTierAbsent, Severity: adr.SeverityInfo,
			Message: "no review.tier: the decision cannot be routed to auto, async or arb review until one is set"})
	}
	if fm.ReviewBy != "" && rev.QueuedAt != "" {
		if q := queuedDate(rev.QueuedAt); jsstring.Compare(fm.ReviewBy, q) < 0 {
			out = append(out, ItemFinding{Code: CodeReviewByBeforeQueued, Severity: adr.SeverityWarn,
				Message: "the deadline reviewBy " + fm.ReviewBy + " is earlier than the day it was queued, " + q +
					" (review.queuedAt in UTC): one of the two dates is probably wrong"})
		}
	}
	if len(fm.Deciders) == 0 && rev.QueuedAt != "" {
		out = append(out, ItemFinding{Code: CodeDecidersEmpty, Severity: adr.SeverityInfo,
			Message: "no deciders: the queued decision has nobody to route the review to; name at least one in deciders"})
	}
	slices.SortStableFunc(out, compareItemFindings)
	return out
}

// severityRank orders severities most serious first.
func severityRank(s adr.Severity) int {
	switch s {
	case adr.SeverityError:
		return 0
	case adr.SeverityWarn:
		return 1
	case adr.SeverityInfo:
		return 2
	}
	return 3
}

func compareItemFindings(a, b ItemFinding) int {
	if c := jsstring.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	if c := severityRank(a.Severity) - severityRank(b.Severity); c != 0 {
		return c
	}
	return jsstring.Compare(a.Message, b.Message)
}

// compareNullLast compares two optional strings, an absent one last.
func compareNullLast(a, b *string) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return jsstring.Compare(*a, *b)
}

func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// CompareItems is the queue order: by urgency (overdue, escalated, due,
// within-sla, missing-sla, not-queued, decided), then deadline (none
// last), queuedAt (none first), id and source path.
func CompareItems(a, b Item) int {
	if c := urgency(a.SLAState) - urgency(b.SLAState); c != 0 {
		return c
	}
	if c := compareNullLast(a.DeadlineDate, b.DeadlineDate); c != 0 {
		return c
	}
	if c := jsstring.Compare(orEmpty(a.QueuedAt), orEmpty(b.QueuedAt)); c != 0 {
		return c
	}
	if c := jsstring.Compare(string(a.ID), string(b.ID)); c != 0 {
		return c
	}
	return jsstring.Compare(string(a.SourcePath), string(b.SourcePath))
}

// SortItems puts items in queue order.
func SortItems(items []Item) { slices.SortStableFunc(items, CompareItems) }

// corpusFindings are the findings about files that never became records:
// a file with an error finding, or one discovery skipped, that no valid
// record came from. Findings about valid records (a duplicate id, a
// dangling reference) are the linter's, not the queue's.
func corpusFindings(records []*adr.Record, findings []adr.Finding) []CorpusFinding {
	isRecord := map[string]bool{}
	for _, r := range records {
		isRecord[r.SourcePath] = true
	}
	excluded := map[string]bool{}
	for _, f := range findings {
		if f.Path != "" && !isRecord[f.Path] && (f.Severity == adr.SeverityError || f.Rule == ruleCorpusFileSkipped) {
			excluded[f.Path] = true
		}
	}
	type keyed struct {
		CorpusFinding
		from adr.Finding
	}
	var out []keyed
	for _, f := range findings {
		if !excluded[f.Path] {
			continue
		}
		out = append(out, keyed{corpusFinding(f), f})
	}
	slices.SortStableFunc(out, func(a, b keyed) int {
		if c := jsstring.Compare(string(a.SourcePath), string(b.SourcePath)); c != 0 {
			return c
		}
		if c := jsstring.Compare(a.Code, b.Code); c != 0 {
			return c
		}
		if c := severityRank(a.Severity) - severityRank(b.Severity); c != 0 {
			return c
		}
		if c := jsstring.Compare(a.Message, b.Message); c != 0 {
			return c
		}
		return adr.CompareFindings(a.from, b.from)
	})
	cf := make([]CorpusFinding, len(out))
	for i, k := range out {
		cf[i] = k.CorpusFinding
	}
	return cf
}

// corpusFinding maps one finding about an excluded file.
func corpusFinding(f adr.Finding) CorpusFinding {
	code, ok := corpusCodes[f.Rule]
	if !ok {
		code = CodeCorpusSchemaInvalid
	}
	sev := adr.SeverityError
	if code == CodeCorpusFileSkipped {
		sev = adr.SeverityWarn
	}
	msg := f.Message
	switch {
	case code == CodeCorpusOneWayDoorAuto:
		msg = "review.tier is auto but reversibility is one-way-door: a one-way door cannot take the auto-approval path, so the record is not valid and is not queued"
	case code == CodeCorpusReadError:
		msg = "the file could not be read: " + msg
	}
	return CorpusFinding{SourcePath: Str(strings.ReplaceAll(f.Path, `\`, "/")), Code: code, Severity: sev, Message: msg}
}
