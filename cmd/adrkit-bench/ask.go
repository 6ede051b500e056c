package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/adrkit/adrkit-go/internal/askdev"
)

// AskResult is adrkit ask (issue 31): the development set's accuracy per
// kind, and the whole `adrkit ask` process at each size against the
// start-up of `adrkit --version` plus the floor.
type AskResult struct {
	// Kinds are the tallies per kind of question, then all answerable
	// questions together.
	Kinds []askdev.Tally `json:"kinds"`
	Runs  []AskRun       `json:"runs"`
}

// AskRun is `adrkit ask` at one corpus size.
type AskRun struct {
	N       int     `json:"n"`
	Ask     Dist    `json:"ask"`
	AskCPU  Dist    `json:"askCpu"`
	Version Dist    `json:"version"`
	Floor   Dist    `json:"floor"`
	Ratio   float64 `json:"ratio"`
}

// The target of a one-shot `adrkit ask`, as the hook's.
const (
	targetAskRatio = 1.5
	targetAskN     = 1000
)

// askQuestion is what the timed runs ask of a generated corpus.
const askQuestion = "should we standardise on PostgreSQL for billing events?"

// measureAsk asks the development set in this process, then times
// `adrkit ask` at every size, interleaved with `adrkit --version` and the
// floor.
func measureAsk(ctx context.Context, bin, tmp string, sizes []int, runs, warmup int, logf func(string, ...any)) (*AskResult, error) {
	qs, err := askdev.Questions()
	if err != nil {
		return nil, err
	}
	logf("asking the %d questions of the development set", len(qs))
	rep, err := askdev.Run(ctx, ".", qs)
	if err != nil {
		return nil, fmt.Errorf("the development set (run from the repository root): %w", err)
	}
	res := &AskResult{Kinds: append(rep.Kinds, rep.Answerable)}
	// The index is kept where the hook keeps its own (the first, untimed
	// round makes it), as on a developer's machine.
	state, err := os.MkdirTemp(tmp, "ask-state-")
	if err != nil {
		return nil, err
	}
	for _, n := range sizes {
		root := filepath.Join(tmp, "n"+fmt.Sprint(n))
		logf("N=%d: %d rounds of adrkit ask, adrkit --version and the floor", n, warmup+runs)
		var ask, askCPU, version, floor []time.Duration
		for round := range warmup + runs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			v, _, err := timeProcess(ctx, bin, root, "", "", nil, "--version")
			if err != nil {
				return nil, fmt.Errorf("adrkit --version: %w", err)
			}
			f, _, err := timeFloor(filepath.Join(root, "docs", "adr"))
			if err != nil {
				return nil, err
			}
			cmd := exec.CommandContext(ctx, bin, "ask", askQuestion)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "ADRKIT_HOOK_STATE_DIR="+state)
			t0 := time.Now()
			err = cmd.Run()
			d := time.Since(t0)
			// ask exits 1 for held and no_record: answers too.
			if exit := (*exec.ExitError)(nil); err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
				return nil, fmt.Errorf("adrkit ask: %w", err)
			}
			if round >= warmup {
				ask, version, floor = append(ask, d), append(version, v), append(floor, f)
				askCPU = append(askCPU, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
			}
		}
		r := AskRun{N: n, Ask: distOf(ask), AskCPU: distOf(askCPU), Version: distOf(version), Floor: distOf(floor)}
		r.Ratio = ratio(r.Ask.Median, r.Version.Median+r.Floor.Median)
		res.Runs = append(res.Runs, r)
	}
	return res, nil
}

// evaluateAsk adds the targets of adrkit ask: issue 31's accuracy on the
// development set, and the one-shot process at 1,000 records.
func (r *Results) evaluateAsk() {
	if r.Ask == nil {
		return
	}
	want := map[string]float64{"answerable": 0.85, "paraphrase": 0.60, askdev.Unanswerable: 0.80}
	for _, k := range r.Ask.Kinds {
		if min, ok := want[k.Kind]; ok {
			ok := k.Rate() >= min
			r.Targets = append(r.Targets, Target{Name: fmt.Sprintf("adrkit ask, %s questions right (no_record for unanswerable) ≥ %.0f%%", k.Kind, 100*min),
				Met: &ok, Figure: fmt.Sprintf("%d of %d, %.0f%%", k.Right, k.Asked, 100*k.Rate())})
		}
	}
	for _, a := range r.Ask.Runs {
		if a.N == targetAskN {
			ok := a.Ratio <= targetAskRatio
			r.Targets = append(r.Targets, Target{Name: fmt.Sprintf("adrkit ask at %d records ≤ %.1f× (adrkit --version + floor)", targetAskN, targetAskRatio),
				Met: &ok, Figure: fmt.Sprintf("%.2f ms = %.2f× (%.2f + %.2f ms)", a.Ask.Median, a.Ratio, a.Version.Median, a.Floor.Median)})
		}
	}
}

// askMarkdown is adrkit ask's tables.
func (r *Results) askMarkdown() string {
	if r.Ask == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n`adrkit ask` on the development set (docs/ask.md):\n\n| kind | asked | right | no_record |\n|---|---:|---:|---:|\n")
	for _, k := range r.Ask.Kinds {
		fmt.Fprintf(&b, "| %s | %d | %.0f%% | %d |\n", k.Kind, k.Asked, 100*k.Rate(), k.NoRecord)
	}
	if len(r.Ask.Runs) > 0 {
		b.WriteString("\n`adrkit ask` (a new process per question), median / p90 in ms:\n\n" +
			"| records | ask | adrkit --version | floor | ÷ (version + floor) | CPU |\n|---:|---:|---:|---:|---:|---:|\n")
		for _, a := range r.Ask.Runs {
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %.2f× | %s |\n", a.N, dist(a.Ask), dist(a.Version), dist(a.Floor), a.Ratio, ms(a.AskCPU.Median))
		}
	}
	return b.String()
}
