package yaml12

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// The fast path. Nearly all frontmatter is a block mapping of simple
// keys whose values are one-line scalars, one-line flow sequences of
// scalars, nested block mappings and block sequences. For that shape the
// full path (yaml.v3's node tree, then the composer and the builder) costs
// about ten times what reading it directly does, and makes most of the
// garbage a cold projection leaves behind.
//
// fastParse reads exactly that shape and nothing else: it gives up, and
// Parse takes the full path, at the first thing outside it (tabs, CR,
// control or special line-break characters, anchors, tags, aliases, block
// scalars, flow mappings, multi-line or escaped scalars other than \" and
// \\, plain scalars that hold ": ", " #" or start with an indicator,
// quoted or non-identifier keys, keys that resolve to anything but
// themselves, repeated keys, empty items, uneven indentation, directives
// and document markers). Within the shape YAML 1.2 leaves no choices, so
// what it builds is what the full path builds: the same values (scalars
// go through the same resolvePlain), the same member order (no key is an
// array index) and the same Lines. TestFastPathMatchesFullPath and
// FuzzFastPath hold it to that.

// fastMaxDepth bounds the nesting the fast path reads; deeper documents
// take the full path.
const fastMaxDepth = 16

// fastMaxKey is the longest key the fast path reads: libyaml refuses
// implicit keys longer than 1024 characters, so long ones are left to it.
const fastMaxKey = 256

// fastLine is one significant (not blank, not comment-only) line, or the
// part of it not yet read: col and start move right past a "- ".
type fastLine struct {
	no    int // 1-based line number in the text
	col   int // column of start
	start int // offset of the first unread character
	end   int // offset of the line break, or len(text)
	next  int // offset of the next line
}

type fastParser struct {
	text   string
	lines  map[string]int // nil when not recording
	cur    fastLine
	eof    bool
	failed bool
}

// fastParse reads text if it has the fast path's shape. ok is false when
// it does not, and then nothing else it returns is meaningful.
func fastParse(text string, withLines bool) (value any, lines map[string]int, ok bool) {
	if !fastChars(text) {
		return nil, nil, false
	}
	p := &fastParser{text: text}
	if withLines {
		p.lines = make(map[string]int, 24)
	}
	p.advance(0, 1)
	if p.eof || p.cur.col != 0 || p.isDash() {
		return nil, nil, false
	}
	p.record("", p.cur.no)
	v := p.mapping(0, "", 0)
	if p.failed || !p.eof {
		return nil, nil, false
	}
	return v, p.lines, true
}

