package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// SizeResult is every figure measured at one corpus size.
type SizeResult struct {
	N     int   `json:"n"`
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// Digest is the SHA-256 of the files' SHA-256s in name order, as the
	// floor computed them: equal digests mean byte-identical corpora, so
	// runs can be compared.
	Digest string `json:"corpusDigest"`
	// Floor is listing the ADR directory and reading and hashing every
	// file once, in this process.
	Floor Dist         `json:"floor"`
	Tools []ToolResult `json:"tools"`
	// Start is process start to the initialize answer.
	Start      Dist    `json:"start"`
	StartRatio float64 `json:"startRatio"`
	// PeakRSS is VmHWM after the last timed call, in bytes.
	PeakRSS int64 `json:"peakRssBytes"`
}

// ToolResult is one tool's round trips at one size.
type ToolResult struct {
	Tool  string  `json:"tool"`
	Dist  Dist    `json:"latency"`
	Ratio float64 `json:"ratioToFloor"`
}

// LintResult is the cold lint timing.
type LintResult struct {
	N     int     `json:"n"`
	Cold  Dist    `json:"cold"`
	Ratio float64 `json:"ratioToFloor"`
	// Note says why lint was not timed, when it was not.
	Note string `json:"note,omitempty"`
}

// measureSize generates an n-record corpus under root and measures it.
func measureSize(ctx context.Context, cfg Config, bin, root string, n int, logf func(string, ...any)) (SizeResult, error) {
	logf("generating %d records", n)
	dir, c, err := corpusgen.WriteRepo(root, corpusgen.Config{N: n, Seed: cfg.Seed, Broken: cfg.Broken, Federated: 2})
	if err != nil {
		return SizeResult{}, err
	}
	sr := SizeResult{N: n, Files: len(c.Files), Bytes: c.Size()}
	// The server serves the extended tools: query_decision is timed too.
	calls := append(corpusgen.Workload(n), corpusgen.Call{Tool: "query_decision", Args: json.RawMessage(`{"question":"` + askQuestion + `"}`)})

	logf("N=%d: %d rounds of the floor and %d tool calls", n, cfg.Warmup+cfg.Calls, len(calls))
	srv, err := startServer(bin, root)
	if err != nil {
		return sr, err
	}
	if err := srv.initialize(); err != nil {
		_ = srv.stop()
		return sr, err
	}
	// Rounds interleave the floor with one call of each tool, so that a
	// slow patch of the machine weighs on both sides of every ratio.
	floor := make([]time.Duration, 0, cfg.Calls)
	perTool := make([][]time.Duration, len(calls))
	for round := range cfg.Warmup + cfg.Calls {
		if err := ctx.Err(); err != nil {
			_ = srv.stop()
			return sr, err
		}
		timed := round >= cfg.Warmup
		d, digest, err := timeFloor(dir)
		if err != nil {
			_ = srv.stop()
			return sr, err
		}
		sr.Digest = digest
		if timed {
			floor = append(floor, d)
		}
		for i, call := range calls {
			t0 := time.Now()
			if err := srv.call(call.Tool, call.Args); err != nil {
				_ = srv.stop()
				return sr, err
			}
			if timed {
				perTool[i] = append(perTool[i], srv.answeredAt.Sub(t0))
			}
		}
	}
	sr.PeakRSS = srv.peakRSS()
	if err := srv.stop(); err != nil {
		return sr, err
	}
	sr.Floor = distOf(floor)
	for i, call := range calls {
		d := distOf(perTool[i])
		sr.Tools = append(sr.Tools, ToolResult{Tool: call.Tool, Dist: d, Ratio: ratio(d.Median, sr.Floor.Median)})
	}

	logf("N=%d: %d starts", n, cfg.Starts)
	var starts []time.Duration
	for range cfg.Starts {
		d, err := timeStart(bin, root)
		if err != nil {
			return sr, err
		}
		starts = append(starts, d)
	}
	sr.Start = distOf(starts)
	sr.StartRatio = ratio(sr.Start.Median, sr.Floor.Median)
	return sr, nil
}

// timeFloor lists dir and reads and SHA-256-hashes every regular file in
// it once: the least a server must do per call to never answer from
// stale bytes. It is plain standard library, on one goroutine. It returns
// the digest of the hashes, which keeps the work observable.
func timeFloor(dir string) (time.Duration, string, error) {
	t0 := time.Now()
	des, err := os.ReadDir(dir)
	if err != nil {
		return 0, "", err
	}
	all := sha256.New()
	for _, de := range des {
		if !de.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, de.Name()))
		if err != nil {
			return 0, "", err
		}
		sum := sha256.Sum256(b)
		all.Write(sum[:])
	}
	d := time.Since(t0)
	return d, hex.EncodeToString(all.Sum(nil)), nil
}

// timeStart times one process start up to the initialize answer, then
// lets the process end.
func timeStart(bin, root string) (time.Duration, error) {
	t0 := time.Now()
	srv, err := startServer(bin, root)
	if err != nil {
		return 0, err
	}
	if err := srv.initialize(); err != nil {
		_ = srv.stop()
		return 0, err
	}
	d := srv.answeredAt.Sub(t0)
	return d, srv.stop()
}

// timeLint times runs of `adrkit --cwd root lint`, each a new process
// with nothing cached in it. Exit status 1 (the corpus has errors: the
// generated one has broken files) is a normal outcome.
func timeLint(ctx context.Context, bin, root string, runs int) (Dist, error) {
	var ds []time.Duration
	for range runs {
		cmd := exec.CommandContext(ctx, bin, "--cwd", root, "lint")
		t0 := time.Now()
		out, err := cmd.Output()
		d := time.Since(t0)
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
			return Dist{}, fmt.Errorf("%v: %s", err, firstLine(string(out)))
		}
		ds = append(ds, d)
	}
	return distOf(ds), nil
}

// ratio is a/floor, or 0 when there is no floor.
func ratio(a, floor float64) float64 {
	if floor <= 0 {
		return 0
	}
	return a / floor
}
