package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/queue"
)

// QueueFormat is an output format of adrkit queue.
type QueueFormat string

// The queue formats.
const (
	QueueText     QueueFormat = "text"
	QueueMarkdown QueueFormat = "markdown"
	QueueJSON     QueueFormat = "json"
)

// QueueFormats lists the formats in the order help text names them.
var QueueFormats = []QueueFormat{QueueText, QueueMarkdown, QueueJSON}

// ParseQueueFormat reads a --format value for queue.
func ParseQueueFormat(s string) (QueueFormat, error) {
	for _, f := range QueueFormats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("--format must be text, markdown or json, got %q", s)
}

// WriteQueue writes the review queue in format: the terminal report, the
// Markdown the queue issue holds, or the QueueReport v1 JSON.
func WriteQueue(w io.Writer, rep *queue.Report, format QueueFormat, st Style) error {
	switch format {
	case QueueJSON:
		return WriteJSON(w, rep)
	case QueueMarkdown:
		return writeString(w, QueueMarkdownText(rep))
	}
	return writeString(w, queueText(rep, st))
}

// stateCounts says how many items are in each state, in queue order:
// "1 overdue, 2 within-sla".
func stateCounts(rep *queue.Report) string {
	n := map[queue.SLAState]int{}
	for _, it := range rep.Items {
		n[it.SLAState]++
	}
	var parts []string
	for _, s := range queue.States {
		if n[s] > 0 {
			parts = append(parts, strconv.Itoa(n[s])+" "+string(s))
		}
	}
	return strings.Join(parts, ", ")
}

// queueHeadline is the one-sentence account of the queue.
func queueHeadline(rep *queue.Report) string {
	s := counted(rep.TotalItems, "proposed decision", "proposed decisions") + " in the review queue as of " + rep.AsOf
	if c := stateCounts(rep); c != "" {
		s += " (" + c + ")"
	}
	s += "; " + counted(rep.TotalCorpusFindings, "file", "files") + " could not be queued."
	return s
}

