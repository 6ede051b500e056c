package yaml12

import (
	"bytes"
	"testing"

	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// FuzzJSONIsYAML strengthens FuzzParse with a round trip. JSON is YAML
// 1.2 (flow collections, double-quoted strings, Core-schema numbers,
// true, false and null), so the JSON text of any value Parse accepts must
// parse again, to a value with the very same JSON text. This catches a
// decoder that reads escapes, numbers, key order, empty collections or
// nesting differently in the flow style it will meet in frontmatter.
//
// Values with no JSON form (NaN and the infinities become null, lone
// surrogates stay \u escapes) are part of the property: JSON.stringify's
// text is what must survive, not the original value. Documents nested
// deeper than the 1000-level limit never get this far.
func FuzzJSONIsYAML(f *testing.F) {
	for _, s := range []string{
		"id: \"0001\"\ntitle: Adopt\nstatus: accepted\ndate: 2026-01-01\ntags: [a, b]\n",
		"a: [1, 1.5, -0.0, 1e300, .inf, .nan, 0x1F, 0o17, 017, +12]\n",
		"\"\\ud800\\udc00\\ud800x\": \"\\u2028\\t\\\"\\\\\\/\"\n",
		"7: a\n1: b\nx: {}\ny: []\n__proto__: null\n",
		"- [[[], {}], {a: {b: [c]}}]\n- ~\n- true\n",
		"k: |\n  line\n   more\n\nl: >-\n  folded\n  text\n",
		"a: &x [1, 2]\nb: *x\n",
		"[a]: 1\n{b: c}: 2\n",
		"k: 'it''s'\n",
		"12345678901234567890: 9007199254740993\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		doc, err := Parse(text)
		if err != nil {
			return
		}
		out := jsvalue.AppendJSON(nil, doc.Value)
		again, err := Parse(string(out))
		if err != nil {
			t.Fatalf("the JSON text of an accepted document does not parse:\n%q\n%s\n%v", text, out, err)
		}
		if back := jsvalue.AppendJSON(nil, again.Value); !bytes.Equal(back, out) {
			t.Fatalf("JSON round trip changed the value:\n%q\n%s\n%s", text, out, back)
		}
	})
}
