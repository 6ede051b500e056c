package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// Results is one run of the bench: its settings, where it ran, every
// figure, and the verdict on each target.
type Results struct {
	Command string       `json:"command"`
	Config  Config       `json:"config"`
	Machine Machine      `json:"machine"`
	Sizes   []SizeResult `json:"sizes"`
	Lint    *LintResult  `json:"lint,omitempty"`
	Load    *LoadResult  `json:"load,omitempty"`
	// Pressure is the HTTP server under hostile clients.
	Pressure *PressureResult `json:"pressure,omitempty"`
	Hooks    []HookResult    `json:"hooks,omitempty"`
	Ask      *AskResult      `json:"ask,omitempty"`
	Startup  *StartupResult  `json:"startup,omitempty"`
	Targets  []Target        `json:"targets"`
}

// Target is one performance target and whether this run met it.
type Target struct {
	Name   string `json:"name"`
	Figure string `json:"figure"`
	// Met is nil when the run has no figure for the target (a size not
	// measured, lint not timed).
	Met *bool `json:"met"`
}

// The targets (docs/performance.md).
const (
	targetRatioAtLargest = 2.0  // median tools/call ≤ 2× the floor at 10,000
	targetSmallMs        = 2.0  // median tools/call at 100 records
	targetStartMs        = 20.0 // process start to initialize answer
	targetRSSBytes       = 100 << 20
	targetLintMs         = 1000.0
	// Under load: a burst of pipelined calls stays within this peak RSS,
	// and tools/list costs at most this many pings.
	targetBurstRSSBytes = 200 << 20
	targetListPingRatio = 6.0
	targetLargest       = 10000
	targetSmallest      = 100
	// linearSlope is the largest log-log slope still called linear:
	// timing noise alone moves a slope by a few hundredths.
	linearSlope = 1.15
)

func (r *Results) size(n int) *SizeResult {
	for i := range r.Sizes {
		if r.Sizes[i].N == n {
			return &r.Sizes[i]
		}
	}
	return nil
}

