// Package ask ranks decision records against a question asked in a
// person's own words ("can we cache orders in Redis?") and says how
// confident the best answer is (ADR 0038).
//
// Ranking is BM25F: every field of a record (DocOf) has its own weight
// and length normalisation, and a term's frequency is the weighted sum
// over the fields before it saturates. Words are folded (case, accents,
// width), English stop words dropped and the rest stemmed (Snowball).
// Confidence is a logistic function of what the ranking shows beyond
// the score, fitted on the development set (internal/askdev); docs/ask.md
// says what it estimates. Everything is pure and deterministic.
package ask

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"slices"
)

// The BM25F parameters, tuned on the development set: the weight of a
// term in each field, and how much a field's length dampens it.
var (
	weights    = [numFields]float64{FieldID: 3, FieldTitle: 3, FieldTags: 1, FieldDecision: 3, FieldAlternatives: 0.25, FieldBody: 1}
	lengthNorm = [numFields]float64{FieldID: 0, FieldTitle: 0.5, FieldTags: 0.3, FieldDecision: 0.5, FieldAlternatives: 0.75, FieldBody: 0.75}
)

// k1 is where a term's weighted frequency saturates.
const k1 = 1.2

// MaxTerms and maxQuestion bound what is read of a question: its first
// 8 KiB, and the first 48 distinct terms in it. Past either the question
// is truncated (Ranking.Truncated), so a pasted document costs what a
// long sentence does.
const (
	MaxTerms    = 48
	maxQuestion = 8 << 10
)

// Threshold is the confidence below which no record answers.
const Threshold = 0.5

// postings are the records holding one term: how many (df), and for
// each in record order the delta of its number, a mask of the fields
// holding the term and the count in each, as unsigned varints. Encoded,
// a record's share of the index is a few bytes a term; as structs, it
// was the largest part of a 10,000-record server's heap.
type postings struct {
	df int
	b  []byte
}

// each calls fn with every record of ps and its counts by field, until
// the bytes do not hold (a record past the count, a truncated varint),
// which is an error.
func (ps postings) each(records int, fn func(doc int, tf *[numFields]uint16)) error {
	b, doc, k := ps.b, 0, 0
	var tf [numFields]uint16
	for ; len(b) > 0; k++ {
		d, n := binary.Uvarint(b)
		if n <= 0 || len(b) == n || d > uint64(records) || k == ps.df {
			return errDamaged
		}
		doc, b = doc+int(d), b[n:]
		mask := b[0]
		b = b[1:]
		for f := range tf {
			tf[f] = 0
			if mask&(1<<f) != 0 {
				c, n := binary.Uvarint(b)
				if n <= 0 || c > math.MaxUint16 {
					return errDamaged
				}
				tf[f], b = uint16(c), b[n:]
			}
		}
		if doc >= records || mask == 0 || mask >= 1<<numFields {
			return errDamaged
		}
		fn(doc, &tf)
	}
	if k != ps.df {
		return errDamaged
	}
	return nil
}

// Index is the inverted index of a corpus's records. Build it once per
// projection; it is read-only afterwards and safe for concurrent use.
type Index struct {
	postings map[string]postings
	lens     [][numFields]uint32
	avg      [numFields]float64
}

// NewIndex indexes n records, whose fields doc returns one at a time
// (only one is held at once); a Hit's Doc is a record's number.
func NewIndex(n int, doc func(i int) Doc) *Index {
	ix := &Index{postings: map[string]postings{}, lens: make([][numFields]uint32, n)}
	st := stemmer{}
	// last is the record a term was last met in; index the place of each
	// term of the record being indexed in order and counts.
	last, index := map[string]int{}, map[string]int{}
	var terms, order []string
	var counts [][numFields]uint16
	for i := range n {
		clear(index)
		order, counts = order[:0], counts[:0]
		for f, text := range doc(i) {
			terms = st.terms(terms[:0], text)
			ix.lens[i][f] = uint32(len(terms))
			ix.avg[f] += float64(len(terms)) / float64(n)
			for _, t := range terms {
				k, ok := index[t]
				if !ok {
					k = len(order)
					index[t] = k
					order, counts = append(order, t), append(counts, [numFields]uint16{})
				}
				if counts[k][f] < math.MaxUint16 {
					counts[k][f]++
				}
			}
		}
		for k, t := range order {
			ps := ix.postings[t]
			ps.b = binary.AppendUvarint(ps.b, uint64(i-last[t]))
			mask := byte(0)
			for f, c := range counts[k] {
				if c > 0 {
					mask |= 1 << f
				}
			}
			ps.b = append(ps.b, mask)
			for _, c := range counts[k] {
				if c > 0 {
					ps.b = binary.AppendUvarint(ps.b, uint64(c))
				}
			}
			ps.df++
			ix.postings[t], last[t] = ps, i
		}
	}
	// Only what the appends wrote is kept, not what they grew into.
	for t, ps := range ix.postings {
		ps.b = bytes.Clone(ps.b)
		ix.postings[t] = ps
	}
	return ix
}

