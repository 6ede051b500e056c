// Package yaml12 parses a frontmatter block as one YAML 1.2 document with
// the Core schema, into jsvalue values (see the package doc of jsvalue).
//
// The result is what the reference (the JavaScript `yaml` library's
// parseDocument in strict mode followed by toJS) produces: the same types,
// the same key order, the same duplicate-key, tag and alias rules. The
// syntax itself is read by go.yaml.in/yaml/v3 into a node tree; this
// package resolves scalars, builds the values, and adds the checks where
// yaml.v3 and the reference disagree. docs/yaml-dialect.md lists what still
// differs.
package yaml12

import "strings"

// Document is a parsed YAML document.
type Document struct {
	// Value is the document's value: nil, bool, float64, string, []any,
	// *jsvalue.Object or jsvalue.Exotic. Values reached through an alias
	// are shared with the anchored value, not copied: treat Value as
	// read-only.
	Value any
	// Lines maps a value's path (keys and decimal indices joined by ".",
	// e.g. "affects.0.pattern"; "" for the root) to the 1-based line,
	// within the YAML text, where that value's key (or item) starts.
	// Paths inside an aliased value and paths more than 32 levels deep
	// (maxLinesDepth) are not listed; Line falls back to the nearest listed ancestor.
	Lines map[string]int
}

// maxLinesDepth bounds the paths recorded in Document.Lines: a deeply
// nested document would otherwise need quadratic space for its paths,
// and no schema field lies that deep.
const maxLinesDepth = 32

// maxDepth is the deepest nesting of collections Parse accepts. The
// reference has no set limit but runs out of stack somewhere near this
// depth; real frontmatter is a handful of levels deep.
const maxDepth = 1000

// maxAliasCount is the reference's bound on alias expansion; see
// docs/yaml-dialect.md for how aliases are counted.
const maxAliasCount = 100

// maxValues bounds the size of the value a document expands to, counting
// every value an alias repeats. The reference's alias count does not
// bound aliases to empty collections, so nested ones could otherwise
// describe an exponentially large value.
const maxValues = 1 << 22

// Line returns the line recorded for path, or for its nearest recorded
// ancestor (path prefixes ending at a "."), or 0 when none is recorded.
func (d *Document) Line(path string) int {
	if d == nil {
		return 0
	}
	for {
		if l, ok := d.Lines[path]; ok {
			return l
		}
		if path == "" {
			return 0
		}
		// The parent's path; the root's ("") when there is no ".".
		path = path[:max(strings.LastIndexByte(path, '.'), 0)]
	}
}

// Problem is one reason the YAML text is not a valid document.
// Message says what is wrong without a line number: the caller knows
// where the YAML text sits in the file and adds the file's line.
type Problem struct {
	Message string
	Line    int // 1-based within the YAML text; 0 if unknown
}

// SyntaxError: the text is not one valid YAML 1.2 document
// (frontmatter-parse). Problems are in document order, at most 10
// (maxProblems) of them: a file with a thousand duplicate keys needs no
// thousand messages.
type SyntaxError struct{ Problems []Problem }

// maxProblems bounds SyntaxError.Problems.
const maxProblems = 10

// Error returns the first problem's message.
func (e *SyntaxError) Error() string {
	if len(e.Problems) == 0 {
		return "invalid YAML"
	}
	return e.Problems[0].Message
}

// ResolveError: the syntax is valid but the value cannot be built, e.g.
// an alias to an undefined anchor or too many alias expansions
// (file-read). Message, like a Problem's, carries no line number.
type ResolveError struct {
	Message string
	Line    int // 1-based within the YAML text; 0 if unknown
}

// Error returns the message.
func (e *ResolveError) Error() string { return e.Message }

// Parse parses text. The error, if any, is a *SyntaxError or a
// *ResolveError.
func Parse(text string) (*Document, error) { return parse(text, true) }

// ParseValue is Parse without Document.Lines: the value, or the error
// Parse would return. Recording lines costs a map and a path string per
// value, and most callers need lines only when something is wrong.
func ParseValue(text string) (any, error) {
	doc, err := parse(text, false)
	if err != nil {
		return nil, err
	}
	return doc.Value, nil
}

// parse reads text by the fast path when it can (see fastParse), and by
// the full path otherwise; Lines is recorded only when withLines is set.
func parse(text string, withLines bool) (*Document, error) {
	if v, lines, ok := fastParse(text, withLines); ok {
		return &Document{Value: v, Lines: lines}, nil
	}
	return parseFull(text, withLines)
}

// parseFull is the full path: yaml.v3's node tree, then the composer and
// the builder.
func parseFull(text string, withLines bool) (*Document, error) {
	sub := prepare(text)
	if sub.text != "" && !strings.HasSuffix(sub.text, "\n") {
		// The reference reads a last line without its line break as if it
		// had one (a block scalar there still ends with "\n"); libyaml
		// does not. Frontmatter always ends with one anyway.
		sub.text += "\n"
	}
	dec, err := decode(sub.text)
	if err != nil {
		return nil, err
	}
	c := newComposer(sub, dec)
	c.compose(dec.root, 0, false)
	if len(c.problems) > 0 {
		return nil, &SyntaxError{Problems: c.problems}
	}
	b := newBuilder(c, withLines)
	v, err := b.build(dec.root)
	if err != nil {
		return nil, err
	}
	return &Document{Value: v, Lines: b.lines}, nil
}
