package site

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// The graph is laid out here rather than by Graphviz: go-graphviz's
// package initialisation alone costs every command of the binary tens of
// milliseconds and megabytes (ADR 0027). The layout is a plain layered
// one, deterministic by construction:
//
//   - the weakly connected components, in order of their first node;
//   - in a component, a node's layer is the longest run of edges that
//     leads to it from an older record (supersedes from the replaced
//     record, other relations from the lower id), so the picture reads
//     top to bottom, oldest first (a cycle is cut after as many rounds as
//     there are nodes);
//   - in a layer, nodes start in node order, then two sweeps place each
//     at the mean position of its neighbours in the layer above, ties by
//     node order;
//   - a layer wider than rowMax boxes folds into several rows;
//   - components of one node share a grid below the others.
const (
	nodeW   = 220
	nodeH   = 52
	gapX    = 28
	gapY    = 56
	margin  = 16
	gridCol = 5
	rowMax  = 6
)

type placed struct{ x, y int }

// graphSVG draws g; root is the path from the page to the site's root.
func graphSVG(g *app.Graph, root string) string {
	n := len(g.Nodes)
	if n == 0 {
		return ""
	}
	pos := layout(g)
	width, height := 0, 0
	for _, p := range pos {
		width = max(width, p.x+nodeW+margin)
		height = max(height, p.y+nodeH+margin)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="%d" height="%d" viewBox="0 0 %d %d" role="group" aria-label="Relations between the decisions">`+"\n",
		width, height, width, height)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>` + "\n")
	for _, e := range g.Edges {
		a, z := pos[e.From], pos[e.To]
		x1, y1, x2, y2 := a.x+nodeW/2, a.y+nodeH, z.x+nodeW/2, z.y
		switch {
		case a.y == z.y: // same layer: an arc over the top
			x1, y1, y2 = a.x+nodeW/2, a.y, z.y
		case a.y > z.y: // upwards: leave from the top, arrive at the bottom
			y1, y2 = a.y, z.y+nodeH
		}
		mx, my := (x1+x2)/2, (y1+y2)/2
		if a.y == z.y {
			my = a.y - gapY/2
		}
		class := "edge " + string(e.Kind)
		marker := ""
		if e.Kind == app.EdgeSupersedes {
			marker = ` marker-end="url(#arrow)"`
		}
		fmt.Fprintf(&b, `<path class="%s" d="M%d,%d Q%d,%d %d,%d"%s/>`+"\n", class, x1, y1, mx, my, x2, y2, marker)
	}
	for i, nd := range g.Nodes {
		p := pos[i]
		label, title := nd.ID, nd.Title
		status := string(nd.Status)
		if nd.Unknown {
			label, title, status = nd.Ref, "not in this corpus", "unknown"
			if nd.Log != "" {
				title = "in the decision log " + nd.Log
			}
		}
		shape := fmt.Sprintf(`<rect class="node %s" x="%d" y="%d" width="%d" height="%d" rx="6"/>`+
			`<text x="%d" y="%d" class="node-id">%s</text><text x="%d" y="%d" class="node-title">%s</text>`,
			status, p.x, p.y, nodeW, nodeH, p.x+10, p.y+20, html.EscapeString(label+" · "+status),
			p.x+10, p.y+40, html.EscapeString(clip(title, 27)))
		if nd.Unknown {
			b.WriteString(`<g>` + shape + "</g>\n")
			continue
		}
		href := root + hrefOf(pageOfPath(nd.SourcePath))
		// The link's name is its visible text (the full title is in the
		// list below the picture).
		fmt.Fprintf(&b, `<a href="%s">%s</a>`+"\n", html.EscapeString(href), shape)
	}
	b.WriteString("</svg>")
	return b.String()
}

// clip shortens s to at most n UTF-16 code units with an ellipsis.
func clip(s string, n int) string {
	if jsstring.Len(s) <= n {
		return s
	}
	return jsstring.Truncate(s, n-1) + "…"
}

func layout(g *app.Graph) []placed {
	n := len(g.Nodes)
	adj := make([][]int, n)
	for _, e := range g.Edges {
		adj[e.From] = append(adj[e.From], e.To)
		adj[e.To] = append(adj[e.To], e.From)
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	var comps [][]int
	for i := range n {
		if comp[i] >= 0 {
			continue
		}
		c := len(comps)
		stack, members := []int{i}, []int{}
		comp[i] = c
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			members = append(members, v)
			for _, w := range adj[v] {
				if comp[w] < 0 {
					comp[w] = c
					stack = append(stack, w)
				}
			}
		}
		slices.Sort(members)
		comps = append(comps, members)
	}

	// Layers: an older decision sits above a newer one. supersedes goes
	// From (newer) to To (older); the other relations have no direction,
	// so record order (ids ascending) stands in for age.
	layer := make([]int, n)
	for round := 0; round < n; round++ {
		changed := false
		for _, e := range g.Edges {
			newer, older := e.From, e.To
			if e.Kind != app.EdgeSupersedes && e.From < e.To {
				newer, older = e.To, e.From
			}
			if layer[newer] < layer[older]+1 {
				layer[newer] = layer[older] + 1
				changed = true
			}
		}
		if !changed {
			break
		}
	}

	pos := make([]placed, n)
	y := margin
	var singles []int
	for _, members := range comps {
		if len(members) == 1 {
			singles = append(singles, members[0])
			continue
		}
		y = placeComponent(members, layer, adj, pos, y) + gapY
	}
	for k, v := range singles {
		pos[v] = placed{x: margin + (k%gridCol)*(nodeW+gapX), y: y + (k/gridCol)*(nodeH+gapY/2)}
	}
	return pos
}

// placeComponent lays out one component from height top and returns its
// bottom.
func placeComponent(members, layer []int, adj [][]int, pos []placed, top int) int {
	// Layers are made dense (0, 1, 2, ...) within the component.
	var used []int
	for _, v := range members {
		if !slices.Contains(used, layer[v]) {
			used = append(used, layer[v])
		}
	}
	slices.Sort(used)
	rows := make([][]int, len(used))
	rowOf := make(map[int]int, len(members))
	for _, v := range members {
		r := slices.Index(used, layer[v])
		rows[r] = append(rows[r], v)
		rowOf[v] = r
	}
	order := make(map[int]float64, len(members))
	for _, row := range rows {
		for k, v := range row {
			order[v] = float64(k)
		}
	}
	for range 2 {
		for r := 1; r < len(rows); r++ {
			key := make(map[int]float64, len(rows[r]))
			for _, v := range rows[r] {
				sum, cnt := 0.0, 0
				for _, w := range adj[v] {
					if rowOf[w] == r-1 {
						sum += order[w]
						cnt++
					}
				}
				key[v] = order[v]
				if cnt > 0 {
					key[v] = sum / float64(cnt)
				}
			}
			slices.SortStableFunc(rows[r], func(a, b int) int {
				switch {
				case key[a] < key[b]:
					return -1
				case key[a] > key[b]:
					return 1
				}
				return a - b
			})
			for k, v := range rows[r] {
				order[v] = float64(k)
			}
		}
	}
	// A wide layer is folded into rows of at most rowMax boxes, so that
	// the picture stays as wide as a screen or two.
	bottom, y := top, top
	for _, row := range rows {
		for k, v := range row {
			if k > 0 && k%rowMax == 0 {
				y += nodeH + gapY
			}
			pos[v] = placed{x: margin + (k%rowMax)*(nodeW+gapX), y: y}
			bottom = max(bottom, pos[v].y+nodeH)
		}
		y += nodeH + gapY
	}
	return bottom
}
