package main

import (
	"context"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// BenchmarkSiteVsLint times adrkit site against adrkit lint on the same
// generated corpus of 1,000 records (corpusgen, seed 1), each run
// in-process with a Service of its own (nothing cached between runs), and
// reports both and their ratio (the site written to a new directory
// each time); the target is site ≤ 10× lint
// (docs/performance.md). Run it with
//
//	go test ./cmd/adrkit -run '^$' -bench SiteVsLint -benchtime 10x
func BenchmarkSiteVsLint(b *testing.B) {
	root := b.TempDir()
	if _, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	outs := b.TempDir()
	env := environment{Clock: fixedClock{}, Getwd: func() (string, error) { return root, nil }}
	bin := os.Getenv("ADRKIT_BENCH_BIN")
	exec := func(args ...string) time.Duration {
		start := time.Now()
		if bin != "" {
			cmd := osexec.Command(bin, append([]string{"--cwd", root}, args...)...)
			if err := cmd.Run(); err != nil {
				b.Fatalf("%q: %v", args, err)
			}
			return time.Since(start)
		}
		// lint exits 1 on findings; the generated corpus has none, so any
		// status but 0 is a failure.
		if code := run(context.Background(), append([]string{"adrkit", "--cwd", root}, args...), io.Discard, io.Discard, env); code != 0 {
			b.Fatalf("%q: status %d", args, code)
		}
		return time.Since(start)
	}
	var lint, site time.Duration
	i := 0
	for b.Loop() {
		// Every site is written into a new directory: a cold build, as CI
		// makes one.
		i++
		lint += exec("lint", "--as-of", "2026-06-15")
		site += exec("site", filepath.Join(outs, strconv.Itoa(i)), "--as-of", "2026-06-15")
	}
	n := float64(b.N)
	b.ReportMetric(float64(lint.Milliseconds())/n, "lint-ms")
	b.ReportMetric(float64(site.Milliseconds())/n, "site-ms")
	b.ReportMetric(float64(site)/float64(lint), "site/lint")
}
