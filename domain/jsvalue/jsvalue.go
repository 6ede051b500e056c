// Package jsvalue holds JSON-like values the way the reference's
// JavaScript runtime holds them: objects keep insertion order, numbers are
// IEEE doubles, and serialisation follows JSON.stringify byte for byte.
//
// A value is one of: nil (null), bool, float64, string, []any, *Object, or
// Exotic (a tagged YAML value with no JSON counterpart).
package jsvalue

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/jsstring"
)

// Object is a string-keyed map that remembers insertion order.
type Object struct {
	keys []string
	vals map[string]any
}

// NewObject returns an empty object with room for n members.
func NewObject(n int) *Object {
	return &Object{keys: make([]string, 0, n), vals: make(map[string]any, n)}
}

// Set adds or replaces a member; a replaced member keeps its position.
func (o *Object) Set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// Get returns the member named key.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// Has reports whether the object has a member named key.
func (o *Object) Has(key string) bool {
	_, ok := o.Get(key)
	return ok
}

// Keys returns the member names in insertion order. The slice is shared:
// callers must not modify it.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// Len returns the number of members.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// MarshalJSON writes the object as JSON.stringify would: insertion order,
// no HTML escaping.
func (o *Object) MarshalJSON() ([]byte, error) { return AppendJSON(nil, o), nil }

// Exotic stands for a YAML value the reference turns into a JavaScript
// object that is not plain data (a Buffer from !!binary, a Date from
// !!timestamp, a Set, a Map). Only its constructor name is observable: it
// appears in schema messages ("received Date").
type Exotic struct{ Constructor string }

// TypeName names v the way the schema messages do: null, boolean, number,
// NaN, string, array, object, or an exotic value's constructor name.
func TypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if math.IsNaN(x) {
			return "NaN"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case *Object:
		return "object"
	case Exotic:
		return x.Constructor
	}
	return "object"
}

// AppendJSON appends v serialised as JSON.stringify does (objects in
// insertion order).
func AppendJSON(dst []byte, v any) []byte { return appendValue(dst, v, false) }

// AppendCanonical appends v as canonical JSON: like AppendJSON, but every
// object's keys sorted in UTF-16 code-unit order. The corpus fingerprint
// hashes this form.
func AppendCanonical(dst []byte, v any) []byte { return appendValue(dst, v, true) }

func appendValue(dst []byte, v any, canonical bool) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		if x {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case float64:
		return AppendNumber(dst, x)
	case int:
		return AppendNumber(dst, float64(x))
	case string:
		return AppendString(dst, x)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendValue(dst, e, canonical)
		}
		return append(dst, ']')
	case []string:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, e)
		}
		return append(dst, ']')
	case *Object:
		if x == nil {
			return append(dst, "null"...)
		}
		keys := x.keys
		// Keys are unique, so an unstable sort is exact; objects whose
		// keys are already in order (common for small nested values) are
		// written without a copy.
		var scratch [32]string // frontmatter-sized objects sort without allocating
		if canonical && !slices.IsSortedFunc(keys, jsstring.Compare) {
			keys = append(scratch[:0], keys...)
			slices.SortFunc(keys, jsstring.Compare)
		}
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, k)
			dst = append(dst, ':')
			dst = appendValue(dst, x.vals[k], canonical)
		}
		return append(dst, '}')
	case Exotic:
		// JSON.stringify of a Buffer/Date/Set is not reachable for a valid
		// record: the schema rejects exotic values.
		return append(dst, "{}"...)
	}
	return append(dst, "null"...)
}

// AppendNumber appends f formatted as ECMAScript Number::toString: shortest
// round trip, exponent form outside [1e-6, 1e21), negative zero as 0, and
// null for NaN and the infinities (as JSON.stringify writes them).
func AppendNumber(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0')
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Go writes e-07 where ECMAScript writes e-7.
		b := dst[start:]
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string the way JSON.stringify writes
// it: only quote, backslash and C0 controls are escaped (short forms where
// they exist, lower-case \u00xx otherwise); everything else is raw. Bytes
// that are not valid UTF-8 (a lone surrogate carried as WTF-8) are written
// as \udxxx escapes.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				dst = append(dst, '\\', '"')
			case '\\':
				dst = append(dst, '\\', '\\')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				if c < 0x20 {
					dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
				} else {
					dst = append(dst, c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// WTF-8 surrogate (ED A0..BF xx) written by the YAML decoder for
			// a lone \ud800-style escape.
			if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
				u := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				dst = append(dst, '\\', 'u', hexDigits[u>>12], hexDigits[(u>>8)&0xF], hexDigits[(u>>4)&0xF], hexDigits[u&0xF])
				i += 3
				continue
			}
			dst = append(dst, "\ufffd"...)
			i++
			continue
		}
		dst = append(dst, s[i:i+size]...)
		i += size
	}
	return append(dst, '"')
}