// Hit is one ranked record.
type Hit struct {
	// Doc is the record's number (NewIndex's i).
	Doc   int
	Score float64
	// Matched is how many of the question's terms the record holds, and
	// weight the sum of their inverse document frequencies.
	Matched int
	weight  float64
	// Strong says that one of them is in the id, title, tags or decision
	// sentence, not only in the body or the alternatives.
	Strong bool
}

// Ranking is the answer to one question.
type Ranking struct {
	// Hits are the best records, best first (ties in record order), at most
	// the limit asked for; only records holding a term of the question.
	Hits []Hit
	// Terms is the number of distinct terms looked up.
	Terms int
	// Confidence estimates that Hits[0] answers the question, in [0, 1]
	// with two decimals; 0 without hits.
	Confidence float64
	// Truncated says that terms past MaxTerms were not looked up.
	Truncated bool
}

// Rank ranks the records keep accepts (nil: every record) against the
// question and returns the best limit of them.
func (ix *Index) Rank(question string, limit int, keep func(doc int) bool) Ranking {
	q := question[:min(len(question), maxQuestion)]
	var terms []string
	for _, t := range (stemmer{}).terms(nil, q) {
		if len(terms) > MaxTerms {
			break
		}
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	r := Ranking{Truncated: len(q) < len(question) || len(terms) > MaxTerms}
	terms = terms[:min(len(terms), MaxTerms)]
	r.Terms = len(terms)
	n := float64(len(ix.lens))
	hits := map[int]*Hit{}
	ideal, unknown := 0.0, 0.0
	for _, t := range terms {
		ps := ix.postings[t]
		idf := math.Log(1 + (n-float64(ps.df)+0.5)/(float64(ps.df)+0.5))
		ideal += idf
		if ps.df == 0 {
			unknown += idf
		}
		// Postings that do not hold (a damaged decoded index) end early.
		_ = ps.each(len(ix.lens), func(doc int, counts *[numFields]uint16) {
			if keep != nil && !keep(doc) {
				return
			}
			h := hits[doc]
			if h == nil {
				h = &Hit{Doc: doc}
				hits[doc] = h
			}
			tf := 0.0
			for f, c := range counts {
				if c > 0 {
					b := lengthNorm[f]
					tf += weights[f] * float64(c) / (1 - b + b*float64(ix.lens[doc][f])/ix.avg[f])
					h.Strong = h.Strong || Field(f) <= FieldDecision
				}
			}
			h.Score += idf * tf / (k1 + tf)
			h.Matched++
			h.weight += idf
		})
	}
	for _, h := range hits {
		r.Hits = append(r.Hits, *h)
	}
	slices.SortFunc(r.Hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Doc, b.Doc))
	})
	if len(r.Hits) > 0 {
		r.Confidence = confidence(r.Hits, ideal, unknown/ideal, len(terms))
	}
	r.Hits = r.Hits[:min(len(r.Hits), max(limit, 0))]
	return r
}

// The confidence model's coefficients, fitted by logistic regression on
// the development set: a constant, then the top score over the score of
// a record holding every term, the share of the terms the top record
// holds, that share weighted by the terms' inverse document frequency
// (a record holding only a question's common words scores lower), its
// margin over the second, a strong match, and the share of the
// question's weight on terms no record holds.
var coef = [7]float64{-2.32, 1.15, 2.20, 1.44, 1.11, 0.87, -2.24}

// confidence is the model's estimate that hits[0] is the answer.
func confidence(hits []Hit, ideal, unknown float64, terms int) float64 {
	top := hits[0]
	margin := 1.0
	if len(hits) > 1 {
		margin = 1 - hits[1].Score/top.Score
	}
	strong := 0.0
	if top.Strong {
		strong = 1
	}
	z := coef[0] + coef[1]*top.Score/ideal + coef[2]*float64(top.Matched)/float64(terms) + coef[3]*top.weight/ideal +
		coef[4]*margin + coef[5]*strong + coef[6]*unknown
	return math.Round(100/(1+math.Exp(-z))) / 100
}

// Len is the number of records indexed.
func (ix *Index) Len() int { return len(ix.lens) }
