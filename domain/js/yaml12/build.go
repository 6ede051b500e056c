package yaml12

import (
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
)

// anchorState is what the builder knows about one anchored node, mirroring
// the reference's bookkeeping for its alias limit.
type anchorState struct {
	// count is 1 for the anchor itself plus one per alias resolved to it.
	count int
	// aliasCount is how many values one expansion of the anchor stands
	// for, as the reference measures it (0 until first needed).
	aliasCount int
	res        any
	size       int
	done       bool
}

// builder is the second pass: it turns the composed tree into values in
// document order, expanding aliases the way the reference does.
type builder struct {
	c       *composer
	anchors map[*yaml.Node]*anchorState
	lines   map[string]int
	// static caches alias counts of subtrees without aliases, which
	// cannot change.
	static map[*yaml.Node]int
}

// newBuilder returns a builder for c's tree; lines are recorded only
// when withLines is set (b.lines is nil otherwise).
func newBuilder(c *composer, withLines bool) *builder {
	b := &builder{
		c:       c,
		anchors: map[*yaml.Node]*anchorState{},
		static:  map[*yaml.Node]int{},
	}
	if withLines {
		b.lines = map[string]int{}
	}
	return b
}

// Placeholders for an alias to a collection that contains the alias. The
// reference builds a cyclic value there; a cycle would send any Go code
// that walks the value (serialisation, comparison) into endless recursion,
// so the inner reference becomes an exotic value named like the type the
// reference would report for it.
var (
	cyclicArray  = jsvalue.Exotic{Constructor: "array"}
	cyclicObject = jsvalue.Exotic{Constructor: "object"}
)

func (b *builder) build(root *yaml.Node) (any, error) {
	if root == nil {
		if b.lines != nil {
			b.lines[""] = 1 // an empty document is on its first line
		}
		return nil, nil
	}
	b.record("", 0, root)
	// sequence and mapping stop at the first member past maxValues.
	v, _, err := b.value(root, "", 0)
	return v, err
}

func (b *builder) tooBig(n *yaml.Node) error {
	return &ResolveError{
		Message: "the document's aliases expand to more than " + strconv.Itoa(maxValues) + " values",
		Line:    b.c.dec.line(n.Line),
	}
}

// value converts n. path is n's path for Lines, and depth its number of
// components; paths are only built while depth <= maxLinesDepth. size
// counts the values n expands to, aliases included.
func (b *builder) value(n *yaml.Node, path string, depth int) (v any, size int, err error) {
	if n.Kind == yaml.AliasNode {
		return b.alias(n)
	}
	var st *anchorState
	if n.Anchor != "" {
		st = &anchorState{count: 1}
		b.anchors[n] = st
	}
	switch n.Kind {
	case yaml.SequenceNode:
		v, size, err = b.sequence(n, path, depth)
	case yaml.MappingNode:
		v, size, err = b.mapping(n, path, depth)
	default: // a scalar
		v, size = b.c.scalars[n], 1
	}
	if err != nil {
		return nil, 0, err
	}
	if st != nil {
		st.res, st.size, st.done = v, size, true
	}
	return v, size, nil
}

func (b *builder) alias(n *yaml.Node) (any, int, error) {
	target := n.Alias
	line := b.c.dec.line(n.Line)
	if target == nil || b.c.dec.undefined[target] {
		return nil, 0, &ResolveError{
			Message: "alias *" + n.Value + " refers to an anchor that is not defined before it",
			Line:    line,
		}
	}
	st := b.anchors[target]
	st.count++
	if st.aliasCount == 0 {
		st.aliasCount, _ = b.measure(target)
	}
	if st.count*st.aliasCount > maxAliasCount {
		return nil, 0, &ResolveError{
			Message: "aliases are expanded more than " + strconv.Itoa(maxAliasCount) + " times; the document looks like an alias-expansion attack",
			Line:    line,
		}
	}
	if !st.done {
		if target.Kind == yaml.SequenceNode {
			return cyclicArray, 1, nil
		}
		return cyclicObject, 1, nil
	}
	return st.res, st.size, nil
}

// measure counts the values an anchored node stands for, as the
// reference does: a scalar counts 1, an alias the count of its anchor so
// far, a collection the largest of its members (0 when empty). static
// reports a count no later alias can change; those are cached.
func (b *builder) measure(n *yaml.Node) (count int, static bool) {
	if c, ok := b.static[n]; ok {
		return c, true
	}
	switch n.Kind {
	case yaml.AliasNode:
		if st := b.anchors[n.Alias]; st != nil {
			return st.count * st.aliasCount, false
		}
		return 0, false
	case yaml.SequenceNode, yaml.MappingNode:
		static = true
		for _, ch := range n.Content {
			c, s := b.measure(ch)
			count = max(count, c)
			static = static && s
		}
		if static {
			b.static[n] = count
		}
		return count, static
	}
	return 1, true
}

// record notes the line of n at path, when lines are recorded and depth
// is within maxLinesDepth.
func (b *builder) record(path string, depth int, n *yaml.Node) {
	if b.lines != nil && depth <= maxLinesDepth {
		b.lines[path] = b.c.dec.line(n.Line)
	}
}

