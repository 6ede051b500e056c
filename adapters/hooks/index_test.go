package hooks

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/corpus"
)

func sampleIndex() *app.GovernIndex {
	return &app.GovernIndex{Errors: 3, Records: []app.IndexRecord{
		{SourcePath: "docs/adr/0001-a.md", ID: "0001", Title: "Use \"PostgreSQL\" — é", Status: "accepted",
			RelatesTo: []string{"0002"}, Paths: []app.IndexMatcher{{Pattern: "db/**"}, {Pattern: "db/legacy/**", Negate: true}},
			Decision: "We use PostgreSQL."},
		{SourcePath: "docs/adr/0002-b.md", ID: "0002", Title: "", Status: "superseded", Supersedes: []string{"0003", "x:0004"},
			SupersededBy: "0001", ConflictsWith: []string{"0001"}},
	}}
}

// An index reads back as it was written, and anything else (another
// version, a cut, a flipped byte, trailing bytes) is refused.
func TestIndexEncoding(t *testing.T) {
	for _, ix := range []*app.GovernIndex{sampleIndex(), {Records: []app.IndexRecord{}}} {
		got, err := DecodeIndex(EncodeIndex(ix))
		if err != nil || !reflect.DeepEqual(got, ix) {
			t.Fatalf("DecodeIndex(EncodeIndex(%+v)) = %+v, %v", ix, got, err)
		}
	}
	good := EncodeIndex(sampleIndex())
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
		if ix, err := DecodeIndex(data); err == nil {
			t.Errorf("%s: decoded %+v", name, ix)
		}
	}
}

// StoreIndex and LoadIndex: round trip, a damaged file is no index, and
// at most MaxIndexes are kept.
func TestIndexStore(t *testing.T) {
	dir := t.TempDir()
	if _, ok := LoadIndex(dir, "k"); ok {
		t.Fatal("an index before any was kept")
	}
	if err := StoreIndex(dir, "k", sampleIndex()); err != nil {
		t.Fatal(err)
	}
	if got, ok := LoadIndex(dir, "k"); !ok || !reflect.DeepEqual(got, sampleIndex()) {
		t.Fatalf("LoadIndex = %+v, %v", got, ok)
	}
	if _, ok := LoadIndex(dir, ""); ok {
		t.Fatal("an index for no key")
	}
	if err := os.WriteFile(filepath.Join(dir, "index", "k"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := LoadIndex(dir, "k"); ok {
		t.Fatal("a damaged index was read")
	}
	for i := range MaxIndexes + 3 {
		if err := StoreIndex(dir, fmt.Sprint("k", i), sampleIndex()); err != nil {
			t.Fatal(err)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "index")); len(entries) > MaxIndexes {
		t.Fatalf("%d indexes kept, at most %d", len(entries), MaxIndexes)
	}
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := StoreIndex(blocker, "k", sampleIndex()); err == nil {
		t.Fatal("no error keeping an index where none can be written")
	}
}

// Same holds only for a read of the very record files of the snapshot,
// left out alike.
func TestCorpusSame(t *testing.T) {
	read := func(name, body string) app.ReadFile {
		return app.ReadFile{Path: "docs/adr/" + name, Sum: sha256.Sum256([]byte(body))}
	}
	big := app.ReadFile{Path: "docs/adr/0002-big.md", Exclusion: corpus.ExcludedTooLarge}
	c := CorpusKey("v1", "/r", "/r/docs/adr", []app.ReadFile{read("0001-a.md", "one"), big})
	if !c.Same([]app.ReadFile{big, read("0001-a.md", "one")}) {
		t.Fatal("the read of the files hashed is not the same")
	}
	for name, rs := range map[string][]app.ReadFile{
		"other bytes":        {read("0001-a.md", "two"), big},
		"a file missing":     {read("0001-a.md", "one")},
		"a file more":        {read("0001-a.md", "one"), big, read("0003-c.md", "")},
		"another name":       {read("0009-a.md", "one"), big},
		"unreadable":         {{Path: "docs/adr/0001-a.md", Exclusion: corpus.ExcludedReadError}, big},
		"read, was left out": {read("0001-a.md", "one"), read("0002-big.md", "")},
	} {
		if c.Same(rs) {
			t.Errorf("%s: the same", name)
		}
	}
}
