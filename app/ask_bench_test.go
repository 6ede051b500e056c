package app

import (
	"fmt"
	"testing"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// BenchmarkAsk times query_decision over a projection built in memory:
// building its index (once per corpus state), and an answer over an
// index already built.
func BenchmarkAsk(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		c := corpusgen.New(corpusgen.Config{N: n, Seed: 1})
		var cands []corpus.Candidate
		for _, name := range c.Names() {
			cands = append(cands, corpus.Candidate{Path: "docs/adr/" + name, Content: c.Files[name]})
		}
		p := corpus.Build(cands, nil)
		b.Run(fmt.Sprintf("index/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				var c askCache
				c.index(p)
			}
		})
		b.Run(fmt.Sprintf("answer/N=%d", n), func(b *testing.B) {
			var c askCache
			ix := c.index(p)
			b.ReportAllocs()
			for b.Loop() {
				answerAsk(p, ix, AskInput{Question: "should we replace kafka for observability in export?"})
			}
		})
	}
}
