package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// StartupResult compares the start-up of both binaries (--version, which
// reads no corpus) with an empty Go program built here with the same
// toolchain: each process's own cost before it does any work, which a hook
// pays on every edit an agent makes.
type StartupResult struct {
	Empty  Dist `json:"empty"`
	CLI    Dist `json:"adrkitVersion"`
	Server Dist `json:"adrkitMcpVersion"`
	// The CPU time (user + system) of the same processes: wall time on a
	// busy machine includes waiting for a core.
	EmptyCPU  Dist    `json:"emptyCpu"`
	CLICPU    Dist    `json:"adrkitVersionCpu"`
	ServerCPU Dist    `json:"adrkitMcpVersionCpu"`
	CLIRatio  float64 `json:"adrkitRatio"`
	MCPRatio  float64 `json:"adrkitMcpRatio"`
}

// targetStartupRatio is issue 21's bound on either binary's start-up
// against an empty Go program.
const targetStartupRatio = 3.0

// emptyProgram is the program both binaries are compared with.
const emptyProgram = "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\") }\n"

// measureStartup builds the empty program in tmp, then runs it, adrkit
// --version and adrkit-mcp --version in turn, runs times each after
// warmup untimed rounds, so that all three see the same machine.
func measureStartup(ctx context.Context, cliBin, mcpBin, tmp string, runs, warmup int, logf func(string, ...any)) (*StartupResult, error) {
	dir, err := os.MkdirTemp(tmp, "empty-")
	if err != nil {
		return nil, err
	}
	for name, content := range map[string]string{"main.go": emptyProgram, "go.mod": "module empty\n\ngo 1.26\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	empty := filepath.Join(dir, "empty"+exeSuffix())
	// The same flags as the binaries: a start-up compared with a program
	// built otherwise would measure the flags, not the programs.
	build := releaseBuild(ctx, dir, empty, ".")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the empty program: %v: %s", err, strings.TrimSpace(string(out)))
	}
	logf("start-up: %d rounds of an empty program, adrkit --version and adrkit-mcp --version", warmup+runs)
	var e, c, s, ec, cc, sc []time.Duration
	for round := range warmup + runs {
		timed := round >= warmup
		for _, p := range []struct {
			bin       string
			args      []string
			wall, cpu *[]time.Duration
		}{{empty, nil, &e, &ec}, {cliBin, []string{"--version"}, &c, &cc}, {mcpBin, []string{"--version"}, &s, &sc}} {
			w, u, err := timeProcess(ctx, p.bin, dir, dir, "", nil, p.args...)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", filepath.Base(p.bin), err)
			}
			if timed {
				*p.wall, *p.cpu = append(*p.wall, w), append(*p.cpu, u)
			}
		}
	}
	r := &StartupResult{Empty: distOf(e), CLI: distOf(c), Server: distOf(s), EmptyCPU: distOf(ec), CLICPU: distOf(cc), ServerCPU: distOf(sc)}
	r.CLIRatio, r.MCPRatio = ratio(r.CLI.Median, r.Empty.Median), ratio(r.Server.Median, r.Empty.Median)
	return r, nil
}

// exeSuffix is ".exe" where executables need it.
func exeSuffix() string {
	if filepath.Ext(os.Args[0]) == ".exe" {
		return ".exe"
	}
	return ""
}

// evaluateStartup adds the start-up targets.
func (r *Results) evaluateStartup() {
	s := r.Startup
	if s == nil {
		return
	}
	for _, t := range []struct {
		name  string
		d     Dist
		ratio float64
	}{{"adrkit --version", s.CLI, s.CLIRatio}, {"adrkit-mcp --version", s.Server, s.MCPRatio}} {
		ok := t.ratio <= targetStartupRatio
		r.Targets = append(r.Targets, Target{Name: fmt.Sprintf("%s starts in ≤ %.0f× an empty Go program", t.name, targetStartupRatio), Met: &ok,
			Figure: fmt.Sprintf("%.2f ms = %.2f× (empty %.2f ms)", t.d.Median, t.ratio, s.Empty.Median)})
	}
}

// startupMarkdown is the start-up table.
func (r *Results) startupMarkdown() string {
	s := r.Startup
	if s == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nStart-up (a new process, no corpus read), median / p90 in ms, %d runs each, interleaved:\n\n", s.Empty.N)
	b.WriteString("| program | wall | ÷ empty | CPU (median) | ÷ empty CPU |\n|---|---:|---:|---:|---:|\n")
	for _, row := range []struct {
		name      string
		wall, cpu Dist
	}{{"empty Go program", s.Empty, s.EmptyCPU}, {"adrkit --version", s.CLI, s.CLICPU}, {"adrkit-mcp --version", s.Server, s.ServerCPU}} {
		fmt.Fprintf(&b, "| %s | %s | %.2f× | %s | %.2f× |\n", row.name, dist(row.wall), ratio(row.wall.Median, s.Empty.Median),
			ms(row.cpu.Median), ratio(row.cpu.Median, s.EmptyCPU.Median))
	}
	return b.String()
}
