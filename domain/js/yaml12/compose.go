package yaml12

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// composer is the first pass over the node tree. Like the reference's
// composer it resolves every scalar and finds the errors that belong to
// the document's syntax and tags (duplicate keys, unsupported tags, ...),
// without following aliases. Only a document that
// passes it is turned into values.
type composer struct {
	sub     *substitution
	dec     *decoded
	scalars map[*yaml.Node]any
	// bare holds the nodes tagged "!", which makes a plain scalar a
	// string; yaml.v3 drops that tag, so checkProperties finds it in the
	// text.
	bare      map[*yaml.Node]bool
	problems  []Problem
	lineStart []int
	tooDeep   bool
	handles   map[string]bool
	// last is the previous answer of offset.
	last struct{ line, col, off int }
}

func newComposer(sub *substitution, dec *decoded) *composer {
	return &composer{
		sub:     sub,
		dec:     dec,
		scalars: map[*yaml.Node]any{},
		bare:    map[*yaml.Node]bool{},
	}
}

func (c *composer) problem(n *yaml.Node, msg string) {
	c.add(Problem{Message: msg, Line: c.dec.line(n.Line)})
}

func (c *composer) add(p Problem) {
	if len(c.problems) < maxProblems {
		c.problems = append(c.problems, p)
	}
}

// compose resolves n and checks it. inFlow tells whether n sits in a flow
// collection.
func (c *composer) compose(n *yaml.Node, depth int, inFlow bool) {
	if n == nil || c.tooDeep {
		return
	}
	if n.Kind == yaml.AliasNode {
		c.checkAlias(n)
	} else {
		c.checkProperties(n, inFlow)
	}
	if n.Style&yaml.TaggedStyle != 0 && unsupportedTags[n.Tag] {
		c.problem(n, "the tag "+n.Tag+" is not supported in frontmatter: write the value without it")
	}
	switch n.Kind {
	case yaml.ScalarNode:
		c.scalars[n] = c.scalar(n)
		if n.Style&yaml.DoubleQuotedStyle != 0 {
			c.checkEscapes(n)
		}
		if inFlow && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && strings.HasSuffix(n.Value, ":") {
			c.checkColonBeforeIndicator(n)
		}
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			c.checkCommentAfter(n)
		}
	case yaml.SequenceNode, yaml.MappingNode:
		if depth >= maxDepth {
			c.tooDeep = true
			c.problem(n, "collections are nested more than "+strconv.Itoa(maxDepth)+" levels deep")
			return
		}
		if n.Style&yaml.FlowStyle != 0 && !inFlow {
			c.checkCommentAfter(n)
		}
		for _, ch := range n.Content {
			c.compose(ch, depth+1, n.Style&yaml.FlowStyle != 0)
		}
		if n.Style&yaml.FlowStyle == 0 {
			c.checkContinuations(n)
			c.checkValueIndent(n)
		}
		if n.Kind == yaml.MappingNode {
			c.mapping(n)
		}
	}
}

// scalar resolves a scalar node: explicit tag first, then the Core schema
// for plain scalars; quoted and block scalars, and those tagged "!", are
// strings.
func (c *composer) scalar(n *yaml.Node) any {
	s := c.sub.restore(n.Value)
	if n.Style&yaml.TaggedStyle != 0 {
		return resolveTagged(n.Tag, s)
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 || c.bare[n] {
		return s
	}
	return resolvePlain(s)
}

func isSeparator(b byte) bool {
	switch b {
	case ' ', '\t', '\r', '\n', ',', '[', ']', '{', '}':
		return true
	}
	return false
}

// offset finds the byte offset of a node's start in the parsed text from
// its line and (character) column. Nodes come mostly in text order, so it
// resumes from the previous answer when it can: a long line of nodes then
// costs linear time, not quadratic.
func (c *composer) offset(n *yaml.Node) (int, bool) {
	if c.lineStart == nil {
		c.lineStart = []int{0}
		for i := 0; i < len(c.dec.text); i++ {
			if c.dec.text[i] == '\n' {
				c.lineStart = append(c.lineStart, i+1)
			}
		}
	}
	if n.Line < 1 || n.Line > len(c.lineStart) || n.Column < 1 {
		return 0, false
	}
	off, col := c.lineStart[n.Line-1], 1
	if n.Line == c.last.line && n.Column >= c.last.col {
		off, col = c.last.off, c.last.col
	}
	for ; col < n.Column; col++ {
		if off >= len(c.dec.text) {
			return 0, false
		}
		_, size := utf8.DecodeRuneInString(c.dec.text[off:])
		off += size
	}
	c.last.line, c.last.col, c.last.off = n.Line, n.Column, off
	return off, true
}

func (c *composer) mapping(n *yaml.Node) {
	// Duplicate keys: scalar keys only (a collection or alias key is
	// compared by identity, so it never repeats). The map holds each
	// key's value under its Go type, which separates 1 from "1" as
	// JavaScript's === does (a scalar resolves to null, a boolean, a
	// number or a string); -0 is stored as 0, which === equals, and NaN
	// never finds itself in a Go map, as it never equals itself.
	seen := map[any]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		v := c.scalars[k]
		if f, ok := v.(float64); ok && f == 0 {
			v = float64(0)
		}
		if seen[v] {
			c.problem(k, "duplicate key "+strconv.Quote(c.sub.restore(k.Value))+" in a mapping: each key may appear only once")
			continue
		}
		seen[v] = true
	}
}
