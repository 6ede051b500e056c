package yaml12

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

func mustParse(t *testing.T, text string) *Document {
	t.Helper()
	doc, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q) failed: %v", text, err)
	}
	return doc
}

func checkValue(t *testing.T, text string, want any) {
	t.Helper()
	doc := mustParse(t, text)
	if got, w := describeString(doc.Value), describeString(want); got != w {
		t.Errorf("Parse(%q)\n got %s\nwant %s", text, got, w)
	}
}

// TestPlainScalars covers the Core-schema table of corpus.md §5: plain
// scalars only, everything not listed is a string.
func TestPlainScalars(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		plain string
		want  any
	}{
		// null
		{"", nil}, {"~", nil}, {"null", nil}, {"Null", nil}, {"NULL", nil}, {"nULL", "nULL"},
		// booleans
		{"true", true}, {"True", true}, {"TRUE", true}, {"false", false}, {"False", false}, {"FALSE", false},
		{"tRue", "tRue"}, {"yes", "yes"}, {"no", "no"}, {"on", "on"}, {"off", "off"}, {"y", "y"},
		// octal
		{"0o17", 15.0}, {"0o8", "0o8"}, {"0O17", "0O17"},
		// decimal integers, leading zeros included
		{"017", 17.0}, {"0012", 12.0}, {"+12", 12.0}, {"-12", -12.0}, {"0", 0.0}, {"-0", negZero}, {"+0", 0.0},
		{"12345678901234567890", 12345678901234567890.0}, {"9007199254740993", 9007199254740992.0},
		{strings.Repeat("9", 400), math.Inf(1)},
		// hexadecimal
		{"0x1F", 31.0}, {"0x1f", 31.0}, {"0X1F", "0X1F"}, {"-0x10", "-0x10"}, {"0x", "0x"}, {"0xg", "0xg"},
		{"0x1FFFFFFFFFFFFF1", float64(0x1FFFFFFFFFFFFF1)},
		// infinities and NaN
		{".inf", math.Inf(1)}, {"+.inf", math.Inf(1)}, {"-.inf", math.Inf(-1)}, {".Inf", math.Inf(1)}, {"-.INF", math.Inf(-1)},
		{".nan", math.NaN()}, {".NaN", math.NaN()}, {".NAN", math.NaN()}, {"-.nan", "-.nan"}, {"inf", "inf"}, {"nan", "nan"},
		// floats with exponent
		{"1e3", 1000.0}, {"1E3", 1000.0}, {"1.5e-3", 0.0015}, {".5e2", 50.0}, {"1.e2", 100.0}, {"-1e+2", -100.0},
		{"1e400", math.Inf(1)}, {"1e-400", 0.0}, {"1e", "1e"}, {"e3", "e3"},
		// floats
		{"1.", 1.0}, {".5", 0.5}, {"-.5", -0.5}, {"+1.5", 1.5}, {"-0.0", negZero}, {"0.1", 0.1},
		// strings
		{"0.1.0", "0.1.0"}, {"1_000", "1_000"}, {"1,000", "1,000"}, {"2026-01-01", "2026-01-01"},
		{"2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"}, {"12:30:00", "12:30:00"}, {"a b", "a b"},
	}
	for _, tt := range tests {
		t.Run(tt.plain, func(t *testing.T) {
			checkValue(t, "v: "+tt.plain+"\n", obj("v", tt.want))
			checkValue(t, "- "+tt.plain+"\n", arr(tt.want))
		})
	}
}

