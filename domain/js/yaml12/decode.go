package yaml12

import (
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/adrkit/adrkit-go/internal/lazyregexp"
)

// decoded is the yaml.v3 node tree of one document.
type decoded struct {
	// root is the document's content; nil for an empty document.
	root *yaml.Node
	// text is the text yaml.v3 read, prefix included; node columns index
	// into it.
	text string
	// shift is the number of prefix lines: subtract it from a node's line
	// to get the line within the YAML text.
	shift int
	// prefix is the length of the prefix: the YAML text starts there.
	prefix int
	// undefined holds the anchors the prefix defines, standing in for
	// anchors the document aliases but never defines.
	undefined map[*yaml.Node]bool
}

// yaml.v3 fails the whole parse at an alias to an undefined anchor, which
// would hide any syntax error after it; the reference instead reports the
// syntax errors, and only a valid document fails, later, on the alias.
// So when yaml.v3 stops on an undefined anchor, we parse again with a
// first document that defines every name the text could alias. yaml.v3
// keeps anchors across the documents of a stream, so the text's aliases
// then resolve to those stand-ins (or to the text's own anchors, which
// take over once defined), and the builder reports an alias that reached
// a stand-in.

var (
	reV3Error       = lazyregexp.New(`^yaml: (?:line (\d+): )?(.*)$`)
	reUnknownAnchor = lazyregexp.New(`^unknown anchor '.*' referenced$`)
	// yaml.v3 anchor names are ASCII letters, digits, '_' and '-'.
	reAliasName = lazyregexp.New(`\*([0-9A-Za-z_-]+)`)
)

// decode parses text, which must hold at most one document.
func decode(text string) (*decoded, error) {
	text, err := directives(text)
	if err != nil {
		return nil, err
	}
	if d, err, done := leadingDocumentEnd(text); done {
		return d, err
	}
	d, err := decodeAnchored(text)
	var ve *v3Error
	if errors.As(err, &ve) && ve.tabs {
		if d2, err2, ok := retryTabs(text); ok {
			d, err = d2, err2
		}
	}
	if errors.As(err, &ve) {
		return nil, &SyntaxError{Problems: []Problem{{Message: describeV3Problem(ve.problem), Line: ve.line}}}
	}
	return d, err
}

// decodeAnchored parses text, retrying with stand-in anchors when yaml.v3
// stops at an alias to an undefined anchor.
func decodeAnchored(text string) (*decoded, error) {
	d, err := decodeWith(text, "")
	if err == nil || !errors.Is(err, errUnknownAnchor) {
		return d, err
	}
	var names []string
	for _, m := range reAliasName.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for i, n := range names {
		names[i] = "&" + n + " ~"
	}
	prefix := "[" + strings.Join(names, ", ") + "]\n"
	// libyaml wants an explicit start for a document after another, unless
	// the text brings its own (directives need a "..." before them).
	first, _ := firstSignificantLine(text)
	switch {
	case strings.HasPrefix(first, "%"):
		prefix += "...\n"
	case !isMarker(first, "---"):
		prefix += "---\n"
	}
	d, err = decodeWith(text, prefix)
	if errors.Is(err, errUnknownAnchor) {
		// Cannot happen: every alias name the scanner accepts was defined.
		return nil, &ResolveError{Message: "an alias refers to an anchor that is not defined before it"}
	}
	return d, err
}

// v3Error is a syntax error yaml.v3 reported, before it is put in our
// words.
type v3Error struct {
	problem string
	line    int // within the YAML text
	tabs    bool
}

func (e *v3Error) Error() string { return e.problem }

var errUnknownAnchor = errors.New("unknown anchor")

// decodeWith parses prefix+text, prefix being empty or one document of
// stand-in anchors.
func decodeWith(text, prefix string) (*decoded, error) {
	d := &decoded{text: prefix + text, shift: strings.Count(prefix, "\n"), prefix: len(prefix)}
	dec := yaml.NewDecoder(strings.NewReader(d.text))
	if prefix != "" {
		var pre yaml.Node
		if err := dec.Decode(&pre); err != nil {
			return nil, d.v3Error(err)
		}
		d.undefined = map[*yaml.Node]bool{}
		if len(pre.Content) == 1 {
			for _, n := range pre.Content[0].Content {
				d.undefined[n] = true
			}
		}
	}
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		// Nothing but comments, blank lines or a document end marker.
		return d, nil
	case err != nil:
		return nil, d.v3Error(err)
	}
	if len(doc.Content) > 0 {
		d.root = doc.Content[0]
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
		return d, nil
	case err != nil:
		// The reference reports the extra document whatever is wrong in it.
		_, line := d.v3Problem(err)
		return nil, &SyntaxError{Problems: []Problem{{Message: msgMultipleDocuments, Line: line}}}
	default:
		return nil, &SyntaxError{Problems: []Problem{{Message: msgMultipleDocuments, Line: d.line(next.Line)}}}
	}
}

const msgMultipleDocuments = "the frontmatter holds more than one YAML document (a '...' or '---' line is followed by more content)"

