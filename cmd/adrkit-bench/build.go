package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// releaseBuildFlags are the flags .goreleaser.yaml builds the released
// binaries with (the version stamp aside), so that the figures are those
// of the programs people install. Without CGO_ENABLED=0 a Linux build
// that imports net links libc dynamically, and every process then pays
// the dynamic loader and libc's thread start-up, which no release binary
// does.
var releaseBuildFlags = []string{"-trimpath", "-ldflags=-s -w"}

// releaseBuild is `go build` of pkg into out with the release's flags and
// environment, run in dir.
func releaseBuild(ctx context.Context, dir, out, pkg string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", append(append([]string{"build"}, releaseBuildFlags...), "-o", out, pkg)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd
}

// goBuild builds pkg (relative to the module root, the working
// directory) into dir as a release does and returns the binary's path.
func goBuild(ctx context.Context, dir, name, pkg string) (string, error) {
	out := filepath.Join(dir, name)
	cmd := releaseBuild(ctx, "", out, pkg)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v: %s", pkg, err, strings.TrimSpace(string(msg)))
	}
	return out, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Machine describes where the figures were measured.
type Machine struct {
	GOOS      string `json:"goos"`
	GOARCH    string `json:"goarch"`
	CPUs      int    `json:"cpus"`
	GoVersion string `json:"goVersion"`
	CPUModel  string `json:"cpuModel,omitempty"`
	// LoadStart and LoadEnd are the 1-minute load averages when the run
	// started and ended: other work on the machine skews every figure.
	LoadStart string `json:"loadAverageStart,omitempty"`
	LoadEnd   string `json:"loadAverageEnd,omitempty"`
	// GCEnv is GOGC and GOMEMLIMIT as the server inherited them; when
	// neither is set, adrkit-mcp runs with its own GC percentage
	// (mcp.GCPercent), which the peak RSS depends on.
	GCEnv string `json:"gcEnv"`
}

// gcEnv describes the collector settings in the environment.
func gcEnv() string {
	var set []string
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(k); ok {
			set = append(set, k+"="+v)
		}
	}
	if len(set) == 0 {
		return "GOGC and GOMEMLIMIT unset"
	}
	return strings.Join(set, " ")
}

// loadAverage is the 1-minute load average, or "?" where unknown.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}

func machine() Machine {
	m := Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), LoadStart: loadAverage(), GCEnv: gcEnv()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	return m
}
