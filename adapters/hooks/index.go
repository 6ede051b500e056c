package hooks

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
)

// The governance index of a corpus (app.GovernIndex) is kept between
// runs under the corpus's key (Corpus.Key), so that the first edit of a
// file in an unchanged corpus costs the floor, one small file and the
// match, not a parse of every record. It is kept only when the read it
// was made from read the bytes the key hashed (Corpus.Same), so an index
// is never older than the files; a new build is a new key.
const (
	// MaxIndexes bounds the indexes kept (the least recently written are
	// removed first): one per state of a corpus, and a state lives until
	// the next edit of a record.
	MaxIndexes = 16
	// maxIndexBytes bounds one index file: an index is about a third of
	// a kilobyte per record, so this is far above any corpus the read
	// pipeline accepts; a larger file is not written, nor read.
	maxIndexBytes = 64 << 20
)

// indexMagic opens an index file; the number is the format's version.
var indexMagic = []byte("adrkit-hook-index/1\n")

// errCorrupt is what decoding a damaged index file reports.
var errCorrupt = errors.New("the index file is damaged")

// StoreIndex keeps ix under key in dir, atomically, and removes the least
// recently written past MaxIndexes.
func StoreIndex(dir, key string, ix *app.GovernIndex) error {
	if key == "" {
		return nil
	}
	data := EncodeIndex(ix)
	if len(data) > maxIndexBytes {
		return fmt.Errorf("keeping the index: %d bytes, more than %d", len(data), maxIndexBytes)
	}
	sub := filepath.Join(dir, "index")
	if err := writeAtomic(sub, key, data); err != nil {
		return fmt.Errorf("keeping the index: %w", err)
	}
	prune(sub, MaxIndexes)
	return nil
}

// LoadIndex reads the index kept under key in dir; false when there is
// none, or it cannot be read or decoded (the caller reads the corpus).
func LoadIndex(dir, key string) (*app.GovernIndex, bool) {
	if key == "" {
		return nil, false
	}
	f, err := os.Open(filepath.Join(dir, "index", key))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxIndexBytes+1))
	if err != nil || len(data) > maxIndexBytes {
		return nil, false
	}
	ix, err := DecodeIndex(data)
	if err != nil {
		return nil, false
	}
	return ix, true
}

// EncodeIndex writes ix as the magic line, then its fields as unsigned
// varints and length-prefixed strings, then the SHA-256 of everything
// before it (so that a damaged file is refused, never read as another
// corpus). A hand-written format: decoding it costs a small part of what
// encoding/json would, and every run of a first edit pays for it.
func EncodeIndex(ix *app.GovernIndex) []byte {
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

// DecodeIndex reads what EncodeIndex wrote; a file of another version,
// truncated or damaged is an error.
func DecodeIndex(data []byte) (*app.GovernIndex, error) {
	if len(data) < len(indexMagic)+sha256.Size || !bytes.HasPrefix(data, indexMagic) {
		return nil, errCorrupt
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return nil, errCorrupt
	}
	d := decoder{b: body[len(indexMagic):]}
	ix := &app.GovernIndex{Errors: d.num()}
	n := d.count()
	ix.Records = make([]app.IndexRecord, 0, n)
	for range n {
		r := app.IndexRecord{SourcePath: d.str(), ID: d.str(), Title: d.str(), Status: adr.Status(d.str())}
		r.Supersedes = d.list()
		r.SupersededBy = d.str()
		r.RelatesTo = d.list()
		r.ConflictsWith = d.list()
		for range d.count() {
			m := app.IndexMatcher{Pattern: d.str()}
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

// decoder reads EncodeIndex's fields; past the end or on a bad number it
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
