package app

import (
	"fmt"
	"testing"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// BenchmarkAnswer times each tool's answer over a projection already
// built in memory: the per-call work after the corpus is read, without
// any I/O to make the figures noisy.
func BenchmarkAnswer(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		c := corpusgen.New(corpusgen.Config{N: n, Seed: 1, Broken: 0.01, Federated: 2})
		var cands []corpus.Candidate
		for _, name := range c.Names() {
			cand := corpus.Candidate{Path: "docs/adr/" + name, Content: c.Files[name]}
			if len(cand.Content) > corpus.MaxRecordBytes {
				cand = corpus.Candidate{Path: cand.Path, Exclusion: corpus.ExcludedTooLarge}
			}
			cands = append(cands, cand)
		}
		p := corpus.Build(cands, nil)
		for _, call := range corpusgen.Workload(n) {
			b.Run(fmt.Sprintf("%s/N=%d", call.Tool, n), func(b *testing.B) {
				set, err := decodeArgs(call.Args)
				if err != nil {
					b.Fatal(err)
				}
				answer := answerFor(b, call.Tool, set)
				b.ReportAllocs()
				for b.Loop() {
					if res := answer(p); res.IsError {
						b.Fatal(res.Text)
					}
				}
			})
		}
	}
}

// answerFor validates args for tool and returns its answer function.
func answerFor(b *testing.B, tool string, set argSet) func(*corpus.Projection) Result {
	in, issues := parsed(tool, set)
	if len(issues) > 0 {
		b.Fatalf("%s: %v", tool, issues)
	}
	switch in := in.(type) {
	case SearchInput:
		return func(p *corpus.Projection) Result { return answerSearch(p, in) }
	case GetInput:
		return func(p *corpus.Projection) Result { return answerGet(p, in) }
	case ContextInput:
		return func(p *corpus.Projection) Result { return answerContext(p, in, nil) }
	}
	return func(p *corpus.Projection) Result { return answerSuperseded(p, in.(SupersededInput)) }
}