// line converts a line of d.text to a line of the YAML text.
func (d *decoded) line(l int) int {
	if l-d.shift < 1 {
		return 0
	}
	return l - d.shift
}

// v3Problem splits a yaml.v3 error into its problem and the line of the
// YAML text it names (0 if none).
func (d *decoded) v3Problem(err error) (problem string, line int) {
	m := reV3Error.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error(), 0
	}
	l := 1 // yaml.v3 leaves out the line when it is the first
	if m[1] != "" {
		l, _ = strconv.Atoi(m[1])
	}
	return m[2], d.line(l)
}

// v3Error keeps a yaml.v3 error for decode to word.
func (d *decoded) v3Error(err error) error {
	problem, line := d.v3Problem(err)
	if reUnknownAnchor.MatchString(problem) {
		return errUnknownAnchor
	}
	tabs := strings.Contains(problem, "tab character") || strings.HasPrefix(problem, "found character that cannot start any token")
	return &v3Error{problem: problem, line: line, tabs: tabs}
}

// libyaml refuses tabs in places YAML 1.2 and the reference accept them
// as blanks: lines holding only blanks, blanks before a comment, and the
// blank after a "-", "?" or ":" indicator followed by a scalar. When
// yaml.v3 stops on a tab, retryTabs turns such tabs into spaces and parses
// again. Inside a block scalar a tab is content, not a blank, so the
// result is only used if no changed line falls within one.
var (
	reBlankTabs   = lazyregexp.New(`^([ \t]*\t[ \t]*)(#.*)?$`)
	reIndicatorTb = lazyregexp.New(`^( *(?:[-?:] +)*[-?:] *\t[ \t]*)([^-?:\s].*)?$`)
)

func retryTabs(text string) (*decoded, error, bool) {
	lines := strings.SplitAfter(text, "\n")
	var changed []int
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		// m[1] holds the tabs to turn into spaces, m[2] the rest.
		m := reBlankTabs.FindStringSubmatch(body)
		if m == nil {
			m = reIndicatorTb.FindStringSubmatch(body)
			if m == nil || strings.Contains(m[2], ": ") || strings.Contains(m[2], ":\t") || strings.HasSuffix(m[2], ":") {
				continue
			}
		}
		lines[i] = strings.ReplaceAll(m[1], "\t", " ") + m[2] + l[len(body):]
		changed = append(changed, i+1)
	}
	if len(changed) == 0 {
		return nil, nil, false
	}
	d, err := decodeAnchored(strings.Join(lines, ""))
	if err != nil {
		var ve *v3Error
		if errors.As(err, &ve) && ve.tabs {
			return nil, nil, false
		}
		return d, err, true
	}
	if d.insideBlockScalar(changed) {
		return nil, nil, false
	}
	return d, nil, true
}

// insideBlockScalar reports whether any of lines (of the YAML text) may
// belong to a block scalar: it lies after the scalar's header and before
// the next node.
func (d *decoded) insideBlockScalar(lines []int) bool {
	var starts []int
	var scalars []int
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		starts = append(starts, d.line(n.Line))
		if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			scalars = append(scalars, d.line(n.Line))
		}
		for _, ch := range n.Content {
			walk(ch)
		}
	}
	walk(d.root)
	if len(scalars) == 0 {
		return false
	}
	slices.Sort(starts)
	for _, s := range scalars {
		i, _ := slices.BinarySearch(starts, s+1)
		end := int(^uint(0) >> 1)
		if i < len(starts) {
			end = starts[i]
		}
		for _, l := range lines {
			if l > s && l < end {
				return true
			}
		}
	}
	return false
}

// firstSignificantLine returns the first line of text that is neither
// blank nor a comment, without its line break, and the offset after it.
func firstSignificantLine(text string) (string, int) {
	off := 0
	for raw := range strings.Lines(text) {
		off += len(raw)
		line := trimBreak(raw)
		if t := strings.TrimLeft(line, " \t"); t != "" && t[0] != '#' {
			return line, off
		}
	}
	return "", len(text)
}

// trimBreak is a line from strings.Lines without its line break.
func trimBreak(line string) string {
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
}

// isMarker reports whether line starts with the document marker m
// ("---" or "...") standing alone as a token.
func isMarker(line, m string) bool {
	return strings.HasPrefix(line, m) && (len(line) == 3 || line[3] == ' ' || line[3] == '\t')
}

// leadingDocumentEnd handles a text whose first line of content is a
// "..." marker, which libyaml refuses: the reference reads it as an empty
// document, and anything after it as a second document.
func leadingDocumentEnd(text string) (d *decoded, err error, done bool) {
	first, next := firstSignificantLine(text)
	if !isMarker(first, "...") {
		return nil, nil, false
	}
	rest := strings.TrimLeft(first[3:], " \t")
	if rest != "" && rest[0] != '#' {
		return nil, &SyntaxError{Problems: []Problem{{Message: "unexpected text after a '...' document end marker", Line: lineAt(text, next-1)}}}, true
	}
	if more, at := firstSignificantLine(text[next:]); more != "" {
		return nil, &SyntaxError{Problems: []Problem{{Message: msgMultipleDocuments, Line: lineAt(text, next+at-1)}}}, true
	}
	return &decoded{text: text}, nil, true
}

