package markers

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The cases below are the reference implementation's own scanner cases
// (packages/core/test/markers-scan.test.ts in mbeacom/adrkit), restated
// as facts: a source, the path it is scanned under, and the refs it
// declares. Each negative case has a control next to it that declares,
// so that a scanner declaring nothing at all fails.

const markerLine = "// @adr 0012"

func refsOf(path, src string) []string {
	var out []string
	for _, d := range ScanSource(path, []byte(src)).Declarations {
		out = append(out, d.Ref)
	}
	return out
}

func lines(ls ...string) string { return strings.Join(ls, "\n") }

func TestScanRefs(t *testing.T) {
	const src = "src/sync.ts"
	cases := []struct {
		name, path, source string
		want               []string
	}{
		// Every common comment introducer, as the first content of a line.
		{"c line", src, "// @adr 0012", []string{"0012"}},
		{"c block open", src, "/* @adr 0012 */", []string{"0012"}},
		{"c block continuation", src, " * @adr 0012", []string{"0012"}},
		{"hash", src, "# @adr 0012", []string{"0012"}},
		{"sql lua", src, "-- @adr 0012", []string{"0012"}},
		{"lisp ini", src, "; @adr 0012", []string{"0012"}},
		{"tex erlang", src, "% @adr 0012", []string{"0012"}},
		{"html xml", src, "<!-- @adr 0012 -->", []string{"0012"}},
		{"python docstring", src, `""" @adr 0012 """`, []string{"0012"}},
		{"python single-quoted docstring", src, "''' @adr 0012 '''", []string{"0012"}},
		{"leading whitespace", src, "\t  // @adr 0012", []string{"0012"}},
		{"no blank after introducer", src, "//@adr 0012", []string{"0012"}},
		{"tab separator", src, "//\t@adr\t0012", []string{"0012"}},
		{"jsx expression comment", "src/App.tsx", "{/* @adr 0012 */}", []string{"0012"}},

		// Not a comment, or not its first content.
		{"no introducer", src, "const adr = @adr 0012;", nil},
		{"bare marker", src, "@adr 0012", nil},
		{"prose in a block comment", src, "/** Prose about // @adr 0012 does not declare it. */", nil},
		{"prose on a continuation line", src, " * More prose before @adr 0012 does not declare it either.", nil},
		{"string literal", src, `log("// @adr 0012");`, nil},
		{"trailing comment", src, "const value = 1; // @adr 0012", nil},
		{"trailing comment after a brace", src, "} // @adr 0012", nil},
		{"package scope", src, "// import { lintCorpus } from '@adrkit/core';", nil},
		{"two stars", src, "** @adr 0012", nil},
		{"nbsp is not a blank", src, "//\u00a0@adr 0012", nil},

		// The ref list.
		{"comma list", src, "// @adr 0012, 0013", []string{"0012", "0013"}},
		{"comma without blank", src, "// @adr 0012,0013", []string{"0012", "0013"}},
		{"blank before comma", src, "// @adr 0012 , 0013", []string{"0012", "0013"}},
		{"a blank ends the list", src, "// @adr 0012 1234567 is the ticket", []string{"0012"}},
		{"punctuation ends the list", src, "// @adr 0012. See the record for why.", []string{"0012"}},
		{"prose ends the list", src, "// @adr 0012 governs this file", []string{"0012"}},
		{"too short an id", src, "// @adr 12", nil},
		{"no ref", src, "// @adr", nil},
		{"no ref after blank", src, "// @adr   ", nil},
		{"only the leading marker", src, "// @adr 0012 and also @adr 0013", []string{"0012"}},
		{"comment closer glued to the ref", src, "<!-- @adr 0012-->", nil},
		{"comment closer after a blank", src, "<!-- @adr 0012 -->", []string{"0012"}},
		{"an invalid ref ends the list", src, "// @adr 0012, 12, 0013", []string{"0012"}},
		{"trailing comma", src, "// @adr 0012,", []string{"0012"}},
		{"federated", src, "// @adr payments:0012", []string{"payments:0012"}},
		{"upper-case log is not a ref", src, "// @adr Payments:0012", nil},
		{"ulid", src, "// @adr 01J9Z8X7W6V5T4S3R2Q1P0NMKH", []string{"01J9Z8X7W6V5T4S3R2Q1P0NMKH"}},
		{"ulid with a forbidden letter", src, "// @adr 01J9Z8X7W6V5T4S3R2Q1P0NMKU", nil},
		{"five digits", src, "// @adr 00123", []string{"00123"}},

		// Fenced blocks hold examples, in every kind of file.
		{"inside a fence", src, lines("Example:", "```ts", markerLine, "```"), nil},
		{"fence control", src, lines("Example:", markerLine), []string{"0012"}},
		{"below a closed fence", src, lines("```", "// @adr 0011", "```", markerLine), []string{"0012"}},
		{"unclosed fence runs to the end", src, lines("```", markerLine), nil},
		{"a longer fence closes a shorter", src, lines("```", "x", "````", markerLine), []string{"0012"}},
		{"a shorter fence never closes a longer", src, lines("````", "x", "```", markerLine), nil},
		{"tildes do not close backticks", src, lines("```", "~~~", markerLine), nil},
		{"backticks do not close tildes", src, lines("~~~", "```", markerLine), nil},
		{"tilde fence closes", src, lines("~~~~", markerLine, "~~~~~", "// @adr 0013"), []string{"0013"}},
		{"a closer carries no info string", src, lines("```ts", "```ts", markerLine), nil},
		{"a closer may carry blanks", src, lines("```ts", "x", "```  \t", markerLine), []string{"0012"}},
		{"a closer may carry JavaScript whitespace", src, lines("```", "x", "```\u00a0\u3000", markerLine), []string{"0012"}},
		{"backtick in a backtick info string", src, lines("``` `js`", markerLine), []string{"0012"}},
		{"backtick in a tilde info string", src, lines("~~~ `js`", markerLine), nil},
		{"three-space fence", src, lines("   ```", markerLine), nil},
		{"four-space fence is no fence", src, lines("    ```", markerLine), []string{"0012"}},
		{"tab before a fence is no fence", src, lines("\t```", markerLine), []string{"0012"}},
		{"two backticks are no fence", src, lines("``", markerLine), []string{"0012"}},
		{"line separator in an info string", src, lines("```js\u2028x", markerLine), []string{"0012"}},
		{"line separator keeps a fence open", src, lines("```", "```\u2029", markerLine), nil},
		{"fence in a block comment is a blind spot", src, lines("/**", " * ```", " * @adr 0012", " * ```", " */"), []string{"0012"}},

		// Markdown declares only in the comments it hides.
		{"markdown html comment", "docs/guide.md", "<!-- @adr 0012 -->", []string{"0012"}},
		{"mdx expression comment", "site/src/content/docs/commands.mdx", "{/* @adr 0012 */}", []string{"0012"}},
		{"markdown heading", "docs/guide.md", "# @adr 0012", nil},
		{"markdown bullet", "docs/guide.md", "* @adr 0012 explains this", nil},
		{"shell hash control", "scripts/sync.sh", "# @adr 0012", []string{"0012"}},
		{"markdown c line", "docs/guide.md", "// @adr 0012", nil},
		{"markdown c block", "docs/guide.md", "/* @adr 0012 */", nil},
		{"markdown sql", "docs/guide.md", "-- @adr 0012", nil},
		{"markdown semicolon", "docs/guide.md", "; @adr 0012", nil},
		{"markdown percent", "docs/guide.md", "% @adr 0012", nil},
		{"markdown docstring", "docs/guide.md", `""" @adr 0012 """`, nil},
		{"upper-case MD", "README.MD", "# @adr 0012", nil},
		{"markdown extension", "notes.markdown", "# @adr 0012", nil},
		{"upper-case MDX", "site/docs/commands.MDX", "# @adr 0012", nil},
		{"markdown fenced html comment", "docs/guide.md", lines("```html", "<!-- @adr 0012 -->", "```"), nil},
		{"not markdown: .mdown", "notes.mdown", "# @adr 0012", []string{"0012"}},
		{"not markdown: .md.txt", "notes.md.txt", "# @adr 0012", []string{"0012"}},

		// The byte order mark is metadata.
		{"bom", src, "\uFEFF// @adr 0012\n", []string{"0012"}},
		{"bom before a fence", src, "\uFEFF```\n// @adr 0012\n", nil},
		{"bom on a later line is content", src, "x\n\uFEFF// @adr 0012\n", nil},
		// The reference's decoder drops one mark and its scanner a second.
		{"two boms", src, "\uFEFF\uFEFF// @adr 0012\n", []string{"0012"}},
		{"a third bom is content", src, "\uFEFF\uFEFF\uFEFF// @adr 0012\n", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := refsOf(tc.path, tc.source); !slices.Equal(got, tc.want) {
				t.Errorf("%s %q: refs %q, want %q", tc.path, tc.source, got, tc.want)
			}
		})
	}
}

