package yaml12

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// YAML 1.2 (and the reference) require every line of a flow collection or
// quoted scalar that sits inside a block collection to be indented more
// than that block collection. libyaml only enforces this for plain
// scalars, so yaml.v3 accepts
//
//	a: [x,
//	y]
//
// which the reference rejects. checkContinuations adds the rule: it reads
// the text of each such node and measures its continuation lines.

// blockIndent is the 0-based indentation of block collection n: the
// column of its keys or dashes. ok is false when it cannot be told from
// the node (a block sequence with properties starts at the properties).
func (c *composer) blockIndent(n *yaml.Node) (int, bool) {
	if len(n.Content) == 0 {
		return 0, false
	}
	if n.Kind == yaml.SequenceNode {
		if n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 {
			return 0, false
		}
		return n.Column - 1, true
	}
	k := n.Content[0]
	off, ok := c.offset(k)
	if !ok {
		return 0, false
	}
	// An explicit key ("? key") sits two columns right of the mapping.
	t := c.dec.text
	j := off - 1
	for j >= 0 && (t[j] == ' ' || t[j] == '\t') {
		j--
	}
	if j >= 0 && t[j] == '?' && j+1 < off {
		return k.Column - 1 - (off - j), true
	}
	return k.Column - 1, true
}

// checkContinuations applies the rule to the members of block collection n.
func (c *composer) checkContinuations(n *yaml.Node) {
	indent, ok := c.blockIndent(n)
	if !ok {
		return
	}
	required := indent + 1
	for _, ch := range n.Content {
		quoted := ch.Kind == yaml.ScalarNode && ch.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
		flow := (ch.Kind == yaml.SequenceNode || ch.Kind == yaml.MappingNode) && ch.Style&yaml.FlowStyle != 0
		if !quoted && !flow {
			continue
		}
		off, ok := c.content(ch)
		if !ok {
			continue
		}
		var bad int
		switch {
		case quoted && (c.dec.text[off] == '"' || c.dec.text[off] == '\''):
			_, bad = scanQuoted(c.dec.text, off, required)
		case flow && (c.dec.text[off] == '[' || c.dec.text[off] == '{'):
			_, bad = scanFlow(c.dec.text, off, required)
		default:
			continue
		}
		if bad >= 0 {
			what := "a quoted string"
			if flow {
				what = "a flow collection ([...] or {...})"
			}
			c.add(Problem{
				Message: "a line inside " + what + " must be indented at least " + strconv.Itoa(required) + " spaces, more than the block it belongs to",
				Line:    c.dec.line(lineAt(c.dec.text, bad)),
			})
			return
		}
	}
}

// content returns the offset in the parsed text where n's content
// starts, after its properties; ok is false when that is not in the
// text.
func (c *composer) content(n *yaml.Node) (int, bool) {
	off, ok := c.offset(n)
	if !ok {
		return 0, false
	}
	off = skipProperties(c.dec.text, off)
	return off, off < len(c.dec.text)
}

// skipProperties moves past anchors and tags (and the blanks after them)
// to where a node's content starts.
func skipProperties(t string, i int) int {
	for i < len(t) && (t[i] == '&' || t[i] == '!') {
		for i < len(t) && !isSeparator(t[i]) {
			i++
		}
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
	}
	return i
}

// continuationLine measures the line starting at i: its indentation in
// spaces, the offset of its first character that is not a space or tab,
// and whether it is blank.
func continuationLine(t string, i int) (spaces, first int, blank bool) {
	for i < len(t) && t[i] == ' ' {
		spaces++
		i++
	}
	first = i
	for first < len(t) && (t[first] == ' ' || t[first] == '\t') {
		first++
	}
	blank = first >= len(t) || t[first] == '\n' || (t[first] == '\r' && first+1 < len(t) && t[first+1] == '\n')
	return spaces, first, blank
}

// scanQuoted reads the quoted scalar starting at t[i]. It returns the
// offset after the closing quote (or len(t)), and the offset of the first
// line inside it indented less than required (-1 if none).
func scanQuoted(t string, i, required int) (end, bad int) {
	q := t[i]
	j := i + 1
	for j < len(t) {
		switch t[j] {
		case '\\':
			if q == '"' {
				if j+1 < len(t) && t[j+1] == '\n' {
					j++
					continue
				}
				j += 2
				continue
			}
			j++
		case q:
			if q == '\'' && j+1 < len(t) && t[j+1] == '\'' {
				j += 2
				continue
			}
			return j + 1, -1
		case '\n':
			j++
			spaces, first, blank := continuationLine(t, j)
			if !blank && spaces < required {
				return len(t), j
			}
			j = first
		default:
			j++
		}
	}
	return len(t), -1
}

