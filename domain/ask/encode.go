package ask

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
)

// ErrDamaged is DecodeIndex's error for bytes AppendBinary did not write.
var ErrDamaged = errors.New("not an index AppendBinary wrote")

// AppendBinary appends the index to b, so that a caller can keep it
// between runs (the hook keeps it beside the governance index, keyed by
// the corpus's bytes): building it stems every word of every record,
// decoding it only reads numbers. Terms are written in sorted order, so
// the same index gives the same bytes.
//
// The format: the number of records, each record's field lengths, then
// each term with its postings: the gap from the previous record, a bit
// set of the fields holding the term, and the count in each of those.
func (ix *Index) AppendBinary(b []byte) ([]byte, error) {
	num := func(n uint64) { b = binary.AppendUvarint(b, n) }
	num(uint64(len(ix.lens)))
	for _, l := range ix.lens {
		for _, n := range l {
			num(uint64(n))
		}
	}
	terms := make([]string, 0, len(ix.postings))
	for t := range ix.postings {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	num(uint64(len(terms)))
	for _, t := range terms {
		num(uint64(len(t)))
		b = append(b, t...)
		ps := ix.postings[t]
		num(uint64(len(ps)))
		prev := int32(-1)
		for _, p := range ps {
			num(uint64(p.doc - prev))
			prev = p.doc
			var set byte
			for f, c := range p.tf {
				if c > 0 {
					set |= 1 << f
				}
			}
			b = append(b, set)
			for _, c := range p.tf {
				if c > 0 {
					num(uint64(c))
				}
			}
		}
	}
	return b, nil
}

// DecodeIndex reads what AppendBinary wrote. Bytes it did not write are
// ErrDamaged (or, rarely, an index of other numbers: the caller seals
// what it keeps with a checksum); they never panic and never size an
// allocation past their own length.
func DecodeIndex(data []byte) (*Index, error) {
	d := data
	bad := false
	num := func(limit uint64) uint64 {
		v, n := binary.Uvarint(d)
		if n <= 0 || v > limit {
			bad, d = true, nil
			return 0
		}
		d = d[n:]
		return v
	}
	docs := int(num(uint64(len(d))))
	ix := &Index{postings: map[string][]posting{}, lens: make([][numFields]uint32, docs)}
	for i := range ix.lens {
		for f := range ix.lens[i] {
			ix.lens[i][f] = uint32(num(math.MaxUint32))
		}
	}
	// The averages are summed as NewIndex sums them, so that scores
	// are the same to the last bit.
	for _, l := range ix.lens {
		for f, n := range l {
			ix.avg[f] += float64(n) / float64(docs)
		}
	}
	for range num(uint64(len(d))) {
		n := num(math.MaxUint32)
		if n > uint64(len(d)) {
			return nil, ErrDamaged
		}
		t := string(d[:n])
		d = d[n:]
		ps := make([]posting, num(uint64(len(d))/2))
		doc := int64(-1)
		for i := range ps {
			doc += int64(num(uint64(docs)))
			if len(d) == 0 || doc < 0 || doc >= int64(docs) {
				return nil, ErrDamaged
			}
			set := d[0]
			d = d[1:]
			ps[i].doc = int32(doc)
			for f := range ps[i].tf {
				if set&(1<<f) != 0 {
					ps[i].tf[f] = uint16(num(math.MaxUint16))
				}
			}
		}
		if bad {
			return nil, ErrDamaged
		}
		ix.postings[t] = ps
	}
	if bad || len(d) != 0 {
		return nil, ErrDamaged
	}
	return ix, nil
}