func TestScanDeclarationFields(t *testing.T) {
	src := lines("#!/usr/bin/env node", "", markerLine, "export const x = 1;")
	got := ScanSource("src/sync.ts", []byte(src)).Declarations
	want := []Declaration{{Path: "src/sync.ts", Ref: "0012", ID: "0012", Line: 3}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	got = ScanSource("src/sync.ts", []byte("// @adr payments:0012")).Declarations
	want = []Declaration{{Path: "src/sync.ts", Ref: "payments:0012", Log: "payments", ID: "0012", Line: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestScanLineBreaks(t *testing.T) {
	for name, src := range map[string]string{
		"cr":    "// @adr 0011\r// @adr 0012\r// @adr 0013",
		"lf":    "// @adr 0011\n// @adr 0012\n// @adr 0013",
		"crlf":  "// @adr 0011\r\n// @adr 0012\r\n// @adr 0013",
		"mixed": "// @adr 0011\r\n// @adr 0012\n// @adr 0013",
	} {
		var got []string
		for _, d := range ScanSource("src/sync.ts", []byte(src)).Declarations {
			got = append(got, d.Ref+"@"+strconv.Itoa(d.Line))
		}
		if want := []string{"0011@1", "0012@2", "0013@3"}; !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	// LF CR is two breaks, so the line numbers count the empty line.
	got := ScanSource("src/sync.ts", []byte("x\n\r// @adr 0012")).Declarations
	if len(got) != 1 || got[0].Line != 3 {
		t.Errorf("LF CR: %+v", got)
	}
}

func TestScanFileCap(t *testing.T) {
	refs := make([]string, 1618)
	for i := range refs {
		refs[i] = strconv.Itoa(i + 1000)
	}
	src := "// @adr " + strings.Join(refs, ",") + "\n"
	if len(src) != 8098 {
		t.Fatalf("fixture is %d bytes", len(src))
	}
	s := ScanSource("src/amplified.ts", []byte(src))
	if len(s.Declarations) != FileCap || s.Omitted != 1554 {
		t.Fatalf("%d kept, %d omitted", len(s.Declarations), s.Omitted)
	}
	for i, d := range s.Declarations {
		if d.Ref != refs[i] {
			t.Fatalf("declaration %d is %s, want %s", i, d.Ref, refs[i])
		}
	}
	perLine := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "// @adr %d\n", i+1000)
		}
		return b.String()
	}
	if s := ScanSource("src/exact.ts", []byte(perLine(FileCap))); len(s.Declarations) != FileCap || s.Omitted != 0 {
		t.Errorf("exact: %d kept, %d omitted", len(s.Declarations), s.Omitted)
	}
	if s := ScanSource("src/over.ts", []byte(perLine(FileCap+1))); len(s.Declarations) != FileCap || s.Omitted != 1 {
		t.Errorf("over: %d kept, %d omitted", len(s.Declarations), s.Omitted)
	}
	// Past the cap, refs that would not bind are counted too: the cap is
	// on what is parsed, not on what resolves.
	if s := ScanSource("src/mixed.ts", []byte(perLine(FileCap)+"// @adr payments:0001\n")); s.Omitted != 1 {
		t.Errorf("federated past the cap: %d omitted", s.Omitted)
	}
}

func TestScanWindow(t *testing.T) {
	pad := func(n int) string { return strings.Repeat("#", n) }
	cases := []struct {
		name      string
		source    string
		want      []string
		truncated bool
		scanned   int
	}{
		{"below the window", pad(WindowBytes+500) + "\n" + markerLine + "\n", nil, true, 0},
		{"at the top of a long file", markerLine + "\n" + pad(WindowBytes+500) + "\n", []string{"0012"}, true, len(markerLine) + 1},
		{"exactly the window", markerLine + "\n" + pad(WindowBytes-len(markerLine)-2) + "\n", []string{"0012"}, false, WindowBytes},
		// The window ends between "0012" and the "3" of "00123": half of
		// a longer id must not read as a shorter one.
		{"a severed ref", pad(WindowBytes-len(markerLine)-1) + "\n// @adr 00123\ntail\n", nil, true, WindowBytes - len(markerLine)},
		{"an unclosed fence in a truncated window", "```\n" + markerLine + "\n" + strings.Repeat("x", WindowBytes+500) + "\n", nil, true, 4 + len(markerLine) + 1},
		{"one huge line", markerLine + "\n" + pad(WindowBytes*3) + "\n", []string{"0012"}, true, len(markerLine) + 1},
		{"no line break in the window", pad(WindowBytes + 500), nil, true, 0},
		{"a line ending on the window's last byte", markerLine + "\n" + pad(WindowBytes-len(markerLine)-2) + "\ntail\n", []string{"0012"}, true, WindowBytes},
		// The byte past the window completes this line, but it is outside
		// the window: the line is not scanned.
		{"completed by the probe byte", markerLine + strings.Repeat(" ", WindowBytes-len(markerLine)) + "\nexport const tail = 1;\n", nil, true, 0},
		{"no trailing break", markerLine + "\nexport const x = 1;", []string{"0012"}, false, len(markerLine) + 20},
		{"cr lines", markerLine + "\r" + strings.Repeat(strings.Repeat("x", 99)+"\r", 200), []string{"0012"}, true, len(markerLine) + 1 + 100*81},
		{"break at the first byte", "\n" + pad(WindowBytes+100), nil, true, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := ScanSource("src/sync.ts", []byte(tc.source))
			var got []string
			for _, d := range s.Declarations {
				got = append(got, d.Ref)
			}
			if !slices.Equal(got, tc.want) || s.Truncated != tc.truncated || s.ScannedBytes != tc.scanned {
				t.Errorf("refs %q truncated %v scanned %d, want %q %v %d", got, s.Truncated, s.ScannedBytes, tc.want, tc.truncated, tc.scanned)
			}
		})
	}
}

// The last complete line inside the window is scanned, not only the
// first: 100-byte lines, the marker on line 81, the last to fit.
func TestScanWindowLastLine(t *testing.T) {
	filler := strings.Repeat(strings.Repeat("x", 99)+"\n", 80)
	ml := markerLine + strings.Repeat(" ", 100-len(markerLine)-1) + "\n"
	s := ScanSource("src/lines.ts", []byte(filler+ml+filler))
	if !s.Truncated || s.ScannedBytes != 8100 || len(s.Declarations) != 1 || s.Declarations[0].Line != 81 {
		t.Errorf("%+v", s)
	}
}

// A multi-byte character split by the window cannot invent a marker: the
// severed line is dropped whole.
func TestScanWindowSplitRune(t *testing.T) {
	prefix := markerLine + " "
	padLen := WindowBytes - len(prefix) - 1
	src := strings.Repeat("#", padLen-1) + "\n" + prefix + "é\ntail\n"
	if padLen+len(prefix)+1 != WindowBytes {
		t.Fatal("fixture")
	}
	if s := ScanSource("src/split.ts", []byte(src)); len(s.Declarations) != 0 || !s.Truncated {
		t.Errorf("%+v", s)
	}
}

// The BOM is counted in the window (it is a byte of the file) but is not
// content: with it, the marker line no longer fits.
func TestScanWindowBOM(t *testing.T) {
	padLen := WindowBytes + 1 - 3 - len(markerLine)
	src := "\uFEFF" + strings.Repeat("#", padLen-1) + "\n" + markerLine + "3\ntail\n"
	if s := ScanSource("src/bom.ts", []byte(src)); len(s.Declarations) != 0 || !s.Truncated {
		t.Errorf("%+v", s)
	}
}

// Invalid UTF-8 neither hides nor invents a marker, nor counts as
// truncation.
func TestScanInvalidUTF8(t *testing.T) {
	src := append(bytes.Repeat([]byte{0xff}, 3000), []byte("\n"+markerLine+"\n")...)
	s := ScanSource("src/latin1.ts", src)
	if s.Truncated || len(s.Declarations) != 1 {
		t.Errorf("%+v", s)
	}
	// A stray continuation byte right before an introducer is content:
	// the comment no longer begins the line.
	if got := refsOf("src/x.ts", "\x80// @adr 0012"); got != nil {
		t.Errorf("%q", got)
	}
}

// ScanHead ignores what a reader passed beyond the window, and cuts the
// window back only when told the file goes on.
func TestScanHead(t *testing.T) {
	full := []byte(markerLine + "\n" + markerLine)
	if s := ScanHead("a.ts", full, false); len(s.Declarations) != 2 || s.ScannedBytes != len(full) {
		t.Errorf("untruncated: %+v", s)
	}
	if s := ScanHead("a.ts", full, true); len(s.Declarations) != 1 || s.ScannedBytes != len(markerLine)+1 {
		t.Errorf("truncated: %+v", s)
	}
	long := bytes.Repeat([]byte("x\n"), WindowBytes)
	if s := ScanHead("a.ts", long, false); !s.Truncated || s.ScannedBytes != WindowBytes {
		t.Errorf("overlong head: %+v", s)
	}
}

func TestCompleteLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0}, {"abc", 0}, {"\n", 1}, {"a\nb", 2}, {"a\rb", 2}, {"a\r\nb", 3}, {"a\n\n", 3}, {"é\né", 3},
	} {
		if got := CompleteLines([]byte(tc.in)); got != tc.want {
			t.Errorf("%q: %d, want %d", tc.in, got, tc.want)
		}
	}
}

