package filesystem

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// BenchmarkLoad times what the reader does for one tool call on a
// generated corpus, without parsing: validate the roots, list the top
// level, read every entry into a recycled buffer, verify. It isolates the
// system-call cost of the reader (the app's BenchmarkProject adds
// parsing and the memo on top). It runs on each driver of this system:
// on Linux, "fd" against "root" is the measurement behind the
// descriptor driver.
func BenchmarkLoad(b *testing.B) {
	tmp := b.TempDir()
	for _, n := range []int{100, 1000} {
		root := filepath.Join(tmp, fmt.Sprint(n))
		if _, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: n, Seed: 1, Broken: 0.01}); err != nil {
			b.Fatal(err)
		}
		for _, d := range testDrivers {
			b.Run(fmt.Sprintf("%s/N=%d", d.name, n), func(b *testing.B) {
				ctx := context.Background()
				r := New(root, "docs/adr")
				r.openHandle = d.open
				var buf []byte
				b.ReportAllocs()
				for b.Loop() {
					c, err := r.Open(ctx)
					if err != nil {
						b.Fatal(err)
					}
					v := c.(*view)
					entries, err := v.List(ctx, false)
					if err != nil {
						b.Fatal(err)
					}
					read := 0
					for _, e := range entries {
						data, err := v.Read(ctx, e.Name, corpus.MaxRecordBytes, buf)
						if err == nil {
							buf = data
							read++
						}
					}
					if read < n*98/100 {
						b.Fatalf("read %d of %d", read, n)
					}
					if err := v.Verify(ctx); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
