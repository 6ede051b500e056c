package jsvalue

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// sameValue compares two values exactly: numbers by their bits, objects
// member by member in order.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil, bool, string:
		return a == b
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Object:
		y, ok := b.(*Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		xk, yk := x.Keys(), y.Keys()
		for i, k := range xk {
			if yk[i] != k {
				return false
			}
			xv, _ := x.Get(k)
			yv, _ := y.Get(k)
			if !sameValue(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// awkwardStrings exercise every escape AppendString writes, non-ASCII
// text, WTF-8 lone surrogates and keys whose code-unit order differs
// from their byte order.
var awkwardStrings = []string{
	"", "a", "b", "Z", "_", "id", "title", "\"", "\\", "\b\f\n\r\t", "\x00\x1f", "</a>&", "\x7f",
	"\u2028\u2029", "é", "😀", "\uFFFF", "\uff61", "\xed\xa0\x80", "\xed\xb0\x80x", "a\"b\\c", "0", "10", "2",
}

func randomValue(r *rand.Rand, depth int) any {
	switch k := r.IntN(8); {
	case k == 0:
		return nil
	case k == 1:
		return r.IntN(2) == 0
	case k == 2:
		fs := []float64{0, 1, -1.5, 0.1, 1e21, 1e-7, 123456789012345680000, 5e-324, math.MaxFloat64, 9007199254740993, 4.35}
		return fs[r.IntN(len(fs))]
	case k < 5 || depth > 3:
		return awkwardStrings[r.IntN(len(awkwardStrings))]
	case k == 5:
		n := r.IntN(4)
		items := make([]any, n)
		for i := range items {
			items[i] = randomValue(r, depth+1)
		}
		return items
	}
	return randomObject(r, depth+1)
}

func randomObject(r *rand.Rand, depth int) *Object {
	n := r.IntN(6)
	if r.IntN(10) == 0 {
		n = 40 // past indexFrom
	}
	o := NewObject(n)
	for i := range n {
		k := awkwardStrings[r.IntN(len(awkwardStrings))]
		if n > len(awkwardStrings) {
			k += strconv.Itoa(i)
		}
		o.Set(k, randomValue(r, depth))
	}
	return o
}

// TestFreezeRoundTrips holds a frozen object to the tree it was made
// from: the same JSON and canonical text, the same members when read.
func TestFreezeRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 1000 {
		o := randomObject(r, 0)
		f := Freeze(o)
		if !f.Frozen() {
			t.Fatalf("case %d: %s did not freeze", i, AppendJSON(nil, o))
		}
		if got, want := string(AppendJSON(nil, f)), string(AppendJSON(nil, o)); got != want {
			t.Fatalf("case %d: JSON\n got %s\nwant %s", i, got, want)
		}
		if got, want := string(AppendCanonical(nil, f)), string(AppendCanonical(nil, o)); got != want {
			t.Fatalf("case %d: canonical\n got %s\nwant %s", i, got, want)
		}
		if !sameValue(f.Expand(), o) || !sameValue(f, o) {
			t.Fatalf("case %d: %s reads back differently", i, AppendJSON(nil, o))
		}
		if got, _ := f.MarshalJSON(); string(got) != string(AppendJSON(nil, o)) {
			t.Fatalf("case %d: MarshalJSON differs", i)
		}
	}
}

func TestFreezeKeepsWhatJSONCannotCarry(t *testing.T) {
	for _, v := range []any{math.Copysign(0, -1), math.NaN(), math.Inf(1), Exotic{Constructor: "Date"}, []string{"a"}, 3} {
		o := NewObject(1)
		o.Set("k", []any{v})
		if f := Freeze(o); f != o {
			t.Errorf("%v: froze to %s", v, f.json)
		}
	}
	if Freeze(nil) != nil {
		t.Error("Freeze(nil) is not nil")
	}
}

func TestFrozenSetThaws(t *testing.T) {
	o := NewObject(2)
	o.Set("b", "x")
	o.Set("a", []any{1.0})
	f := Freeze(o)
	f.Set("b", "y")
	f.Set("c", true)
	if f.Frozen() {
		t.Fatal("still frozen after Set")
	}
	if got := string(AppendJSON(nil, f)); got != `{"b":"y","a":[1],"c":true}` {
		t.Errorf("after Set: %s", got)
	}
	if got := string(AppendJSON(nil, o)); got != `{"b":"x","a":[1]}` {
		t.Errorf("the original changed: %s", got)
	}
}

func TestExpandSharesText(t *testing.T) {
	o := NewObject(1)
	o.Set("title", "Adopt PostgreSQL")
	f := Freeze(o)
	v, _ := f.Expand().Get("title")
	s := v.(string)
	if i := strings.Index(f.json, s); i < 0 || !sameBacking(f.json[i:i+len(s)], s) {
		t.Error("the decoded string is a copy, not part of the frozen text")
	}
}

// sameBacking reports whether two strings share their bytes.
func sameBacking(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}
