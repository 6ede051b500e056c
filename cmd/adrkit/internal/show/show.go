// Package show is adrkit show: one decision in full (get_decision).
package show

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/toolcmd"
)

// Options is one run of adrkit show.
type Options struct {
	toolcmd.Options
	// Ref is the record asked for, as the tool takes it.
	Ref string
}

// NewCmdShow is adrkit show; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdShow(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print one decision in full: its frontmatter and Markdown body",
		UsageText: "adrkit show REF [--json [--limit N] [--cursor C]]",
		Description: "REF is a record id such as 0042 (or a ULID), optionally with a log name (payments:0042);\n" +
			"a number of fewer than four digits is the four-digit id (9 is 0009).\n" +
			"Exits 1 when no single local record has that id: none does, several do (they are listed),\n" +
			"or the ref names another decision log.\n\n" +
			"Examples:\n" +
			"  adrkit show 0003\n" +
			"  adrkit show 0003 --json",
		Flags: toolcmd.PageFlags(),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := toolcmd.ExactlyOne(cmd, "show needs exactly one REF, e.g. adrkit show 0003"); err != nil {
				return err
			}
			base, err := toolcmd.Read(f, cmd, "printed")
			if err != nil {
				return err
			}
			opts := &Options{Options: base, Ref: toolcmd.ShortRef(cmd.Args().First())}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run calls get_decision and shows a person the record.
func run(ctx context.Context, opts *Options) error {
	return opts.Call(ctx, func(context.Context, *factory.Corpus) (app.Input, func(app.Outcome, render.Style) error, error) {
		return app.GetInput{Ref: opts.Ref, Page: opts.Page}, func(r app.Outcome, style render.Style) error {
			return render.WriteDecision(opts.Out, r, style)
		}, nil
	}, nil)
}