func TestQuotedScalars(t *testing.T) {
	tests := []struct {
		name, text string
		want       any
	}{
		{"double-quoted number", `v: "12"`, "12"},
		{"single-quoted bool", `v: 'true'`, "true"},
		{"quoted null", `v: "~"`, "~"},
		{"empty double", `v: ""`, ""},
		{"empty single", `v: ''`, ""},
		{"unicode and hex escapes", `v: "\u00e9\x41"`, "éA"},
		{"doubled single quote", `v: 'it''s'`, "it's"},
		{"C escapes", `v: "\0\a\b\e\f\n\r\t\v\\\"\/"`, "\x00\a\b\x1b\f\n\r\t\v\\\"/"},
		{"unicode line escapes", `v: "\N\_\L\P"`, "\u0085\u00a0\u2028\u2029"},
		{"eight-digit escape", `v: "\U0001F600"`, "😀"},
		{"surrogate pair escapes", `v: "\ud83d\ude00"`, "😀"},
		{"long surrogate pair escapes", `v: "\U0000d83d\U0000DE00"`, "😀"},
		{"lone high surrogate", `v: "\ud800"`, "\xed\xa0\x80"},
		{"lone surrogate then letter", `v: "\ud83dA"` + "", "\xed\xa0\xbdA"},
		{"surrogates in the wrong order", `v: "\ude00\ud83d"`, "\xed\xb8\x80\xed\xa0\xbd"},
		{"surrogate escape text in single quotes", `v: '\ud83d'`, `\ud83d`},
		{"surrogate escape text in a plain scalar", `v: a\ud83d`, `a\ud83d`},
		{"escaped backslash before u", `v: "\\ud83d"`, `\ud83d`},
		{"escaped backslash before slash", `v: "\\/"`, `\/`},
		{"escaped line break", "v: \"x\\\n  y\"", "xy"},
		{"folded double-quoted", "v: \"multi\n  line\"", "multi line"},
		{"folded single-quoted", "v: 'a\n\n  b'", "a\nb"},
		{"control character plain", "v: x\x01y", "x\x01y"},
		{"control character quoted", "v: \"x\x01y\"", "x\x01y"},
		{"NUL", "v: x\x00y", "x\x00y"},
		{"DEL and C1", "v: \x7f\u0085", "\x7f\u0085"},
		{"line separator is content", "v: x\u2028y", "x\u2028y"},
		{"paragraph separator in quotes", "v: \"x\u2029y\"", "x\u2029y"},
		{"lone CR is content", "v: x\ry", "x\ry"},
		{"U+FFFE is content", "v: x\uFFFEy", "x\uFFFEy"},
		{"private-use characters survive", "v: \ue000\"\\ue001\"", "\ue000\"\\ue001\""},
		{"private-use escape next to a swapped character", "v: \"\\ue000\x01\"", "\ue000\x01"},
		{"question mark in a flow URL", "v: [https://x.com/a?b=c]", arr("https://x.com/a?b=c")},
		{"question mark in a flow mapping", "v: {?a: b}", obj("?a", "b")},
		{"colon starting a flow scalar", "v: [:b]", arr(":b")},
		{"JSON-like key without space", `v: {"a":b}`, obj("a", "b")},
		{"question mark ending a flow item", "v: [why?, b?]", arr("why?", "b?")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkValue(t, tt.text+"\n", obj("v", tt.want))
		})
	}
}

func TestTags(t *testing.T) {
	tests := []struct {
		tagged string
		want   any
	}{
		{`!!str 12`, "12"},
		{`!!str`, ""},
		{`!!int "12"`, 12.0},
		{`!!int 0x1F`, 31.0},
		{`!!int "0o17"`, 15.0},
		{`!!int x`, "x"},
		{`!!int 1.5`, "1.5"},
		{"!!int |\n  12\n", "12\n"},
		{`!!float 1.5`, 1.5},
		{`!!float 1`, "1"},
		{`!!float .inf`, math.Inf(1)},
		{`!!bool "true"`, true},
		{`!!bool yes`, "yes"},
		{`!!null ""`, nil},
		{`!!null x`, "x"},
		{`!<tag:yaml.org,2002:int> 12`, 12.0},
		{`! 12`, "12"},
		{`! true`, "true"},
		{`&x ! 12`, "12"},
		{`! &x 12`, "12"},
		{`!`, ""},
		{`!foo 12`, "12"},
		{`!!foo 12`, "12"},
		{`!foo [1]`, arr(1.0)},
		{`!foo {b: 1}`, obj("b", 1.0)},
		{`!!map x`, "x"},
		{`!!str [1]`, arr(1.0)},
		{`!!seq {a: 1}`, obj("a", 1.0)},
	}
	for _, tt := range tests {
		t.Run(tt.tagged, func(t *testing.T) {
			checkValue(t, "v: "+tt.tagged+"\n", obj("v", tt.want))
		})
	}
}

