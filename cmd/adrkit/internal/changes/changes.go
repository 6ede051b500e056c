// Package changes is adrkit changes: what changed in the decision
// records, commit by commit (list_decision_changes).
package changes

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/toolcmd"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/ports"
)

// recentChanges is how many changes adrkit changes shows without --since.
const recentChanges = 10

// Options is one run of adrkit changes. Of the tool command's page it
// reads FindingsLimit and FindingsCursor.
type Options struct {
	toolcmd.Options
	// Since is --since as given (nil: not given).
	Since *string
	// Limit is the page size of changes with --json (0: the default).
	Limit int
}

// NewCmdChanges is adrkit changes; runF, when set, is called instead of
// the run (tests intercept the options with it).
func NewCmdChanges(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "changes",
		Usage:     "list what changed in the decision records, commit by commit, from git history",
		UsageText: "adrkit changes [--since CURSOR|REVISION|DATE] [--json [--limit N] [--findings-limit N] [--findings-cursor C]]",
		Description: "Reads the first-parent git history of the ADR directory (HEAD, or --rev) and lists the\n" +
			"record-level changes: added, status-changed, edited, removed, renamed, oldest first. This is\n" +
			"the list_decision_changes tool. Without --since it shows the latest ten changes; --since takes\n" +
			"a cursor from an earlier run (the last line prints one), 0_ for the whole history, a git\n" +
			"revision (HEAD~20, a tag, a branch: the changes after that commit) or a date (2026-11-01, or an\n" +
			"RFC 3339 time: the changes committed from then on). With --json and no --since the answer\n" +
			"is an empty page and the cursor of the head, for scripts to pass as --since later.\n" +
			"Like the other commands it notes the corpus findings (adrkit lint explains them).\n" +
			"Exits 1 when the cursor's commit was rewritten away (start again from 0_ or the head cursor\n" +
			"it prints) or the corpus or the history cannot be read; 2 when --since is none of the above.\n\n" +
			"Examples:\n" +
			"  adrkit changes\n" +
			"  adrkit changes --since v1.4.0\n" +
			"  adrkit changes --since 2026-11-01\n" +
			"  cursor=$(adrkit changes --json | jq -r .result.cursor)\n" +
			"  adrkit changes --since \"$cursor\"",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "since", Usage: `a cursor from an earlier run, "0_" for the whole history, a git revision or a date`},
			toolcmd.JSONFlag("{corpusHealth, result}", "one page"),
			toolcmd.SizeFlag("limit", "page size", app.MaxChangesLimit, app.DefaultChangesLimit),
		}, toolcmd.FindingsFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := factory.NoArgs(cmd); err != nil {
				return err
			}
			// Without --json every page of changes is printed and every
			// page of findings only counted, as chain counts them.
			if err := toolcmd.JSONOnly(cmd, "printed", "limit"); err != nil {
				return err
			}
			limit, err := toolcmd.PageSize(cmd, "limit", app.MaxChangesLimit)
			if err != nil {
				return err
			}
			base, err := toolcmd.Read(f, cmd, "read")
			if err != nil {
				return err
			}
			opts := &Options{Options: base, Since: toolcmd.Optional(cmd, "since"), Limit: limit}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run reads the history beside the corpus, calls list_decision_changes
// and shows a person the latest changes (or those since --since).
func run(ctx context.Context, opts *Options) error {
	c, err := opts.Corpus(ctx)
	if err != nil {
		return err
	}
	// The corpus reader checked answers corpusHealth and the findings;
	// the history is read beside it.
	c.Service = c.Service.WithHistory(c.Where.History())
	in := app.ChangesInput{Since: opts.Since, Limit: opts.Limit, FindingsCursor: opts.Page.FindingsCursor, FindingsLimit: opts.Page.FindingsLimit}
	recent := false
	switch {
	case in.Since != nil:
		since, err := sinceCursor(ctx, c, *in.Since)
		if err != nil {
			return opts.Usage(err.Error())
		}
		in.Since = &since
	case !opts.JSON:
		// A person asking "what changed?" is shown the latest changes;
		// scripts (--json) keep the head cursor.
		replay := feed.ReplayToken
		in.Since, recent = &replay, true
	}
	ans, err := opts.Run(ctx, c, in, nil)
	if err != nil {
		return err
	}
	switch r := ans.Result.(type) {
	case app.ChangesAnswer:
		if opts.JSON {
			return nil
		}
		omitted := 0
		if recent && len(r.Items) > recentChanges {
			omitted = len(r.Items) - recentChanges
			r.Items = r.Items[omitted:]
		}
		style, err := opts.Style()
		if err != nil {
			return err
		}
		return render.WriteChanges(opts.Out, r, omitted, style)
	case app.RestartAnswer:
		return factory.ExitError{Code: factory.ExitFailure, Msg: render.RestartAdvice(r)}
	case app.InvalidCursor:
		return opts.Usage(refusedCursor(in) + " was refused: " + r.Message)
	case app.HistoryUnavailable:
		return factory.ExitError{Code: factory.ExitFailure, Msg: r.Message}
	case app.CorpusUnavailable:
		return c.Failure(&ports.UnavailableError{Reason: r.Reason})
	}
	return factory.ExitError{Code: factory.ExitFailure, Msg: app.ToolListDecisionChanges + " gave an answer of an unexpected shape"}
}

// refusedCursor names the option whose cursor an invalid-cursor answer
// refused: the tool checks --since first, then --findings-cursor, which
// only the --json mode passes on.
func refusedCursor(in app.ChangesInput) string {
	switch {
	case in.FindingsCursor == nil:
		return "--since"
	case in.Since == nil:
		return "--findings-cursor"
	}
	return "--since or --findings-cursor"
}
