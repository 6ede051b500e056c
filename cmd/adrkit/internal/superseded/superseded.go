// Package superseded is adrkit superseded: what was replaced, and by
// what (list_superseded).
package superseded

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/toolcmd"
)

// Options is one run of adrkit superseded.
type Options struct {
	toolcmd.Options
}

// NewCmdSuperseded is adrkit superseded; runF, when set, is called
// instead of the run (tests intercept the options with it).
func NewCmdSuperseded(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "superseded",
		Usage:     "list superseded decisions and what replaced each",
		UsageText: "adrkit superseded [--json [--limit N] [--cursor C]]",
		Description: "Each superseded record is listed with its direct replacement (one hop, never a chain):\n" +
			"the record its supersededBy names, or why that reference does not resolve here.\n\n" +
			"Examples:\n" +
			"  adrkit superseded\n" +
			"  adrkit --rev v1.2.0 superseded --json",
		Flags: toolcmd.PageFlags(),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := factory.NoArgs(cmd); err != nil {
				return err
			}
			base, err := toolcmd.Read(f, cmd, "printed")
			if err != nil {
				return err
			}
			opts := &Options{Options: base}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run calls list_superseded and shows a person every entry.
func run(ctx context.Context, opts *Options) error {
	return opts.Call(ctx, func(context.Context, *factory.Corpus) (app.Input, func(app.Outcome, render.Style) error, error) {
		return app.SupersededInput{Page: opts.Page}, func(r app.Outcome, style render.Style) error {
			e, _ := r.(app.Entries)
			return render.WriteSuperseded(opts.Out, e, style)
		}, nil
	}, nil)
}
