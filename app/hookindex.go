package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/ask"
)

// The governance index of a corpus (governIndex) is kept between hook
// runs (ports.ShelfIndex) under the key of the bytes it was read from, so
// that the first edit of a file in an unchanged corpus costs the read
// floor, one small value and the match, not a parse of every record. Its
// ranking index (query_decision's, for a prompt) is kept on the same
// shelf under a key derived from the same one (rankKey).

// indexMagic opens a kept index; the number is the format's version.
var indexMagic = []byte("adrkit-hook-index/1\n")

// errCorrupt is what decoding a damaged index reports.
var errCorrupt = errors.New("the kept index is damaged")

// encodeIndex writes ix as the magic line, then its fields as unsigned
// varints and length-prefixed strings, then the SHA-256 of everything
// before it (so that a damaged value is refused, never read as another
// corpus). A hand-written format: decoding it costs a small part of what
// encoding/json would, and every run of a first edit pays for it.
func encodeIndex(ix *governIndex) []byte {
	var b []byte
	num := func(n int) { b = binary.AppendUvarint(b, uint64(n)) }
	str := func(s string) { num(len(s)); b = append(b, s...) }
	list := func(l []string) {
		num(len(l))
		for _, s := range l {
			str(s)
		}
	}
	b = append(b, indexMagic...)
	num(ix.Errors)
	num(len(ix.Records))
	for _, r := range ix.Records {
		str(r.SourcePath)
		str(r.ID)
		str(r.Title)
		str(string(r.Status))
		list(r.Supersedes)
		str(r.SupersededBy)
		list(r.RelatesTo)
		list(r.ConflictsWith)
		num(len(r.Paths))
		for _, m := range r.Paths {
			str(m.Pattern)
			if m.Negate {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		}
		str(r.Decision)
	}
	return seal(b)
}

// seal appends the SHA-256 of b to it.
func seal(b []byte) []byte {
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// unseal is what follows magic in a value seal wrote, checked against
// its SHA-256; a value of another version, truncated or damaged is
// errCorrupt.
func unseal(data, magic []byte) ([]byte, error) {
	if len(data) < len(magic)+sha256.Size || !bytes.HasPrefix(data, magic) {
		return nil, errCorrupt
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return nil, errCorrupt
	}
	return body[len(magic):], nil
}

// rankMagic opens a kept ranking index (query_decision's, ask.Index),
// kept on the same shelf as the governance index of the same corpus.
var rankMagic = []byte("adrkit-hook-rank/1\n")

// encodeRank writes ix for the store, sealed.
func encodeRank(ix *ask.Index) []byte {
	b, _ := ix.AppendBinary(append([]byte(nil), rankMagic...))
	return seal(b)
}

// decodeRank reads what encodeRank wrote.
func decodeRank(data []byte) (*ask.Index, error) {
	body, err := unseal(data, rankMagic)
	if err != nil {
		return nil, err
	}
	return ask.DecodeIndex(body)
}

// decodeIndex reads what encodeIndex wrote; a value of another version,
// truncated or damaged is an error.
func decodeIndex(data []byte) (*governIndex, error) {
	body, err := unseal(data, indexMagic)
	if err != nil {
		return nil, err
	}
	d := decoder{b: body}
	ix := &governIndex{Errors: d.num()}
	n := d.count()
	ix.Records = make([]indexRecord, 0, n)
	for range n {
		r := indexRecord{SourcePath: d.str(), ID: d.str(), Title: d.str(), Status: adr.Status(d.str())}
		r.Supersedes = d.list()
		r.SupersededBy = d.str()
		r.RelatesTo = d.list()
		r.ConflictsWith = d.list()
		for range d.count() {
			m := indexMatcher{Pattern: d.str()}
			m.Negate = d.byte() == 1
			r.Paths = append(r.Paths, m)
		}
		r.Decision = d.str()
		ix.Records = append(ix.Records, r)
	}
	if d.bad || len(d.b) != 0 {
		return nil, errCorrupt
	}
	return ix, nil
}

// decoder reads encodeIndex's fields; past the end or on a bad number it
// sets bad and returns zero values.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) num() int {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > 1<<31 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// count is a number of items, each at least one byte: more than the
// bytes left is damage (and must not size an allocation).
func (d *decoder) count() int {
	n := d.num()
	if n > len(d.b) {
		d.bad, d.b = true, nil
		return 0
	}
	return n
}

func (d *decoder) str() string {
	n := d.num()
	if n > len(d.b) {
		d.bad, d.b = true, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) list() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}