// fastChars reports whether text is free of everything the fast path
// does not read character by character: what prepare swaps for a
// sentinel, tabs, CR, a byte-order mark and malformed UTF-8 (with
// U+FFFD, which a range loop cannot tell from it).
func fastChars(text string) bool {
	for _, r := range text {
		if ' ' <= r && r < 0x7F {
			continue // printable ASCII: nearly every character
		}
		if needsSentinel(r) || r == '\t' || r == '\r' || r == 0xFEFF || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// fail gives up the fast path; the nil it returns is never used, since
// fastParse then returns nothing.
func (p *fastParser) fail() any {
	p.failed = true
	return nil
}

// advance moves to the first significant line at or after offset off,
// which starts line no.
func (p *fastParser) advance(off, no int) {
	t := p.text
	for off < len(t) {
		end := strings.IndexByte(t[off:], '\n')
		next := len(t)
		if end < 0 {
			end = len(t)
		} else {
			end += off
			next = end + 1
		}
		i := off
		for i < end && t[i] == ' ' {
			i++
		}
		if i < end && t[i] != '#' {
			p.cur = fastLine{no: no, col: i - off, start: i, end: end, next: next}
			return
		}
		off, no = next, no+1
	}
	p.eof = true
}

// nextLine moves past the current line.
func (p *fastParser) nextLine() { p.advance(p.cur.next, p.cur.no+1) }

// isDash reports whether the current line starts a block sequence entry.
func (p *fastParser) isDash() bool {
	s, e := p.cur.start, p.cur.end
	return p.text[s] == '-' && (s+1 == e || p.text[s+1] == ' ')
}

func (p *fastParser) record(path string, line int) {
	if p.lines != nil {
		p.lines[path] = line
	}
}

func isKeyStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isKeyChar(c byte) bool {
	return isKeyStart(c) || c == '-' || (c >= '0' && c <= '9')
}

// keyAt returns the end of the key starting at offset s of the current
// line: an identifier directly followed by ":" and then a space or the
// end of the line. ok is false when the line does not start so.
func (p *fastParser) keyAt(s int) (colon int, ok bool) {
	t, e := p.text, p.cur.end
	if s >= e || !isKeyStart(t[s]) {
		return 0, false
	}
	k := s + 1
	for k < e && isKeyChar(t[k]) {
		k++
	}
	if k >= e || t[k] != ':' || (k+1 < e && t[k+1] != ' ') || k-s > fastMaxKey {
		return 0, false
	}
	return k, true
}

// mapping reads a block mapping whose keys sit at column indent, starting
// with the current line.
func (p *fastParser) mapping(indent int, path string, depth int) any {
	if depth >= fastMaxDepth {
		return p.fail()
	}
	var keys []string
	var vals []any
	for !p.eof && !p.failed && p.cur.col >= indent {
		colon, ok := p.keyAt(p.cur.start)
		if p.cur.col > indent || !ok {
			return p.fail()
		}
		key := p.text[p.cur.start:colon]
		if _, isStr := resolvePlain(key).(string); !isStr {
			// true, null, ... are not the strings they spell.
			return p.fail()
		}
		for _, k := range keys {
			if k == key {
				return p.fail()
			}
		}
		kp := childPath(p.lines, path, depth+1, key)
		p.record(kp, p.cur.no)
		v := p.value(colon+1, indent, kp, depth+1)
		keys = append(keys, key)
		vals = append(vals, v)
	}
	// After a failure nothing is used: fastParse returns nothing.
	return jsvalue.ObjectOf(keys, vals)
}

// value reads the value after a key's ":" (at offset s of the current
// line), in a mapping at column indent: a scalar or flow sequence on the
// same line, or a collection on the lines after it, or nothing (null).
// It leaves the parser on the first line after the value.
func (p *fastParser) value(s, indent int, path string, depth int) any {
	t, e := p.text, p.cur.end
	for s < e && t[s] == ' ' {
		s++
	}
	if s < e && t[s] != '#' {
		return p.inlineLine(s, indent, path, depth)
	}
	p.nextLine()
	switch {
	case p.eof || p.cur.col < indent:
		return nil
	case p.cur.col == indent:
		// Only a block sequence may sit at its key's column.
		if p.isDash() {
			return p.sequence(indent, path, depth)
		}
		return nil
	case p.isDash():
		return p.sequence(p.cur.col, path, depth)
	}
	return p.mapping(p.cur.col, path, depth)
}

// sequence reads a block sequence whose dashes sit at column indent,
// starting with the current line.
func (p *fastParser) sequence(indent int, path string, depth int) any {
	if depth >= fastMaxDepth {
		return p.fail()
	}
	t := p.text
	items := []any{}
	for !p.eof && !p.failed && p.cur.col >= indent {
		if p.cur.col > indent {
			return p.fail()
		}
		if !p.isDash() {
			// A key at the column of an indentless sequence: the
			// enclosing mapping goes on.
			break
		}
		s, e := p.cur.start+1, p.cur.end
		for s < e && t[s] == ' ' {
			s++
		}
		if s == e || t[s] == '#' || t[s] == '-' {
			// An empty entry, a nested sequence or an entry on the next
			// lines.
			return p.fail()
		}
		ip := childPath(p.lines, path, depth+1, strconv.Itoa(len(items)))
		p.record(ip, p.cur.no)
		if _, ok := p.keyAt(s); ok {
			// A compact mapping: "- key: value" and more keys below at
			// the column of the first.
			p.cur.col += s - p.cur.start
			p.cur.start = s
			items = append(items, p.mapping(p.cur.col, ip, depth+1))
			continue
		}
		items = append(items, p.inlineLine(s, indent, ip, depth+1))
	}
	return items
}

// inlineLine reads what inline reads and moves past its line, which no
// more indented line may continue (that would be a multi-line scalar, or
// an error).
func (p *fastParser) inlineLine(s, indent int, path string, depth int) any {
	v := p.inline(s, path, depth)
	p.nextLine()
	if !p.eof && p.cur.col > indent {
		p.fail()
	}
	return v
}

// inline reads a scalar or flow sequence starting at offset s of the
// current line, which must then hold nothing but blanks and a comment.
func (p *fastParser) inline(s int, path string, depth int) any {
	t, e := p.text, p.cur.end
	var v any
	var end int
	switch t[s] {
	case '"', '\'':
		v, end = p.quoted(s)
	case '[':
		v, end = p.flowSequence(s, path, depth)
	default:
		if isIndicator(t[s]) {
			return p.fail()
		}
		// A plain scalar runs to the end of the line or to a comment.
		j, last := s, s
		for j < e {
			c := t[j]
			switch {
			case c == ' ':
				if j+1 < e && t[j+1] == '#' {
					j = e
					continue
				}
			case c == ':':
				if j+1 >= e || t[j+1] == ' ' || isFlowIndicator(t[j+1]) {
					return p.fail()
				}
				last = j + 1
			case c == '\\':
				return p.fail()
			default:
				last = j + 1
			}
			j++
		}
		return resolvePlain(t[s:last])
	}
	// After the value: blanks and perhaps a comment, which YAML wants
	// separated by a blank.
	k := end
	for k < e && t[k] == ' ' {
		k++
	}
	if k < e && (t[k] != '#' || k == end) {
		return p.fail()
	}
	return v
}

// quoted reads a one-line quoted scalar starting at offset s and returns
// it and the offset after its closing quote. Double quotes allow only the
// \" and \\ escapes here.
func (p *fastParser) quoted(s int) (any, int) {
	t, e := p.text, p.cur.end
	q := t[s]
	var b []byte // the text so far, once something was unescaped
	escaped := false
	from := s + 1
	for j := s + 1; j < e; j++ {
		c := t[j]
		switch {
		case c == q && q == '\'' && j+1 < e && t[j+1] == '\'':
			b = append(b, t[from:j+1]...)
			escaped = true
			j++
			from = j + 1
		case c == q:
			if !escaped {
				return t[s+1 : j], j + 1
			}
			return string(append(b, t[from:j]...)), j + 1
		case c == '\\' && q == '"':
			if j+1 >= e || (t[j+1] != '"' && t[j+1] != '\\') {
				return p.fail(), e
			}
			b = append(b, t[from:j]...)
			escaped = true
			j++
			from = j
		}
	}
	return p.fail(), e
}

// flowSequence reads a one-line flow sequence of scalars starting at
// offset s ("[") and returns it and the offset after its "]".
func (p *fastParser) flowSequence(s int, path string, depth int) (any, int) {
	t, e := p.text, p.cur.end
	items := []any{}
	j := s + 1
	skip := func() {
		for j < e && t[j] == ' ' {
			j++
		}
	}
	skip()
	if j < e && t[j] == ']' {
		return items, j + 1
	}
	for j < e {
		var v any
		switch t[j] {
		case '"', '\'':
			v, j = p.quoted(j)
		default:
			if isIndicator(t[j]) {
				return p.fail(), e
			}
			k, last := j, j
			for k < e && t[k] != ',' && t[k] != ']' {
				switch c := t[k]; c {
				case ' ':
				case ':', '?', '#', '[', '{', '}', '\\':
					return p.fail(), e
				default:
					last = k + 1
				}
				k++
			}
			v, j = resolvePlain(t[j:last]), k
		}
		p.record(childPath(p.lines, path, depth+1, strconv.Itoa(len(items))), p.cur.no)
		items = append(items, v)
		skip()
		if j < e && t[j] == ']' {
			return items, j + 1
		}
		if j >= e || t[j] != ',' {
			// Unclosed on this line, or something after an item.
			break
		}
		j++
		skip()
		if j < e && (t[j] == ']' || t[j] == ',') {
			// A trailing or doubled comma.
			break
		}
	}
	return p.fail(), e
}

// isIndicator reports a character that cannot start a plain scalar the
// fast path reads (YAML's indicators, "-" included).
func isIndicator(c byte) bool {
	return strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", c) >= 0
}

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}
