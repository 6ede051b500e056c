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
	e := &encoder{b: bytes.Clone(indexMagic)}
	e.num(ix.Errors)
	e.num(len(ix.Records))
	for _, r := range ix.Records {
		e.str(r.SourcePath)
		e.str(r.ID)
		e.str(r.Title)
		e.str(string(r.Status))
		e.list(r.Supersedes)
		e.str(r.SupersededBy)
		e.list(r.RelatesTo)
		e.list(r.ConflictsWith)
		e.num(len(r.Paths))
		for _, m := range r.Paths {
			e.str(m.Pattern)
			if m.Negate {
				e.b = append(e.b, 1)
			} else {
				e.b = append(e.b, 0)
			}
		}
		e.str(r.Decision)
	}
	return e.seal()
}

// decodeIndex reads what encodeIndex wrote; a value of another version,
// truncated or damaged is an error.
func decodeIndex(data []byte) (*governIndex, error) {
	d, err := unseal(data, indexMagic)
	if err != nil {
		return nil, err
	}
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

// encoder writes what decoder reads.
type encoder struct{ b []byte }

func (e *encoder) num(n int) { e.b = binary.AppendUvarint(e.b, uint64(n)) }

func (e *encoder) str(s string) {
	e.num(len(s))
	e.b = append(e.b, s...)
}

func (e *encoder) list(l []string) {
	e.num(len(l))
	for _, s := range l {
		e.str(s)
	}
}

// seal is what was written, then its SHA-256.
func (e *encoder) seal() []byte {
	sum := sha256.Sum256(e.b)
	return append(e.b, sum[:]...)
}

// unseal checks a sealed value that opens with magic and returns a
// decoder of what follows the magic.
func unseal(data, magic []byte) (*decoder, error) {
	if len(data) < len(magic)+sha256.Size || !bytes.HasPrefix(data, magic) {
		return nil, errCorrupt
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return nil, errCorrupt
	}
	return &decoder{b: body[len(magic):]}, nil
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
