package yaml12

import (
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// BenchmarkParseCorpus parses the frontmatter of every record of the
// 10,000-record benchmark corpus without lines, as a cold projection
// does, with the fast path and by the full path alone: the evidence
// behind ADR 0030.
func BenchmarkParseCorpus(b *testing.B) {
	c := corpusgen.New(corpusgen.Config{N: 10000, Seed: 1})
	var docs []string
	for _, name := range c.Names() {
		rest, ok := strings.CutPrefix(string(c.Files[name]), "---\n")
		if i := strings.Index(rest, "\n---\n"); ok && i >= 0 {
			docs = append(docs, rest[:i+1])
		}
	}
	for _, bc := range []struct {
		name  string
		parse func(string, bool) (*Document, error)
	}{{"fast", parse}, {"full", parseFull}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, d := range docs {
					if _, err := bc.parse(d, false); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
