// Package graph is adrkit graph: how the decisions relate, as Mermaid,
// Graphviz DOT or JSON.
package graph

import (
	"context"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
)

// Options is one run of adrkit graph.
type Options struct {
	Out    io.Writer
	Format render.GraphFormat

	Corpus func(context.Context) (*factory.Corpus, error)
}

// NewCmdGraph is adrkit graph; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdGraph(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "draw how the decisions relate (Mermaid or Graphviz DOT), or list the relations (JSON)",
		UsageText: "adrkit graph [--format mermaid|dot|json]",
		Description: "Nodes are records, coloured by status (a legend lists the colours in use); references to\n" +
			"records that are not in the corpus (a missing id, or another log's) are dashed nodes.\n" +
			"supersedes is a thick arrow from the newer record, relatesTo a plain line and conflictsWith\n" +
			"a dotted line; a relation declared from both ends is drawn once.\n\n" +
			"Examples:\n" +
			"  adrkit graph > docs/adr-graph.mmd\n" +
			"  adrkit graph --format dot | dot -Tsvg > adr-graph.svg\n" +
			"  adrkit graph --format json | jq '.edges[] | select(.kind == \"supersedes\")'",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: string(render.GraphMermaid), Usage: "mermaid (a flowchart for Markdown), dot (Graphviz) or json (nodes and edges)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := factory.NoArgs(cmd); err != nil {
				return err
			}
			format, err := render.ParseGraphFormat(cmd.String("format"))
			if err != nil {
				return factory.UsageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			opts := &Options{Out: f.Out, Format: format, Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) }}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run draws the graph of the corpus.
func run(ctx context.Context, opts *Options) error {
	c, err := opts.Corpus(ctx)
	if err != nil {
		return err
	}
	g, err := c.Service.Graph(ctx)
	if err != nil {
		return c.Failure(err)
	}
	return render.WriteGraph(opts.Out, g, opts.Format, c.Source)
}
