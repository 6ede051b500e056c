package markers

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// oracleScan restates the reference implementation's scanner the way it
// is written there (packages/core/src/markers/{read,scan}.ts of
// mbeacom/adrkit): the window cut on bytes, the bytes decoded as
// TextDecoder decodes them (WHATWG, the byte order mark dropped), the text
// split with /\r\n|[\r\n]/, fences matched with /^ {0,3}(`{3,}|~{3,})(.*)$/
// (whose "." refuses U+2028 and U+2029), introducers tried in order on
// strings. The scanner under test works on bytes instead; FuzzOracle holds
// the two to the same declarations.
func oracleScan(path string, src []byte) []string {
	window := src[:min(len(src), WindowBytes)]
	if len(src) > WindowBytes {
		cut := -1
		for i := len(window) - 1; i >= 0; i-- {
			if window[i] == '\n' || window[i] == '\r' {
				cut = i
				break
			}
		}
		window = window[:cut+1]
	}
	// TextDecoder drops the file's byte order mark; the scanner then
	// drops one that still leads the first line.
	text := strings.TrimPrefix(strings.TrimPrefix(jsstring.DecodeUTF8(window), "\uFEFF"), "\uFEFF")
	introducers := []string{"//", "/*", "{/*", "*", "#", "--", ";", "%", "<!--", `"""`, "'''"}
	lower := strings.ToLower(path)
	if strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".mdx") || strings.HasSuffix(lower, ".markdown") {
		introducers = []string{"{/*", "<!--"}
	}
	fenceRE := regexp.MustCompile("^ {0,3}(`{3,}|~{3,})([^\u2028\u2029]*)$")
	space := func(s string, i int) int {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		return i
	}
	var out []string
	inFence, fenceChar, fenceLen := false, byte(0), 0
	for n, line := range regexp.MustCompile(`\r\n|[\r\n]`).Split(text, -1) {
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			c, l, info := m[1][0], len(m[1]), m[2]
			if inFence {
				if c == fenceChar && l >= fenceLen && jsstring.TrimSpace(info) == "" {
					inFence = false
				}
			} else if !(c == '`' && strings.Contains(info, "`")) {
				inFence, fenceChar, fenceLen = true, c, l
			}
			continue
		}
		if inFence {
			continue
		}
		at := -1
		start := space(line, 0)
		for _, intro := range introducers {
			if strings.HasPrefix(line[start:], intro) {
				if p := space(line, start+len(intro)); strings.HasPrefix(line[p:], "@adr") {
					at = p
					break
				}
			}
		}
		if at < 0 {
			continue
		}
		rest := line[at+4:]
		if rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		for cur := 0; ; {
			cur = space(rest, cur)
			end := cur
			for end < len(rest) && strings.ContainsRune("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz:-", rune(rest[end])) {
				end++
			}
			tok := rest[cur:end]
			if tok == "" || !adr.ValidRef(tok) {
				break
			}
			out = append(out, fmt.Sprintf("%s@%d", tok, n+1))
			look := space(rest, end)
			if look == len(rest) || rest[look] != ',' {
				break
			}
			cur = look + 1
		}
	}
	if len(out) > FileCap {
		out = out[:FileCap]
	}
	return out
}

func scanned(path string, src []byte) []string {
	var out []string
	for _, d := range ScanSource(path, src).Declarations {
		out = append(out, fmt.Sprintf("%s@%d", d.Ref, d.Line))
	}
	return out
}

// FuzzOracle: the byte scanner declares exactly what the reference's
// string scanner declares, for any bytes and either kind of path.
func FuzzOracle(f *testing.F) {
	seeds := []string{
		markerLine, "```\n" + markerLine, "~~~~\n// @adr 0001\n~~~~~\n# @adr 0002, 0003",
		"<!-- @adr 0001, 0002 -->", "\uFEFF# @adr 0012\r\n", "// @adr a:0001,0002 x", "```js\u2028\n// @adr 0001",
		"\xff\xfe// @adr 0001\n\x80// @adr 0002\n", "\uFEFF\uFEFF// @adr 0001\n", "\uFEFF\uFEFF\uFEFF// @adr 0001\n", "{/* @adr 0001 */}\n * @adr 0002\n\t-- @adr 0003",
		"``` `x`\n// @adr 0001\n", "   ```\n```  \u3000\n; @adr 0001",
	}
	for _, s := range seeds {
		for _, p := range []string{"src/a.ts", "README.md", "docs/x.MDX"} {
			f.Add(p, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, path string, src []byte) {
		got, want := scanned(path, src), oracleScan(path, src)
		if !slices.Equal(got, want) {
			t.Fatalf("%q %q:\nscanner %q\noracle  %q", path, src, got, want)
		}
	})
}

// The oracle and the scanner agree on the hand-written cases too, and
// those declare something, so that agreement is not agreement on nothing.
func TestOracleAgrees(t *testing.T) {
	declared := 0
	for _, src := range []string{
		lines("```", "// @adr 0011", "```", markerLine), "// @adr 0012 1234567", lines("    ```", markerLine),
		strings.Repeat("x", WindowBytes-20) + "\n// @adr 0001\n// @adr 0002\n", "// @adr 0012\r// @adr 0013",
		"\uFEFF<!-- @adr 0001, payments:0002 -->", lines("~~~", "~~~~ x", markerLine, "~~~~", "# @adr 0003"),
	} {
		for _, path := range []string{"src/a.ts", "notes.md"} {
			got, want := scanned(path, []byte(src)), oracleScan(path, []byte(src))
			if !slices.Equal(got, want) {
				t.Errorf("%s %.60q: scanner %q, oracle %q", path, src, got, want)
			}
			declared += len(want)
		}
	}
	if declared < 8 {
		t.Errorf("only %d declarations in all: the cases are too weak", declared)
	}
}
