package glob

import (
	"fmt"
	"strings"
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

// BenchmarkHostile matches the hostile patterns of ADR 0029 against a
// candidate of 1,023 code units (get_decision_context accepts 1,024) that
// passes the literal prefilters and fails late: the worst case of the
// memoised matcher and of the step-bounded backtracker.
func BenchmarkHostile(b *testing.B) {
	a := strings.Repeat("a", 1021)
	for _, tc := range []struct{ pattern, candidate string }{
		{"+(a|a*)b", a + "/b"},
		{"*a*a*a*a*a*a*a*a*b", a + "/b"},
		{"**/*a*a*a*a*a*a*a*a*b", strings.Repeat("a/", 10) + a[20:] + "/b"},
		{"{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}*b", a + "/b"},
		{`{a,b}\1*\1*\1*x`, a + "/x"},
	} {
		g := MustCompile(tc.pattern)
		b.Run(tc.pattern, func(b *testing.B) {
			for b.Loop() {
				if g.Match(tc.candidate) {
					b.Fatal("matched")
				}
			}
		})
	}
}
