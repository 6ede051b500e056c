package ask

import (
	"bytes"
	"reflect"
	"testing"
)

// encodeDocs are records whose counts reach the corners of the format: a
// term in several fields, a count past one byte, an empty record.
var encodeDocs = []Doc{
	{FieldID: "0001", FieldTitle: "Adopt Postgres for storage", FieldBody: "Relational data, MySQL considered."},
	{},
	{FieldID: "0002", FieldTitle: "Store sessions in Memcached", FieldDecision: "We store sessions in Memcached.",
		FieldBody: string(bytes.Repeat([]byte("session "), 300))},
	{FieldID: "0003", FieldTitle: "Use ElastiCache for Redis", FieldTags: "cache redis", FieldAlternatives: "Memcached"},
}

func TestEncodeRoundTrip(t *testing.T) {
	for _, docs := range [][]Doc{nil, encodeDocs} {
		ix := NewIndex(docs)
		data, err := ix.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeIndex(data)
		if err != nil {
			t.Fatalf("%d docs: %v", len(docs), err)
		}
		if !reflect.DeepEqual(got, ix) {
			t.Errorf("%d docs: decoded index differs:\n%+v\nwant\n%+v", len(docs), got, ix)
		}
		again, _ := NewIndex(docs).AppendBinary(nil)
		if !bytes.Equal(again, data) {
			t.Errorf("%d docs: two encodings of the same index differ", len(docs))
		}
		for n := range len(data) {
			if _, err := DecodeIndex(data[:n]); err == nil {
				t.Errorf("%d docs: the first %d of %d bytes decoded", len(docs), n, len(data))
			}
		}
	}
}

func FuzzDecodeIndex(f *testing.F) {
	data, _ := NewIndex(encodeDocs).AppendBinary(nil)
	f.Add(data)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := DecodeIndex(data)
		if err != nil {
			return
		}
		// What decodes ranks without a panic and encodes back.
		ix.Rank("store sessions", 3, nil)
		if _, err := ix.AppendBinary(nil); err != nil {
			t.Error(err)
		}
	})
}
