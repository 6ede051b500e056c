package yaml12

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// The YAML 1.2 Core schema, as the reference resolves it. Plain scalars are
// tried against these forms in this order; the first match decides the
// type. Nothing else is implicit: YAML 1.1 forms (yes/no, 017 as octal,
// timestamps, 1_000, sexagesimal) stay strings. Each form is the regular
// expression in its comment, written out by hand: every plain scalar of
// every file goes through them, and dates and versions, which start with
// a digit, go through all of them (scalar_test.go checks each against
// its expression).

// unsupportedTags are the YAML 1.1 tags the reference's library turns into
// JavaScript objects that are not data (Buffer, Date, Set, Map) or into
// lists of one-key objects. No frontmatter needs them and the schema
// rejects most of what they build, so a document using one is refused
// outright (ADR 0030).
var unsupportedTags = map[string]bool{
	"!!binary": true, "!!timestamp": true, "!!set": true, "!!omap": true, "!!pairs": true,
}

// resolvePlain gives an untagged plain scalar its Core-schema value.
func resolvePlain(s string) any {
	if s != "" && !mayResolve(s[0]) {
		// Most scalars are words or paths: no Core-schema form starts
		// with their first byte, so the patterns need not run.
		return s
	}
	switch {
	case isNull(s):
		return nil
	case isBool(s):
		return s[0] == 't' || s[0] == 'T'
	}
	if v, ok := resolveInt(s); ok {
		return v
	}
	if v, ok := resolveFloat(s); ok {
		return v
	}
	return s
}

// mayResolve reports whether a plain scalar starting with c can be
// anything but a string: null (~, n, N), a boolean (t, T, f, F), an
// integer or a float (a digit, a sign, or "." as in .5, .inf and .nan).
func mayResolve(c byte) bool {
	switch c {
	case '~', 'n', 'N', 't', 'T', 'f', 'F', '-', '+', '.':
		return true
	}
	return '0' <= c && c <= '9'
}

// resolveInt applies the three integer forms. Integers are doubles, as in
// JavaScript: digits beyond 2^53 are rounded away.
func resolveInt(s string) (float64, bool) {
	switch {
	case isOctInt(s):
		return radixToFloat(s[2:], 8), true
	case isDecInt(s):
		// Decimal even with leading zeros (017 is 17). ParseFloat rounds
		// correctly, like the reference's parseInt; "-0" stays negative,
		// and out of range it gives ±Inf, as parseInt does.
		f, _ := strconv.ParseFloat(s, 64)
		return f, true
	case isHexInt(s):
		return radixToFloat(s[2:], 16), true
	}
	return 0, false
}

// resolveFloat applies the three float forms.
func resolveFloat(s string) (float64, bool) {
	switch {
	case isInfNaN(s):
		// Without its ".", every spelling the form admits ("-.Inf",
		// ".NAN") is one ParseFloat reads.
		s = strings.Replace(s, ".", "", 1)
	case !isExpFloat(s) && !isFloat(s):
		return 0, false
	}
	// Out of range, ParseFloat returns ±Inf or ±0, as JavaScript's
	// parseFloat would.
	f, _ := strconv.ParseFloat(s, 64)
	return f, true
}

// radixToFloat converts digits in base 8 or 16 to the nearest double.
func radixToFloat(digits string, base int) float64 {
	n, ok := new(big.Int).SetString(digits, base)
	if !ok {
		return math.NaN()
	}
	f, _ := new(big.Float).SetInt(n).Float64()
	return f
}

// resolveTagged resolves a scalar carrying the explicit tag tag, which
// yaml.v3 spells "!!x" for tag:yaml.org,2002:x. The four Core-schema
// tags below change a scalar; any other tag (!!str included) leaves it a
// string, as does a tag that does not fit the text (the reference only
// warns about unknown tags).
func resolveTagged(tag, s string) any {
	switch tag {
	case "!!null":
		if isNull(s) {
			return nil
		}
	case "!!bool":
		if isBool(s) {
			return s[0] == 't' || s[0] == 'T'
		}
	case "!!int":
		if v, ok := resolveInt(s); ok {
			return v
		}
	case "!!float":
		if v, ok := resolveFloat(s); ok {
			return v
		}
	}
	return s
}

// jsString is JavaScript's String(v) for a primitive: how the reference
// turns a scalar key into an object member name.
func jsString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		if x {
			return "true"
		}
		return "false"
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		}
		return string(jsvalue.AppendNumber(nil, x))
	case string:
		return x
	}
	return ""
}

// isNull is ^(?:~|[Nn]ull|NULL)?$.
func isNull(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// isBool is ^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$.
func isBool(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return true
	}
	return false
}

// digits returns the length of the run of ASCII digits at the start of s.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// unsigned is s without one leading sign.
func unsigned(s string) string {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		return s[1:]
	}
	return s
}

// isOctInt is ^0o[0-7]+$.
func isOctInt(s string) bool { return isRadixInt(s, 'o') }

// isDecInt is ^[-+]?[0-9]+$.
func isDecInt(s string) bool {
	u := unsigned(s)
	return u != "" && digits(u) == len(u)
}

// isHexInt is ^0x[0-9a-fA-F]+$.
func isHexInt(s string) bool { return isRadixInt(s, 'x') }

// isRadixInt is "0", then marker ('o' or 'x'), then at least one octal or
// hexadecimal digit.
func isRadixInt(s string, marker byte) bool {
	if len(s) < 3 || s[0] != '0' || s[1] != marker {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) || (marker == 'o' && s[i] > '7') {
			return false
		}
	}
	return true
}

// isInfNaN is ^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$.
func isInfNaN(s string) bool {
	switch s {
	case ".nan", ".NaN", ".NAN":
		return true
	}
	switch unsigned(s) {
	case ".inf", ".Inf", ".INF":
		return true
	}
	return false
}

// mantissa returns the length of the decimal mantissa at the start of s,
// \.[0-9]+|[0-9]+(?:\.[0-9]*)? (0 for none), and whether it has a point.
func mantissa(s string) (n int, point bool) {
	n = digits(s)
	if n < len(s) && s[n] == '.' {
		frac := digits(s[n+1:])
		if n == 0 && frac == 0 {
			return 0, false
		}
		return n + 1 + frac, true
	}
	return n, false
}

// isExpFloat is ^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$.
func isExpFloat(s string) bool {
	u := unsigned(s)
	n, _ := mantissa(u)
	if n == 0 || n >= len(u) || (u[n] != 'e' && u[n] != 'E') {
		return false
	}
	exp := unsigned(u[n+1:])
	return exp != "" && digits(exp) == len(exp)
}

// isFloat is ^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$.
func isFloat(s string) bool {
	u := unsigned(s)
	n, point := mantissa(u)
	return point && n == len(u)
}
