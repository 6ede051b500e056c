package corpus

import (
	"fmt"
	"testing"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// BenchmarkBuildGenerated projects generated corpora held in memory with
// the production parser: the whole per-call domain cost (decode, split,
// YAML, schema, invariants, sort, fingerprint) without any I/O.
func BenchmarkBuildGenerated(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		c := corpusgen.New(corpusgen.Config{N: n, Seed: 1, Broken: 0.01, Federated: 2})
		names := c.Names()
		cands := make([]Candidate, len(names))
		for i, name := range names {
			cands[i] = Candidate{Path: "docs/adr/" + name, Content: c.Files[name]}
			if len(c.Files[name]) > MaxRecordBytes {
				cands[i] = Candidate{Path: "docs/adr/" + name, Exclusion: ExcludedTooLarge}
			}
		}
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			b.SetBytes(c.Size())
			b.ReportAllocs()
			for b.Loop() {
				p := Build(cands, nil)
				if p.RecordCount != c.Stats.Valid {
					b.Fatal(p.RecordCount)
				}
			}
		})
	}
}
