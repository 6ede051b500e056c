// Package markers reads "@adr <ref>" declarations out of the head of a
// source file and binds them to the records of a corpus. A marker is the
// inbound edge of governance: the file names the decision it lives under,
// where an affects pattern is the record naming the files.
//
// Everything here is pure: bytes and a path in, declarations (with their
// line numbers) out. Reading the files, within the bounds this package
// states, is an adapter's job; the MCP tools never do it.
//
// The rules are the reference implementation's (its ADRs 0021 to 0023;
// docs/cli.md, "@adr markers", states them for this one):
//
//   - Only the first WindowBytes bytes of a file count. When the file is
//     longer, the window is cut back to its last complete line, so that a
//     severed "@adr 00123" cannot read as "@adr 0012".
//   - A marker is the first content of a comment: after optional spaces
//     or tabs, a comment introducer begins the physical line, then
//     optional spaces or tabs, then "@adr". A trailing "} // @adr 0012"
//     declares nothing, nor does prose that mentions "@adr 0012".
//   - In Markdown files (.md, .mdx, .markdown, any case) only an HTML
//     comment ("<!--") or an MDX expression comment ("{/*") introduces a
//     marker: "#" and "*" are a heading and a list bullet there.
//   - A line inside a fenced block (``` or ~~~, CommonMark-lite) is an
//     example, not a declaration, in every kind of file.
//   - "@adr" must be followed by a space or a tab, then a ref; a comma
//     continues the list ("@adr 0012, 0013"), anything else ends it.
//   - At most FileCap declarations of one file are kept, in source order;
//     the rest are counted.
package markers

import (
	"bytes"
	"iter"
	"strings"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// Bounds of a scan.
const (
	// WindowBytes is how much of a file is its head: a marker is a claim
	// made up front, and a mention further down is prose about the
	// decision, not a declaration. It also caps what reading one file
	// costs, whatever its size.
	WindowBytes = 8192
	// FileCap is the number of declarations kept from one file. One
	// comma-packed line can hold well over a thousand refs.
	FileCap = 64
)

// Declaration is one "@adr <ref>" found in a file.
type Declaration struct {
	// Path is the file's repository-relative, "/"-separated path, as the
	// caller gave it.
	Path string
	// Ref is the reference as written: "0012" or "payments:0012".
	Ref string
	// Log and ID are the parsed ref; Log is empty for a local one.
	Log string
	ID  string
	// Line is the 1-based line of the marker.
	Line int
}

// Scan is what one file's head declares.
type Scan struct {
	// Declarations are the kept declarations, in source order.
	Declarations []Declaration
	// Omitted counts the valid declarations past FileCap.
	Omitted int
	// Truncated says the file goes on past the window, so that anything
	// below it was not looked at.
	Truncated bool
	// ScannedBytes is the number of bytes of the file the scan examined:
	// the window cut back to its last complete line when Truncated, the
	// whole file otherwise.
	ScannedBytes int
}

// ScanHead scans the head of the file at path. head holds the file's
// first bytes, at most WindowBytes of them, and truncated says the file
// is longer than that (a reader learns it by asking for one byte more).
// Extra bytes past WindowBytes are ignored, as if truncated were set.
func ScanHead(path string, head []byte, truncated bool) Scan {
	if len(head) > WindowBytes {
		head, truncated = head[:WindowBytes], true
	}
	if truncated {
		head = head[:CompleteLines(head)]
	}
	s := Scan{Truncated: truncated, ScannedBytes: len(head)}
	scanLines(&s, path, head)
	return s
}

// ScanSource scans a whole file's bytes, taking its window itself.
func ScanSource(path string, src []byte) Scan {
	return ScanHead(path, src, len(src) > WindowBytes)
}

// CompleteLines is the length of the complete lines at the start of b:
// up to and including its last CR or LF, or 0 when it has none. CR and
// LF never occur inside a multi-byte UTF-8 sequence, so the cut never
// splits a character.
func CompleteLines(b []byte) int {
	return bytes.LastIndexAny(b, "\r\n") + 1
}

// commentIntroducers are the line leads of comments in source languages,
// taken as tokens rather than a grammar: no file is parsed. No introducer
// is a prefix of another that could change the outcome, since one that
// matches without "@adr" after it falls through to the rest.
var commentIntroducers = []string{"//", "/*", "{/*", "*", "#", "--", ";", "%", "<!--", `"""`, "'''"}

// markdownIntroducers are the only comments Markdown hides from its
// output: HTML's, and MDX's expression comment (MDX refuses HTML ones).
var markdownIntroducers = []string{"{/*", "<!--"}

// isMarkdown reports whether path names a Markdown file by its extension,
// in any case.
func isMarkdown(path string) bool {
	lower := strings.ToLower(path)
	return strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".mdx") || strings.HasSuffix(lower, ".markdown")
}