func TestDocuments(t *testing.T) {
	tests := []struct {
		name, text string
		want       any
	}{
		{"empty", "", nil},
		{"blank lines", "\n\n", nil},
		{"only a comment", "# note\n", nil},
		{"only a document end marker", "...\n", nil},
		{"document end marker after content", "id: \"0020\"\n...\n", obj("id", "0020")},
		{"document end marker and comment", "a: 1\n... # end\n# more\n", obj("a", 1.0)},
		{"explicit document start", "--- \na: 1\n", obj("a", 1.0)},
		{"YAML 1.2 directive", "%YAML 1.2\n--- \na: yes\n", obj("a", "yes")},
		{"sequence root", "- a\n- b\n", arr("a", "b")},
		{"scalar root", "hello\n", "hello"},
		{"number root", "12\n", 12.0},
		{"nested", "a:\n  b:\n    - c: 1\n      d: [x, {y: z}]\n", obj("a", obj("b", arr(obj("c", 1.0, "d", arr("x", obj("y", "z"))))))},
		{"indentless sequence", "a:\n- 1\n- 2\n", obj("a", arr(1.0, 2.0))},
		{"block scalars", "a: |\n  one\n  two\nb: >-\n  folded\n  text\n\n  para\nc: |+\n  keep\n\nd: |2\n    x\n", obj("a", "one\ntwo\n", "b", "folded text\npara", "c", "keep\n\n", "d", "  x\n")},
		{"comments dropped", "a: plain # comment\nb: plain#not\n", obj("a", "plain", "b", "plain#not")},
		{"plain folding", "a: plain\n  continued\n", obj("a", "plain continued")},
		{"CRLF", "a: 1\r\nb: x\r\n", obj("a", 1.0, "b", "x")},
		{"tab separation", "a:\t1\n", obj("a", 1.0)},
		{"tab-only line", "a: 1\n\t\nb: 2\n", obj("a", 1.0, "b", 2.0)},
		{"tab before comment", "a: 1\n\t# c\n", obj("a", 1.0)},
		{"tab after a dash", "-\ta\n- \tb\n", arr("a", "b")},
		{"integer-like keys first", "b: 1\n10: 2\n2: 3\nx: 4\n-1: 5\n'01': 6\n", obj("2", 3.0, "10", 2.0, "b", 1.0, "x", 4.0, "-1", 5.0, "01", 6.0)},
		{"integer keys are decimal", "b: 1\n017: 2\n", obj("17", 2.0, "b", 1.0)},
		{"1 and '1' do not collide", "1: a\n'1': b\nc: d\n", obj("1", "b", "c", "d")},
		{"NaN keys never collide", ".nan: a\n.nan: b\n", obj("NaN", "b")},
		{"v and V differ", "v: 1\nV: 2\n", obj("v", 1.0, "V", 2.0)},
		{"number keys are stringified", "1.0: a\n0x1F: b\n.inf: c\n~: d\ntrue: e\n", obj("1", "a", "31", "b", "Infinity", "c", "", "d", "true", "e")},
		{"keys-only flow mapping as a key", "? [{a}, {b: 1}]\n: 1\n", obj("[ { a }, { b: 1 } ]", 1.0)},
		{"collection keys are stringified", "[a]: 1\n? [a, 'b c', 1, null, {x: y}]\n: 2\n? {}\n: 3\n? []\n: 4\n", obj("[ a ]", 1.0, "[ a, 'b c', 1, null, { x: y } ]", 2.0, "{}", 3.0, "[]", 4.0)},
		{"merge keys are ordinary keys", "b: &b {x: 1}\nc:\n  <<: *b\n", obj("b", obj("x", 1.0), "c", obj("<<", obj("x", 1.0)))},
		{"__proto__ is ordinary", "__proto__: {a: 1}\nconstructor: 2\n", obj("__proto__", obj("a", 1.0), "constructor", 2.0)},
		{"aliases expand", "tags: &t [a, b]\ncomplianceControls: *t\n", obj("tags", arr("a", "b"), "complianceControls", arr("a", "b"))},
		{"anchor redefined", "a: &a 1\nb: &a 2\nc: *a\n", obj("a", 1.0, "b", 2.0, "c", 2.0)},
		{"anchor on a key", "&a a: *a\n", obj("a", "a")},
		{"alias to scalar as key", "x: &a 1\n*a : 2\n", obj("1", 2.0, "x", 1.0)},
		{"alias to collection as key", "x: &a [1]\n*a : 2\n", obj("x", arr(1.0), "*a", 2.0)},
		{"self-referencing sequence", "a: &a [*a]\n", obj("a", arr(jsvalue.Exotic{Constructor: "array"}))},
		{"self-referencing mapping", "a: &a {b: *a}\n", obj("a", obj("b", jsvalue.Exotic{Constructor: "object"}))},
		{"99 aliases are fine", "a: &a x\nb: [" + strings.Repeat("*a, ", 98) + "*a]\n", obj("a", "x", "b", repeat("x", 99))},
		{"aliases to empty collections are not counted", "a: &a []\nb: [" + strings.Repeat("*a, ", 299) + "*a]\n", obj("a", arr(), "b", repeat(arr(), 300))},
		{"flow with trailing comma", "a: [1, 2, ]\n", obj("a", arr(1.0, 2.0))},
		{"flow pair in sequence", "a: [b: 1, c]\n", obj("a", arr(obj("b", 1.0), "c"))},
		{"flow continuation indented", "a: [x,\n  y]\nb: {c: 1,\n  d: 2}\n", obj("a", arr("x", "y"), "b", obj("c", 1.0, "d", 2.0))},
		{"flow closing bracket at parent column", "a: [x,\n]\n", obj("a", arr("x"))},
		{"root flow needs no indentation", "[a,\nb]\n", arr("a", "b")},
		{"no final line break", "a: |\n  x", obj("a", "x\n")},
		{"no final line break, keep", "a: |+\n  x", obj("a", "x\n")},
		{"no final line break, plain", "a: b", obj("a", "b")},
		{"final lone CR", "a: b\r", obj("a", "b\r")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkValue(t, tt.text, tt.want)
		})
	}
}

