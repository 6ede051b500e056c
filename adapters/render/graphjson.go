package render

import (
	"strconv"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
)

// GraphJSONSchemaVersion is the version of graph --format json's shape
// (docs/cli.md): additions keep it, any other change bumps it.
const GraphJSONSchemaVersion = 1

type jsonGraphDoc struct {
	SchemaVersion int             `json:"schemaVersion"`
	Source        jsonSource      `json:"source"`
	Nodes         []jsonGraphNode `json:"nodes"`
	Edges         []jsonGraphEdge `json:"edges"`
}

// jsonGraphNode is a record (id, title, status, sourcePath) or a
// reference that names no record here (unknown, with the ref as written
// and the log it names, if any). Key is unique among the nodes: the id,
// "id#2" and on for later holders of a shared id, the ref for an unknown
// node.
type jsonGraphNode struct {
	Key        string     `json:"key"`
	ID         string     `json:"id"`
	Title      string     `json:"title,omitempty"`
	Status     adr.Status `json:"status,omitempty"`
	SourcePath string     `json:"sourcePath,omitempty"`
	Unknown    bool       `json:"unknown,omitempty"`
	Ref        string     `json:"ref,omitempty"`
	Log        string     `json:"log,omitempty"`
}

// jsonGraphEdge names its ends by node key.
type jsonGraphEdge struct {
	From string       `json:"from"`
	To   string       `json:"to"`
	Kind app.EdgeKind `json:"kind"`
}

// jsonGraph lays the graph out for JSON, nodes and edges in the graph's
// own order (records by id, then unknown references; edges by kind, then
// by node).
func jsonGraph(g *app.Graph, src Source) jsonGraphDoc {
	doc := jsonGraphDoc{
		SchemaVersion: GraphJSONSchemaVersion,
		Source:        src.json(),
		Nodes:         make([]jsonGraphNode, len(g.Nodes)),
		Edges:         make([]jsonGraphEdge, len(g.Edges)),
	}
	holders := map[string]int{}
	for i, n := range g.Nodes {
		if n.Unknown {
			doc.Nodes[i] = jsonGraphNode{Key: n.Ref, ID: adr.ParseRef(n.Ref).ID, Unknown: true, Ref: n.Ref, Log: n.Log}
			continue
		}
		holders[n.ID]++
		key := n.ID
		if k := holders[n.ID]; k > 1 {
			key += "#" + strconv.Itoa(k)
		}
		doc.Nodes[i] = jsonGraphNode{Key: key, ID: n.ID, Title: n.Title, Status: n.Status, SourcePath: n.SourcePath}
	}
	for i, e := range g.Edges {
		doc.Edges[i] = jsonGraphEdge{From: doc.Nodes[e.From].Key, To: doc.Nodes[e.To].Key, Kind: e.Kind}
	}
	return doc
}
