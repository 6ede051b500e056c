package glob

import (
	"fmt"
	"testing"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// benchPatterns returns the path patterns of the first n generated
// records, the mix of globs a real corpus holds.
func benchPatterns(n int) []string {
	c := corpusgen.New(corpusgen.Config{N: n, Seed: 1})
	var out []string
	for _, name := range c.Names() {
		out = append(out, corpusgen.PathPatterns(c.Files[name])...)
	}
	return out
}

// BenchmarkMatch matches the context workload's files against every path
// pattern of an n-record corpus, compiled once, as get_decision_context
// does on each call once the compile cache is warm.
func BenchmarkMatch(b *testing.B) {
	files := corpusgen.ContextFiles()
	for _, n := range []int{100, 1000, 10000} {
		pats := benchPatterns(n)
		globs := make([]*Glob, len(pats))
		for i, p := range pats {
			globs[i] = MustCompile(p)
		}
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				hits := 0
				for _, g := range globs {
					for _, f := range files {
						if g.Match(f) {
							hits++
						}
					}
				}
				if hits == 0 {
					b.Fatal("nothing matched")
				}
			}
		})
	}
}

// BenchmarkCompile compiles every path pattern of an n-record corpus,
// which is what a cold compile cache costs.
func BenchmarkCompile(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		pats := benchPatterns(n)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range pats {
					if _, err := Compile(p); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
