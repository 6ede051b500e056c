package ask

import (
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

func TestTerms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Should we store sessions in Memcached?", "store session memcach"},
		{"Café CACHING, ＡＰＩ caches", "cafe cach api cach"},
		{"what do we decide?", ""},
		{"bad \xff\xfe utf-8", "bad utf 8"},
		{"0025 v2", "0025 v2"},
	} {
		got := strings.Join(stemmer{}.terms(nil, tc.in), " ")
		if got != tc.want {
			t.Errorf("terms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDocOf(t *testing.T) {
	r := &adr.Record{Frontmatter: &adr.Frontmatter{ID: "0002", Title: "Keep sessions", Tags: []string{"web", "state"}},
		Body: "# Keep sessions\n\n## Context\n\nWe lose carts.\n\n## Decision\n\nWe keep sessions\nin Redis. It is fast.\n\n" +
			"## Considered Options\n\n- Memcached\n\n## Consequences\n\nOne more service.\n"}
	d := DocOf(r)
	want := Doc{FieldID: "0002", FieldTitle: "Keep sessions", FieldTags: "web state", FieldDecision: "We keep sessions in Redis.",
		FieldAlternatives: "\n- Memcached\n\n", FieldBody: "# Keep sessions\n\n\nWe lose carts.\n\n\nWe keep sessions\nin Redis. It is fast.\n\n\nOne more service.\n"}
	if d != want {
		t.Errorf("DocOf:\n%q\nwant\n%q", d, want)
	}
}

func TestRank(t *testing.T) {
	docs := []Doc{
		{FieldID: "0001", FieldTitle: "Adopt Postgres for storage", FieldBody: "Relational data, MySQL considered."},
		{FieldID: "0002", FieldTitle: "Store sessions in Memcached", FieldBody: "Sessions must survive a restart."},
		{FieldID: "0003", FieldTitle: "Use ElastiCache for Redis", FieldDecision: "We cache sessions in Redis."},
	}
	ix := NewIndex(len(docs), func(i int) Doc { return docs[i] })
	r := ix.Rank("should we keep sessions in memcached?", 5, nil)
	if len(r.Hits) != 2 || r.Hits[0].Doc != 1 || r.Confidence < Threshold || r.Terms != 3 {
		t.Errorf("memcached: %+v", r)
	}
	if again := ix.Rank("should we keep sessions in memcached?", 5, nil); !slices.Equal(again.Hits, r.Hits) || again.Confidence != r.Confidence {
		t.Errorf("not deterministic: %+v %+v", again, r)
	}
	if r := ix.Rank("which kubernetes version do we deploy?", 5, nil); len(r.Hits) != 0 || r.Confidence != 0 {
		t.Errorf("unanswerable: %+v", r)
	}
	if r := ix.Rank("sessions", 5, func(doc int) bool { return doc != 1 }); len(r.Hits) != 1 || r.Hits[0].Doc != 2 {
		t.Errorf("kept: %+v", r)
	}
	var many strings.Builder
	for i := range 100 {
		many.WriteString(" w" + string(rune('a'+i%26)) + string(rune('a'+i/26)))
	}
	if r := ix.Rank(many.String(), 5, nil); !r.Truncated || r.Terms != MaxTerms {
		t.Errorf("many words: %+v", r)
	}
	if r := ix.Rank("sessions "+strings.Repeat("word ", 20000)+"memcached", 5, nil); !r.Truncated || r.Terms > 3 { // sessions, word and the cut word
		t.Errorf("100 KB: %+v", r)
	}
	if r := NewIndex(0, nil).Rank("anything", 5, nil); len(r.Hits) != 0 {
		t.Errorf("empty: %+v", r)
	}
}

func FuzzRank(f *testing.F) {
	docs := []Doc{{FieldTitle: "Store sessions in Memcached"}, {FieldTitle: "Café à la carte"}}
	ix := NewIndex(len(docs), func(i int) Doc { return docs[i] })
	for _, s := range []string{"", "sessions", "\xff", "CAFÉ", "a b c d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		r := ix.Rank(q, 3, nil)
		if r.Confidence < 0 || r.Confidence > 1 || len(r.Hits) > 3 || r.Terms > MaxTerms {
			t.Errorf("%q: %+v", q, r)
		}
	})
}

// TestBinaryRoundTrip: a decoded index ranks as the one encoded, and
// damaged bytes are refused.
func TestBinaryRoundTrip(t *testing.T) {
	docs := []Doc{
		{FieldID: "0001", FieldTitle: "Adopt Postgres for storage", FieldBody: "Relational data, MySQL considered."},
		{FieldID: "0002", FieldTitle: "Store sessions in Memcached", FieldTags: "cache", FieldAlternatives: "Redis"},
	}
	ix := NewIndex(len(docs), func(i int) Doc { return docs[i] })
	b, _ := ix.AppendBinary(nil)
	got, err := DecodeIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"sessions in memcached", "postgres storage", "redis cache"} {
		if a, b := ix.Rank(q, 5, nil), got.Rank(q, 5, nil); !slices.Equal(a.Hits, b.Hits) || a.Confidence != b.Confidence {
			t.Errorf("%q: %+v, decoded %+v", q, a, b)
		}
	}
	for _, bad := range [][]byte{nil, b[:len(b)-1], append(slices.Clone(b), 0), {0xff}} {
		if _, err := DecodeIndex(bad); err == nil {
			t.Errorf("decoded % x", bad)
		}
	}
}

func FuzzDecodeIndex(f *testing.F) {
	b, _ := NewIndex(1, func(int) Doc { return Doc{FieldTitle: "Store sessions in Memcached"} }).AppendBinary(nil)
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		if ix, err := DecodeIndex(data); err == nil {
			ix.Rank("sessions memcached", 3, nil)
		}
	})
}