func repeat(v any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestSyntaxErrors covers the error table of corpus.md §5 and the checks
// this package adds where yaml.v3 is more lenient than the reference.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, text string
		line       int
	}{
		{"duplicate key", "a: 1\nb: 2\na: 3\n", 3},
		{"duplicate key, quoted and plain", "a: 1\n\"a\": 2\n", 2},
		{"duplicate key, 1 and 1.0", "1: a\n1.0: b\n", 2},
		{"duplicate key, 0 and -0", "0: a\n-0: b\n", 2},
		{"duplicate key, ~ and null", "~: a\nnull: b\n", 2},
		{"duplicate key, 0x10 and 16", "0x10: a\n16: b\n", 2},
		{"duplicate key in flow mapping", "a: {b: 1, b: 2}\n", 1},
		{"duplicate explicit key", "? a\n? a\n", 2},
		{"unclosed flow sequence", "title: [unclosed\n", 1},
		{"unclosed flow mapping", "a: {x: 1\n", 1},
		// yaml.v3 places an unclosed quote at the end of the text.
		{"unterminated double quote", "id: \"0042\n", 2},
		{"unterminated single quote", "a: 'x\n", 2},
		{"invalid escape", "a: \"x\\qy\"\n", 1},
		{"escape \\' is not YAML", "a: \"\\'\"\n", 1},
		{"short hex escape", "a: \"\\x4\"\n", 1},
		{"nested mapping in compact mapping", "a: b: c\n", 1},
		{"more indented second key", "a: 1\n a: 2\n", 2},
		{"content after document end", "a: 1\n...\nb: 2\n", 2},
		{"second document", "a: 1\n--- \nb: 2\n", 2},
		{"document end then content", "...\nb\n", 2},
		{"tab indentation", "a:\n\tb: 1\n", 2},
		{"tab indentation after content", "a: 1\n\tb: 2\n", 2},
		{"two anchors", "a: &x &y 1\n", 1},
		{"two tags", "a: !t !u 1\n", 1},
		{"plain value starting with @", "a: @foo\n", 1},
		{"plain value starting with backtick", "a: `x\n", 1},
		{"multi-line implicit key", "a\nb: 1\n", 2},
		{"key without value", "a: 1\nb\n", 2},
		// yaml.v3 reports the mapping the stray key breaks.
		{"mis-indented mapping", "a:\n  b: 1\n c: 2\n", 2},
		{"implicit key longer than 1024", strings.Repeat("k", 1025) + ": 1\n", 1},
		{"stray flow end", "a: ]\n", 1},
		{"YAML 1.1 directive", "%YAML 1.1\na: 1\n", 1},
		{"YAML 1.1 directive with document start", "%YAML 1.1\n--- \na: yes\n", 1},
		{"directive without document start", "%YAML 1.2\na: 1\n", 0},
		{"flow sequence not indented", "a: [a,\nb]\n", 2},
		{"flow mapping not indented", "a: {a: 1,\nb: 2}\n", 2},
		{"flow in nested mapping not indented", "b:\n  a: [x,\n  y]\n", 3},
		{"flow in sequence item not indented", "- [a,\nb]\n", 2},
		{"quoted scalar not indented", "a: \"x\ny\"\n", 2},
		{"single-quoted scalar not indented", "a: 'x\ny'\n", 2},
		{"quoted continuation indented by a tab", "k: \"a\n\tb\"\n", 2},
		{"block scalar at the key's column", "a:\n|\n x\n", 2},
		{"tag with unknown handle", "a: !e!x y\n", 1},
		{"tag without suffix", "a: !!st! 12\n", 1},
		{"verbatim non-specific tag", "a: !<!> x\n", 1},
		{"tag not separated", "a: !a,b\n", 1},
		{"tag touching a quote", "a: !!str\"x\"\n", 1},
		{"anchor not separated", "a: &x, b\n", 1},
		{"alias name with colon", "a: &a 1\n*a: 2\n", 2},
		{"comment touching a quote", "q: \"x\"#c\n", 1},
		{"comment touching a flow collection", "q: [x]#c\n", 1},
		{"comment touching a block scalar header", "q: |-#c\n  x\n", 1},
		{"flow scalar ending in a colon", "a: [x:]\n", 1},
		{"tag swallowing a comma", "a: [!, b]\n", 1},
		{"nesting too deep", "a: " + strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1) + "\n", 1},
		{"unclosed deep nesting", "a: " + strings.Repeat("[", 100000), 1},
		{"deep block sequences", strings.Repeat("- ", 20000) + "x\n", 1},
		{"timestamp tag on a non-date", "a: !!timestamp x\n", 1},
		{"set with a value", "a: !!set {a, b: 1}\n", 1},
		{"set with a tagged null", "a: !!set {a: !!null ~}\n", 1},
		{"omap with a repeated key", "a: !!omap [a: 1, a: 2]\n", 1},
		{"pairs entry with two keys", "a: !!pairs [{a: 1, b: 2}]\n", 1},
		// The YAML 1.1 tags that build no data (ADR 0030).
		{"binary", "a: !!binary aGk=\n", 1},
		{"binary block scalar", "a: !!binary |\n  aGVs\n  bG8=\n", 1},
		{"timestamp on a date", "a: !!timestamp 2026-01-01\n", 1},
		{"set", "a: !!set {a, b}\n", 1},
		{"set on a sequence", "a: !!set [a]\n", 1},
		{"omap", "a: !!omap [a: 1, b: 2]\n", 1},
		{"omap with repeated alias keys", "a: !!omap [&k x: 1, *k : 2]\n", 1},
		{"pairs on a mapping", "a: !!pairs {a: 1}\n", 1},
		{"verbatim set", "a: !<tag:yaml.org,2002:set> {a}\n", 1},
		{"binary key", "? !!binary aGk=\n: 1\n", 1},
		{"unsupported tag deep inside", "a:\n  b: [x, !!timestamp 2026-01-01]\n", 2},
		{"alias before syntax error", "a: *x\nb: [\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.text)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) = %v, want a *SyntaxError", tt.text, err)
			}
			if len(se.Problems) == 0 || se.Problems[0].Message == "" {
				t.Fatalf("Parse(%q): no problem described", tt.text)
			}
			p := se.Problems[0]
			if strings.Contains(p.Message, "yaml:") || lineNumber.MatchString(p.Message) {
				t.Errorf("Parse(%q): message %q should be ours and carry no line", tt.text, p.Message)
			}
			if tt.line != 0 && p.Line != tt.line {
				t.Errorf("Parse(%q): line %d (%s), want %d", tt.text, p.Line, p.Message, tt.line)
			}
			if se.Error() != p.Message {
				t.Errorf("Error() = %q, want the first message", se.Error())
			}
		})
	}
}

