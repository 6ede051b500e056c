package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

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
	// silent).
	Hook Dist `json:"hook"`
	// Version is `adrkit --version`: the binary's start-up.
	Version Dist `json:"version"`
	Floor   Dist `json:"floor"`
	// HookCPU and VersionCPU are the processes' CPU time (user and
	// system): on a busy machine the wall-clock times above measure the
	// machine's other work as well.
	HookCPU    Dist `json:"hookCpu"`
	VersionCPU Dist `json:"versionCpu"`
	// Ratio is Hook's median over Version's plus Floor's.
	Ratio float64 `json:"ratioToStartPlusFloor"`
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
		var hook, version, floor, hookCPU, versionCPU []time.Duration
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
			event := hookEvent(root, fmt.Sprintf("bench-%d-%d", n, round))
			var stdout bytes.Buffer
			d, c, err = timeProcess(ctx, bin, root, state, event, &stdout, "hook")
			if err != nil {
				return nil, fmt.Errorf("adrkit hook: %w", err)
			}
			hr.ContextChars, err = contextChars(stdout.Bytes())
			if err != nil {
				return nil, err
			}
			if timed {
				hook, hookCPU = append(hook, d), append(hookCPU, c)
			}
		}
		hr.Hook, hr.Version, hr.Floor = distOf(hook), distOf(version), distOf(floor)
		hr.HookCPU, hr.VersionCPU = distOf(hookCPU), distOf(versionCPU)
		hr.Ratio = ratio(hr.Hook.Median, hr.Version.Median+hr.Floor.Median)
		out = append(out, hr)
	}
	return out, nil
}

// hookEvent is Claude Code's PreToolUse of a Write of the workload's
// first file (which the generated corpus governs).
func hookEvent(root, session string) string {
	ev := map[string]any{
		"session_id": session, "cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Write",
		"tool_input": map[string]string{
			"file_path": filepath.Join(root, filepath.FromSlash(corpusgen.ContextFiles()[0])),
			"content":   "package api\n",
		},
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

// evaluateHooks adds the hook's target.
func (r *Results) evaluateHooks() {
	name := fmt.Sprintf("adrkit hook at %d records ≤ %.1f× (adrkit --version + floor)", targetHookN, targetHookRatio)
	for _, h := range r.Hooks {
		if h.N == targetHookN {
			ok := h.Ratio <= targetHookRatio
			r.Targets = append(r.Targets, Target{Name: name, Met: &ok, Figure: fmt.Sprintf("%.2f ms = %.2f× (%.2f + %.2f ms)",
				h.Hook.Median, h.Ratio, h.Version.Median, h.Floor.Median)})
			return
		}
	}
	if len(r.Hooks) > 0 || r.Config.HookRuns > 0 {
		r.Targets = append(r.Targets, Target{Name: name, Figure: "not measured"})
	}
}

// hooksMarkdown is the hook's table.
func (r *Results) hooksMarkdown() string {
	if len(r.Hooks) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n`adrkit hook` (a new process per event: PreToolUse of Write on a governed file), median / p90 in ms, %d runs per size:\n\n", r.Hooks[0].Hook.N)
	b.WriteString("| records | adrkit hook | adrkit --version | floor | hook ÷ (version + floor) | CPU: hook / version | context |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, h := range r.Hooks {
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %.2f× | %s / %s | %d chars |\n", h.N, dist(h.Hook), dist(h.Version), dist(h.Floor), h.Ratio,
			ms(h.HookCPU.Median), ms(h.VersionCPU.Median), h.ContextChars)
	}
	return b.String()
}
