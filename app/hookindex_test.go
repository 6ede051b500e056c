package app

import (
	"bytes"
	"crypto/sha256"
	"reflect"
	"testing"
)

func sampleIndex() *governIndex {
	return &governIndex{Errors: 3, Records: []indexRecord{
		{SourcePath: "docs/adr/0001-a.md", ID: "0001", Title: "Use \"PostgreSQL\" — é", Status: "accepted",
			RelatesTo: []string{"0002"}, Paths: []indexMatcher{{Pattern: "db/**"}, {Pattern: "db/legacy/**", Negate: true}},
			Decision: "We use PostgreSQL."},
		{SourcePath: "docs/adr/0002-b.md", ID: "0002", Title: "", Status: "superseded", Supersedes: []string{"0003", "x:0004"},
			SupersededBy: "0001", ConflictsWith: []string{"0001"}},
	}}
}

// A kept index reads back as it was written, and anything else (another
// version, a cut, a flipped byte, trailing bytes) is refused.
func TestIndexEncoding(t *testing.T) {
	for _, ix := range []*governIndex{sampleIndex(), {Records: []indexRecord{}}} {
		got, err := decodeIndex(encodeIndex(ix))
		if err != nil || !reflect.DeepEqual(got, ix) {
			t.Fatalf("decodeIndex(encodeIndex(%+v)) = %+v, %v", ix, got, err)
		}
	}
	good := encodeIndex(sampleIndex())
	damaged := map[string][]byte{
		"empty":          nil,
		"magic only":     indexMagic,
		"another format": append([]byte("adrkit-hook-index/2\n"), good[len(indexMagic):]...),
		"cut":            good[:len(good)-1],
		"flipped":        append(bytes.Clone(good[:40]), append([]byte{good[40] ^ 0x20}, good[41:]...)...),
		"trailing":       append(bytes.Clone(good), 0),
	}
	// Well summed, badly formed: the decoder itself must refuse it.
	body := append(bytes.Clone(indexMagic), 0, 0xff, 0xff, 0xff, 0xff, 0x0f)
	sum := sha256.Sum256(body)
	damaged["huge count"] = append(body, sum[:]...)
	body = append(bytes.Clone(indexMagic), 0, 1, 5, 'a')
	sum = sha256.Sum256(body)
	damaged["short string"] = append(body, sum[:]...)
	for name, data := range damaged {
		if ix, err := decodeIndex(data); err == nil {
			t.Errorf("%s: decoded %+v", name, ix)
		}
	}
}

// FuzzDecodeIndex: whatever a kept index's body holds (past its
// checksum, which a random file never passes), decoding never panics nor
// allocates past the file's size, and what decodes encodes back to the
// same index.
func FuzzDecodeIndex(f *testing.F) {
	good := encodeIndex(sampleIndex())
	f.Add(good[len(indexMagic) : len(good)-sha256.Size])
	f.Add([]byte{0, 0})
	f.Add([]byte{0, 1, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, body []byte) {
		data := append(bytes.Clone(indexMagic), body...)
		sum := sha256.Sum256(data)
		ix, err := decodeIndex(append(data, sum[:]...))
		if err != nil {
			return
		}
		again, err := decodeIndex(encodeIndex(ix))
		if err != nil || !reflect.DeepEqual(again, ix) {
			t.Fatalf("round trip: %+v, %v; want %+v", again, err, ix)
		}
	})
}
