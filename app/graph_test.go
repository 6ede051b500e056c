package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// graphRecord is a minimal valid record with relation fields as YAML.
func graphRecord(id, status, relations string) fakeFile {
	return regular(id+"-r.md", fmt.Sprintf("---\nid: %q\ntitle: Record %s\nstatus: %s\ndate: 2026-01-01\n%s---\n", id, id, status, relations))
}

// describeEdges renders edges as "from kind to" with node ids (unknown
// nodes by their ref) so that expectations read naturally.
func describeEdges(g *Graph) []string {
	name := func(i int) string {
		n := g.Nodes[i]
		if n.Unknown {
			return "?" + n.Ref
		}
		return n.ID + "@" + strings.TrimPrefix(n.SourcePath, "docs/adr/")
	}
	var out []string
	for _, e := range g.Edges {
		out = append(out, name(e.From)+" "+string(e.Kind)+" "+name(e.To))
	}
	return out
}

func TestGraph(t *testing.T) {
	files := []fakeFile{
		graphRecord("0001", "superseded", "supersededBy: \"0002\"\nrelatesTo: [\"0003\"]\n"),
		graphRecord("0002", "accepted", "deciders: [\"@a\"]\nsupersedes: [\"0001\", \"0099\"]\nconflictsWith: [\"0003\", \"0003\"]\n"),
		graphRecord("0003", "proposed", "relatesTo: [\"0001\", \"payments:0042\"]\nconflictsWith: [\"0002\"]\n"),
		graphRecord("0004", "superseded", "supersededBy: \"0005\"\n"),
		// Two records share 0005: an edge goes to each.
		regular("0005-a.md", "---\nid: \"0005\"\ntitle: Holder A\nstatus: draft\ndate: 2026-01-01\n---\n"),
		regular("0005-b.md", "---\nid: \"0005\"\ntitle: Holder B\nstatus: draft\ndate: 2026-01-01\n---\n"),
		graphRecord("0006", "superseded", "supersededBy: \"0098\"\nsupersedes: [\"0098\"]\n"),
	}
	svc := New(corpusOf(files...), Options{})
	g, err := svc.Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var nodes []string
	for _, n := range g.Nodes {
		if n.Unknown {
			nodes = append(nodes, "?"+n.Ref+" log="+n.Log+" id="+n.ID)
		} else {
			nodes = append(nodes, n.ID+" "+string(n.Status))
		}
	}
	wantNodes := []string{
		"0001 superseded", "0002 accepted", "0003 proposed", "0004 superseded", "0005 draft", "0005 draft", "0006 superseded",
		"?0098 log= id=0098", "?0099 log= id=0099", "?payments:0042 log=payments id=0042",
	}
	if !slices.Equal(nodes, wantNodes) {
		t.Errorf("nodes\n got %q\nwant %q", nodes, wantNodes)
	}
	want := []string{
		// supersedes: declared from both ends (0001 supersededBy, 0002
		// supersedes) is one edge; a shared id gets one edge per holder;
		// unknown refs come after the records.
		"0002@0002-r.md supersedes 0001@0001-r.md",
		"0002@0002-r.md supersedes ?0099",
		"0005@0005-a.md supersedes 0004@0004-r.md",
		"0005@0005-b.md supersedes 0004@0004-r.md",
		"0006@0006-r.md supersedes ?0098",
		"?0098 supersedes 0006@0006-r.md",
		// relatesTo both ways is one line, in the direction met first.
		"0001@0001-r.md relatesTo 0003@0003-r.md",
		"0003@0003-r.md relatesTo ?payments:0042",
		// conflictsWith repeated and mirrored is still one line.
		"0002@0002-r.md conflictsWith 0003@0003-r.md",
	}
	if got := describeEdges(g); !slices.Equal(got, want) {
		t.Errorf("edges\n got %q\nwant %q", got, want)
	}
}

func TestGraphEmptyAndDeterministic(t *testing.T) {
	g, err := New(corpusOf(), Options{}).Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 0 || g.Edges == nil || len(g.Edges) != 0 {
		t.Errorf("empty corpus graph %+v", g)
	}
	// The same corpus listed in another order gives the same graph.
	files := []fakeFile{
		graphRecord("0002", "proposed", "relatesTo: [\"0001\", \"0077\", \"0066\"]\n"),
		graphRecord("0001", "proposed", "relatesTo: [\"0002\"]\n"),
	}
	a, _ := New(corpusOf(files...), Options{}).Graph(context.Background())
	slices.Reverse(files)
	b, _ := New(corpusOf(files...), Options{}).Graph(context.Background())
	if !slices.Equal(describeEdges(a), describeEdges(b)) || !slices.Equal(a.Nodes, b.Nodes) {
		t.Errorf("order-dependent graph:\n%q\n%q", describeEdges(a), describeEdges(b))
	}
	if a.Nodes[2].Ref != "0066" || a.Nodes[3].Ref != "0077" {
		t.Errorf("unknown nodes not sorted: %+v", a.Nodes[2:])
	}
	if a.Nodes[0].Status != adr.StatusProposed {
		t.Errorf("node %+v", a.Nodes[0])
	}
}
