// Package overview is what adrkit prints without a command: an overview
// of the corpus, whatever it found.
package overview

import (
	"context"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/ports"
)

// Options is one run of the overview.
type Options struct {
	Out io.Writer

	Corpus func(context.Context) (*factory.Corpus, error)
	Style  func() (render.Style, error)
	Clock  func() ports.Clock
}

// NewAction is the root command's action when no command is named;
// runF, when set, is called instead of the run (tests intercept the
// options with it).
func NewAction(f *factory.Factory, runF func(context.Context, *Options) error) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		opts := &Options{
			Out:    f.Out,
			Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) },
			Style:  func() (render.Style, error) { return f.Style(cmd) },
			Clock:  f.Clock,
		}
		return factory.Run(ctx, opts, runF, run)
	}
}

// run lints the corpus and prints the overview.
func run(ctx context.Context, opts *Options) error {
	c, err := opts.Corpus(ctx)
	if err != nil {
		return err
	}
	rep, err := c.Service.Lint(ctx, app.LintInput{Clock: opts.Clock()})
	if err != nil {
		return c.Failure(err)
	}
	style, err := opts.Style()
	if err != nil {
		return err
	}
	return render.WriteOverview(opts.Out, rep, c.Source, style)
}
