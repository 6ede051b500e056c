package glob

import (
	"unicode/utf16"
	"unicode/utf8"
)

// The dialect is defined over JavaScript strings, so everything below
// works on UTF-16 code units: `?` and character classes consume one unit,
// lengths and limits count units, and an astral character is two units.

// toUnits converts s to UTF-16 code units.
func toUnits(s string) []uint16 {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		u := make([]uint16, len(s))
		for i := 0; i < len(s); i++ {
			u[i] = uint16(s[i])
		}
		return u
	}
	return utf16.Encode([]rune(s))
}

// unitsString converts code units back to a Go string (lone surrogates
// become U+FFFD): for literal prefixes and endings, and class names.
func unitsString(u []uint16) string { return string(utf16.Decode(u)) }

// lit converts one of the translator's ASCII constants.
func lit(s string) []uint16 { return toUnits(s) }

// cat returns a fresh slice holding the concatenation, so callers may
// treat every result as owned and immutable.
func cat(parts ...[]uint16) []uint16 {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]uint16, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func clone(u []uint16) []uint16 { return append([]uint16(nil), u...) }

func eq(u []uint16, s string) bool {
	if len(u) != len(s) {
		return false
	}
	for i := range u {
		if u[i] != uint16(s[i]) {
			return false
		}
	}
	return true
}

func hasPrefix(u []uint16, s string) bool { return len(u) >= len(s) && eq(u[:len(s)], s) }

func lastIndexUnit(u []uint16, c uint16) int {
	for i := len(u) - 1; i >= 0; i-- {
		if u[i] == c {
			return i
		}
	}
	return -1
}

// dropTail is JavaScript's s.slice(0, -k): note that k == 0 empties the
// string rather than keeping it.
func dropTail(s []uint16, k int) []uint16 {
	if k <= 0 || k >= len(s) {
		return s[:0]
	}
	return s[:len(s)-k]
}

// isWordUnit is the ASCII \w of JavaScript regular expressions.
func isWordUnit(c uint16) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// isLineTerminator is what `.` refuses in a JavaScript regular expression.
func isLineTerminator(c uint16) bool {
	return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029
}

// trimUnits is String.prototype.trim, which removes the units of the
// regex class \s.
func trimUnits(u []uint16) []uint16 {
	i, j := 0, len(u)
	for i < j && setSpace.has(u[i]) {
		i++
	}
	for j > i && setSpace.has(u[j-1]) {
		j--
	}
	return u[i:j]
}

// regexSpecial is the set the dialect escapes when it turns literal text
// into regular-expression source.
func regexSpecial(c uint16) bool {
	switch c {
	case '-', '*', '+', '?', '.', '^', '$', '{', '}', '(', '|', ')', '[', ']':
		return true
	}
	return false
}

func escapeRegex(u []uint16) []uint16 {
	out := make([]uint16, 0, len(u)+4)
	for _, c := range u {
		if regexSpecial(c) {
			out = append(out, '\\')
		}
		out = append(out, c)
	}
	return out
}
