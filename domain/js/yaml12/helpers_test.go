package yaml12

import (
	"math"

	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// describe writes a value as tagged JSON that keeps every distinction the
// reference's values have and JSON would lose: numbers as ["n", text] with
// JavaScript's spelling (so -0, NaN and Infinity survive), objects as
// ["o", [[key, value], ...]] in member order, exotic values as
// ["x", constructor], and the placeholder for a cyclic alias as ["cycle"].
// testdata/reference.json records the reference's values in this form.
func describe(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return jsvalue.AppendJSON(dst, x)
	case float64:
		var s string
		switch {
		case math.IsNaN(x):
			s = "NaN"
		case math.IsInf(x, 1):
			s = "Infinity"
		case math.IsInf(x, -1):
			s = "-Infinity"
		case x == 0 && math.Signbit(x):
			s = "-0"
		default:
			s = string(jsvalue.AppendNumber(nil, x))
		}
		dst = append(dst, `["n",`...)
		dst = jsvalue.AppendString(dst, s)
		return append(dst, ']')
	case string:
		return jsvalue.AppendString(dst, x)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = describe(dst, e)
		}
		return append(dst, ']')
	case *jsvalue.Object:
		dst = append(dst, `["o",[`...)
		for i, k := range x.Keys() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '[')
			dst = jsvalue.AppendString(dst, k)
			dst = append(dst, ',')
			e, _ := x.Get(k)
			dst = describe(dst, e)
			dst = append(dst, ']')
		}
		return append(dst, "]]"...)
	case jsvalue.Exotic:
		if x == cyclicArray || x == cyclicObject {
			return append(dst, `["cycle"]`...)
		}
		dst = append(dst, `["x",`...)
		dst = jsvalue.AppendString(dst, x.Constructor)
		return append(dst, ']')
	}
	return append(dst, `["?"]`...)
}

func describeString(v any) string { return string(describe(nil, v)) }

// obj builds an object from alternating keys and values, in that order.
func obj(kv ...any) *jsvalue.Object {
	o := jsvalue.NewObject(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

func arr(v ...any) []any {
	if v == nil {
		return []any{}
	}
	return v
}
