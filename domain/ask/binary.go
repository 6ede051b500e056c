package ask

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"slices"
)

// errDamaged is what DecodeIndex reports for bytes AppendBinary did not
// write.
var errDamaged = errors.New("not an index of decision records")

// AppendBinary appends ix to b as unsigned varints: every record's field
// lengths, then every term (sorted) with its postings, each a document
// delta, a mask of the fields holding the term and their counts. A
// process that asks once (adrkit ask) keeps it between runs: decoding it
// costs a small part of indexing the records again.
func (ix *Index) AppendBinary(b []byte) ([]byte, error) {
	num := func(n uint64) { b = binary.AppendUvarint(b, n) }
	num(uint64(len(ix.lens)))
	for _, l := range ix.lens {
		for _, n := range l {
			num(uint64(n))
		}
	}
	terms := slices.Sorted(func(yield func(string) bool) {
		for t := range ix.postings {
			if !yield(t) {
				return
			}
		}
	})
	num(uint64(len(terms)))
	for _, t := range terms {
		num(uint64(len(t)))
		b = append(b, t...)
		ps := ix.postings[t]
		num(uint64(len(ps)))
		prev := int32(0)
		for _, p := range ps {
			num(uint64(p.doc - prev))
			prev = p.doc
			mask := byte(0)
			for f, c := range p.tf {
				if c > 0 {
					mask |= 1 << f
				}
			}
			b = append(b, mask)
			for _, c := range p.tf {
				if c > 0 {
					num(uint64(c))
				}
			}
		}
	}
	return b, nil
}

// DecodeIndex reads what AppendBinary wrote; anything else, truncated
// or with bytes left over, is an error.
func DecodeIndex(b []byte) (*Index, error) {
	bad := false
	num := func(limit uint64) uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > limit {
			bad, b = true, nil
			return 0
		}
		b = b[n:]
		return v
	}
	ndocs := num(uint64(len(b)))
	ix := &Index{postings: map[string][]posting{}, lens: make([][numFields]uint32, ndocs)}
	for i := range ix.lens {
		for f := range ix.lens[i] {
			ix.lens[i][f] = uint32(num(math.MaxUint32))
			ix.avg[f] += float64(ix.lens[i][f]) / float64(ndocs)
		}
	}
	for range num(uint64(len(b))) {
		n := num(math.MaxInt32)
		if n > uint64(len(b)) {
			return nil, errDamaged
		}
		t := string(b[:n])
		b = b[n:]
		ps := make([]posting, num(uint64(len(b))))
		doc := uint64(0)
		for i := range ps {
			doc += num(ndocs)
			ps[i].doc = int32(doc)
			if len(b) == 0 || doc >= ndocs || bits.Len8(b[0]) > int(numFields) {
				return nil, errDamaged
			}
			mask := b[0]
			b = b[1:]
			for f := range ps[i].tf {
				if mask&(1<<f) != 0 {
					ps[i].tf[f] = uint16(num(math.MaxUint16))
				}
			}
		}
		ix.postings[t] = ps
	}
	if bad || len(b) != 0 {
		return nil, errDamaged
	}
	return ix, nil
}