// scanFlow reads the flow collection starting at t[i]. It returns the
// offset after its closing bracket (or len(t)), and the offset of the
// first line inside it indented less than required (-1 if none). A
// closing bracket of the outermost collection may sit one column left of
// the others, as the reference allows.
func scanFlow(t string, i, required int) (end, bad int) {
	depth := 0
	atToken := true // a quote here starts a quoted scalar
	closed := false // the previous token was quoted or a collection (a JSON-like key)
	for i < len(t) {
		ch := t[i]
		switch {
		case ch == '\n':
			i++
			spaces, first, blank := continuationLine(t, i)
			if blank {
				i = first
				continue
			}
			c0 := t[first]
			if c0 != '#' && spaces < required && !(spaces == required-1 && depth == 1 && (c0 == ']' || c0 == '}')) {
				return len(t), i
			}
			i = first
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
		case ch == '#' && i > 0 && (t[i-1] == ' ' || t[i-1] == '\t'):
			for i < len(t) && t[i] != '\n' {
				i++
			}
		case ch == '[' || ch == '{':
			depth++
			atToken, closed = true, false
			i++
		case ch == ']' || ch == '}':
			depth--
			i++
			if depth == 0 {
				return i, -1
			}
			atToken, closed = false, true
		case ch == ',':
			atToken, closed = true, false
			i++
		case (ch == '"' || ch == '\'') && atToken:
			qend, b := scanQuoted(t, i, required)
			if b >= 0 {
				return len(t), b
			}
			i = qend
			atToken, closed = false, true
		case ch == ':' && (closed || i+1 >= len(t) || isSeparator(t[i+1])):
			atToken, closed = true, false
			i++
		case (ch == '?' || ch == '-') && atToken && (i+1 >= len(t) || isSeparator(t[i+1])):
			i++
		case (ch == '&' || ch == '!') && atToken:
			for i < len(t) && !isSeparator(t[i]) {
				i++
			}
		default:
			atToken, closed = false, false
			i++
		}
	}
	return len(t), -1
}

// checkValueIndent applies YAML's rule that a mapping value starting on a
// line after its key is indented more than the key; libyaml lets a block
// scalar header (and a few other nodes) sit at the key's column. A block
// sequence may sit there: that is YAML's compact "indentless" sequence.
func (c *composer) checkValueIndent(n *yaml.Node) {
	indent, ok := c.blockIndent(n)
	if !ok || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Line <= k.Line || v.Column-1 > indent {
			continue
		}
		if v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 {
			continue
		}
		if v.Kind == yaml.ScalarNode && v.Value == "" && v.Style&(yaml.LiteralStyle|yaml.FoldedStyle|yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 && v.Style&yaml.TaggedStyle == 0 && v.Anchor == "" {
			// An empty value has no position of its own.
			continue
		}
		c.add(Problem{
			Message: "the value of a mapping entry starts on the next line but is not indented more than its key",
			Line:    c.dec.line(v.Line),
		})
		return
	}
}

// checkColonBeforeIndicator rejects a plain value written "x:" right
// before ",", "]" or "}" in a flow collection: YAML 1.2 reads that ":" as
// a value indicator ("[x:]" is [{x: null}]), libyaml as part of the value,
// and we cannot rebuild what the reference makes of it.
func (c *composer) checkColonBeforeIndicator(n *yaml.Node) {
	off, ok := c.content(n)
	t := c.dec.text
	end := off + len(n.Value)
	if !ok || end >= len(t) || t[off:end] != n.Value || strings.IndexByte(",]}", t[end]) < 0 {
		return
	}
	c.problem(n, "a plain value in a flow collection ends with ':' right before ',', ']' or '}': quote it, or put a space after the ':'")
}

// checkCommentAfter rejects a comment that touches the closing quote of a
// quoted scalar ("x"#c), the closing bracket of a flow collection ([x]#c)
// or a block scalar header (|#c): YAML needs a blank before "#", libyaml
// does not. Collections
// nested in a flow collection are covered by the outermost one.
func (c *composer) checkCommentAfter(n *yaml.Node) {
	off, ok := c.content(n)
	if !ok {
		return
	}
	t := c.dec.text
	var end int
	switch t[off] {
	case '"', '\'':
		end, _ = scanQuoted(t, off, 0)
	case '[', '{':
		end, _ = scanFlow(t, off, 0)
	case '|', '>':
		// A block scalar header: indicator, then chomping and
		// indentation indicators.
		for end = off + 1; end < len(t) && (t[end] == '-' || t[end] == '+' || (t[end] >= '0' && t[end] <= '9')); end++ {
		}
	default:
		return
	}
	if end < len(t) && t[end] == '#' {
		c.problem(n, "a comment must be separated from the value before it by a space")
	}
}
