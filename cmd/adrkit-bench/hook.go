package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// HookResult is `adrkit hook` at one corpus size: the whole process, a
// new one per edit as an agent host runs it, against what any process
// that reads the corpus afresh must pay: starting (`adrkit --version`)
// plus the floor.
type HookResult struct {
	N int `json:"n"`
	// Hook is a PreToolUse of Write on a governed file, each run a new
	// session (so that the memory of what was said never makes it
	// silent): the same file every run, whose answer is kept after the
	// first (an agent's next edit of a file, another session).
	Hook Dist `json:"hook"`
	// Cold is the same, for a new file every run (an agent's first edit
	// of a file in an unchanged corpus): no answer kept, the corpus's
	// governance index read instead of its records (ADR 0023).
	Cold Dist `json:"cold"`
	// Patch is Codex's apply_patch of patchFiles new files beside the
	// governed one, a new set every run: the hook answers for the first
	// agenthost.MaxEventFiles and says how many it left out, well within
	// app.HookBudget (issue 35).
	Patch Dist `json:"patch"`
	// Version is `adrkit --version`: the binary's start-up.
	Version Dist `json:"version"`
	Floor   Dist `json:"floor"`
	// HookCPU and VersionCPU are the processes' CPU time (user and
	// system): on a busy machine the wall-clock times above measure the
	// machine's other work as well.
	HookCPU    Dist `json:"hookCpu"`
	ColdCPU    Dist `json:"coldCpu"`
	VersionCPU Dist `json:"versionCpu"`
	// Ratio and ColdRatio are Hook's and Cold's medians over Version's
	// plus Floor's.
	Ratio     float64 `json:"ratioToStartPlusFloor"`
	ColdRatio float64 `json:"coldRatioToStartPlusFloor"`
	// ContextChars is the length of the context the hook gave.
	ContextChars int `json:"contextChars"`
}

// targetHookRatio: at 1,000 records the whole hook process costs at most
// this times the start-up of `adrkit --version` plus the floor.
const (
	targetHookRatio = 1.5
	targetHookN     = 1000
)

// measureHooks times the hook at every size, interleaving its runs with
// `adrkit --version` and the floor so that a slow patch of the machine
// weighs on both sides of the ratio.
func measureHooks(ctx context.Context, bin, tmp string, sizes []int, runs, warmup int, logf func(string, ...any)) ([]HookResult, error) {
	state, err := os.MkdirTemp(tmp, "hook-state-")
	if err != nil {
		return nil, err
	}
	var out []HookResult
	for _, n := range sizes {
		root := filepath.Join(tmp, "n"+fmt.Sprint(n))
		dir := filepath.Join(root, "docs", "adr")
		logf("N=%d: %d rounds of adrkit hook, adrkit --version and the floor", n, warmup+runs)
		var hook, cold, patch, version, floor, hookCPU, coldCPU, versionCPU []time.Duration
		hr := HookResult{N: n}
		for round := range warmup + runs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			timed := round >= warmup
			d, c, err := timeProcess(ctx, bin, root, state, "", nil, "--version")
			if err != nil {
				return nil, fmt.Errorf("adrkit --version: %w", err)
			}
			if timed {
				version, versionCPU = append(version, d), append(versionCPU, c)
			}
			f, _, err := timeFloor(dir)
			if err != nil {
				return nil, err
			}
			if timed {
				floor = append(floor, f)
			}
			session := fmt.Sprintf("bench-%d-%d", n, round)
			for i, run := range []struct {
				event     string
				args      []string
				wall, cpu *[]time.Duration
			}{
				{hookEvent(root, session, ""), []string{"hook"}, &hook, &hookCPU},
				{hookEvent(root, session, fmt.Sprintf("new_%d.go", round)), []string{"hook"}, &cold, &coldCPU},
				{patchEvent(root, session, round), []string{"hook", "--host", "codex"}, &patch, nil},
			} {
				var stdout bytes.Buffer
				d, c, err := timeProcess(ctx, bin, root, state, run.event, &stdout, run.args...)
				if err != nil {
					return nil, fmt.Errorf("adrkit %s: %w", strings.Join(run.args, " "), err)
				}
				chars, err := contextChars(stdout.Bytes())
				if err != nil {
					return nil, err
				}
				if i == 0 {
					hr.ContextChars = chars
				}
				if timed {
					*run.wall = append(*run.wall, d)
					if run.cpu != nil {
						*run.cpu = append(*run.cpu, c)
					}
				}
			}
		}
		hr.Hook, hr.Patch, hr.Version, hr.Floor = distOf(hook), distOf(patch), distOf(version), distOf(floor)
		hr.Cold, hr.HookCPU, hr.ColdCPU, hr.VersionCPU = distOf(cold), distOf(hookCPU), distOf(coldCPU), distOf(versionCPU)
		hr.Ratio = ratio(hr.Hook.Median, hr.Version.Median+hr.Floor.Median)
		hr.ColdRatio = ratio(hr.Cold.Median, hr.Version.Median+hr.Floor.Median)
		out = append(out, hr)
	}
	return out, nil
}