// FuzzScan holds the scanner to properties that must hold for any input:
// no panic, declarations in source order with valid refs on lines that
// exist in the scanned bytes, the cap respected, and the scanned extent
// a complete-line prefix of the window.
func FuzzScan(f *testing.F) {
	for _, s := range []string{markerLine, "```\n" + markerLine, "<!-- @adr 0001, 0002 -->", "\uFEFF# @adr 0012\r\n", "// @adr a:0001,0002 x"} {
		f.Add("src/a.ts", []byte(s))
		f.Add("README.md", []byte(s))
	}
	f.Fuzz(func(t *testing.T, path string, src []byte) {
		s := ScanSource(path, src)
		if len(s.Declarations) > FileCap || (s.Omitted > 0 && len(s.Declarations) != FileCap) {
			t.Fatalf("cap: %d kept, %d omitted", len(s.Declarations), s.Omitted)
		}
		if s.ScannedBytes > WindowBytes || s.ScannedBytes > len(src) || s.Truncated != (len(src) > WindowBytes) {
			t.Fatalf("extent %d of %d, truncated %v", s.ScannedBytes, len(src), s.Truncated)
		}
		if s.Truncated && s.ScannedBytes > 0 && src[s.ScannedBytes-1] != '\n' && src[s.ScannedBytes-1] != '\r' {
			t.Fatalf("extent %d does not end a line", s.ScannedBytes)
		}
		scanned := src[:s.ScannedBytes]
		total := 1 + bytes.Count(scanned, []byte("\n")) + bytes.Count(scanned, []byte("\r")) - bytes.Count(scanned, []byte("\r\n"))
		last := 0
		for _, d := range s.Declarations {
			if d.Line < last || d.Line < 1 || d.Line > total || d.Path != path {
				t.Fatalf("declaration %+v (last line %d, %d lines)", d, last, total)
			}
			if !strings.Contains(string(scanned), d.Ref) {
				t.Fatalf("ref %q is not in the source", d.Ref)
			}
			last = d.Line
		}
	})
}
