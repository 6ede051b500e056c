package site

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// The graph is laid out here rather than by Graphviz (ADR 0037): a
// layered drawing in the manner of Sugiyama, deterministic by
// construction.
//
//   - Each edge is oriented from the earlier record to the later one in
//     rank order: a superseded record before the one that replaced it,
//     otherwise node (id) order. A node's layer is the longest run of
//     such edges that leads to it, so supersession reads top to bottom
//     and every relation joins two different layers; a record with no
//     earlier neighbour is moved down next to its nearest later one.
//   - An edge that spans layers gets a dummy vertex on each layer it
//     crosses, so it passes through a layer in a lane of its own, never
//     through a box; between layers it is a curve within the gap.
//   - Crossings are reduced by barycentric ordering, four down-and-up
//     sweeps; positions follow the neighbours' mean, each layer placed
//     as the mean of its leftmost and rightmost feasible placement.
//   - Connected components are stacked; records that relate to nothing
//     share a grid below.
//
// The picture is as wide as its widest layer; the page scales it to fit
// the window, with a button for the full size and scrolling.
const (
	nodeW   = 184
	nodeH   = 52
	gapX    = 20
	gapY    = 64
	lane    = 12
	margin  = 16
	gridCol = 5
	sweeps  = 4
)

type point struct{ x, y int }

// drawing is a laid-out graph: each node's box (its top-left corner) and
// each edge's route from its upper end to its lower end: the start, a
// pair of points per layer it passes (entering and leaving the layer),
// and the end. A self-loop has no route.
type drawing struct {
	box    []point
	routes [][]point
	w, h   int
}

// graphSVG draws g; root is the path from the page to the site's root,
// self the node the page is about (-1 for none), tags each node's tags
// (for the page's filters; nil for none).
func graphSVG(g *app.Graph, root string, self int, tags [][]string) string {
	if len(g.Nodes) == 0 {
		return ""
	}
	d := layout(g)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="%d" height="%d" viewBox="0 0 %d %d" role="group" aria-label="Relations between the decisions">`+"\n",
		d.w, d.h, d.w, d.h)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>` + "\n")
	for i, e := range g.Edges {
		r := d.routes[i]
		if r == nil {
			continue
		}
		marker := ""
		if e.Kind == app.EdgeSupersedes {
			// The arrow points at the superseded record, the upper end
			// unless a supersession cycle turned the edge over.
			marker = ` marker-start="url(#arrow)"`
			if r[0].y != d.box[e.To].y+nodeH {
				marker = ` marker-end="url(#arrow)"`
			}
		}
		fmt.Fprintf(&b, `<path class="edge %s" data-from="%d" data-to="%d" d="%s"%s/>`+"\n", e.Kind, e.From, e.To, pathOf(r), marker)
	}
	for i, nd := range g.Nodes {
		p := d.box[i]
		label, title, status := nd.ID, nd.Title, string(nd.Status)
		full := nd.ID + " " + nd.Title + " (" + status + ")"
		if nd.Unknown {
			label, title, status = nd.Ref, "not in this corpus", "unknown"
			if nd.Log != "" {
				title = "in the decision log " + nd.Log
			}
			full = nd.Ref + ": " + title
		}
		class := "node " + status
		if i == self {
			class += " self"
		}
		var tagKey string
		if i < len(tags) {
			tagKey = "|" + strings.Join(tags[i], "|") + "|"
		}
		attrs := fmt.Sprintf(`class="gnode" data-node="%d" data-status="%s" data-tags="%s"`, i, status, html.EscapeString(tagKey))
		shape := fmt.Sprintf(`<title>%s</title><rect class="%s" x="%d" y="%d" width="%d" height="%d" rx="6"/>`+
			`<text x="%d" y="%d" class="node-id">%s</text><text x="%d" y="%d" class="node-title">%s</text>`,
			html.EscapeString(full), class, p.x, p.y, nodeW, nodeH, p.x+10, p.y+20, html.EscapeString(label+" · "+status),
			p.x+10, p.y+40, html.EscapeString(clip(title, 23)))
		if nd.Unknown || i == self {
			fmt.Fprintf(&b, "<g %s>%s</g>\n", attrs, shape)
			continue
		}
		// The link's name is the <title>: the full id, title and status.
		fmt.Fprintf(&b, `<a href="%s" %s>%s</a>`+"\n", html.EscapeString(root+hrefOf(pageOfPath(nd.SourcePath))), attrs, shape)
	}
	b.WriteString("</svg>")
	return b.String()
}