// childPath is the Lines path of member seg of the node at path, at
// depth; "" when lines is nil (nothing is recorded) or depth is past
// maxLinesDepth.
func childPath(lines map[string]int, path string, depth int, seg string) string {
	if lines == nil || depth > maxLinesDepth {
		return ""
	}
	if depth == 1 {
		return seg
	}
	return path + "." + seg
}

func (b *builder) sequence(n *yaml.Node, path string, depth int) (any, int, error) {
	items := make([]any, len(n.Content))
	size := 1
	for i, ch := range n.Content {
		p := childPath(b.lines, path, depth+1, strconv.Itoa(i))
		b.record(p, depth+1, ch)
		v, s, err := b.value(ch, p, depth+1)
		if err != nil {
			return nil, 0, err
		}
		items[i] = v
		size += s
		if size > maxValues {
			return nil, 0, b.tooBig(n)
		}
	}
	return items, size, nil
}

func (b *builder) mapping(n *yaml.Node, path string, depth int) (any, int, error) {
	obj := jsvalue.NewObject(len(n.Content) / 2)
	size := 1
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		key, ks, err := b.key(kn)
		if err != nil {
			return nil, 0, err
		}
		p := childPath(b.lines, path, depth+1, key)
		b.record(p, depth+1, kn)
		v, s, err := b.value(vn, p, depth+1)
		if err != nil {
			return nil, 0, err
		}
		obj.Set(key, v)
		size += ks + s
		if size > maxValues {
			return nil, 0, b.tooBig(n)
		}
	}
	return jsOrder(obj), size, nil
}

// key converts a mapping key and names the member it becomes, as
// JavaScript's String() would for a primitive. A collection key becomes
// YAML flow text, an approximation of the reference's own rendering.
func (b *builder) key(kn *yaml.Node) (name string, size int, err error) {
	v, size, err := b.value(kn, "", maxLinesDepth+1)
	if err != nil {
		return "", 0, err
	}
	switch x := v.(type) {
	case nil, bool, float64, string:
		return jsString(x), size, nil
	}
	if kn.Kind == yaml.AliasNode {
		return "*" + kn.Value, size, nil
	}
	var sb strings.Builder
	b.writeFlow(&sb, kn)
	return sb.String(), size, nil
}

// writeFlow renders a node as YAML flow text on one line, the way the
// reference names a member whose key is a collection ("[ a, b ]",
// "{ a: 1 }").
func (b *builder) writeFlow(sb *strings.Builder, n *yaml.Node) {
	if n.Anchor != "" {
		sb.WriteString("&" + n.Anchor + " ")
	}
	if n.Style&yaml.TaggedStyle != 0 {
		sb.WriteString(n.Tag + " ")
	}
	switch n.Kind {
	case yaml.AliasNode:
		sb.WriteString("*" + n.Value)
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			sb.WriteString("[]")
			return
		}
		sb.WriteString("[ ")
		for i, ch := range n.Content {
			if i > 0 {
				sb.WriteString(", ")
			}
			b.writeFlow(sb, ch)
		}
		sb.WriteString(" ]")
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			sb.WriteString("{}")
			return
		}
		// Like the reference, leave the values out when none was written
		// ("{ a, b }").
		keysOnly := true
		for i := 1; i < len(n.Content); i += 2 {
			v := n.Content[i]
			if v.Kind != yaml.ScalarNode || v.Value != "" || v.Style != 0 || v.Anchor != "" {
				keysOnly = false
				break
			}
		}
		sb.WriteString("{ ")
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				sb.WriteString(", ")
			}
			b.writeFlow(sb, n.Content[i])
			if !keysOnly {
				sb.WriteString(": ")
				b.writeFlow(sb, n.Content[i+1])
			}
		}
		sb.WriteString(" }")
	case yaml.ScalarNode:
		s := b.c.sub.restore(n.Value)
		switch {
		case n.Style&yaml.SingleQuotedStyle != 0:
			sb.WriteString("'" + strings.ReplaceAll(s, "'", "''") + "'")
		case n.Style&(yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0:
			sb.Write(jsvalue.AppendString(nil, s))
		case b.c.scalars[n] == nil && n.Style&yaml.TaggedStyle == 0:
			sb.WriteString("null")
		default:
			sb.WriteString(s)
		}
	}
}

// jsOrder puts o's integer-like keys first, in numeric order, as every
// JavaScript object orders its own properties (Set already keeps a key
// assigned twice in its first place).
func jsOrder(o *jsvalue.Object) *jsvalue.Object {
	var indices []uint32
	for _, k := range o.Keys() {
		if i, ok := arrayIndex(k); ok {
			indices = append(indices, i)
		}
	}
	if len(indices) == 0 {
		return o
	}
	slices.Sort(indices)
	out := jsvalue.NewObject(o.Len())
	for _, i := range indices {
		k := strconv.FormatUint(uint64(i), 10)
		v, _ := o.Get(k)
		out.Set(k, v)
	}
	for _, k := range o.Keys() {
		if _, ok := arrayIndex(k); !ok {
			v, _ := o.Get(k)
			out.Set(k, v)
		}
	}
	return out
}

// arrayIndex reports whether k is a canonical array index ("0", "7",
// "4294967294"), the keys JavaScript lists before all others.
func arrayIndex(k string) (uint32, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n > 4294967294 {
		return 0, false
	}
	return uint32(n), true
}
