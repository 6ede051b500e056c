package corpus

import (
	"fmt"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// BenchmarkBuild projects 10,000 prepared records with cross-references,
// a few shared ids and dangling refs: the size the server must handle
// per call without quadratic work.
func BenchmarkBuild(b *testing.B) {
	const n = 10000
	fc := &fakeCorpus{records: map[string]*adr.Record{}}
	cands := make([]Candidate, 0, n)
	for i := range n {
		id := fmt.Sprintf("%04d", i)
		if i%100 == 0 {
			id = "0000" // a hundred holders of one id
		}
		path := fmt.Sprintf("docs/adr/%s-record-%d.md", id, i)
		r := rec(path, id, relatesTo(fmt.Sprintf("%04d", (i+1)%n)), supersedes(fmt.Sprintf("%04d", i+n)))
		r.Body = "\n# A decision\n\nSome body text that is long enough to matter when hashed.\n"
		fc.records[path] = r
		cands = append(cands, Candidate{Path: path, Content: []byte(r.Body)})
	}
	b.ReportAllocs()
	for b.Loop() {
		p := Build(cands, fc.parse)
		if p.RecordCount != n {
			b.Fatal(p.RecordCount)
		}
		fc.calls = fc.calls[:0]
	}
}
