package frontmatter

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRecordRoundTrip strengthens FuzzParseRecord (record or findings,
// deterministic, revalidation) with properties of what a record keeps:
//
//   - the body is exactly the text after the closing fence line, so it
//     is a suffix of the file, and no finding is ever given for a record;
//   - every finding of a refused file names its path;
//   - writing a record back, with its validated frontmatter (defaults
//     included) as the YAML block in JSON form and the same body, gives
//     the same record: same frontmatter JSON, same body, same typed id,
//     title and status.
func FuzzRecordRoundTrip(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "records", "*.md"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("---\nid: \"0001\"\ntitle: \"\\ud800 lone\"\nstatus: proposed\ndate: 2026-01-01\n---\r\nbody\r\n")
	f.Add("---\nid: 01ARZ3NDEKTSV4RRFFQ69G5FAV\ntitle: Ulid\nstatus: draft\ndate: 2026-01-01\ntags: [b, a]\n---")
	f.Fuzz(func(t *testing.T, text string) {
		const path = "docs/adr/0001-fuzz.md"
		rec, findings := ParseRecord(path, text)
		if rec == nil {
			for _, fd := range findings {
				if fd.Path != path {
					t.Fatalf("finding for %q: %+v", fd.Path, fd)
				}
			}
			return
		}
		if !strings.HasSuffix(text, rec.Body) {
			t.Fatalf("body %q is not the end of the file", rec.Body)
		}
		raw := []byte(mustJSON(t, rec.Frontmatter))
		again, findings2 := ParseRecord(path, "---\n"+string(raw)+"\n---\n"+rec.Body)
		if again == nil {
			t.Fatalf("the record written back is refused: %+v\nfrontmatter %s", findings2, raw)
		}
		if raw2 := []byte(mustJSON(t, again.Frontmatter)); !bytes.Equal(raw, raw2) {
			t.Fatalf("frontmatter changed when written back:\n%s\n%s", raw, raw2)
		}
		a, b := rec.Frontmatter, again.Frontmatter
		if again.Body != rec.Body || a.ID != b.ID || a.Title != b.Title || a.Status != b.Status || a.Scope != b.Scope {
			t.Fatalf("record changed when written back: %+v / %+v", a, b)
		}
	})
}