var lineNumber = regexp.MustCompile(`line \d`)

func TestResolveErrors(t *testing.T) {
	laughs := "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	for i := 1; i < 10; i++ {
		laughs += "a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " [" + strings.TrimSuffix(strings.Repeat("*a"+strconv.Itoa(i-1)+", ", 10), ", ") + "]\n"
	}
	// Empty collections are not counted by the reference's alias limit, so
	// doubling them stays under it; the size bound stops this one.
	doubling := "e0: &e0 [[], []]\n"
	for i := 1; i < 40; i++ {
		doubling += "e" + strconv.Itoa(i) + ": &e" + strconv.Itoa(i) + " [*e" + strconv.Itoa(i-1) + ", *e" + strconv.Itoa(i-1) + "]\n"
	}
	tests := []struct {
		name, text string
		line       int
	}{
		{"undefined anchor", "a: *x\n", 1},
		{"anchor defined after the alias", "a: *x\nb: &x 1\n", 1},
		{"anchor defined later in the same flow", "a: [*x, &x 1]\n", 1},
		{"undefined anchor after a valid one", "a: &y 1\nb: *y\nc: *x\n", 3},
		{"undefined anchor with a document start", "--- \na: *x\n", 2},
		{"undefined anchor with a directive", "%YAML 1.2\n--- \na: *x\n", 3},
		{"100 aliases to one scalar", "a: &a x\nb: [" + strings.Repeat("*a, ", 99) + "*a]\n", 2},
		{"aliases of aliases", "a: &a [x]\nb: &b [" + strings.Repeat("*a, ", 9) + "*a]\nc: [" + strings.Repeat("*b, ", 10) + "*b]\n", 3},
		{"billion laughs", laughs, 0},
		{"doubling empty collections", doubling, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.text)
			var re *ResolveError
			if !errors.As(err, &re) {
				t.Fatalf("Parse(%q) = %v, want a *ResolveError", tt.text, err)
			}
			if re.Message == "" || re.Error() != re.Message {
				t.Fatalf("bad message %q", re.Message)
			}
			if tt.line != 0 && re.Line != tt.line {
				t.Errorf("line %d, want %d", re.Line, tt.line)
			}
		})
	}
}

