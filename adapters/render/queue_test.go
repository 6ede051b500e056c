package render

import (
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/queue"
)

// TestQueueTextSaysWhatIsMissing: an item the JSON report has nothing to
// say about (a proposal never queued, without tier or deciders) still
// lists what it lacks in the terminal, with how to queue a proposal; a
// decided or complete item lists nothing, and what a finding says is not
// repeated.
func TestQueueTextSaysWhatIsMissing(t *testing.T) {
	s := func(v string) *string { return &v }
	n := func(v int64) *int64 { return &v }
	bare := queue.Item{ID: "0008", Title: "Typed configuration", SourcePath: "docs/adr/0008-typed-config.md",
		SLAState: queue.NotQueued, RoutingTargets: []queue.Str{}, ItemFindings: []queue.ItemFinding{}}
	tierless := queue.Item{ID: "0007", Title: "A shared cache", SourcePath: "docs/adr/0007-cache.md", SLAState: queue.MissingSLA,
		QueuedAt: s("2026-01-03T15:00:00.000Z"), RoutingTargets: []queue.Str{"@gus"},
		ItemFindings: []queue.ItemFinding{{Code: queue.CodeTierAbsent, Severity: "info", Message: "no review.tier"}}}
	complete := queue.Item{ID: "0004", Title: "gRPC", SourcePath: "docs/adr/0004-grpc.md", SLAState: queue.WithinSLA,
		Tier: s("async"), QueuedAt: s("2026-01-01T00:00:00.000Z"), SLADays: n(14), DeadlineDate: s("2026-01-15"),
		RoutingTargets: []queue.Str{"@erin"}, ItemFindings: []queue.ItemFinding{}}
	cases := []struct {
		name  string
		items []queue.Item
		want  []string
		not   []string
	}{
		{"never queued", []queue.Item{bare}, []string{
			"  0008 docs/adr/0008-typed-config.md\n    missing: review.queuedAt, a deadline (review.slaDays, or reviewBy), review.tier, deciders\n",
			"To queue a proposal", "    queuedAt: \"2026-01-08T00:00:00Z\"",
		}, nil},
		{"queued without a deadline or tier", []queue.Item{tierless}, []string{
			"    missing: a deadline (review.slaDays, or reviewBy)\n", "item.tier-absent",
		}, []string{"To queue a proposal", "missing: a deadline (review.slaDays, or reviewBy), review.tier"}},
		{"complete", []queue.Item{complete}, nil, []string{"Incomplete records", "missing", "To queue a proposal"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := &queue.Report{Version: "1", AsOf: "2026-01-08", TotalItems: len(tc.items), Items: tc.items, CorpusFindings: []queue.CorpusFinding{}}
			got := queueText(rep, Style{})
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("the text lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("the text holds %q:\n%s", w, got)
				}
			}
		})
	}
}
