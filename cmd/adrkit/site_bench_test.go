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

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// BenchmarkSiteVsLint times the site against adrkit lint on the same
// generated corpus of 1,000 records (corpusgen, seed 1), each run
// in-process with a Service of its own (nothing cached between runs):
// the site as adrkit site builds it, lint as adrkit lint reads, checks
// and prints the corpus. It reports both and their ratio (the site
// written to a new directory each time); the target is site ≤ 10× lint
// (docs/performance.md). With ADRKIT_BENCH_BIN naming an adrkit binary,
// both are that binary's processes instead. Run it with
//
//	go test ./cmd/adrkit -run '^$' -bench SiteVsLint -benchtime 10x
func BenchmarkSiteVsLint(b *testing.B) {
	root := b.TempDir()
	if _, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	outs := b.TempDir()
	env := factory.Env{Clock: fixedNow, Getwd: func() (string, error) { return root, nil }}
	bin := os.Getenv("ADRKIT_BENCH_BIN")
	ctx := context.Background()
	lint := func() time.Duration {
		start := time.Now()
		if bin != "" {
			if err := osexec.Command(bin, "--cwd", root, "lint", "--as-of", "2026-06-15").Run(); err != nil {
				b.Fatalf("lint: %v", err)
			}
			return time.Since(start)
		}
		svc, err := entry.Location{Root: root, Dir: corpus.DefaultDir}.Open(ctx, entry.Surface{})
		if err != nil {
			b.Fatal(err)
		}
		rep, err := svc.Lint(ctx, app.LintInput{AsOf: "2026-06-15", Clock: env.Clock()})
		if err != nil {
			b.Fatal(err)
		}
		// lint exits 1 on findings; the generated corpus has none.
		if rep.Failed(false) {
			b.Fatal("the generated corpus has lint findings")
		}
		if err := render.WriteLint(io.Discard, rep, render.LintOptions{Format: render.LintText, Source: render.NewSource(root, corpus.DefaultDir, "")}); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	build := func(out string) time.Duration {
		start := time.Now()
		if bin != "" {
			if err := osexec.Command(bin, "--cwd", root, "site", out, "--as-of", "2026-06-15").Run(); err != nil {
				b.Fatalf("site: %v", err)
			}
			return time.Since(start)
		}
		if code := run(ctx, []string{"adrkit", "--cwd", root, "site", out, "--as-of", "2026-06-15"}, io.Discard, io.Discard, env); code != 0 {
			b.Fatalf("site: status %d", code)
		}
		return time.Since(start)
	}
	var lintTime, siteTime time.Duration
	i := 0
	for b.Loop() {
		// Every site is written into a new directory: a cold build, as CI
		// makes one.
		i++
		lintTime += lint()
		siteTime += build(filepath.Join(outs, strconv.Itoa(i)))
	}
	n := float64(b.N)
	b.ReportMetric(float64(lintTime.Milliseconds())/n, "lint-ms")
	b.ReportMetric(float64(siteTime.Milliseconds())/n, "site-ms")
	b.ReportMetric(float64(siteTime)/float64(lintTime), "site/lint")
}