func TestDepthLimit(t *testing.T) {
	ok := "a: " + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + "\n"
	if _, err := Parse(ok); err != nil {
		t.Fatalf("%d levels: %v", maxDepth, err)
	}
	tooDeep := "a: " + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + "\n"
	var se *SyntaxError
	if _, err := Parse(tooDeep); !errors.As(err, &se) {
		t.Fatalf("%d levels: %v, want a *SyntaxError", maxDepth+1, err)
	}
}

func TestLines(t *testing.T) {
	text := `id: "0001"
title: x
affects:
  - type: path
    pattern: "src/**"
  - {type: path, pattern: b}
review:
  objections:
    - by: "@a"
    -
      by: "@b"
tags: &t [a,
  b]
other: *t
1: one
`
	doc := mustParse(t, text)
	want := map[string]int{
		"":                       1,
		"id":                     1,
		"title":                  2,
		"affects":                3,
		"affects.0":              4,
		"affects.0.type":         4,
		"affects.0.pattern":      5,
		"affects.1":              6,
		"affects.1.pattern":      6,
		"review":                 7,
		"review.objections":      8,
		"review.objections.0":    9,
		"review.objections.1":    11,
		"review.objections.1.by": 11,
		"tags":                   12,
		"tags.1":                 13,
		"other":                  14,
		"1":                      15,
	}
	for path, line := range want {
		if got, ok := doc.Lines[path]; !ok || got != line {
			t.Errorf("Lines[%q] = %d, %v; want %d", path, got, ok, line)
		}
	}
	if _, ok := doc.Lines["other.0"]; ok {
		t.Errorf("paths inside an alias should not be listed")
	}
	if got := doc.Line("other.0"); got != 14 {
		t.Errorf("Line(other.0) = %d, want the alias's line 14", got)
	}
	if got := doc.Line("affects.0.pattern.x.y"); got != 5 {
		t.Errorf("Line falls back to %d, want 5", got)
	}
	if got := doc.Line("nowhere"); got != 1 {
		t.Errorf("Line(nowhere) = %d, want the root's line 1", got)
	}
	if got := (*Document)(nil).Line("a"); got != 0 {
		t.Errorf("nil Document Line = %d", got)
	}

	deep := mustParse(t, "a: "+strings.Repeat("[", maxLinesDepth+5)+strings.Repeat("]", maxLinesDepth+5)+"\n")
	for path := range deep.Lines {
		if n := strings.Count(path, ".") + 1; path != "" && n > maxLinesDepth {
			t.Errorf("path %q is deeper than maxLinesDepth", path)
		}
	}

	empty := mustParse(t, "# nothing\n")
	if empty.Lines[""] != 1 {
		t.Errorf("empty document root line %d", empty.Lines[""])
	}
	aliased := mustParse(t, "x: &a 1\ny:\n  - *a\n")
	if aliased.Lines["y.0"] != 3 {
		t.Errorf("Lines[y.0] = %d, want the alias's line 3", aliased.Lines["y.0"])
	}
}

