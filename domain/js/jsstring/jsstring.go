// Package jsstring gives Go strings the JavaScript string semantics the
// contract is written in: UTF-16 code-unit length and order, the JavaScript
// whitespace set, WHATWG UTF-8 decoding and the search normalisation.
//
// The reference implementation is a JavaScript program; wherever a limit,
// an ordering or a comparison is observable on the wire it follows these
// rules, not Go's byte or rune semantics.
package jsstring

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/language"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Len returns the length of s in UTF-16 code units, which is what every
// length limit of the contract counts ("😀a" has length 3). A lone
// surrogate carried as WTF-8 (what the YAML decoder writes for "\ud800")
// counts one unit, as it does in JavaScript.
func Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := decodeUnit(s[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// decodeUnit decodes the first character of s like utf8.DecodeRuneInString,
// except that a WTF-8 lone surrogate (ED A0..BF 80..BF) yields its code
// unit instead of three replacement characters, so that lengths and
// orderings of such strings agree with JavaScript's.
func decodeUnit(s string) (rune, int) {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 && len(s) >= 3 && s[0] == 0xED &&
		s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF {
		return rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F) | 0xD000, 3
	}
	return r, size
}

// Compare orders a and b by UTF-16 code units, as JavaScript's < does. It
// differs from Go's byte order only when one string holds a character at
// or above U+10000 where the other holds one in U+E000..U+FFFF.
func Compare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < utf8.RuneSelf && b[j] < utf8.RuneSelf {
			if a[i] != b[j] {
				if a[i] < b[j] {
					return -1
				}
				return 1
			}
			i++
			j++
			continue
		}
		ra, sa := decodeUnit(a[i:])
		rb, sb := decodeUnit(b[j:])
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				if ua < ub {
					return -1
				}
				return 1
			}
			// Same high surrogate: the low surrogates decide.
			la, lb := secondUnit(ra), secondUnit(rb)
			if la < lb {
				return -1
			}
			return 1
		}
		i += sa
		j += sb
	}
	switch {
	case len(a)-i < len(b)-j:
		return -1
	case len(a)-i > len(b)-j:
		return 1
	}
	return 0
}

func firstUnit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}

func secondUnit(r rune) rune {
	if r >= 0x10000 {
		_, lo := utf16.EncodeRune(r)
		return lo
	}
	return 0
}

// IsSpace reports whether r is in the set String.prototype.trim removes
// (and what \s means in a JavaScript regular expression). Unlike
// unicode.IsSpace it excludes U+0085 and includes U+FEFF.
func IsSpace(r rune) bool {
	switch r {
	case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// TrimSpace removes JavaScript whitespace from both ends of s.
func TrimSpace(s string) string { return strings.TrimFunc(s, IsSpace) }

// Truncate returns the first n UTF-16 code units of s. A surrogate pair
// that would be split is dropped whole (Go strings cannot hold half of one).
func Truncate(s string, n int) string {
	units := 0
	for i := 0; i < len(s); {
		r, size := decodeUnit(s[i:])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
		i += size
	}
	return s
}

// Normalize is the search normalisation: JavaScript trim, then NFKC, then
// locale-independent full lower-casing with the final-sigma rule. (A
// cases.Caser keeps state between calls, so each call makes its own.)
func Normalize(s string) string {
	return cases.Lower(language.Und).String(norm.NFKC.String(TrimSpace(s)))
}

// DecodeUTF8 decodes b as the WHATWG UTF-8 decoder does: each maximal
// invalid subsequence becomes one U+FFFD (Go's per-byte replacement would
// give two for the truncated sequence E2 82). A byte-order mark is kept.
// x/text's UTF-8 decoder is the one Go decoder that replaces that way.
func DecodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	// The decoder never fails: every byte has a replacement.
	out, _, _ := transform.Bytes(unicode.UTF8.NewDecoder(), b)
	return string(out)
}
