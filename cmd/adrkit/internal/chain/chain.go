// Package chain is adrkit chain: a decision's supersession line and the
// verdict on acting on it (get_supersession_chain).
package chain

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/toolcmd"
)

// Options is one run of adrkit chain.
type Options struct {
	toolcmd.Options
	// Ref is the record whose line is walked, as the tool takes it.
	Ref string
}

// NewCmdChain is adrkit chain; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdChain(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "chain",
		Usage:     "follow what replaced a decision and say whether to act on it",
		UsageText: "adrkit chain REF [--json [--findings-limit N] [--findings-cursor C]]",
		Description: "Walks the supersedes/supersededBy lineage of REF (at most 12 steps each way) and prints it\n" +
			"oldest first, then the verdict: current (the newest record is accepted and nothing replaces\n" +
			"it) or hold, with the reason and what to do. This is the get_supersession_chain tool.\n" +
			"Exits 1 on hold, and when no single local record has the id.\n\n" +
			"Examples:\n" +
			"  adrkit chain 0003\n" +
			"  adrkit chain 0003 --json\n" +
			"  adrkit chain 0003 && ./deploy.sh      # only when 0003's line is settled",
		Flags: append([]cli.Flag{toolcmd.JSONFlag("{corpusHealth, result}", "one findings page")}, toolcmd.FindingsFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := toolcmd.ExactlyOne(cmd, "chain needs exactly one REF, e.g. adrkit chain 0003"); err != nil {
				return err
			}
			// Without --json the findings pages are only counted.
			base, err := toolcmd.Read(f, cmd, "read")
			if err != nil {
				return err
			}
			opts := &Options{Options: base, Ref: toolcmd.ShortRef(cmd.Args().First())}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run calls get_supersession_chain and shows a person the line.
func run(ctx context.Context, opts *Options) error {
	return opts.Call(ctx, func(context.Context, *factory.Corpus) (app.Input, func(app.Outcome, render.Style) error, error) {
		// The tool has a findings channel only; the chain comes whole.
		in := app.ChainInput{Ref: opts.Ref, FindingsCursor: opts.Page.FindingsCursor, FindingsLimit: opts.Page.FindingsLimit}
		return in, func(r app.Outcome, style render.Style) error { return render.WriteChain(opts.Out, r, style) }, nil
	}, nil)
}
