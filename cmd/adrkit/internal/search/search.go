// Package search is adrkit search: the search_decisions tool for a
// person, with a snippet of each matching body.
package search

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/toolcmd"
	"github.com/adrkit/adrkit-go/domain/adr"
)

// Options is one run of adrkit search: the tool command's options and
// the filters.
type Options struct {
	toolcmd.Options
	// Status, Tags and Scope are nil when not given, so that the filter
	// is absent rather than empty.
	Status []adr.Status
	Tags   []string
	Scope  []adr.Scope
}

// NewCmdSearch is adrkit search; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdSearch(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "find decisions by the text of their id, title, tags or body, or list them by status, tag or scope",
		UsageText: "adrkit search [QUERY...] [--status S]... [--tag T]... [--scope S]... [--json [--limit N] [--cursor C]]",
		Description: "The words of QUERY are joined with single spaces and matched literally (trimmed, case- and\n" +
			"width-folded) against each record's id, title, tags and Markdown body. --status and --scope keep\n" +
			"records with any of the given values, --tag those with all the given tags; repeat an option to\n" +
			"give several values. Every status is searched unless filtered, superseded records included.\n" +
			"Without a QUERY every record that passes the filters is listed, in id order.\n\n" +
			"Examples:\n" +
			"  adrkit search postgres\n" +
			"  adrkit search cache --status accepted --status proposed\n" +
			"  adrkit search --status proposed          # every open proposal\n" +
			"  adrkit search retry --tag resilience --json",
		DisableSliceFlagSeparator: true,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "status", Usage: "only records with this status (draft, proposed, accepted, rejected, superseded, deprecated)"},
			&cli.StringSliceFlag{Name: "tag", Usage: "only records carrying this tag"},
			&cli.StringSliceFlag{Name: "scope", Usage: "only records with this scope (component, domain, org)"},
		}, toolcmd.PageFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			base, err := toolcmd.Read(f, cmd, "printed")
			if err != nil {
				return err
			}
			opts := &Options{Options: base, Status: typed[adr.Status](cmd, "status"), Tags: typed[string](cmd, "tag"), Scope: typed[adr.Scope](cmd, "scope")}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run calls search_decisions and shows a person every result.
func run(ctx context.Context, opts *Options) error {
	return opts.Call(ctx, func(ctx context.Context, c *factory.Corpus) (app.Input, func(app.Outcome, render.Style) error, error) {
		in := app.SearchInput{
			All:    len(opts.Args) == 0,
			Query:  strings.Join(opts.Args, " "),
			Status: opts.Status, Tags: opts.Tags, Scope: opts.Scope,
			Page: opts.Page,
		}
		return in, func(r app.Outcome, style render.Style) error {
			res, _ := r.(app.SearchResults)
			return render.WriteSearch(opts.Out, res, in.Query, snippets(ctx, c, res, in.Query), style)
		}, nil
	}, nil)
}

// typed reads a repeatable option as a typed list; nil when not given, so
// that the filter is absent rather than empty.
func typed[T ~string](cmd *cli.Command, name string) []T {
	if !cmd.IsSet(name) {
		return nil
	}
	vals := cmd.StringSlice(name)
	out := make([]T, len(vals))
	for i, v := range vals {
		out[i] = T(v)
	}
	return out
}

// snippetWidth is how much of the matching text search shows under a
// result.
const snippetWidth = 100

// snippets is, by source path, a short piece of each matching record's
// body around the query, for a person scanning the results; none when
// the query matched only the id, title or tags, or the corpus cannot be
// read a second time.
func snippets(ctx context.Context, c *factory.Corpus, res app.SearchResults, query string) map[string]string {
	if query == "" || len(res.Items) == 0 {
		return nil
	}
	p, err := c.Service.Project(ctx)
	if err != nil {
		return nil
	}
	want := map[string]bool{}
	for _, it := range res.Items {
		want[string(it.SourcePath)] = true
	}
	out := map[string]string{}
	for _, rec := range p.Records {
		if want[rec.SourcePath] {
			out[rec.SourcePath] = app.Snippet(rec.Body, query, snippetWidth)
		}
	}
	return out
}
