package yaml12

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Node properties (anchors and tags) as YAML 1.2 spells them, checked
// against the text: libyaml's tag scanner follows YAML 1.1 and takes in
// characters (",", "[", "]", "{", "}") and handles ("!x!" without a %TAG
// directive) that YAML 1.2 and the reference refuse.

// tagChar reports whether b may appear in a tag shorthand (YAML 1.2
// ns-tag-char without the "%" escape, which is handled apart; "!" is
// allowed so that the handle can be split off afterwards).
func tagChar(b byte) bool {
	switch {
	case b >= '0' && b <= '9', b >= 'A' && b <= 'Z', b >= 'a' && b <= 'z':
		return true
	}
	return strings.IndexByte("-#;/?:@&=+$_.!~*'()", b) >= 0
}

func isHex(b byte) bool {
	return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F')
}

// checkProperties reads the properties at the start of node n and reports
// the first problem with them. It notes in c.bare a node whose tag is
// "!".
func (c *composer) checkProperties(n *yaml.Node, inFlow bool) {
	if n.Kind == yaml.MappingNode && len(n.Content) > 0 && n.Content[0].Line == n.Line && n.Content[0].Column == n.Column {
		// A block mapping starts where its first key does: the
		// properties there are the key's.
		return
	}
	off, ok := c.offset(n)
	if !ok {
		return
	}
	t := c.dec.text
	sawTag := false
	for i := off; i < len(t) && (t[i] == '!' || t[i] == '&'); {
		var end int
		if t[i] == '&' {
			end = i + 1
			for end < len(t) && !isSeparator(t[end]) {
				end++
			}
			if t[i+1:end] != n.Anchor {
				// YAML 1.2 names run to the next blank or flow indicator;
				// yaml.v3 stops at the first character outside [A-Za-z0-9_-].
				c.problem(n, msgAnchorName)
				return
			}
		} else {
			if !sawTag && (i+1 >= len(t) || isSeparator(t[i+1])) {
				c.bare[n] = true
			}
			sawTag = true
			var msg string
			end, msg = c.scanTag(t, i)
			if msg == "" && !strings.HasPrefix(t[i:], "!<") && end < len(t) && strings.IndexByte(",]}", t[end]) >= 0 &&
				n.Style&yaml.TaggedStyle != 0 && strings.IndexByte(n.Tag, t[end]) >= 0 {
				// yaml.v3 read the flow indicator after the tag as part of
				// it, and so misread the collection.
				msg = "a tag followed directly by ',', ']' or '}' is not supported: put a space after the tag"
			}
			if msg != "" {
				c.problem(n, msg)
				return
			}
		}
		if end < len(t) && !isBlank(t[end]) && !(inFlow && strings.IndexByte(",]}", t[end]) >= 0) {
			c.problem(n, "an anchor or tag must be followed by a space before the value")
			return
		}
		// Blanks, line breaks and comments may separate properties.
		i = end
		for i < len(t) {
			switch t[i] {
			case ' ', '\t', '\r', '\n':
				i++
				continue
			case '#':
				for i < len(t) && t[i] != '\n' {
					i++
				}
				continue
			}
			break
		}
	}
}

const msgAnchorName = "anchor and alias names may only use ASCII letters, digits, '_' and '-'"

// checkAlias compares an alias's name in the text with the name yaml.v3
// read, which differ when the name goes on with characters yaml.v3 does
// not take ("*a:" is the alias "a:" in YAML 1.2).
func (c *composer) checkAlias(n *yaml.Node) {
	off, ok := c.offset(n)
	t := c.dec.text
	if !ok || off >= len(t) || t[off] != '*' {
		return
	}
	end := off + 1
	for end < len(t) && !isSeparator(t[end]) {
		end++
	}
	if t[off+1:end] != n.Value {
		c.problem(n, msgAnchorName)
	}
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// scanTag reads the tag starting at t[i] ("!") and returns the offset
// after it, and a problem with it if any.
func (c *composer) scanTag(t string, i int) (int, string) {
	if i+1 < len(t) && t[i+1] == '<' {
		j := i + 2
		for j < len(t) && t[j] != '>' && !isBlank(t[j]) {
			j++
		}
		if j >= len(t) || t[j] != '>' {
			return j, "a verbatim tag (!<...>) is not closed with >"
		}
		if v := t[i+2 : j]; v == "!" || v == "!!" {
			return j + 1, "the verbatim tag !<" + v + "> names no tag"
		}
		return j + 1, ""
	}
	j := i + 1
	for j < len(t) {
		switch {
		case tagChar(t[j]):
			j++
		case t[j] == '%' && j+2 < len(t) && isHex(t[j+1]) && isHex(t[j+2]):
			j += 3
		default:
			goto done
		}
	}
done:
	tok := t[i:j]
	if tok == "!" {
		return j, ""
	}
	h := strings.LastIndexByte(tok, '!')
	handle, suffix := tok[:h+1], tok[h+1:]
	if suffix == "" {
		return j, "the tag " + tok + " has nothing after its handle"
	}
	switch {
	case handle == "!":
	case handle == "!!":
		// The secondary handle's suffix is percent-decoded and must then
		// be UTF-8.
		dec, err := url.PathUnescape(suffix)
		if err != nil || !utf8.ValidString(dec) {
			return j, "the tag " + tok + " has a malformed %-escape"
		}
	case !c.declaredHandles()[handle]:
		return j, "the tag " + tok + " uses the handle " + handle + ", which no %TAG directive declares"
	}
	return j, ""
}

// declaredHandles lists the tag handles the document's %TAG directives
// declare.
func (c *composer) declaredHandles() map[string]bool {
	if c.handles != nil {
		return c.handles
	}
	c.handles = map[string]bool{}
	t := c.dec.text[c.dec.prefix:]
	for _, line := range strings.Split(t, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "---") || (line != "" && line[0] != '%' && line[0] != '#') {
			break
		}
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "%TAG" {
			c.handles[f[1]] = true
		}
	}
	return c.handles
}

// validEscape reports whether the escape sequence at t[i] ("\") in a
// double-quoted scalar is one YAML 1.2 defines.
func validEscape(t string, i int) bool {
	if i+1 >= len(t) {
		return false
	}
	switch t[i+1] {
	case '0', 'a', 'b', 't', '\t', 'n', 'v', 'f', 'r', 'e', ' ', '"', '/', '\\', 'N', '_', 'L', 'P', '\n', '\r':
		return true
	case 'x', 'u', 'U':
		n := escapeDigits(t[i+1])
		if i+2+n > len(t) {
			return false
		}
		for k := i + 2; k < i+2+n; k++ {
			if !isHex(t[k]) {
				return false
			}
		}
		return true
	}
	return false
}

// checkEscapes verifies the escapes of a double-quoted scalar: libyaml
// also accepts \', which YAML 1.2 (and the reference) do not define.
func (c *composer) checkEscapes(n *yaml.Node) {
	off, ok := c.content(n)
	t := c.dec.text
	if !ok || t[off] != '"' {
		return
	}
	for i := off + 1; i < len(t) && t[i] != '"'; i++ {
		if t[i] != '\\' {
			continue
		}
		if !validEscape(t, i) {
			c.problem(n, "a double-quoted string uses an escape sequence YAML does not define")
			return
		}
		i++
	}
}
