package main

import (
	"context"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/source"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/ports"
)

func changesCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "changes",
		Usage:     "list what changed in the decision records, commit by commit, from git history",
		UsageText: "adrkit changes [--since CURSOR] [--json [--limit N] [--findings-limit N] [--findings-cursor C]]",
		Description: "Reads the first-parent git history of the ADR directory (HEAD, or --rev) and lists the\n" +
			"record-level changes: added, status-changed, edited, removed, renamed, oldest first. This is\n" +
			"the list_decision_changes tool. Without --since nothing is listed: the answer is a cursor for\n" +
			"the head, to pass as --since later and see only what landed since. --since 0_ lists the whole\n" +
			"history. Like the other commands it notes the corpus findings (adrkit lint explains them).\n" +
			"Exits 1 when the cursor's commit was rewritten away (start again from 0_ or the head cursor\n" +
			"it prints) or the corpus or the history cannot be read.\n\n" +
			"Examples:\n" +
			"  adrkit changes --since 0_\n" +
			"  cursor=$(adrkit changes --json | jq -r .result.cursor)\n" +
			"  adrkit changes --since \"$cursor\"",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "since", Usage: `a cursor from an earlier run, or "0_" for the whole history`},
			jsonFlag("{corpusHealth, result}", "one page"),
			sizeFlag("limit", "page size", app.MaxChangesLimit, app.DefaultChangesLimit),
		}, findingsFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			// Without --json every page of changes is printed and every
			// page of findings only counted, as chain counts them.
			if err := jsonOnly(cmd, "printed", "limit"); err != nil {
				return err
			}
			if err := jsonOnly(cmd, "read", "findings-limit", "findings-cursor"); err != nil {
				return err
			}
			limit, err := pageSize(cmd, "limit", app.MaxChangesLimit)
			if err != nil {
				return err
			}
			findingsLimit, err := pageSize(cmd, "findings-limit", maxToolPage)
			if err != nil {
				return err
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			// The corpus reader settle checked answers corpusHealth and
			// the findings; the history is read beside it.
			s.service = s.service.WithHistory(source.History(s.cwd, s.dir, s.rev))
			in := app.ChangesInput{
				Since: optional(cmd, "since"), Limit: limit,
				FindingsCursor: optional(cmd, "findings-cursor"), FindingsLimit: findingsLimit,
			}
			ans, err := runTool(ctx, cmd, s, stdout, in, nil)
			if err != nil {
				return err
			}
			switch r := ans.Result.(type) {
			case app.ChangesAnswer:
				if cmd.Bool("json") {
					return nil
				}
				return render.WriteChanges(stdout, r, in.Since != nil, s.style)
			case app.RestartAnswer:
				return exitError{code: exitFailure, msg: render.RestartAdvice(r)}
			case app.InvalidCursor:
				return usageError{command: cmd.FullName(), msg: refusedCursor(in) + " was refused: " + r.Message}
			case app.HistoryUnavailable:
				return exitError{code: exitFailure, msg: r.Message}
			case app.CorpusUnavailable:
				return s.failure(&ports.UnavailableError{Reason: r.Reason})
			}
			return exitError{code: exitFailure, msg: app.ToolListDecisionChanges + " gave an answer of an unexpected shape"}
		},
	}
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