// fence is an open fenced block: its character and the length of its
// opening run. Only a run of the same character, at least as long, with
// nothing after it, closes it.
type fence struct {
	char byte
	n    int
}

const marker = "@adr"

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// scanLines works on bytes. Every byte it looks for is ASCII, and a UTF-8
// decoder never makes ASCII out of other bytes (an invalid sequence
// becomes U+FFFD and the next byte is read afresh), so it finds exactly
// the markers a scan of the decoded text would.
func scanLines(s *Scan, path string, text []byte) {
	introducers := commentIntroducers
	if isMarkdown(path) {
		introducers = markdownIntroducers
	}
	// A byte order mark is metadata, not content; dropped before the
	// fence test so it can hide neither a fence nor a marker. The
	// reference drops two: its UTF-8 decoder drops the file's first, and
	// its scanner then drops a mark that still leads the first line.
	text = bytes.TrimPrefix(bytes.TrimPrefix(text, utf8BOM), utf8BOM)
	var open *fence
	for n := 1; ; n++ {
		line, rest, more := cutLine(text)
		text = rest
		if run, info, ok := fenceLine(line); ok {
			switch {
			case open != nil:
				if run[0] == open.char && len(run) >= open.n && jsstring.TrimSpace(string(info)) == "" {
					open = nil
				}
			case run[0] == '`' && bytes.IndexByte(info, '`') >= 0:
				// A backtick fence's info string cannot hold a backtick:
				// this line opens nothing.
			default:
				open = &fence{char: run[0], n: len(run)}
			}
		} else if open == nil {
			if at := markerStart(line, introducers); at >= 0 {
				for _, ref := range refs(line[at+len(marker):]) {
					if len(s.Declarations) == FileCap {
						s.Omitted++
						continue
					}
					r := adr.ParseRef(ref)
					s.Declarations = append(s.Declarations, Declaration{Path: path, Ref: ref, Log: r.Log, ID: r.ID, Line: n})
				}
			}
		}
		if !more {
			return
		}
	}
}

// cutLine splits text at its first line break (CRLF, CR or LF). more is
// false for the last line, which has no break after it.
func cutLine(text []byte) (line, rest []byte, more bool) {
	i := bytes.IndexAny(text, "\r\n")
	if i < 0 {
		return text, nil, false
	}
	if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
		return text[:i], text[i+2:], true
	}
	return text[:i], text[i+1:], true
}

// fenceLine matches a fence line: at most three spaces, a run of three or
// more backticks or tildes, then the info string. As in a JavaScript
// regular expression, the info string may not hold a line separator
// (U+2028, U+2029), or the line is not a fence line at all.
func fenceLine(line []byte) (run, info []byte, ok bool) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i == len(line) || (line[i] != '`' && line[i] != '~') {
		return nil, nil, false
	}
	c, j := line[i], i
	for j < len(line) && line[j] == c {
		j++
	}
	if j-i < 3 {
		return nil, nil, false
	}
	info = line[j:]
	if bytes.Contains(info, []byte("\u2028")) || bytes.Contains(info, []byte("\u2029")) {
		return nil, nil, false
	}
	return line[i:j], info, true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// markerStart is the index of "@adr" when it is the first content of a
// comment that begins the line, or -1.
func markerStart(line []byte, introducers []string) int {
	start := 0
	for start < len(line) && isBlank(line[start]) {
		start++
	}
	for _, intro := range introducers {
		if !bytes.HasPrefix(line[start:], []byte(intro)) {
			continue
		}
		at := start + len(intro)
		for at < len(line) && isBlank(line[at]) {
			at++
		}
		if bytes.HasPrefix(line[at:], []byte(marker)) {
			return at
		}
	}
	return -1
}

func isRefByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == ':' || c == '-'
}

// refs yields the refs after "@adr", each with its offset in rest. A
// blank must separate them from the token ("@adrkit/core" is no marker);
// a comma continues the list and anything else ends it, so "@adr 0012
// 1234567" declares 0012 only, and the first token that is not a valid
// ref ends the list too. Reading and rewriting markers both go through it.
func refs(rest []byte) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		if len(rest) == 0 || !isBlank(rest[0]) {
			return
		}
		i := 0
		for {
			for i < len(rest) && isBlank(rest[i]) {
				i++
			}
			start := i
			for i < len(rest) && isRefByte(rest[i]) {
				i++
			}
			tok := string(rest[start:i])
			if tok == "" || !adr.ValidRef(tok) || !yield(start, tok) {
				return
			}
			j := i
			for j < len(rest) && isBlank(rest[j]) {
				j++
			}
			if j == len(rest) || rest[j] != ',' {
				return
			}
			i = j + 1
		}
	}
}
