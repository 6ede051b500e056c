package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
	"github.com/adrkit/adrkit-go/domain/queue"
	"github.com/adrkit/adrkit-go/ports"
)

// ToolListReviewQueue is the extended tool that answers the review queue.
const ToolListReviewQueue = "list_review_queue"

// OutcomeQueue is the substantive outcome of list_review_queue.
const OutcomeQueue = "queue"

// maxAsOfLen bounds the asOf argument: the longest form it has (a
// datetime with a fraction and an offset) is far shorter.
const maxAsOfLen = 64

// ErrInvalidQueueInput is wrapped by Queue's error when the as-of value
// is wrong, or missing with no clock to stand in: the caller's mistake.
var ErrInvalidQueueInput = errors.New("invalid queue input")

// QueueInput is the validated argument set of list_review_queue.
type QueueInput struct {
	// AsOf is a date (YYYY-MM-DD) or a datetime with an explicit zone;
	// empty means today (UTC) by the Service's clock.
	AsOf  string `json:"asOf,omitzero"`
	whole bool
}

// ToolName implements Input.
func (QueueInput) ToolName() string { return ToolListReviewQueue }

func (in *QueueInput) setWhole() { in.whole = true }

func readQueue(r *argReader) QueueInput {
	var in QueueInput
	if s := r.str("asOf", false, checkAsOf); s != nil {
		in.AsOf = *s
	}
	return in
}

func checkAsOf(s string) []string {
	if n := jsstring.Len(s); n > maxAsOfLen {
		return []string{fmt.Sprintf("must be at most %d characters (UTF-16 code units), got %d", maxAsOfLen, n)}
	}
	if _, problem := queue.ResolveAsOf(s); problem != "" {
		return []string{asOfMessage(s, problem)}
	}
	return nil
}

// asOfMessage says what is wrong with an as-of value.
func asOfMessage(s string, problem queue.AsOfProblem) string {
	if problem == queue.AsOfZoneless {
		return "a datetime needs an explicit zone (Z, +HH:MM or -HH:MM): without one the day it falls on depends on " +
			"where it is read; give a date (YYYY-MM-DD) or add the zone, got " + show(s)
	}
	return "must be a date that exists, written YYYY-MM-DD, or a datetime with an explicit zone such as " +
		"2026-01-08T09:00:00Z, got " + show(s)
}

// QueueAnswer is the queue outcome: the report exactly as
// `adrkit queue --format json` writes it.
type QueueAnswer struct {
	Outcome string        `json:"outcome"`
	Report  *queue.Report `json:"report"`
}

func (a QueueAnswer) summary() string { return summaryQueue(a.Report) }

// summaryQueue is the one line a queue answer is summed up in.
func summaryQueue(r *queue.Report) string {
	var b strings.Builder
	b.WriteString("Review queue as of " + r.AsOf + ": ")
	b.WriteString(counted(r.TotalItems, "proposed decision", "proposed decisions"))
	counts := map[queue.SLAState]int{}
	for _, it := range r.Items {
		counts[it.SLAState]++
	}
	var parts []string
	for _, st := range queue.States {
		if n := counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if len(parts) > 0 {
		b.WriteString(" (" + strings.Join(parts, ", ") + ")")
	}
	b.WriteString("; " + counted(r.ItemsWithFindings, "item", "items") + " with findings; ")
	b.WriteString(counted(r.TotalCorpusFindings, "file", "files") + " that could not be queued.")
	return capSummary(b.String())
}

func counted(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }

// QueueRequest configures one queue run on the command line.
type QueueRequest struct {
	// AsOf is as QueueInput.AsOf; empty means Clock's current UTC date.
	AsOf  string
	Clock ports.Clock
}

// Queue builds the review queue as of a date: the proposed decisions in
// the order to review them, with their SLA state, and the files that
// never became records. An unusable corpus is an *ports.UnavailableError
// (wrapped); a wrong as-of value, or none and no clock, wraps
// ErrInvalidQueueInput.
func (s *Service) Queue(ctx context.Context, in QueueRequest) (*queue.Report, error) {
	asOf, err := QueueDate(in.AsOf, in.Clock)
	if err != nil {
		return nil, err
	}
	rep, _, err := s.queueReport(ctx, asOf)
	return rep, err
}

// QueueDate resolves an as-of value (QueueInput.AsOf) to the UTC date the
// queue is computed against, or, for "", today by clock. The error wraps
// ErrInvalidQueueInput. A command checks its flag with it before reading
// the corpus.
func QueueDate(asOf string, clock ports.Clock) (string, error) {
	if asOf != "" {
		date, problem := queue.ResolveAsOf(asOf)
		if problem != "" {
			return "", fmt.Errorf("%w: %s", ErrInvalidQueueInput, asOfMessage(asOf, problem))
		}
		return date, nil
	}
	if clock == nil {
		return "", fmt.Errorf("%w: no as-of date and no clock to tell today's date", ErrInvalidQueueInput)
	}
	return clock.Now().UTC().Format(dateLayout), nil
}

// queueReport reads the corpus once, with the recursive listing lint
// uses, so that a record discovery never reads (a nested or misnamed
// file) is reported rather than silently missing from the queue.
func (s *Service) queueReport(ctx context.Context, asOf string) (*queue.Report, *CorpusHealth, error) {
	ld, err := s.load(ctx, true)
	if err != nil {
		return nil, nil, err
	}
	findings := make([]adr.Finding, 0, len(ld.proj.Findings))
	findings = append(findings, ld.proj.Findings...)
	for _, e := range ld.entries {
		if f, ok := skippedFinding(e); ok {
			findings = append(findings, f)
		}
	}
	rep := queue.Build(queue.Input{AsOf: asOf, Records: ld.proj.Records, Findings: findings, Fingerprint: ld.proj.Fingerprint})
	return rep, healthOf(ld.proj), nil
}

// answerQueue answers list_review_queue.
func (s *Service) answerQueue(ctx context.Context, in QueueInput) (Result, error) {
	asOf, err := QueueDate(in.AsOf, s.opts.Clock)
	if err != nil {
		return refusal(ToolListReviewQueue, []issue{{path: "asOf", msg: "is required: this server has no clock to tell today's date"}}), nil
	}
	rep, health, err := s.queueReport(ctx, asOf)
	if err != nil {
		var u *ports.UnavailableError
		if errors.As(err, &u) {
			return unavailable(u), nil
		}
		return Result{}, err
	}
	a := QueueAnswer{Outcome: OutcomeQueue, Report: rep}
	return Result{Text: a.summary(), Structured: &Answer{CorpusHealth: health, Result: a}}, nil
}