// TestLinesWithUndefinedAnchorPrefix checks that the stand-in document
// used for undefined anchors does not shift the lines of syntax errors.
func TestLinesWithUndefinedAnchorPrefix(t *testing.T) {
	_, err := Parse("a: *x\nb: 1\nc: [\n")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Problems[0].Line != 3 {
		t.Fatalf("got %v (%+v), want a syntax error on line 3", err, se)
	}
}

type referenceCase struct {
	YAML      string `json:"yaml"`
	Kind      string `json:"kind"`
	Value     string `json:"value"`
	OursKind  string `json:"ours_kind"`
	OursValue string `json:"ours_value"`
}

func loadCases(t *testing.T, name string) []referenceCase {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var cases []referenceCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func outcome(text string) (kind, value string) {
	doc, err := Parse(text)
	var se *SyntaxError
	var re *ResolveError
	switch {
	case err == nil:
		return "ok", describeString(doc.Value)
	case errors.As(err, &se):
		return "syntax", ""
	case errors.As(err, &re):
		return "resolve", ""
	}
	return "other: " + err.Error(), ""
}

// TestReference replays documents whose outcome was recorded from the
// reference's YAML library (yaml 2.9.0, parseDocument strict + toJS): ok
// with the exact value, or a syntax error, or an error while building the
// value.
func TestReference(t *testing.T) {
	for i, c := range loadCases(t, "testdata/reference.json") {
		kind, value := outcome(c.YAML)
		if kind != c.Kind || value != c.Value {
			t.Errorf("case %d %q:\n got %s %s\nwant %s %s", i, c.YAML, kind, value, c.Kind, c.Value)
		}
	}
}

// TestKnownDivergences pins what we do where we knowingly differ from
// the reference (docs/yaml-dialect.md explains each).
func TestKnownDivergences(t *testing.T) {
	for i, c := range loadCases(t, "testdata/divergences.json") {
		kind, value := outcome(c.YAML)
		if kind != c.OursKind || value != c.OursValue {
			t.Errorf("case %d %q:\n got %s %s\nwant %s %s (reference: %s %s)", i, c.YAML, kind, value, c.OursKind, c.OursValue, c.Kind, c.Value)
		}
	}
}

func TestDeterministic(t *testing.T) {
	text := "b: 1\na: &x [1, {c: 2}]\nd: *x\n? [k]\n: v\n"
	first := mustParse(t, text)
	for range 20 {
		again := mustParse(t, text)
		if describeString(again.Value) != describeString(first.Value) {
			t.Fatal("value differs between runs")
		}
		if len(again.Lines) != len(first.Lines) {
			t.Fatal("lines differ between runs")
		}
		for k, v := range first.Lines {
			if again.Lines[k] != v {
				t.Fatalf("Lines[%q] differs", k)
			}
		}
	}
}
