package jsvalue

import (
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/jsstring"
)

// A frozen object holds its members as the JSON text AppendJSON writes
// for them, in one string, instead of as a tree of member slices, boxed
// values and nested objects. A server keeps one validated frontmatter
// object per record for as long as the record is unchanged, and mostly
// only serialises it (get_decision, the fingerprint): as text it takes
// about a third of the memory, and the garbage collector has one pointer
// to follow instead of dozens.
//
// Reading a frozen object's members (Get, Keys, Len, Has) decodes the text
// again on every call; Set thaws it back into a tree first.

// Freeze returns a new object with the members of o, frozen as JSON
// text; o is left as it was. Only plain data freezes (see Freezable); for
// anything else Freeze returns o itself.
func Freeze(o *Object) *Object {
	if o == nil || o.json != "" || !Freezable(o) {
		return o
	}
	// The text is written into a recycled buffer and copied once at its
	// exact size: growing a fresh buffer would leave garbage of the very
	// sizes that long-lived records are made of, and holes among them.
	buf := freezeBuffers.Get().(*[]byte)
	b := AppendJSON((*buf)[:0], o)
	f := &Object{json: string(b)}
	if cap(b) <= maxPooledBuffer {
		*buf = b
		freezeBuffers.Put(buf)
	}
	return f
}

// Freezable reports whether o is plain data, which Freeze freezes: null,
// booleans, finite numbers other than -0, strings, []any and *Object,
// nested to any depth, whose JSON text decodes back to exactly the same
// values. NaN, an exotic value, a []string or -0 (which JSON writes as 0)
// make it not so.
func Freezable(o *Object) bool { return o != nil && freezable(o) }

// MakeFrozen sets *dst to the frozen object whose JSON text is text, for
// a caller that wrote the text itself (AppendJSON of a Freezable object,
// nothing else), say into one allocation with other strings it keeps as
// long, and wants the object inside an allocation of its own.
func MakeFrozen(dst *Object, text string) {
	*dst = Object{json: text}
}

// freezeBuffers recycles Freeze's buffers; one larger than
// maxPooledBuffer (a hostile document) is left to the collector.
var freezeBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 4096)
	return &b
}}

const maxPooledBuffer = 64 << 10

// Frozen reports whether o holds its members as JSON text.
func (o *Object) Frozen() bool { return o != nil && o.json != "" }

// FrozenText is the JSON text a frozen object holds (what AppendJSON
// writes for it), or "" when o is not frozen.
func (o *Object) FrozenText() string {
	if o == nil {
		return ""
	}
	return o.json
}

// Expand returns o as a tree: o itself when it is not frozen, otherwise a
// new object decoded from its text. The strings of a decoded object are
// substrings of the frozen text wherever they needed no unescaping, so
// values taken from it share that one allocation.
func (o *Object) Expand() *Object {
	if o == nil || o.json == "" {
		return o
	}
	d := decoder{s: o.json}
	v := d.value()
	obj, _ := v.(*Object)
	return obj
}

// thaw turns a frozen object back into a tree in place.
func (o *Object) thaw() {
	t := o.Expand()
	o.keys, o.vals, o.index, o.json = t.keys, t.vals, t.index, ""
}

// freezable reports whether v round-trips exactly through its JSON text.
func freezable(v any) bool {
	switch x := v.(type) {
	case nil, bool, string:
		return true
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0) && !(x == 0 && math.Signbit(x))
	case []any:
		for _, e := range x {
			if !freezable(e) {
				return false
			}
		}
		return true
	case *Object:
		if x == nil {
			return false
		}
		if x.json != "" {
			return true
		}
		for _, e := range x.vals {
			if !freezable(e) {
				return false
			}
		}
		return true
	}
	return false
}

// decoder reads JSON text that AppendJSON wrote. It trusts its input:
// malformed text decodes to something, never panics, but is not
// diagnosed.
type decoder struct {
	s string
	i int
}

func (d *decoder) skipSpace() {
	for d.i < len(d.s) && (d.s[d.i] == ' ' || d.s[d.i] == '\n' || d.s[d.i] == '\t' || d.s[d.i] == '\r') {
		d.i++
	}
}

func (d *decoder) value() any {
	d.skipSpace()
	if d.i >= len(d.s) {
		return nil
	}
	switch c := d.s[d.i]; {
	case c == '{':
		d.i++
		var keys []string
		var vals []any
		for {
			d.skipSpace()
			if d.i >= len(d.s) || d.s[d.i] == '}' {
				d.i++
				break
			}
			if d.s[d.i] == ',' {
				d.i++
				continue
			}
			k := d.str()
			d.skipSpace()
			if d.i < len(d.s) && d.s[d.i] == ':' {
				d.i++
			}
			keys = append(keys, k)
			vals = append(vals, d.value())
		}
		return ObjectOf(keys, vals)
	case c == '[':
		d.i++
		items := []any{}
		for {
			d.skipSpace()
			if d.i >= len(d.s) || d.s[d.i] == ']' {
				d.i++
				break
			}
			if d.s[d.i] == ',' {
				d.i++
				continue
			}
			items = append(items, d.value())
		}
		return items
	case c == '"':
		return d.str()
	case c == 't':
		d.i += len("true")
		return true
	case c == 'f':
		d.i += len("false")
		return false
	case c == 'n':
		d.i += len("null")
		return nil
	}
	start := d.i
	for d.i < len(d.s) && !isDelimiter(d.s[d.i]) {
		d.i++
	}
	f, _ := strconv.ParseFloat(d.s[start:d.i], 64)
	return f
}

