package site_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/adrkit/adrkit-go/adapters/site"
)

// TestGraphGeometry reads the drawings of this repository's decisions
// (the full graph and every decision's neighbourhood) back from the SVG:
// no edge passes through a box other than its own two ends, boxes do not
// overlap, and every box carries its decision's full title in a <title>
// (the accessible name, shown on hover).
func TestGraphGeometry(t *testing.T) {
	for _, fixture := range []string{"own", "corpus"} {
		t.Run(fixture, func(t *testing.T) {
			files, data := build(t, fixture, site.Options{})
			titles := map[string]string{}
			for _, n := range data.Graph.Nodes {
				if !n.Unknown {
					titles[n.ID] = n.Title
				}
			}
			drawings, edges := 0, 0
			for _, page := range files.Names() {
				if !strings.HasSuffix(page, ".html") {
					continue
				}
				doc, err := html.Parse(bytes.NewReader(files[page]))
				if err != nil {
					t.Fatal(err)
				}
				for n := range doc.Descendants() {
					if n.Type == html.ElementNode && n.Data == "svg" && attr(n, "class") == "graph" {
						drawings++
						edges += checkDrawing(t, page, n, titles)
					}
				}
			}
			if drawings < 2 || edges < 5 {
				t.Fatalf("%d drawings with %d edges checked: the check is not looking", drawings, edges)
			}
		})
	}
}

type rect struct{ x, y, w, h float64 }

// inside says p is strictly inside r (a point on its border is not).
func (r rect) inside(x, y float64) bool {
	const eps = 0.5
	return x > r.x+eps && x < r.x+r.w-eps && y > r.y+eps && y < r.y+r.h-eps
}

// checkDrawing checks one SVG drawing and returns how many edges it has.
func checkDrawing(t *testing.T, page string, svg *html.Node, titles map[string]string) int {
	t.Helper()
	boxes := map[string]rect{}
	var paths []*html.Node
	for n := range svg.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch {
		case n.Data == "path" && strings.HasPrefix(attr(n, "class"), "edge"):
			paths = append(paths, n)
		case attr(n, "data-node") != "":
			var r rect
			var title string
			for c := range n.Descendants() {
				switch {
				case c.Type == html.ElementNode && c.Data == "rect":
					r = rect{num(t, attr(c, "x")), num(t, attr(c, "y")), num(t, attr(c, "width")), num(t, attr(c, "height"))}
				case c.Type == html.ElementNode && c.Data == "title" && c.FirstChild != nil:
					title = c.FirstChild.Data
				}
			}
			id, _, _ := strings.Cut(title, " ")
			if want, ok := titles[id]; ok && !strings.Contains(title, want) {
				t.Errorf("%s: box %s is titled %q, without the full title %q", page, id, title, want)
			}
			if title == "" {
				t.Errorf("%s: box %s has no title", page, attr(n, "data-node"))
			}
			boxes[attr(n, "data-node")] = r
		}
	}
	for a, ra := range boxes {
		for b, rb := range boxes {
			if a < b && ra.x < rb.x+rb.w && rb.x < ra.x+ra.w && ra.y < rb.y+rb.h && rb.y < ra.y+ra.h {
				t.Errorf("%s: boxes %s and %s overlap", page, a, b)
			}
		}
	}
	for _, p := range paths {
		from, to := attr(p, "data-from"), attr(p, "data-to")
		for _, pt := range samples(t, attr(p, "d")) {
			for id, r := range boxes {
				if id != from && id != to && r.inside(pt[0], pt[1]) {
					t.Errorf("%s: the edge %s–%s passes through box %s at (%.0f, %.0f)", page, from, to, id, pt[0], pt[1])
				}
			}
		}
	}
	return len(paths)
}

// samples are points along an SVG path of M, L and C commands (absolute),
// every few pixels.
func samples(t *testing.T, d string) [][2]float64 {
	t.Helper()
	var out [][2]float64
	var cur [2]float64
	fields := strings.Fields(strings.NewReplacer(",", " ").Replace(d))
	for i := 0; i < len(fields); {
		cmd := fields[i][:1]
		fields[i] = fields[i][1:]
		var args []float64
		n := map[string]int{"M": 2, "L": 2, "C": 6}[cmd]
		if n == 0 {
			t.Fatalf("path command %q in %q", cmd, d)
		}
		for k := 0; k < n; k++ {
			args = append(args, num(t, fields[i+k]))
		}
		i += n
		const steps = 64
		for s := 0; s <= steps; s++ {
			u := float64(s) / steps
			var p [2]float64
			switch cmd {
			case "M":
				p = [2]float64{args[0], args[1]}
			case "L":
				p = [2]float64{cur[0] + u*(args[0]-cur[0]), cur[1] + u*(args[1]-cur[1])}
			case "C":
				a, b := 1-u, u
				for k := range 2 {
					p[k] = a*a*a*cur[k] + 3*a*a*b*args[k] + 3*a*b*b*args[2+k] + b*b*b*args[4+k]
				}
			}
			out = append(out, p)
		}
		cur = [2]float64{args[n-2], args[n-1]}
	}
	return out
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number: %v", s, err)
	}
	return f
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