// hookEvent is Claude Code's PreToolUse of a Write of the workload's
// first file (which the generated corpus governs), or of a file named
// name beside it.
func hookEvent(root, session, name string) string {
	file := filepath.Join(root, filepath.FromSlash(corpusgen.ContextFiles()[0]))
	if name != "" {
		file = filepath.Join(filepath.Dir(file), name)
	}
	ev := map[string]any{
		"session_id": session, "cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Write",
		"tool_input": map[string]string{"file_path": file, "content": "package api\n"},
	}
	b, _ := json.Marshal(ev)
	return string(b)
}

// patchFiles is how many files patchEvent's patch names.
const patchFiles = 4000

// patchEvent is Codex's PreToolUse of an apply_patch that adds
// patchFiles files beside the workload's first file, new ones for each
// round.
func patchEvent(root, session string, round int) string {
	dir := path.Dir(corpusgen.ContextFiles()[0])
	var patch strings.Builder
	patch.WriteString("*** Begin Patch\n")
	for i := range patchFiles {
		fmt.Fprintf(&patch, "*** Add File: %s/gen_%d_%d.go\n+package api\n", dir, round, i)
	}
	patch.WriteString("*** End Patch\n")
	ev := map[string]any{
		"session_id": session, "cwd": root, "hook_event_name": "PreToolUse", "tool_name": "apply_patch",
		"tool_input": map[string]string{"command": patch.String()},
	}
	b, _ := json.Marshal(ev)
	return string(b)
}

// timeProcess times one run of bin in dir with stdin, from start to
// exit, and returns its CPU time too. Any status but 0 is a failure
// here: the hook answers a good event with 0.
func timeProcess(ctx context.Context, bin, dir, state, stdin string, stdout *bytes.Buffer, args ...string) (wall, cpu time.Duration, err error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ADRKIT_HOOK_STATE_DIR="+state)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if stdout != nil { // a nil *bytes.Buffer is not a nil io.Writer
		cmd.Stdout = stdout
	}
	t0 := time.Now()
	err = cmd.Run()
	wall = time.Since(t0)
	if err != nil {
		return 0, 0, fmt.Errorf("%v: %s", err, firstLine(stderr.String()))
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

// contextChars is the length of the context in a hook's answer; an
// answer without one is an error: the run would time the silent path.
func contextChars(answer []byte) (int, error) {
	var v struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(answer, &v); err != nil || v.HookSpecificOutput.AdditionalContext == "" {
		return 0, fmt.Errorf("adrkit hook gave no context for a governed file: %q", firstLine(string(answer)))
	}
	return len([]rune(v.HookSpecificOutput.AdditionalContext)), nil
}

// evaluateHooks adds the hook's target, for an edit of a file whose
// answer is kept and for a first edit (the corpus read cold).
func (r *Results) evaluateHooks() {
	names := [2]string{
		fmt.Sprintf("adrkit hook at %d records ≤ %.1f× (adrkit --version + floor), answer kept", targetHookN, targetHookRatio),
		fmt.Sprintf("adrkit hook at %d records ≤ %.1f× (adrkit --version + floor), first edit of a file", targetHookN, targetHookRatio),
	}
	for _, h := range r.Hooks {
		if h.N != targetHookN {
			continue
		}
		for i, d := range [2]struct {
			dist  Dist
			ratio float64
		}{{h.Hook, h.Ratio}, {h.Cold, h.ColdRatio}} {
			ok := d.ratio <= targetHookRatio
			r.Targets = append(r.Targets, Target{Name: names[i], Met: &ok, Figure: fmt.Sprintf("%.2f ms = %.2f× (%.2f + %.2f ms)",
				d.dist.Median, d.ratio, h.Version.Median, h.Floor.Median)})
		}
		ok := h.Patch.Median < float64(app.HookBudget/time.Millisecond)
		r.Targets = append(r.Targets, Target{Name: fmt.Sprintf("adrkit hook, apply_patch of %d files at %d records, within its budget (%s)",
			patchFiles, targetHookN, app.HookBudget), Met: &ok, Figure: fmt.Sprintf("%.2f ms (p90 %.2f ms)", h.Patch.Median, h.Patch.P90)})
		return
	}
	if len(r.Hooks) > 0 || r.Config.HookRuns > 0 {
		for _, name := range names {
			r.Targets = append(r.Targets, Target{Name: name, Figure: "not measured"})
		}
	}
}

// hooksMarkdown is the hook's table.
func (r *Results) hooksMarkdown() string {
	if len(r.Hooks) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n`adrkit hook` (a new process per event: PreToolUse of Write on a governed file; kept: the same file each run, "+
		"its answer kept; first: a new file each run; patch: Codex's apply_patch of %d new files), median / p90 in ms, %d runs per size:\n\n",
		patchFiles, r.Hooks[0].Hook.N)
	b.WriteString("| records | hook, kept | hook, first | patch | adrkit --version | floor | ÷ (version + floor): kept, first | CPU: kept / first / version | context |\n" +
		"|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, h := range r.Hooks {
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %.2f×, %.2f× | %s / %s / %s | %d chars |\n", h.N, dist(h.Hook), dist(h.Cold), dist(h.Patch),
			dist(h.Version), dist(h.Floor), h.Ratio, h.ColdRatio, ms(h.HookCPU.Median), ms(h.ColdCPU.Median), ms(h.VersionCPU.Median), h.ContextChars)
	}
	return b.String()
}
