package entry

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The collector policy of a serving process (docs/performance.md,
// "Memory"; ADR 0021). A server keeps its corpus in memory for as long as
// it runs (about 5 KB a record) and every call leaves garbage in
// proportion to the corpus. With Go's default headroom (GOGC=100: as much
// again as the live heap) a corpus of 10,000 records peaks at 130 MiB and
// more; a fixed small headroom (GOGC=15) keeps it under 100 MiB but makes
// every call on a small corpus pay for a collection (get_decision_context
// at 100 records: 2.3 ms against 1.4 ms), and a memory limit (75 MiB)
// slows the large corpus down by half and still peaks at 100 MiB. So the
// headroom is gcHeadroom bytes of the live heap, between gcMinPercent and
// 100 percent, set again after each collection: a small corpus keeps Go's
// default, a large one is collected more often, on the spare core.
const (
	gcHeadroom   = 4 << 20
	gcMinPercent = 10
)

// SetCollector applies the serving collector policy, unless GOGC or
// GOMEMLIMIT is set in the environment: then those rule. Serve and the
// HTTP server of adrkit-mcp call it before serving. It sets the process's
// collector, which is why it lives at the entry and not in adapters/mcp,
// a library that changes nothing of the process that imports it.
func SetCollector() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	percent := 100
	var arm func()
	arm = func() {
		// The tick is garbage at once: its cleanup runs after the next
		// collection, and arms the next tick.
		runtime.AddCleanup(&gcTick{}, func(struct{}) {
			metrics.Read(live)
			if p := gcPercentFor(live[0].Value.Uint64()); p != percent {
				debug.SetGCPercent(p)
				percent = p
			}
			arm()
		}, struct{}{})
	}
	arm()
}

// gcPercentFor is the GC percentage for a live heap of live bytes:
// gcHeadroom bytes of it, between gcMinPercent and 100.
func gcPercentFor(live uint64) int {
	if live == 0 {
		return 100
	}
	return int(min(100, max(gcMinPercent, gcHeadroom*100/live)))
}

// gcTick is allocated to be collected; it holds a pointer so that it is
// an allocation of its own (AddCleanup needs one), not part of a tiny
// block shared with other objects.
type gcTick struct{ _ *int }