func isDelimiter(c byte) bool {
	return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ':'
}

// str reads a string at d.i (its opening quote) and returns it unescaped:
// a substring of the text when it holds no escape. \uXXXX naming a
// surrogate becomes its WTF-8 bytes, as AppendString reads them.
func (d *decoder) str() string {
	if d.i >= len(d.s) || d.s[d.i] != '"' {
		return ""
	}
	d.i++
	start := d.i
	for d.i < len(d.s) && d.s[d.i] != '"' && d.s[d.i] != '\\' {
		d.i++
	}
	if d.i >= len(d.s) || d.s[d.i] == '"' {
		out := d.s[start:d.i]
		d.i++
		return out
	}
	b := []byte(d.s[start:d.i])
	for d.i < len(d.s) && d.s[d.i] != '"' {
		c := d.s[d.i]
		if c != '\\' || d.i+1 >= len(d.s) {
			b = append(b, c)
			d.i++
			continue
		}
		e := d.s[d.i+1]
		d.i += 2
		switch e {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			if d.i+4 > len(d.s) {
				d.i = len(d.s)
				break
			}
			u, err := strconv.ParseUint(d.s[d.i:d.i+4], 16, 32)
			d.i += 4
			if err != nil {
				break
			}
			if u >= 0xD800 && u <= 0xDFFF {
				b = append(b, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
			} else {
				b = utf8.AppendRune(b, rune(u))
			}
		default:
			b = append(b, e)
		}
	}
	d.i++
	return string(b)
}

// member is one member of an object in JSON text: the key as written
// (quotes included), the key unescaped, and the offset of the value.
type member struct {
	rawKey, key string
	val         int
}

// appendCanonicalText appends the canonical form of JSON text j that
// AppendJSON wrote: the same text with every object's members in key
// order (UTF-16 code units, as AppendCanonical sorts them). Keys and
// scalars are copied as written, which is how AppendString and
// AppendNumber wrote them.
func appendCanonicalText(dst []byte, j string) []byte {
	d := decoder{s: j}
	return d.canonical(dst)
}

func (d *decoder) canonical(dst []byte) []byte {
	d.skipSpace()
	if d.i >= len(d.s) {
		return dst
	}
	switch d.s[d.i] {
	case '[':
		d.i++
		dst = append(dst, '[')
		first := true
		for {
			d.skipSpace()
			if d.i >= len(d.s) || d.s[d.i] == ']' {
				d.i++
				return append(dst, ']')
			}
			if d.s[d.i] == ',' {
				d.i++
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = d.canonical(dst)
		}
	case '{':
		var scratch [32]member // frontmatter-sized objects need no allocation
		ms := d.members(scratch[:0])
		if !slices.IsSortedFunc(ms, compareMembers) {
			slices.SortFunc(ms, compareMembers)
		}
		dst = append(dst, '{')
		for i, m := range ms {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, m.rawKey...)
			dst = append(dst, ':')
			// The value is read again from where it starts, by this
			// decoder (a new one per member would be allocated).
			end := d.i
			d.i = m.val
			dst = d.canonical(dst)
			d.i = end
		}
		return append(dst, '}')
	}
	start := d.i
	d.skipValue()
	return append(dst, d.s[start:d.i]...)
}

func compareMembers(a, b member) int { return jsstring.Compare(a.key, b.key) }

// members reads the object at d.i into ms.
func (d *decoder) members(ms []member) []member {
	d.i++
	for {
		d.skipSpace()
		if d.i >= len(d.s) || d.s[d.i] == '}' {
			d.i++
			return ms
		}
		if d.s[d.i] == ',' {
			d.i++
			continue
		}
		ks := d.i
		key := d.str()
		rawKey := d.s[ks:min(d.i, len(d.s))]
		d.skipSpace()
		if d.i < len(d.s) && d.s[d.i] == ':' {
			d.i++
		}
		d.skipSpace()
		ms = append(ms, member{rawKey: rawKey, key: key, val: d.i})
		d.skipValue()
	}
}

// skipValue moves past the value at d.i.
func (d *decoder) skipValue() {
	if d.i >= len(d.s) {
		return
	}
	switch d.s[d.i] {
	case '"':
		d.i++
		for d.i < len(d.s) && d.s[d.i] != '"' {
			if d.s[d.i] == '\\' {
				d.i++
			}
			d.i++
		}
		d.i++
	case '[', '{':
		depth := 0
		for d.i < len(d.s) {
			switch d.s[d.i] {
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			case '"':
				d.skipValue()
				continue
			}
			d.i++
			if depth == 0 {
				return
			}
		}
	default:
		for d.i < len(d.s) && !isDelimiter(d.s[d.i]) {
			d.i++
		}
	}
}
