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
	"cmp"
	"math"
	"slices"
)

// The BM25F parameters, tuned on the development set: the weight of a
// term in each field, and how much a field's length dampens it.
var (
	weights    = [numFields]float64{FieldID: 3, FieldTitle: 2, FieldTags: 1, FieldDecision: 2, FieldAlternatives: 0.25, FieldBody: 1}
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

// posting is one record's counts of one term, by field.
type posting struct {
	doc int32
	tf  [numFields]uint16
}

// Index is the inverted index of a corpus's records. Build it once per
// projection; it is read-only afterwards and safe for concurrent use.
type Index struct {
	postings map[string][]posting
	lens     [][numFields]uint32
	avg      [numFields]float64
}

// NewIndex indexes docs; a Hit's Doc is an index into docs.
func NewIndex(docs []Doc) *Index {
	ix := &Index{postings: map[string][]posting{}, lens: make([][numFields]uint32, len(docs))}
	st := stemmer{}
	var terms []string
	for i, d := range docs {
		for f, text := range d {
			terms = st.terms(terms[:0], text, -1)
			ix.lens[i][f] = uint32(len(terms))
			ix.avg[f] += float64(len(terms)) / float64(len(docs))
			for _, t := range terms {
				ps := ix.postings[t]
				if len(ps) == 0 || ps[len(ps)-1].doc != int32(i) {
					ps = append(ps, posting{doc: int32(i)})
				}
				if p := &ps[len(ps)-1]; p.tf[f] < math.MaxUint16 {
					p.tf[f]++
				}
				ix.postings[t] = ps
			}
		}
	}
	return ix
}

// Hit is one ranked record.
type Hit struct {
	// Doc is the record's index in the docs the Index was built from.
	Doc   int
	Score float64
	// Matched is how many of the question's terms the record holds.
	Matched int
	// Strong says that one of them is in the id, title, tags or decision
	// sentence, not only in the body or the alternatives.
	Strong bool
}

// Ranking is the answer to one question.
type Ranking struct {
	// Hits are the best records, best first (ties in docs order), at most
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
	for _, t := range (stemmer{}).terms(nil, q, -1) {
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	r := Ranking{Truncated: len(q) < len(question) || len(terms) > MaxTerms}
	terms = terms[:min(len(terms), MaxTerms)]
	r.Terms = len(terms)
	n := float64(len(ix.lens))
	hits := map[int32]*Hit{}
	ideal := 0.0
	for _, t := range terms {
		ps := ix.postings[t]
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		ideal += idf
		for _, p := range ps {
			if keep != nil && !keep(int(p.doc)) {
				continue
			}
			h := hits[p.doc]
			if h == nil {
				h = &Hit{Doc: int(p.doc)}
				hits[p.doc] = h
			}
			tf := 0.0
			for f, c := range p.tf {
				if c > 0 {
					b := lengthNorm[f]
					tf += weights[f] * float64(c) / (1 - b + b*float64(ix.lens[p.doc][f])/ix.avg[f])
					h.Strong = h.Strong || Field(f) <= FieldDecision
				}
			}
			h.Score += idf * tf / (k1 + tf)
			h.Matched++
		}
	}
	for _, h := range hits {
		r.Hits = append(r.Hits, *h)
	}
	slices.SortFunc(r.Hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Doc, b.Doc))
	})
	if len(r.Hits) > 0 {
		r.Confidence = confidence(r.Hits, ideal, len(terms))
	}
	r.Hits = r.Hits[:min(len(r.Hits), max(limit, 0))]
	return r
}

// The confidence model's coefficients, fitted by logistic regression on
// the development set: a constant, then the top score over the score of
// a record holding every term, the share of the terms the top record
// holds, its margin over the second, and a strong match.
var coef = [5]float64{-3.33, 3.00, 3.06, 1.52, 0.49}

// confidence is the model's estimate that hits[0] is the answer.
func confidence(hits []Hit, ideal float64, terms int) float64 {
	top := hits[0]
	margin := 1.0
	if len(hits) > 1 {
		margin = 1 - hits[1].Score/top.Score
	}
	strong := 0.0
	if top.Strong {
		strong = 1
	}
	z := coef[0] + coef[1]*top.Score/ideal + coef[2]*float64(top.Matched)/float64(terms) + coef[3]*margin + coef[4]*strong
	return math.Round(100/(1+math.Exp(-z))) / 100
}
