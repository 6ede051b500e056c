package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// GraphFormat is a graph output format.
type GraphFormat string

// The graph formats.
const (
	GraphMermaid GraphFormat = "mermaid"
	GraphDOT     GraphFormat = "dot"
	GraphJSON    GraphFormat = "json"
)

// ParseGraphFormat reads a --format value for graph.
func ParseGraphFormat(s string) (GraphFormat, error) {
	switch f := GraphFormat(s); f {
	case GraphMermaid, GraphDOT, GraphJSON:
		return f, nil
	}
	return "", fmt.Errorf("--format must be mermaid, dot or json, got %q", s)
}

// WriteGraph renders g. Node names are derived from ids (with a suffix
// for a shared id) so that the text diffs well when one record changes.
func WriteGraph(w io.Writer, g *app.Graph, f GraphFormat, src Source) error {
	switch f {
	case GraphDOT:
		return writeString(w, dotGraph(g, src))
	case GraphJSON:
		return WriteJSON(w, jsonGraph(g, src))
	}
	return writeString(w, mermaidGraph(g, src))
}

// maxLabelTitle caps a title in a node label, in UTF-16 code units: a
// graph with paragraph-long boxes is unreadable.
const maxLabelTitle = 60

func shortTitle(t string) string {
	t = oneLine(t)
	if jsstring.Len(t) <= maxLabelTitle {
		return t
	}
	cut := jsstring.Truncate(t, maxLabelTitle-1)
	// End at a word when one ends near the limit, not mid-word.
	if i := strings.LastIndexByte(cut, ' '); i >= len(cut)-20 && i > 0 {
		cut = cut[:i]
	}
	return cut + "…"
}

// nodeStyle is how one class of node is drawn: fill, border and text
// colour, and whether the border is dashed.
type nodeStyle struct {
	class, label       string
	fill, stroke, text string
	dashed             bool
}

// statusStyles are the node classes in legend order: the statuses in
// schema order, then unknown references.
var statusStyles = []nodeStyle{
	{class: "draft", label: "draft", fill: "#f1f3f5", stroke: "#868e96", text: "#343a40"},
	{class: "proposed", label: "proposed", fill: "#fff3bf", stroke: "#f08c00", text: "#5c3c00"},
	{class: "accepted", label: "accepted", fill: "#d3f9d8", stroke: "#2b8a3e", text: "#1b4d27"},
	{class: "rejected", label: "rejected", fill: "#ffe3e3", stroke: "#c92a2a", text: "#5c1111"},
	{class: "superseded", label: "superseded", fill: "#e7e7e7", stroke: "#495057", text: "#495057"},
	{class: "deprecated", label: "deprecated", fill: "#ffe8cc", stroke: "#d9480f", text: "#5c2a0a"},
	{class: "unknown", label: "not in this corpus", fill: "#ffffff", stroke: "#868e96", text: "#495057", dashed: true},
}

// classOf is the style class of a node.
func classOf(n app.GraphNode) string {
	if n.Unknown {
		return "unknown"
	}
	if slices.Contains(adr.Statuses, n.Status) {
		return string(n.Status)
	}
	return "unknown"
}

// usedStyles are the classes the graph uses, in legend order.
func usedStyles(g *app.Graph) []nodeStyle {
	used := map[string]bool{}
	for _, n := range g.Nodes {
		used[classOf(n)] = true
	}
	var out []nodeStyle
	for _, s := range statusStyles {
		if used[s.class] {
			out = append(out, s)
		}
	}
	return out
}

// nodeNames gives every node a name that is a valid identifier in both
// Mermaid and DOT: adr_<id> for a record (adr_<id>_2, _3... for later
// holders of a shared id), ref_<n> for an unknown reference.
func nodeNames(g *app.Graph) []string {
	names := make([]string, len(g.Nodes))
	seen := map[string]int{}
	refs := 0
	for i, n := range g.Nodes {
		if n.Unknown {
			refs++
			names[i] = "ref_" + strconv.Itoa(refs)
			continue
		}
		base := "adr_" + identifier(n.ID)
		seen[base]++
		if k := seen[base]; k > 1 {
			names[i] = base + "_" + strconv.Itoa(k)
		} else {
			names[i] = base
		}
	}
	return names
}