// pathOf is the SVG path of a route: a curve across each gap between
// layers, a straight line through each layer passed.
func pathOf(r []point) string {
	var b strings.Builder
	fmt.Fprintf(&b, "M%d,%d", r[0].x, r[0].y)
	for k := 1; k < len(r); k++ {
		a, z := r[k-1], r[k]
		if k%2 == 0 {
			fmt.Fprintf(&b, " L%d,%d", z.x, z.y)
			continue
		}
		mid := (a.y + z.y) / 2
		fmt.Fprintf(&b, " C%d,%d %d,%d %d,%d", a.x, mid, z.x, mid, z.x, z.y)
	}
	return b.String()
}

// clip shortens s to at most n UTF-16 code units with an ellipsis.
func clip(s string, n int) string {
	if jsstring.Len(s) <= n {
		return s
	}
	return jsstring.Truncate(s, n-1) + "…"
}

// neighbourhood is the part of g around node self: self (node 0 of the
// subgraph), the nodes it relates to either way, in node order, and the
// edges that touch self (edges, their indices in g).
func neighbourhood(g *app.Graph, self int, edges []int) *app.Graph {
	var others []int
	for _, i := range edges {
		for _, v := range []int{g.Edges[i].From, g.Edges[i].To} {
			if v != self && !slices.Contains(others, v) {
				others = append(others, v)
			}
		}
	}
	slices.Sort(others)
	sub := &app.Graph{Nodes: []app.GraphNode{g.Nodes[self]}}
	keep := map[int]int{self: 0}
	for _, o := range others {
		keep[o] = len(sub.Nodes)
		sub.Nodes = append(sub.Nodes, g.Nodes[o])
	}
	for _, i := range edges {
		e := g.Edges[i]
		sub.Edges = append(sub.Edges, app.GraphEdge{From: keep[e.From], To: keep[e.To], Kind: e.Kind})
	}
	return sub
}

func layout(g *app.Graph) drawing {
	n := len(g.Nodes)
	d := drawing{box: make([]point, n), routes: make([][]point, len(g.Edges))}
	rank := rankOrder(g)
	adj := make([][]int, n)
	for _, e := range g.Edges {
		if e.From != e.To {
			adj[e.From] = append(adj[e.From], e.To)
			adj[e.To] = append(adj[e.To], e.From)
		}
	}
	y := margin
	var singles []int
	for _, members := range components(adj) {
		if len(members) == 1 {
			singles = append(singles, members[0])
			continue
		}
		y = placeLayered(g, members, rank, &d, y) + gapY
	}
	for k, v := range singles {
		d.box[v] = point{margin + (k%gridCol)*(nodeW+gapX), y + (k/gridCol)*(nodeH+gapY/2)}
	}
	for _, p := range d.box {
		d.w, d.h = max(d.w, p.x+nodeW+margin), max(d.h, p.y+nodeH+margin)
	}
	return d
}

// rankOrder numbers the nodes so that a superseded record comes before
// the records that replaced it, otherwise in node order; a supersession
// cycle (a broken corpus) is cut at its first node.
func rankOrder(g *app.Graph) []int {
	n := len(g.Nodes)
	waiting := make([]int, n) // replaced records not yet ranked
	later := make([][]int, n)
	for _, e := range g.Edges {
		if e.Kind == app.EdgeSupersedes && e.From != e.To {
			waiting[e.From]++
			later[e.To] = append(later[e.To], e.From)
		}
	}
	rank := make([]int, n)
	for i := range rank {
		rank[i] = -1
	}
	for r := range n {
		pick := slices.IndexFunc(rank, func(v int) bool { return v < 0 })
		for v := pick; v < n; v++ {
			if rank[v] < 0 && waiting[v] == 0 {
				pick = v
				break
			}
		}
		rank[pick] = r
		for _, w := range later[pick] {
			waiting[w]--
		}
	}
	return rank
}

// components are the connected components of adj, each sorted, in order
// of their first node.
func components(adj [][]int) [][]int {
	seen := make([]bool, len(adj))
	var out [][]int
	for i := range adj {
		if seen[i] {
			continue
		}
		seen[i] = true
		stack, members := []int{i}, []int{}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			members = append(members, v)
			for _, w := range adj[v] {
				if !seen[w] {
					seen[w] = true
					stack = append(stack, w)
				}
			}
		}
		slices.Sort(members)
		out = append(out, members)
	}
	return out
}