func orDash(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

func intOrDash(n *int64) string {
	if n == nil {
		return "-"
	}
	return strconv.FormatInt(*n, 10)
}

func approvals(it queue.Item) string {
	return strconv.Itoa(it.ApprovalCount) + "/" + intOrDash(it.Quorum)
}

func objections(it queue.Item) string {
	s := strconv.Itoa(it.UnresolvedObjectionCount) + " open"
	if it.ResolvedObjectionCount > 0 {
		s += ", " + strconv.Itoa(it.ResolvedObjectionCount) + " resolved"
	}
	return s
}

// stateSeverity colours a state by how much it asks for attention.
func stateSeverity(s queue.SLAState) adr.Severity {
	switch s {
	case queue.Overdue, queue.Escalated:
		return adr.SeverityError
	case queue.Due, queue.MissingSLA:
		return adr.SeverityWarn
	}
	return adr.SeverityInfo
}

// queueText is the terminal report: one table of the queue, then each
// item's findings, then the files that could not be queued.
func queueText(rep *queue.Report, st Style) string {
	var b strings.Builder
	b.WriteString(st.Bold("Review queue as of "+rep.AsOf) + "\n\n")
	if len(rep.Items) == 0 {
		b.WriteString("No proposed decision.\n")
	} else {
		t := table{width: st.width, indent: "  ", header: []cell{
			paintedCell("STATE", st.Dim), paintedCell("DEADLINE", st.Dim), paintedCell("ID", st.Dim), paintedCell("TIER", st.Dim),
			paintedCell("APPROVALS", st.Dim), paintedCell("OBJECTIONS", st.Dim), paintedCell("TITLE", st.Dim),
		}}
		for _, it := range rep.Items {
			sev := stateSeverity(it.SLAState)
			t.add(paintedCell(string(it.SLAState), func(s string) string { return st.Severity(sev, s) }),
				plainCell(orDash(it.DeadlineDate)), paintedCell(it.ID, st.Bold), plainCell(orDash(it.Tier)),
				plainCell(approvals(it)), plainCell(objections(it)), plainCell(it.Title))
		}
		b.WriteString(t.String())
	}
	unqueued := false
	if slices.ContainsFunc(rep.Items, func(it queue.Item) bool { return len(it.ItemFindings) > 0 || len(missing(it)) > 0 }) {
		b.WriteString("\n" + st.Bold("Incomplete records") + "\n")
		for _, it := range rep.Items {
			lacks := missing(it)
			if len(it.ItemFindings) == 0 && len(lacks) == 0 {
				continue
			}
			unqueued = unqueued || it.QueuedAt == nil
			b.WriteString("  " + st.Bold(string(it.ID)) + " " + st.Dim(oneLine(string(it.SourcePath))) + "\n")
			if len(lacks) > 0 {
				b.WriteString("    missing: " + strings.Join(lacks, ", ") + "\n")
			}
			t := table{width: st.width, indent: "    "}
			for _, f := range it.ItemFindings {
				sev := f.Severity
				t.add(paintedCell(string(sev), func(s string) string { return st.Severity(sev, s) }), plainCell(f.Code), plainCell(f.Message))
			}
			b.WriteString(t.String())
		}
	}
	if len(rep.CorpusFindings) > 0 {
		// Grouped by file, as lint groups its findings: the message gets
		// the width of the screen.
		b.WriteString("\n" + st.Bold("Files that could not be queued") + "\n")
		var t *table
		last := ""
		for i, f := range rep.CorpusFindings {
			if i == 0 || string(f.SourcePath) != last {
				if t != nil {
					b.WriteString(t.String())
				}
				last = string(f.SourcePath)
				b.WriteString("  " + st.Bold(oneLine(last)) + "\n")
				t = &table{width: st.width, indent: "    "}
			}
			sev := f.Severity
			t.add(paintedCell(string(sev), func(s string) string { return st.Severity(sev, s) }), plainCell(f.Code), plainCell(f.Message))
		}
		b.WriteString(t.String())
	}
	if unqueued {
		b.WriteString("\n" + st.Bold("To queue a proposal") + ", give its frontmatter a review block and name its deciders:\n" +
			"  review:\n    queuedAt: \"" + rep.AsOf + "T00:00:00Z\"  # when review began\n" +
			"    tier: async  # auto, async or arb\n    slaDays: 14  # or a reviewBy date\n  deciders: [\"@you\"]\n")
	}
	summary := queueHeadline(rep)
	if rep.Failed() {
		summary = st.Bad(summary)
	}
	b.WriteString("\n" + summary + "\n" + st.Dim("Corpus fingerprint "+rep.CorpusFingerprint) + "\n")
	return b.String()
}

// missing names what an undecided item still lacks to be routed and
// timed, beyond what its findings say already: the JSON report says only
// what the reference's does, the terminal says all of it.
func missing(it queue.Item) []string {
	if it.DecidedAt != nil {
		return nil
	}
	has := func(code string) bool {
		return slices.ContainsFunc(it.ItemFindings, func(f queue.ItemFinding) bool { return f.Code == code })
	}
	var out []string
	if it.QueuedAt == nil {
		out = append(out, "review.queuedAt")
	}
	if it.DeadlineDate == nil && !has(queue.CodeDeadlineOutOfRange) {
		out = append(out, "a deadline (review.slaDays, or reviewBy)")
	}
	if it.Tier == nil && !has(queue.CodeTierAbsent) {
		out = append(out, "review.tier")
	}
	if len(it.RoutingTargets) == 0 && !has(queue.CodeDecidersEmpty) {
		out = append(out, "deciders")
	}
	return out
}

// QueueMarkdownText is the queue as GitHub-flavoured Markdown, the body
// of the queue issue: a summary, the files that could not be queued, the
// queue as one table, and a section per item with every field. Every
// value from the repository is escaped (mdText), so a title cannot
// close a cell or inject a link.
func QueueMarkdownText(rep *queue.Report) string {
	var b strings.Builder
	b.WriteString("## ADR review queue, " + rep.AsOf + "\n\n")
	b.WriteString(mdText(queueHeadline(rep)) + " " + counted(rep.ItemsWithFindings, "item has", "items have") + " findings.\n\n")
	b.WriteString("Corpus fingerprint: `" + rep.CorpusFingerprint + "`\n\n")
	if len(rep.CorpusFindings) > 0 {
		b.WriteString("### Files that could not be queued\n\n| File | Code | Severity | Why |\n|---|---|---|---|\n")
		for _, f := range rep.CorpusFindings {
			b.WriteString("| " + mdText(string(f.SourcePath)) + " | " + mdText(f.Code) + " | " + string(f.Severity) + " | " + mdText(f.Message) + " |\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("### Queue\n\n")
	if len(rep.Items) == 0 {
		b.WriteString("No proposed decision is waiting.\n")
		return b.String()
	}
	b.WriteString("| # | State | Deadline | ID | Title | Tier | Approvals | Objections |\n|---|---|---|---|---|---|---|---|\n")
	for i, it := range rep.Items {
		b.WriteString(fmt.Sprintf("| %d | %s | %s | %s | %s | %s | %s | %s |\n", i+1, it.SLAState, mdText(orDash(it.DeadlineDate)),
			mdText(string(it.ID)), mdText(string(it.Title)), mdText(orDash(it.Tier)), approvals(it), objections(it)))
	}
	for _, it := range rep.Items {
		b.WriteString("\n#### " + mdText(string(it.ID)+" "+string(it.Title)) + "\n\n| Field | Value |\n|---|---|\n")
		tier := orDash(it.Tier)
		if it.TierLabel != nil {
			tier += " (" + *it.TierLabel + ")"
		}
		targets := make([]string, len(it.RoutingTargets))
		for i, t := range it.RoutingTargets {
			targets[i] = string(t)
		}
		routing := strings.Join(targets, ", ")
		if routing == "" {
			routing = "-"
		}
		for _, row := range [][2]string{
			{"Source", string(it.SourcePath)}, {"SLA state", string(it.SLAState)}, {"Tier", tier},
			{"Queued at", orDash(it.QueuedAt)}, {"SLA days", intOrDash(it.SLADays)}, {"Review by", orDash(it.ReviewBy)},
			{"Deadline", orDash(it.DeadlineDate)}, {"Routing targets", routing}, {"Quorum", intOrDash(it.Quorum)},
			{"Approvals", strconv.Itoa(it.ApprovalCount)}, {"Open objections", strconv.Itoa(it.UnresolvedObjectionCount)},
			{"Resolved objections", strconv.Itoa(it.ResolvedObjectionCount)}, {"Escalated at", orDash(it.EscalatedAt)},
			{"Decided at", orDash(it.DecidedAt)},
		} {
			b.WriteString("| " + row[0] + " | " + mdText(row[1]) + " |\n")
		}
		if len(it.ItemFindings) > 0 {
			b.WriteString("\n")
			for _, f := range it.ItemFindings {
				b.WriteString("- " + string(f.Severity) + " " + mdText(f.Code) + ": " + mdText(f.Message) + "\n")
			}
		}
	}
	return b.String()
}
