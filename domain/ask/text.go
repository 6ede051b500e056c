package ask

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// fold lowers s and takes the accents off its letters (NFKD, then the
// non-spacing marks removed), so that "Café" and "cafe", "ＡＰＩ" and
// "api" are one word. ASCII text, the usual case, skips the transform.
func fold(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			t := transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn)))
			if out, _, err := transform.String(t, s); err == nil {
				s = out
			}
			break
		}
	}
	return strings.ToLower(s)
}

// questionWords are words of asking that say nothing about the subject,
// beyond the Snowball list of English stop words.
var questionWords = map[string]bool{
	"adr": true, "allow": true, "anyth": true, "can": true, "could": true, "decid": true,
	"decis": true, "may": true, "might": true, "must": true, "need": true, "ok": true,
	"okay": true, "record": true, "shall": true, "us": true, "would": true,
}

// stemmer turns words into index terms, remembering the stems it has
// worked out: a corpus repeats a small vocabulary many times, and the
// Snowball stemmer costs far more than a map lookup.
type stemmer map[string]string

// terms appends to out the index terms of text: its words (runs of
// letters and digits, folded), without stop words, stemmed.
func (st stemmer) terms(out []string, text string) []string {
	text = fold(text)
	start := -1
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out, start = st.add(out, text[start:i]), -1
		}
	}
	if start >= 0 {
		out = st.add(out, text[start:])
	}
	return out
}

// add appends the term of word to out, unless it is a stop word.
func (st stemmer) add(out []string, word string) []string {
	if t := st.term(word); t != "" {
		out = append(out, t)
	}
	return out
}

// term is the index term of one folded word, "" for a stop word.
func (st stemmer) term(w string) string {
	if t, ok := st[w]; ok {
		return t
	}
	t := ""
	if !english.IsStopWord(w) {
		t = english.Stem(w, true)
		if questionWords[t] {
			t = ""
		}
	}
	if st != nil && len(st) < maxStems {
		// A copy: the word is part of a record's text, which the key
		// would keep alive for as long as the stemmer.
		st[strings.Clone(w)] = t
	}
	return t
}

// maxStems bounds a stemmer's memory: past it, words are stemmed again.
const maxStems = 1 << 16

// Terms is the index terms of text, in order: what Rank looks up of a
// question and what a record's field is indexed as.
func Terms(text string) []string { return stemmer{}.terms(nil, text) }
