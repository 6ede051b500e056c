package app

import (
	"cmp"
	"context"
	"slices"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// EdgeKind is the relation a graph edge stands for.
type EdgeKind string

// The three edge kinds, in the order edges are listed.
//
// A record's supersedes entry and its successor's supersededBy describe
// one relation seen from both ends, so both give the same supersedes edge
// (from the newer record to the one it replaces), drawn once. relatesTo
// and conflictsWith are symmetric in meaning: a pair listed from both
// sides is one edge, in the direction first met in record order.
const (
	EdgeSupersedes    EdgeKind = "supersedes"
	EdgeRelatesTo     EdgeKind = "relatesTo"
	EdgeConflictsWith EdgeKind = "conflictsWith"
)

// edgeKinds is the listing order of edge kinds.
var edgeKinds = []EdgeKind{EdgeSupersedes, EdgeRelatesTo, EdgeConflictsWith}

// Graph is the relation graph of a corpus: one node per valid record, one
// per reference that names no record here, and the relations between
// them. Everything is in a fixed order, so a renderer that walks it in
// order is deterministic.
type Graph struct {
	// Nodes are the records in canonical (id, sourcePath) order, then the
	// unknown references sorted by the ref as written.
	Nodes []GraphNode
	// Edges are sorted by kind (supersedes, relatesTo, conflictsWith),
	// then by source and target node index.
	Edges []GraphEdge
}

// GraphNode is a record, or a reference that names no record here.
type GraphNode struct {
	ID     string
	Title  string
	Status adr.Status
	// SourcePath is the record's repository-relative path; empty for an
	// unknown node.
	SourcePath string
	// Unknown marks a referenced record that is not in the corpus. Ref is
	// then the reference as written, and Log the decision log it names
	// ("" for a local id that dangles).
	Unknown bool
	Ref     string
	Log     string
}

// GraphEdge is one relation; From and To index Graph.Nodes.
type GraphEdge struct {
	From, To int
	Kind     EdgeKind
}

// Graph projects the corpus and returns its relation graph. An unusable
// corpus is an *ports.UnavailableError (wrapped).
func (s *Service) Graph(ctx context.Context) (*Graph, error) {
	p, err := s.Project(ctx)
	if err != nil {
		return nil, err
	}
	return BuildGraph(p), nil
}

// BuildGraph is the relation graph of one projection. A reference
// resolves exactly as the corpus invariants resolve it: to every valid
// record holding that id (a shared id gives an edge to each holder); a
// log-qualified ref or an id no record holds becomes an unknown node.
func BuildGraph(p *corpus.Projection) *Graph {
	g := &Graph{Nodes: make([]GraphNode, 0, len(p.Records))}
	index := make(map[*adr.Record]int, len(p.Records))
	for i, r := range p.Records {
		fm := r.Frontmatter
		index[r] = i
		g.Nodes = append(g.Nodes, GraphNode{ID: fm.ID, Title: fm.Title, Status: fm.Status, SourcePath: r.SourcePath})
	}

	// Unknown refs get their indexes once all are known, so that their
	// order does not depend on which record mentions them first.
	type pending struct {
		from  int
		ref   string
		kind  EdgeKind
		toRef bool // the edge points at ref (false: ref points at from)
	}
	var dangling []pending
	seen := map[GraphEdge]bool{}
	var edges []GraphEdge
	add := func(e GraphEdge) {
		key := e
		if e.Kind != EdgeSupersedes && e.From > e.To {
			key.From, key.To = e.To, e.From
		}
		if !seen[key] {
			seen[key] = true
			edges = append(edges, e)
		}
	}
	link := func(from int, ref string, kind EdgeKind, toRef bool) {
		holders := p.ByID[ref]
		if len(holders) == 0 {
			dangling = append(dangling, pending{from, ref, kind, toRef})
			return
		}
		for _, h := range holders {
			if toRef {
				add(GraphEdge{From: from, To: index[h], Kind: kind})
			} else {
				add(GraphEdge{From: index[h], To: from, Kind: kind})
			}
		}
	}
	for i, r := range p.Records {
		fm := r.Frontmatter
		for _, ref := range fm.Supersedes {
			link(i, ref, EdgeSupersedes, true)
		}
		if fm.SupersededBy != "" {
			link(i, fm.SupersededBy, EdgeSupersedes, false)
		}
		for _, ref := range fm.RelatesTo {
			link(i, ref, EdgeRelatesTo, true)
		}
		for _, ref := range fm.ConflictsWith {
			link(i, ref, EdgeConflictsWith, true)
		}
	}

	var refs []string
	for _, d := range dangling {
		refs = append(refs, d.ref)
	}
	slices.SortFunc(refs, jsstring.Compare)
	refs = slices.Compact(refs)
	unknown := make(map[string]int, len(refs))
	for _, ref := range refs {
		unknown[ref] = len(g.Nodes)
		parsed := adr.ParseRef(ref)
		g.Nodes = append(g.Nodes, GraphNode{ID: parsed.ID, Unknown: true, Ref: ref, Log: parsed.Log})
	}
	for _, d := range dangling {
		if d.toRef {
			add(GraphEdge{From: d.from, To: unknown[d.ref], Kind: d.kind})
		} else {
			add(GraphEdge{From: unknown[d.ref], To: d.from, Kind: d.kind})
		}
	}

	slices.SortFunc(edges, func(a, b GraphEdge) int {
		return cmp.Or(
			cmp.Compare(slices.Index(edgeKinds, a.Kind), slices.Index(edgeKinds, b.Kind)),
			cmp.Compare(a.From, b.From),
			cmp.Compare(a.To, b.To),
		)
	})
	g.Edges = nonNil(edges)
	return g
}
