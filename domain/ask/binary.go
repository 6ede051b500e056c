package ask

import (
	"encoding/binary"
	"errors"
	"maps"
	"math"
	"slices"
)

// errDamaged is what DecodeIndex reports for bytes AppendBinary did not
// write.
var errDamaged = errors.New("not an index of decision records")

// AppendBinary appends ix to b as unsigned varints: every record's field
// lengths, then every term (sorted) with its record count and postings.
// A process that asks once (adrkit ask) keeps it between runs: decoding
// it costs a small part of indexing the records again.
func (ix *Index) AppendBinary(b []byte) ([]byte, error) {
	num := func(n int) { b = binary.AppendUvarint(b, uint64(n)) }
	num(len(ix.lens))
	for _, l := range ix.lens {
		for _, n := range l {
			num(int(n))
		}
	}
	num(len(ix.postings))
	for _, t := range slices.Sorted(maps.Keys(ix.postings)) {
		ps := ix.postings[t]
		num(len(t))
		b = append(b, t...)
		num(ps.df)
		num(len(ps.b))
		b = append(b, ps.b...)
	}
	return b, nil
}

// DecodeIndex reads what AppendBinary wrote; anything else, truncated or
// with bytes left over, is an error. The postings are read only when a
// question looks a term up, and stop where they do not hold (a run
// decodes the index for one question: checking every term first would
// cost more than the answer).
func DecodeIndex(b []byte) (*Index, error) {
	bad := false
	num := func(limit uint64) int {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > limit {
			bad, b = true, nil
			return 0
		}
		b = b[n:]
		return int(v)
	}
	bytesOf := func() []byte {
		n := num(math.MaxInt32)
		if n > len(b) {
			bad, b = true, nil
			return nil
		}
		out := b[:n:n]
		b = b[n:]
		return out
	}
	records := num(uint64(len(b)))
	ix := &Index{postings: map[string]postings{}, lens: make([][numFields]uint32, records)}
	for i := range ix.lens {
		for f := range ix.lens[i] {
			ix.lens[i][f] = uint32(num(math.MaxUint32))
			ix.avg[f] += float64(ix.lens[i][f]) / float64(records)
		}
	}
	for range num(uint64(len(b))) {
		t := string(bytesOf())
		ps := postings{df: num(uint64(records))}
		ps.b = bytesOf()
		ix.postings[t] = ps
	}
	if bad || len(b) != 0 {
		return nil, errDamaged
	}
	return ix, nil
}
