package app_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// benchSizes are the corpus sizes every benchmark runs at.
var benchSizes = []int{100, 1000, 10000}

// benchSeed fixes the corpora, so figures compare across runs.
const benchSeed = 1

// benchConfig is a realistic corpus: 1% broken files and a few federated
// supersessions, so findings channels are not empty.
func benchConfig(n int) corpusgen.Config {
	return corpusgen.Config{N: n, Seed: benchSeed, Broken: 0.01, Federated: 2}
}

// benchRoots writes each size once per benchmark function into a
// temporary repository root (the top-level function runs once, its
// sub-benchmarks many times).
func benchRoots(b *testing.B) map[int]string {
	b.Helper()
	tmp := b.TempDir()
	roots := map[int]string{}
	for _, n := range benchSizes {
		root := filepath.Join(tmp, fmt.Sprint(n))
		if _, _, err := corpusgen.WriteRepo(root, benchConfig(n)); err != nil {
			b.Fatal(err)
		}
		roots[n] = root
	}
	return roots
}

// BenchmarkProject times one projection of an on-disk corpus through the
// working-tree reader: "warm" reuses one Service, as the server does
// across calls; "cold" builds a new one each time, as one lint run does.
func BenchmarkProject(b *testing.B) {
	roots := benchRoots(b)
	ctx := context.Background()
	for _, mode := range []string{"warm", "cold"} {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/N=%d", mode, n), func(b *testing.B) {
				want := benchConfig(n)
				opts := app.Options{}
				svc := app.New(filesystem.New(roots[n], "docs/adr"), opts)
				if _, err := svc.Project(ctx); err != nil { // warms the memo
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if mode == "cold" {
						svc = app.New(filesystem.New(roots[n], "docs/adr"), opts)
					}
					p, err := svc.Project(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if p.RecordCount+p.ExcludedCount != want.N {
						b.Fatalf("%d+%d records", p.RecordCount, p.ExcludedCount)
					}
				}
			})
		}
	}
}

// BenchmarkCall times each tool of the workload through Service.Call on
// an on-disk corpus, with one Service per corpus as in the server.
func BenchmarkCall(b *testing.B) {
	roots := benchRoots(b)
	ctx := context.Background()
	for _, call := range corpusgen.Workload(1) {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/N=%d", call.Tool, n), func(b *testing.B) {
				args := workloadArgs(n, call.Tool)
				svc := app.New(filesystem.New(roots[n], "docs/adr"), app.Options{})
				if _, err := svc.Call(ctx, call.Tool, args); err != nil { // warms the memo
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					res, err := svc.Call(ctx, call.Tool, args)
					if err != nil || res.IsError {
						b.Fatalf("%v %q", err, res.Text)
					}
				}
			})
		}
	}
}

// BenchmarkCallParallel times concurrent calls of one Service, the case
// of an agent issuing several tool calls at once.
func BenchmarkCallParallel(b *testing.B) {
	roots := benchRoots(b)
	ctx := context.Background()
	n := 1000
	svc := app.New(filesystem.New(roots[n], "docs/adr"), app.Options{})
	calls := corpusgen.Workload(n)
	var next sync.Mutex
	i := 0
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			next.Lock()
			c := calls[i%len(calls)]
			i++
			next.Unlock()
			if _, err := svc.Call(ctx, c.Tool, c.Args); err != nil {
				b.Error(err)
			}
		}
	})
}

func workloadArgs(n int, tool string) []byte {
	for _, c := range corpusgen.Workload(n) {
		if c.Tool == tool {
			return c.Args
		}
	}
	panic("no workload call for " + tool)
}