// identifier keeps ASCII letters and digits and turns anything else into
// "_" (ids are digits or ULIDs, so this only guards against surprises).
func identifier(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// nodeLines are a node's label lines: "0003 · title", and for an unknown
// node what it is.
func nodeLines(n app.GraphNode) []string {
	if !n.Unknown {
		return []string{n.ID + " · " + shortTitle(n.Title)}
	}
	if n.Log != "" {
		return []string{n.Ref, "in the " + strconv.Quote(n.Log) + " log"}
	}
	return []string{n.Ref, "not in this corpus"}
}

// edgeLabel is the words on an edge.
func edgeLabel(k app.EdgeKind) string {
	switch k {
	case app.EdgeSupersedes:
		return "supersedes"
	case app.EdgeConflictsWith:
		return "conflicts with"
	}
	return "relates to"
}

// graphTitle is the comment line that opens either format.
func graphTitle(g *app.Graph, src Source) string {
	records := 0
	for _, n := range g.Nodes {
		if !n.Unknown {
			records++
		}
	}
	return "adrkit graph of " + src.String() + ": " + counted(records, "decision", "decisions") + ", " +
		counted(len(g.Edges), "relation", "relations")
}

// mermaidText escapes a label for a quoted Mermaid node label: Mermaid
// reads "#...;" as an entity, so "#" itself, quotes and angle brackets
// are written as entities.
func mermaidText(s string) string {
	return strings.NewReplacer("#", "#35;", `"`, "#quot;", "<", "#lt;", ">", "#gt;").Replace(s)
}

// mermaidGraph is a Mermaid flowchart: left to right, one class per
// status, supersedes as thick arrows, relatesTo as plain lines and
// conflictsWith as dotted lines, with a legend subgraph of the classes in
// use.
func mermaidGraph(g *app.Graph, src Source) string {
	names := nodeNames(g)
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	b.WriteString("  %% " + mermaidText(graphTitle(g, src)) + "\n")
	for i, n := range g.Nodes {
		lines := nodeLines(n)
		for k := range lines {
			lines[k] = mermaidText(lines[k])
		}
		fmt.Fprintf(&b, "  %s[\"%s\"]:::%s\n", names[i], strings.Join(lines, "<br/>"), classOf(n))
	}
	for _, e := range g.Edges {
		from, to := names[e.From], names[e.To]
		switch e.Kind {
		case app.EdgeSupersedes:
			fmt.Fprintf(&b, "  %s ==>|%s| %s\n", from, edgeLabel(e.Kind), to)
		case app.EdgeConflictsWith:
			fmt.Fprintf(&b, "  %s -.-|%s| %s\n", from, edgeLabel(e.Kind), to)
		default:
			fmt.Fprintf(&b, "  %s ---|%s| %s\n", from, edgeLabel(e.Kind), to)
		}
	}
	styles := usedStyles(g)
	if len(styles) > 0 {
		b.WriteString("  subgraph legend [\"Legend\"]\n    direction LR\n")
		for _, s := range styles {
			fmt.Fprintf(&b, "    legend_%s[\"%s\"]:::%s\n", s.class, mermaidText(s.label), s.class)
		}
		b.WriteString("  end\n")
	}
	for _, s := range statusStyles {
		fmt.Fprintf(&b, "  classDef %s fill:%s,stroke:%s,color:%s", s.class, s.fill, s.stroke, s.text)
		if s.dashed {
			b.WriteString(",stroke-dasharray:5 3")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// dotText quotes s as a DOT string.
func dotText(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// dotNodeAttrs are a node's style attributes for class.
func dotNodeAttrs(s nodeStyle) string {
	style := "rounded,filled"
	if s.dashed {
		style += ",dashed"
	}
	return fmt.Sprintf("style=%s, fillcolor=%s, color=%s, fontcolor=%s",
		dotText(style), dotText(s.fill), dotText(s.stroke), dotText(s.text))
}

func styleByClass(class string) nodeStyle {
	for _, s := range statusStyles {
		if s.class == class {
			return s
		}
	}
	return statusStyles[len(statusStyles)-1]
}

// dotGraph is a Graphviz digraph with the same styling as the Mermaid
// one: supersedes bold arrows, relatesTo plain undirected lines,
// conflictsWith dotted red lines, and a legend cluster.
func dotGraph(g *app.Graph, src Source) string {
	names := nodeNames(g)
	var b strings.Builder
	b.WriteString("// " + graphTitle(g, src) + "\n")
	b.WriteString("digraph adrkit {\n")
	b.WriteString("  graph [rankdir=LR, fontname=\"Helvetica\"];\n")
	b.WriteString("  node [shape=box, fontname=\"Helvetica\"];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=10];\n")
	for i, n := range g.Nodes {
		fmt.Fprintf(&b, "  %s [label=%s, %s];\n", names[i], dotText(strings.Join(nodeLines(n), "\n")), dotNodeAttrs(styleByClass(classOf(n))))
	}
	for _, e := range g.Edges {
		attrs := "style=bold"
		switch e.Kind {
		case app.EdgeRelatesTo:
			attrs = "dir=none, color=\"#868e96\""
		case app.EdgeConflictsWith:
			attrs = "dir=none, style=dotted, color=\"#c92a2a\", fontcolor=\"#c92a2a\""
		}
		fmt.Fprintf(&b, "  %s -> %s [label=%s, %s];\n", names[e.From], names[e.To], dotText(edgeLabel(e.Kind)), attrs)
	}
	if styles := usedStyles(g); len(styles) > 0 {
		b.WriteString("  subgraph cluster_legend {\n    label=\"Legend\";\n    style=dashed;\n    color=\"#adb5bd\";\n")
		for _, s := range styles {
			fmt.Fprintf(&b, "    legend_%s [label=%s, %s];\n", s.class, dotText(s.label), dotNodeAttrs(s))
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	return b.String()
}
