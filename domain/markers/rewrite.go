package markers

import (
	"bytes"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// Rewrite returns src, the whole file at path, with every local ref to
// record from in its "@adr" declarations changed to to, and the 1-based
// lines changed. Only what a scan reads as a declaration changes: a ref
// in prose, in a trailing comment, in a fenced block or below the head's
// window stays, as does every ref to another log ("payments:0003") and
// every other byte. A file with nothing to change is returned as it is,
// with no lines.
func Rewrite(path string, src []byte, from, to string) ([]byte, []int) {
	scan := ScanSource(path, src)
	want := map[int]bool{}
	for _, d := range scan.Declarations {
		if d.Log == "" && d.ID == from {
			want[d.Line] = true
		}
	}
	if len(want) == 0 {
		return src, nil
	}
	introducers := commentIntroducers
	if isMarkdown(path) {
		introducers = markdownIntroducers
	}
	var out bytes.Buffer
	var lines []int
	text := src
	for n := 1; ; n++ {
		line, rest, more := cutLine(text)
		brk := text[len(line) : len(text)-len(rest)]
		text = rest
		if want[n] {
			lead := 0
			if n == 1 {
				lead = len(line) - len(bytes.TrimPrefix(bytes.TrimPrefix(line, utf8BOM), utf8BOM))
			}
			if at := markerStart(line[lead:], introducers); at >= 0 {
				at += lead + len(marker)
				if changed, ok := rewriteRefs(line[at:], from, to); ok {
					line = append(append([]byte{}, line[:at]...), changed...)
					lines = append(lines, n)
				}
			}
		}
		out.Write(line)
		out.Write(brk)
		if !more {
			break
		}
	}
	return out.Bytes(), lines
}

// rewriteRefs changes the local refs to from in the ref list that
// follows "@adr", read by refs as the scan reads it; the rest of the line
// is kept.
func rewriteRefs(rest []byte, from, to string) ([]byte, bool) {
	var out []byte
	kept, changed := 0, false
	for start, tok := range refs(rest) {
		if r := adr.ParseRef(tok); r.Log == "" && r.ID == from {
			out = append(append(out, rest[kept:start]...), to...)
			kept, changed = start+len(tok), true
		}
	}
	if !changed {
		return rest, false
	}
	return append(out, rest[kept:]...), true
}
