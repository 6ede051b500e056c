package jsvalue

import (
	"math"
	"testing"
)

// tenth and fifth are variables so that their sum is computed in float64
// (a constant tenth + fifth would be exactly 0.3).
var tenth, fifth = 0.1, 0.2

func TestAppendNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1.5, "-1.5"},
		{14, "14"},
		{tenth + fifth, "0.30000000000000004"},
		{1e21, "1e+21"},
		{1.5e21, "1.5e+21"},
		{1e20, "100000000000000000000"},
		{123456789012345680000, "123456789012345680000"},
		{1e-6, "0.000001"},
		{1.5e-6, "0.0000015"},
		{1e-7, "1e-7"},
		{-1.5e-7, "-1.5e-7"},
		{1.23e-18, "1.23e-18"},
		{1e-100, "1e-100"},
		{1e300, "1e+300"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{9007199254740991, "9007199254740991"},
		{9007199254740992, "9007199254740992"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{math.Inf(-1), "null"},
	}
	for _, tc := range tests {
		if got := string(AppendNumber(nil, tc.in)); got != tc.want {
			t.Errorf("AppendNumber(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestAppendString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "abc", `"abc"`},
		{"empty", "", `""`},
		{"short escapes", "\"\\\b\f\n\r\t", `"\"\\\b\f\n\r\t"`},
		{"other controls lower hex", "\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"html and slash raw", "</a>&", `"</a>&"`},
		{"DEL raw", "\x7f", "\"\x7f\""},
		{"line separators raw", "\u2028\u2029", "\"\u2028\u2029\""},
		{"non-ASCII raw", "é😀\uFFFF", "\"é😀\uFFFF\""},
		{"lone high surrogate", "\xed\xa0\x80", `"\ud800"`},
		{"lone low surrogate", "a\xed\xbf\xbfb", `"a\udfffb"`},
		{"invalid byte", "a\xffb", "\"a\uFFFDb\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendString(nil, tc.in)); got != tc.want {
				t.Errorf("AppendString(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

// TestSerializerCheckVector is the serializer check of corpus.md §12.
func TestSerializerCheckVector(t *testing.T) {
	s := "a\"b\\c\n\t\x01\x7f\u2028é😀\xed\xa0\x80/<>&"
	o := NewObject(2)
	o.Set("s", s)
	o.Set("n", []any{1.0, 1.5, 1e21, 1e-7, math.Copysign(0, -1), tenth + fifth})
	want := "{\"n\":[1,1.5,1e+21,1e-7,0,0.30000000000000004],\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\x7f\u2028é😀\\ud800/<>&\"}"
	if got := string(AppendCanonical(nil, o)); got != want {
		t.Errorf("canonical =\n%s\nwant\n%s", got, want)
	}
	wantInsertion := "{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\x7f\u2028é😀\\ud800/<>&\",\"n\":[1,1.5,1e+21,1e-7,0,0.30000000000000004]}"
	if got := string(AppendJSON(nil, o)); got != wantInsertion {
		t.Errorf("insertion order =\n%s\nwant\n%s", got, wantInsertion)
	}
}

func TestCanonicalKeyOrder(t *testing.T) {
	inner := NewObject(3)
	inner.Set("z", true)
	inner.Set("Z", false)
	inner.Set("m", nil)
	o := NewObject(8)
	for _, k := range []string{"b", "\uFFFF", "a", "😀", "B", "aa", "", "\uE000"} {
		o.Set(k, 1.0)
	}
	o.Set("a", []any{inner, "x", []string{"q", "p"}})
	wantCanon := `{"":1,"B":1,"a":[{"Z":false,"m":null,"z":true},"x",["q","p"]],"aa":1,"b":1,"😀":1,"` + "\uE000" + `":1,"` + "\uFFFF" + `":1}`
	if got := string(AppendCanonical(nil, o)); got != wantCanon {
		t.Errorf("canonical =\n%s\nwant\n%s", got, wantCanon)
	}
	// Replacing "a" kept its position; nested objects keep insertion order.
	wantJSON := `{"b":1,"` + "\uFFFF" + `":1,"a":[{"z":true,"Z":false,"m":null},"x",["q","p"]],"😀":1,"B":1,"aa":1,"":1,"` + "\uE000" + `":1}`
	if got := string(AppendJSON(nil, o)); got != wantJSON {
		t.Errorf("JSON =\n%s\nwant\n%s", got, wantJSON)
	}
	// Canonical serialisation must not reorder the object itself.
	if got := o.Keys()[0]; got != "b" {
		t.Errorf("first key after canonical write = %q, want b", got)
	}
}

func TestAppendValueKinds(t *testing.T) {
	var nilObj *Object
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"null", nil, "null"},
		{"true", true, "true"},
		{"false", false, "false"},
		{"int", 20, "20"},
		{"float", 2.5, "2.5"},
		{"nil object", nilObj, "null"},
		{"empty object", NewObject(0), "{}"},
		{"nil any slice", []any(nil), "[]"},
		{"nil string slice", []string(nil), "[]"},
		{"exotic", Exotic{Constructor: "Date"}, "{}"},
		{"query shape", []any{"the", []string{}, []string{}, []string{}, 1}, `["the",[],[],[],1]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendJSON(nil, tc.in)); got != tc.want {
				t.Errorf("AppendJSON = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestObject(t *testing.T) {
	o := NewObject(0)
	o.Set("x", 1.0)
	o.Set("y", 2.0)
	o.Set("x", 3.0)
	if o.Len() != 2 || !o.Has("x") || o.Has("z") {
		t.Fatalf("Len/Has wrong: %d", o.Len())
	}
	if v, _ := o.Get("x"); v != 3.0 {
		t.Errorf("Get(x) = %v", v)
	}
	var nilObj *Object
	if nilObj.Len() != 0 || nilObj.Keys() != nil || nilObj.Has("x") {
		t.Error("nil object should be empty")
	}
	b, err := o.MarshalJSON()
	if err != nil || string(b) != `{"x":3,"y":2}` {
		t.Errorf("MarshalJSON = %s, %v", b, err)
	}
}