// lineAt is the 1-based line holding byte offset off.
func lineAt(text string, off int) int {
	return strings.Count(text[:min(off, len(text))], "\n") + 1
}

// directives checks the %YAML directives at the top of text: the reference
// reads YAML 1.2 (and would switch to YAML 1.1 rules, which we do not
// implement, for %YAML 1.1). yaml.v3 only accepts "%YAML 1.1", so a 1.2
// directive is shown to it as 1.1, which changes nothing else it does.
func directives(text string) (string, error) {
	off := 0
	for raw := range strings.Lines(text) {
		line := trimBreak(raw)
		t := strings.TrimLeft(line, " \t")
		switch {
		case t == "" || t[0] == '#':
		case strings.HasPrefix(line, "%YAML") && (len(line) == 5 || line[5] == ' ' || line[5] == '\t'):
			fields := strings.Fields(line[5:])
			if len(fields) == 0 || (fields[0] != "1.2" && fields[0] != "1.1") {
				// Let yaml.v3 report a malformed directive.
				break
			}
			if fields[0] != "1.2" {
				return "", &SyntaxError{Problems: []Problem{{Message: "only YAML 1.2 is supported, but a %YAML directive asks for " + fields[0], Line: lineAt(text, off)}}}
			}
			// The same length, so the lines still to come keep their
			// offsets.
			at := off + strings.Index(line, "1.2")
			text = text[:at] + "1.1" + text[at+3:]
		case line[0] == '%':
		default:
			return text, nil
		}
		off += len(raw)
	}
	return text, nil
}

// v3Problems maps yaml.v3's problem texts to what we tell the user.
var v3Problems = []struct{ v3, ours string }{
	{"did not find expected key", "a mapping entry is not where one can start: check the indentation"},
	{"mapping values are not allowed in this context", "a ': ' appears where no mapping can start: put a nested mapping on its own lines, or quote the value"},
	{"could not find expected ':'", "a key is not followed by ':' on the same line"},
	{"found character that cannot start any token", "a value starts with a character YAML reserves (such as @, ` or a tab): quote the value"},
	{"found a tab character that violates indentation", "tabs cannot be used to indent YAML"},
	{"found a tab character where an indentation space is expected", "tabs cannot be used to indent YAML"},
	{"did not find expected node content", "a value is missing, or starts with a character that cannot start one"},
	{"did not find expected ',' or ']'", "a flow sequence ([ ... ]) is not closed with ]"},
	{"did not find expected ',' or '}'", "a flow mapping ({ ... }) is not closed with }"},
	{"found unexpected end of stream", "a quoted string is not closed"},
	{"found unknown escape character", "a double-quoted string uses an escape sequence YAML does not define"},
	{"did not find expected hexdecimal number", "a \\x, \\u or \\U escape is not followed by enough hexadecimal digits"},
	{"found invalid Unicode character escape code", "an escape sequence names a code point outside Unicode"},
	{"did not find expected <document start>", "unexpected content after the end of the document: check the indentation"},
	{"found unexpected document indicator", "a '---' or '...' line appears inside a quoted string"},
	{"did not find expected '-' indicator", "a sequence item is not where one can start: check the indentation"},
	{"exceeded max depth", "collections are nested too deeply"},
	{"found undefined tag handle", "a tag uses a handle no %TAG directive defines"},
	{"did not find expected alphabetic or numeric character", msgAnchorName},
	{"found an indentation indicator equal to 0", "a block scalar's indentation indicator must be 1 to 9"},
	{"did not find expected comment or line break", "unexpected text after a block scalar indicator or directive"},
	{"did not find expected whitespace or line break", "a block scalar indicator or tag is followed by unexpected text"},
	{"did not find expected tag URI", "a tag is malformed"},
	{"did not find the expected '>'", "a verbatim tag (!<...>) is not closed with >"},
	{"did not find expected '!'", "a tag handle is malformed"},
	{"found unknown directive name", "a YAML directive is not allowed here"},
	{"found incompatible YAML document", "a %YAML directive names an unsupported version"},
	{"found duplicate %YAML directive", "a YAML directive is repeated"},
	{"found duplicate %TAG directive", "a %TAG directive is repeated"},
	{"did not find expected version number", "a %YAML directive is malformed"},
	{"found extremely long version number", "a %YAML directive is malformed"},
	{"did not find expected digit or '.' character", "a %YAML directive is malformed"},
	{"did not find expected whitespace", "a directive is malformed"},
	{"found unexpected non-alphabetical character", "a directive name is malformed"},
	{"control characters are not allowed", "the text contains a control character YAML does not allow"},
	{"invalid", "the text is not valid UTF-8"},
	{"incomplete UTF-8 octet sequence", "the text is not valid UTF-8"},
}

func describeV3Problem(p string) string {
	for _, e := range v3Problems {
		if strings.HasPrefix(p, e.v3) {
			return e.ours
		}
	}
	return "the YAML is not well-formed"
}