// evaluate fills Targets from the figures.
func (r *Results) evaluate() {
	verdict := func(ok bool) *bool { return &ok }
	add := func(name, figure string, met *bool) {
		r.Targets = append(r.Targets, Target{Name: name, Figure: figure, Met: met})
	}
	if big := r.size(targetLargest); big != nil {
		for _, t := range big.Tools {
			add(fmt.Sprintf("%s median at %d records ≤ %.0f× floor", t.Tool, targetLargest, targetRatioAtLargest),
				fmt.Sprintf("%.2f ms = %.2f× floor (%.2f ms)", t.Dist.Median, t.Ratio, big.Floor.Median),
				verdict(t.Ratio <= targetRatioAtLargest))
		}
		add(fmt.Sprintf("peak RSS at %d records ≤ %d MiB", targetLargest, targetRSSBytes>>20),
			fmt.Sprintf("%.1f MiB", mb(big.PeakRSS)), verdict(big.PeakRSS <= targetRSSBytes))
	} else {
		add(fmt.Sprintf("tools/call at %d records ≤ %.0f× floor", targetLargest, targetRatioAtLargest), "not measured", nil)
	}
	if small := r.size(targetSmallest); small != nil {
		for _, t := range small.Tools {
			add(fmt.Sprintf("%s median at %d records ≤ %.0f ms", t.Tool, targetSmallest, targetSmallMs),
				fmt.Sprintf("%.2f ms", t.Dist.Median), verdict(t.Dist.Median <= targetSmallMs))
		}
	}
	for _, s := range r.Sizes {
		if s.Start.N > 0 {
			add(fmt.Sprintf("start to initialize answer ≤ %.0f ms (corpus of %d)", targetStartMs, s.N),
				fmt.Sprintf("%.2f ms", s.Start.Median), verdict(s.Start.Median <= targetStartMs))
		}
	}
	lintName := fmt.Sprintf("adrkit lint on %d records, cold ≤ %.0f ms", targetLargest, targetLintMs)
	switch {
	case r.Lint == nil:
	case r.Lint.Cold.N == 0:
		add(lintName, r.Lint.Note, nil)
	case r.Lint.N != targetLargest:
		add(lintName, fmt.Sprintf("%.1f ms, but on %d records", r.Lint.Cold.Median, r.Lint.N), nil)
	default:
		add(lintName, fmt.Sprintf("%.1f ms", r.Lint.Cold.Median), verdict(r.Lint.Cold.Median <= targetLintMs))
	}
	if l := r.Load; l != nil {
		if l.Calls > 0 {
			add(fmt.Sprintf("%d pipelined tools/call at %d records all answered, peak RSS ≤ %d MiB", l.Calls, l.N, targetBurstRSSBytes>>20),
				fmt.Sprintf("all answered in %.1f s, %.1f MiB", l.CallsSeconds, mb(l.CallsPeakRSS)), verdict(l.CallsPeakRSS <= targetBurstRSSBytes))
		}
		if l.Requests > 0 {
			add(fmt.Sprintf("%d pipelined tools/list ≤ %.0f× the CPU of as many pings", l.Requests, targetListPingRatio),
				fmt.Sprintf("%.0f ms against %.0f ms = %.2f×", l.ListCPU, l.PingCPU, l.ListPingRatio), verdict(l.ListPingRatio <= targetListPingRatio))
		}
	}
	r.evaluatePressure(add)
	r.evaluateHooks()
	r.evaluateAsk()
	r.evaluateStartup()
	// The floor's own slope is shown in the growth table but is not a
	// target: it is what the tools are measured against.
	for _, line := range r.lines()[1:] {
		for i := 1; i < len(r.Sizes); i++ {
			a, b := r.Sizes[i-1], r.Sizes[i]
			s := slope(a.N, b.N, line.at(a), line.at(b))
			if math.IsNaN(s) {
				continue
			}
			add(fmt.Sprintf("%s grows linearly from %d to %d records (slope ≤ %.2f)", line.name, a.N, b.N, linearSlope),
				fmt.Sprintf("slope %.2f", s), verdict(s <= linearSlope))
		}
	}
}

// line is one series of the chart and the slope table.
type line struct {
	name string
	at   func(SizeResult) float64
}

// lines are the floor and each tool, in workload order.
func (r *Results) lines() []line {
	out := []line{{"floor", func(s SizeResult) float64 { return s.Floor.Median }}}
	if len(r.Sizes) == 0 {
		return out
	}
	for i, t := range r.Sizes[0].Tools {
		out = append(out, line{t.Tool, func(s SizeResult) float64 {
			if i < len(s.Tools) {
				return s.Tools[i].Dist.Median
			}
			return 0
		}})
	}
	return out
}

// mb is b in MiB (2^20 bytes), the unit every size is reported in.
func mb(b int64) float64 { return float64(b) / (1 << 20) }

