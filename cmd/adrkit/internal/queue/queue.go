// Package queue is adrkit queue: the review queue of proposed decisions
// by SLA state.
package queue

import (
	"context"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
)

// Options is one run of adrkit queue.
type Options struct {
	Out    io.Writer
	Format render.QueueFormat
	// Date is the day the SLA states are computed for.
	Date string

	Corpus func(context.Context) (*factory.Corpus, error)
	Style  func() (render.Style, error)
}

// NewCmdQueue is adrkit queue; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdQueue(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "queue",
		Usage:     "the review queue: proposed decisions by SLA state, most urgent first",
		UsageText: "adrkit queue [--as-of DATE] [--format text|markdown|json]",
		Description: "Lists every proposed decision with where it stands against its review deadline: reviewBy,\n" +
			"or the UTC day of review.queuedAt plus review.slaDays. The states, in the order they win:\n" +
			"decided (review.decidedAt), escalated (review.escalatedAt), overdue, due (the deadline is\n" +
			"today), within-sla, missing-sla (queued without a deadline), not-queued. The queue is\n" +
			"ordered overdue, escalated, due, within-sla, missing-sla, not-queued, decided, then by\n" +
			"deadline, queuedAt, id and path. It also lists what is incomplete about each item (no\n" +
			"review.queuedAt, deadline, review.tier or deciders, a reviewBy before the day it was\n" +
			"queued), how to queue a proposal that is not, and the files that could not be queued (not\n" +
			"valid records, or never read as records). --format json is the QueueReport v1 document\n" +
			"that badges and the queue-issue Action read: its item findings are the reference's.\n" +
			"--as-of is a date (YYYY-MM-DD) or a datetime with an explicit zone (Z, +HH:MM), which\n" +
			"stands for its UTC date; default today (UTC). Exits 1 when a file could not be queued\n" +
			"because it is broken (the report is still complete), 2 for a usage mistake, 0 otherwise.\n\n" +
			"Examples:\n" +
			"  adrkit queue\n" +
			"  adrkit queue --as-of 2026-01-08 --format json > queue.json\n" +
			"  adrkit queue --format markdown >> \"$GITHUB_STEP_SUMMARY\"",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "as-of", Usage: "compute SLA states as of this day: YYYY-MM-DD, or a datetime with a zone such as 2026-01-08T09:00:00+01:00 (default: today, UTC)"},
			&cli.StringFlag{Name: "format", Value: string(render.QueueText), Usage: "text, markdown or json (QueueReport v1)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := factory.NoArgs(cmd); err != nil {
				return err
			}
			format, err := render.ParseQueueFormat(cmd.String("format"))
			if err != nil {
				return factory.UsageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			asOf := cmd.String("as-of")
			if cmd.IsSet("as-of") && asOf == "" {
				return factory.UsageError{Command: cmd.FullName(), Msg: "--as-of needs a date (YYYY-MM-DD) or a datetime with a zone"}
			}
			// The date is settled before the corpus is read.
			date, err := app.QueueDate(asOf, f.Clock())
			if err != nil {
				return factory.UsageError{Command: cmd.FullName(), Msg: "--as-of: " + err.Error()}
			}
			opts := &Options{
				Out: f.Out, Format: format, Date: date,
				Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) },
				Style:  func() (render.Style, error) { return f.Style(cmd) },
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run queues the proposals and prints the queue; status 1 when a file
// could not be queued.
func run(ctx context.Context, opts *Options) error {
	c, err := opts.Corpus(ctx)
	if err != nil {
		return err
	}
	rep, err := c.Service.Queue(ctx, app.QueueRequest{AsOf: opts.Date})
	if err != nil {
		return c.Failure(err)
	}
	style, err := opts.Style()
	if err != nil {
		return err
	}
	return factory.Printed(rep, func() error { return render.WriteQueue(opts.Out, rep, opts.Format, style) })
}
