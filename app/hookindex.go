package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// The governance index of a corpus (governIndex) is kept between hook
// runs (ports.ShelfIndex) under the key of the bytes it was read from, so
// that the first edit of a file in an unchanged corpus costs the read
// floor, one small value and the match, not a parse of every record.

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
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// decodeIndex reads what encodeIndex wrote; a value of another version,
// truncated or damaged is an error.
func decodeIndex(data []byte) (*governIndex, error) {
	if len(data) < len(indexMagic)+sha256.Size || !bytes.HasPrefix(data, indexMagic) {
		return nil, errCorrupt
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return nil, errCorrupt
	}
	d := decoder{b: body[len(indexMagic):]}
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