// vertex is a node's box or a dummy on an edge's way through a layer.
type vertex struct {
	node     int // -1 for a dummy
	layer    int
	x        float64
	up, down []int // neighbouring vertices in the layers above and below
}

func (v *vertex) width() float64 {
	if v.node < 0 {
		return 0
	}
	return nodeW
}

// placeLayered lays out one component from height top into d and
// returns its bottom.
func placeLayered(g *app.Graph, members, rank []int, d *drawing, top int) int {
	vid := make(map[int]int, len(members))
	var vs []*vertex
	for _, v := range members {
		vid[v] = len(vs)
		vs = append(vs, &vertex{node: v})
	}
	// Edges oriented upper to lower, by rank.
	type arc struct{ edge, u, v int }
	var arcs []arc
	for i, e := range g.Edges {
		if _, in := vid[e.From]; !in || e.From == e.To {
			continue
		}
		u, v := e.To, e.From
		if rank[u] > rank[v] {
			u, v = v, u
		}
		arcs = append(arcs, arc{i, vid[u], vid[v]})
	}
	slices.SortStableFunc(arcs, func(a, b arc) int {
		return cmp.Or(cmp.Compare(rank[vs[a.u].node], rank[vs[b.u].node]), cmp.Compare(rank[vs[a.v].node], rank[vs[b.v].node]))
	})
	byRank := slices.Clone(vs)
	slices.SortFunc(byRank, func(a, b *vertex) int { return cmp.Compare(rank[a.node], rank[b.node]) })
	ins, outs := make(map[*vertex][]*vertex), make(map[*vertex][]*vertex)
	for _, a := range arcs {
		outs[vs[a.u]] = append(outs[vs[a.u]], vs[a.v])
		ins[vs[a.v]] = append(ins[vs[a.v]], vs[a.u])
	}
	for _, v := range byRank {
		for _, u := range ins[v] {
			v.layer = max(v.layer, u.layer+1)
		}
	}
	for _, v := range slices.Backward(byRank) {
		if len(ins[v]) == 0 && len(outs[v]) > 0 {
			low := outs[v][0].layer
			for _, w := range outs[v] {
				low = min(low, w.layer)
			}
			v.layer = low - 1
		}
	}
	// Dummies, and each arc's chain of vertices from top to bottom.
	chains := make([][]int, len(arcs))
	for k, a := range arcs {
		chain := []int{a.u}
		for l := vs[a.u].layer + 1; l < vs[a.v].layer; l++ {
			chain = append(chain, len(vs))
			vs = append(vs, &vertex{node: -1, layer: l})
		}
		chain = append(chain, a.v)
		for i := 1; i < len(chain); i++ {
			vs[chain[i-1]].down = append(vs[chain[i-1]].down, chain[i])
			vs[chain[i]].up = append(vs[chain[i]].up, chain[i-1])
		}
		chains[k] = chain
	}
	// Layers in rank order, dummies in arc order; then the sweeps.
	var layers [][]int
	add := func(i int) {
		for len(layers) <= vs[i].layer {
			layers = append(layers, nil)
		}
		layers[vs[i].layer] = append(layers[vs[i].layer], i)
	}
	for _, v := range byRank {
		add(vid[v.node])
	}
	for i := len(members); i < len(vs); i++ {
		add(i)
	}
	pos := make([]float64, len(vs))
	number := func(layer []int) {
		for k, i := range layer {
			pos[i] = float64(k)
		}
	}
	for _, layer := range layers {
		number(layer)
	}
	mean := func(of []int, at func(int) float64, own float64) float64 {
		if len(of) == 0 {
			return own
		}
		sum := 0.0
		for _, w := range of {
			sum += at(w)
		}
		return sum / float64(len(of))
	}
	for range sweeps {
		for l := 1; l < len(layers); l++ {
			byMean(layers[l], func(i int) float64 { return mean(vs[i].up, func(w int) float64 { return pos[w] }, pos[i]) })
			number(layers[l])
		}
		for l := len(layers) - 2; l >= 0; l-- {
			byMean(layers[l], func(i int) float64 { return mean(vs[i].down, func(w int) float64 { return pos[w] }, pos[i]) })
			number(layers[l])
		}
	}
	// Positions: packed, then drawn towards the neighbours' mean, each
	// layer within the widest one's packed width.
	width := 0.0
	for _, layer := range layers {
		width = max(width, packedWidth(vs, layer))
	}
	centre := func(w int) float64 { return vs[w].x + vs[w].width()/2 }
	for range sweeps {
		for l := 1; l < len(layers); l++ {
			place(vs, layers[l], width, func(i int) float64 { return mean(vs[i].up, centre, centre(i)) - vs[i].width()/2 })
		}
		for l := len(layers) - 2; l >= 0; l-- {
			place(vs, layers[l], width, func(i int) float64 { return mean(vs[i].down, centre, centre(i)) - vs[i].width()/2 })
		}
	}
	left := vs[0].x
	for _, v := range vs {
		left = min(left, v.x)
	}
	at := func(i int) point {
		return point{int(vs[i].x-left) + margin, top + vs[i].layer*(nodeH+gapY)}
	}
	bottom := top
	for _, v := range members {
		d.box[v] = at(vid[v])
		bottom = max(bottom, d.box[v].y+nodeH)
	}
	// Routes: ports spread along a box's bottom (top) edge in the order of
	// the vertices below (above); a dummy's lane is its x.
	port := func(i, next int, ends []int) int {
		v := vs[i]
		if v.node < 0 {
			return int(v.x-left) + margin
		}
		sorted := slices.Clone(ends)
		slices.SortStableFunc(sorted, func(a, b int) int { return cmp.Compare(vs[a].x, vs[b].x) })
		k := slices.Index(sorted, next)
		return at(i).x + nodeW*(k+1)/(len(sorted)+1)
	}
	for k, chain := range chains {
		var r []point
		for j := 0; j+1 < len(chain); j++ {
			a, z := chain[j], chain[j+1]
			from := point{port(a, z, vs[a].down), at(a).y + nodeH}
			if vs[a].node < 0 {
				r = append(r, point{from.x, at(a).y})
			}
			r = append(r, from)
			if j+2 == len(chain) {
				r = append(r, point{port(z, a, vs[z].up), at(z).y})
			}
		}
		d.routes[arcs[k].edge] = r
	}
	return bottom
}

