package app

import (
	"strings"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// normalizedContains reports whether needle, already search-normalised,
// occurs in jsstring.Normalize(s), without building the normalised copy
// of s when s is ASCII, which record text nearly always is.
//
// Normalisation of ASCII text is ASCII lower-casing: NFKC leaves ASCII
// alone and locale-independent lower-casing maps A–Z to a–z and nothing
// else. The trim does not matter for containment: what it removes sits at
// the edges of s, and a normalised needle neither starts nor ends with
// JavaScript whitespace (it was trimmed, and no non-space character's
// NFKC form begins or ends with a space without also holding a non-ASCII
// mark). A needle with any non-ASCII character cannot occur in lower-cased
// ASCII at all.
func normalizedContains(s, needle string) bool {
	if !isASCII(s) {
		return strings.Contains(jsstring.Normalize(s), needle)
	}
	return isASCII(needle) && containsFoldASCII(s, needle)
}

// isASCII reports whether s has no byte above 0x7F, eight bytes at a time.
func isASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// containsFoldASCII reports whether lowerNeedle (ASCII, no upper-case
// letter) occurs in the ASCII-lower-cased s. Candidate positions are
// found with IndexByte on both cases of the first byte, each search
// resumed only once passed, so the scan stays linear.
func containsFoldASCII(s, lowerNeedle string) bool {
	n := len(lowerNeedle)
	if n == 0 {
		return true
	}
	lo := lowerNeedle[0]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	last := len(s) - n // the last start position
	nextLo, nextUp := -1, -1
	if lo == up {
		nextUp = len(s) // never
	}
	for i := 0; i <= last; {
		if nextLo < i {
			nextLo = indexFrom(s, lo, i)
		}
		if nextUp < i {
			nextUp = indexFrom(s, up, i)
		}
		j := min(nextLo, nextUp)
		if j > last {
			return false
		}
		if equalLowerASCII(s[j+1:j+n], lowerNeedle[1:]) {
			return true
		}
		i = j + 1
	}
	return false
}

// indexFrom is the index of c in s at or after from, or len(s).
func indexFrom(s string, c byte, from int) int {
	if k := strings.IndexByte(s[from:], c); k >= 0 {
		return from + k
	}
	return len(s)
}

// equalLowerASCII reports whether the ASCII-lower-cased a equals lower.
func equalLowerASCII(a, lower string) bool {
	for i := 0; i < len(lower); i++ {
		c := a[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// Snippet is a short piece of text around the first place query occurs in
// it, as search_decisions matches (case- and width-folded), for a person
// scanning search results: the first line that is not a heading and
// holds the match, with Markdown markers and runs of spaces dropped, about width runes long, cut at words with
// an ellipsis. "" when query does not occur in text (it matched another
// field) or is blank.
func Snippet(text, query string, width int) string {
	needle := jsstring.Normalize(query)
	if needle == "" || width < 8 {
		return ""
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue // a heading repeats the title, or names a section
		}
		line = strings.Join(strings.Fields(strings.TrimLeft(strings.TrimSpace(line), "#>*-+| ")), " ")
		if line == "" || !normalizedContains(line, needle) {
			continue
		}
		return snippetWindow([]rune(line), matchStart(line, needle), width)
	}
	return ""
}

// matchStart is the rune index where needle (normalised) starts in line,
// found rune by rune; 0 when folding moves it (the window then starts at
// the line's beginning, still holding the match for short lines).
func matchStart(line, needle string) int {
	runes := []rune(line)
	for i := range runes {
		if strings.HasPrefix(jsstring.Normalize(string(runes[i:])), needle) {
			return i
		}
	}
	return 0
}

// snippetWindow is about width runes of line around rune index at, cut at
// spaces, with "…" where it was cut.
func snippetWindow(line []rune, at, width int) string {
	if len(line) <= width {
		return string(line)
	}
	lo := max(0, at-width/3)
	hi := min(len(line), lo+width)
	lo = max(0, hi-width)
	if lo > 0 {
		for lo < at && line[lo-1] != ' ' {
			lo++
		}
	}
	if hi < len(line) {
		for hi > at+1 && line[hi] != ' ' {
			hi--
		}
	}
	out := strings.TrimSpace(string(line[lo:hi]))
	if lo > 0 {
		out = "…" + out
	}
	if hi < len(line) {
		out += "…"
	}
	return out
}
