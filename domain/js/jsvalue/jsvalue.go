// Package jsvalue holds JSON-like values the way the reference's
// JavaScript runtime holds them: objects keep insertion order, numbers are
// IEEE doubles, and serialisation follows JSON.stringify byte for byte.
//
// A value is one of: nil (null), bool, float64, string, []any, *Object, or
// Exotic (a YAML value with no JSON counterpart: an alias inside the
// collection it names).
package jsvalue

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// Object is a string-keyed map that remembers insertion order.
//
// Members live in two parallel slices, found by a linear scan while the
// object is small (every frontmatter object is): a map per object would
// cost several times the memory of its members, and a server keeps tens
// of thousands of these objects. An object that grows past indexFrom
// members gets a name index, so large (hostile) objects stay linear to
// build.
type Object struct {
	keys  []string
	vals  []any
	index map[string]int // nil until len(keys) > indexFrom
}

// indexFrom is the member count above which an object is indexed.
const indexFrom = 32

// NewObject returns an empty object with room for n members.
func NewObject(n int) *Object {
	return &Object{keys: make([]string, 0, n), vals: make([]any, 0, n)}
}

// ObjectOf returns the object whose members are keys[i]: vals[i], in that
// order. It takes ownership of both slices, which must have the same
// length, and of unique keys: the caller has already checked that no
// key repeats, so the members are not looked up one by one as Set would.
func ObjectOf(keys []string, vals []any) *Object {
	o := &Object{keys: keys, vals: vals}
	if len(keys) > indexFrom {
		o.index = make(map[string]int, 2*len(keys))
		for i, k := range keys {
			o.index[k] = i
		}
	}
	return o
}

// find returns the position of key, or -1.
func (o *Object) find(key string) int {
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range o.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Set adds or replaces a member; a replaced member keeps its position.
func (o *Object) Set(key string, v any) {
	if i := o.find(key); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
	switch {
	case o.index != nil:
		o.index[key] = len(o.keys) - 1
	case len(o.keys) > indexFrom:
		o.index = make(map[string]int, 2*len(o.keys))
		for i, k := range o.keys {
			o.index[k] = i
		}
	}
}

// Get returns the member named key.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	if i := o.find(key); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
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

// Exotic stands for a YAML value with no JSON counterpart: yaml12's
// placeholder for an alias inside the very collection it names, whose
// Constructor is "array" or "object". Only that name is observable: it
// appears in schema messages.
type Exotic struct{ Constructor string }

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
		// Members are written in insertion order, or for the canonical
		// form in key order: keys are unique, so an unstable sort (of
		// positions) is exact, and objects whose keys are already in
		// order (common for small nested values) need no sort.
		var order []int
		if canonical && !slices.IsSortedFunc(x.keys, jsstring.Compare) {
			var scratch [32]int // frontmatter-sized objects sort without allocating
			order = scratch[:0]
			for i := range x.keys {
				order = append(order, i)
			}
			slices.SortFunc(order, func(a, b int) int { return jsstring.Compare(x.keys[a], x.keys[b]) })
		}
		dst = append(dst, '{')
		for n := range x.keys {
			i := n
			if order != nil {
				i = order[n]
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, x.keys[i])
			dst = append(dst, ':')
			dst = appendValue(dst, x.vals[i], canonical)
		}
		return append(dst, '}')
	case Exotic:
		// Not reachable for a valid record: the schema rejects exotic
		// values.
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
		if r != utf8.RuneError || size != 1 {
			dst = append(dst, s[i:i+size]...)
			i += size
			continue
		}
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
	}
	return append(dst, '"')
}