// byMean sorts a layer by key, stably: ties keep their order.
func byMean(layer []int, key func(int) float64) {
	keys := make(map[int]float64, len(layer))
	for _, i := range layer {
		keys[i] = key(i)
	}
	slices.SortStableFunc(layer, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
}

// place sets the x of a layer's vertices, in their order, as near their
// targets as spacing allows and within [0, width]: the mean of the
// leftmost and the rightmost placements that keep each pair apart (the
// mean of two placements that keep the spacing keeps it too). Each
// target is first held between the packed positions from either edge,
// which keeps both placements within the width.
func place(vs []*vertex, layer []int, width float64, target func(int) float64) {
	sep := func(k int) float64 { // between layer[k] and layer[k+1]
		a, b := vs[layer[k]], vs[layer[k+1]]
		if a.node < 0 || b.node < 0 {
			return a.width() + lane
		}
		return nodeW + gapX
	}
	n := len(layer)
	least, most := make([]float64, n), make([]float64, n)
	most[n-1] = width - vs[layer[n-1]].width()
	for k := 1; k < n; k++ {
		least[k] = least[k-1] + sep(k-1)
	}
	for k := n - 2; k >= 0; k-- {
		most[k] = most[k+1] - sep(k)
	}
	lo, hi := make([]float64, n), make([]float64, n)
	for k, i := range layer {
		lo[k] = min(max(target(i), least[k]), most[k])
		hi[k] = lo[k]
	}
	for k := 1; k < n; k++ {
		lo[k] = max(lo[k], lo[k-1]+sep(k-1))
	}
	for k := n - 2; k >= 0; k-- {
		hi[k] = min(hi[k], hi[k+1]-sep(k))
	}
	for k, i := range layer {
		vs[i].x = (lo[k] + hi[k]) / 2
	}
}

// packedWidth is the width of a layer with its vertices side by side.
func packedWidth(vs []*vertex, layer []int) float64 {
	place(vs, layer, 1e9, func(int) float64 { return 0 })
	last := vs[layer[len(layer)-1]]
	return last.x + last.width()
}
