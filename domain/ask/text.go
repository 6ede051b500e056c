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
	"adr": true, "allowed": true, "anyth": true, "can": true, "could": true, "decid": true,
	"decis": true, "may": true, "might": true, "must": true, "need": true, "ok": true,
	"okay": true, "record": true, "shall": true, "us": true, "would": true,
}

// stemmer turns words into index terms, remembering the stems it has
// worked out: a corpus repeats a small vocabulary many times, and the
// Snowball stemmer costs far more than a map lookup.
type stemmer map[string]string

// terms appends to out the index terms of text: its words (runs of
// letters and digits, folded), without stop words, stemmed; at most max
// terms in all (max < 0: no bound).
func (st stemmer) terms(out []string, text string, max int) []string {
	text = fold(text)
	start := -1
	for i, r := range text + " " {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if word && start < 0 {
			start = i
		}
		if word || start < 0 {
			continue
		}
		if max >= 0 && len(out) >= max {
			return out
		}
		if t := st.term(text[start:i]); t != "" {
			out = append(out, t)
		}
		start = -1
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
		st[w] = t
	}
	return t
}

// maxStems bounds a stemmer's memory: past it, words are stemmed again.
const maxStems = 1 << 16