// markdown renders the run as the tables docs/performance.md quotes.
func (r *Results) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Command: `%s`\n\n", r.Command)
	fmt.Fprintf(&b, "Machine: %s/%s, %d CPUs (%s), %s; load average %s at the start, %s at the end; %s. %d timed rounds per size after %d warm-up rounds; %d starts per size.\n\n",
		r.Machine.GOOS, r.Machine.GOARCH, r.Machine.CPUs, r.Machine.CPUModel, r.Machine.GoVersion,
		r.Machine.LoadStart, r.Machine.LoadEnd, r.Machine.GCEnv, r.Config.Calls, r.Config.Warmup, r.Config.Starts)

	b.WriteString("Latency per call, median / p90 in ms, and the median as a multiple of the floor:\n\n")
	b.WriteString("| records | corpus | floor |")
	if len(r.Sizes) > 0 {
		for _, t := range r.Sizes[0].Tools {
			fmt.Fprintf(&b, " %s |", t.Tool)
		}
	}
	b.WriteString(" start → initialize | peak RSS |\n|---:|---:|---:|")
	if len(r.Sizes) > 0 {
		b.WriteString(strings.Repeat("---:|", len(r.Sizes[0].Tools)))
	}
	b.WriteString("---:|---:|\n")
	for _, s := range r.Sizes {
		fmt.Fprintf(&b, "| %d | %.1f MiB | %s |", s.N, mb(s.Bytes), dist(s.Floor))
		for _, t := range s.Tools {
			fmt.Fprintf(&b, " %s (%.2f×) |", dist(t.Dist), t.Ratio)
		}
		fmt.Fprintf(&b, " %s (%.2f×) | %.1f MiB |\n", dist(s.Start), s.StartRatio, mb(s.PeakRSS))
	}
	if r.Lint != nil {
		if r.Lint.Cold.N > 0 {
			fmt.Fprintf(&b, "\n`adrkit lint` on %d records, cold (a new process each run, %d runs): %s ms (%.2f× floor).\n",
				r.Lint.N, r.Lint.Cold.N, dist(r.Lint.Cold), r.Lint.Ratio)
		} else {
			fmt.Fprintf(&b, "\n`adrkit lint`: %s.\n", r.Lint.Note)
		}
	}
	if len(r.Sizes) > 1 {
		b.WriteString("\nGrowth, as the log-log slope of the median between sizes (1 is linear):\n\n| series |")
		for i := 1; i < len(r.Sizes); i++ {
			fmt.Fprintf(&b, " %d → %d |", r.Sizes[i-1].N, r.Sizes[i].N)
		}
		b.WriteString("\n|---|" + strings.Repeat("---:|", len(r.Sizes)-1) + "\n")
		for _, l := range r.lines() {
			fmt.Fprintf(&b, "| %s |", l.name)
			for i := 1; i < len(r.Sizes); i++ {
				fmt.Fprintf(&b, " %.2f |", slope(r.Sizes[i-1].N, r.Sizes[i].N, l.at(r.Sizes[i-1]), l.at(r.Sizes[i])))
			}
			b.WriteString("\n")
		}
	}
	if l := r.Load; l != nil {
		b.WriteString("\nUnder load (requests written at once, before any answer is read):\n\n")
		if l.Calls > 0 {
			fmt.Fprintf(&b, "- %d tools/call to a new server on %d records: all answered in %.1f s; peak RSS %.1f MiB.\n",
				l.Calls, l.N, l.CallsSeconds, mb(l.CallsPeakRSS))
		}
		if l.Requests > 0 {
			fmt.Fprintf(&b, "- %d pings and %d tools/list to one server: %.0f ms and %.0f ms of its CPU, %.2f× (%.1f and %.1f µs a request).\n",
				l.Requests, l.Requests, l.PingCPU, l.ListCPU, l.ListPingRatio, 1000*l.PingCPU/float64(l.Requests), 1000*l.ListCPU/float64(l.Requests))
		}
	}
	b.WriteString(r.pressureMarkdown())
	b.WriteString(r.hooksMarkdown())
	b.WriteString(r.askMarkdown())
	b.WriteString(r.startupMarkdown())
	b.WriteString("\nTargets:\n\n| target | this run | met |\n|---|---|---|\n")
	for _, t := range r.Targets {
		met := "n/a"
		if t.Met != nil {
			met = map[bool]string{true: "yes", false: "**no**"}[*t.Met]
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", t.Name, t.Figure, met)
	}
	return b.String()
}

func dist(d Dist) string {
	return fmt.Sprintf("%s / %s", ms(d.Median), ms(d.P90))
}

// ms formats milliseconds with three significant digits or so.
func ms(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// write stores results.json, results.md and latency.svg in dir.
func (r *Results) write(dir, table string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.md"), []byte(table), 0o644); err != nil {
		return err
	}
	svg, err := r.chart()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "latency.svg"), svg, 0o644)
}
