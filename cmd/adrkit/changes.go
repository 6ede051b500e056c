package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/cursor"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
	"github.com/adrkit/adrkit-go/ports"
)

// recentChanges is how many changes adrkit changes shows without --since.
const recentChanges = 10

func changesCommand(stdout io.Writer, env environment) *cli.Command {
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
			s.service = s.service.WithHistory(s.where.History())
			in := app.ChangesInput{
				Since: optional(cmd, "since"), Limit: limit,
				FindingsCursor: optional(cmd, "findings-cursor"), FindingsLimit: findingsLimit,
			}
			recent := false
			switch {
			case in.Since != nil:
				since, err := sinceCursor(ctx, s, *in.Since)
				if err != nil {
					return usageError{Command: cmd.FullName(), Msg: err.Error()}
				}
				in.Since = &since
			case !cmd.Bool("json"):
				// A person asking "what changed?" is shown the latest
				// changes; scripts (--json) keep the head cursor.
				replay := feed.ReplayToken
				in.Since, recent = &replay, true
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
				omitted := 0
				if recent && len(r.Items) > recentChanges {
					omitted = len(r.Items) - recentChanges
					r.Items = r.Items[omitted:]
				}
				return render.WriteChanges(stdout, r, omitted, s.style)
			case app.RestartAnswer:
				return exitError{Code: exitFailure, Msg: render.RestartAdvice(r)}
			case app.InvalidCursor:
				return usageError{Command: cmd.FullName(), Msg: refusedCursor(in) + " was refused: " + r.Message}
			case app.HistoryUnavailable:
				return exitError{Code: exitFailure, Msg: r.Message}
			case app.CorpusUnavailable:
				return s.failure(&ports.UnavailableError{Reason: r.Reason})
			}
			return exitError{Code: exitFailure, Msg: app.ToolListDecisionChanges + " gave an answer of an unexpected shape"}
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

// sinceCursor reads --since: a feed cursor or "0_" as they are (the tool
// judges them), a date (YYYY-MM-DD, UTC, or an RFC 3339 time) as the
// changes committed at or after it, anything else as a git revision
// (HEAD~20, a tag, a branch, a hash): the changes after that commit.
func sinceCursor(ctx context.Context, s *settings, since string) (string, error) {
	hist, err := s.where.History().OpenHistory(ctx)
	if err != nil {
		return since, nil // the tool reports the history as unavailable
	}
	if _, reason := feed.Decode(since, hist.Dir()); reason != cursor.DecodeFailed {
		return since, nil
	}
	if t, ok := parseSinceDate(since); ok {
		return sinceDate(ctx, hist, t)
	}
	at, err := s.where.At(since).History().OpenHistory(ctx)
	if err != nil && looksLikeCursor(since) {
		return since, nil // a damaged cursor: the tool says why it is refused
	}
	if err != nil {
		return "", fmt.Errorf("--since %q is not a cursor, a date (YYYY-MM-DD) or a revision git knows (HEAD~20, a tag, a branch, a hash)", since)
	}
	c, ok := at.Head()
	if !ok {
		return feed.ReplayToken, nil
	}
	return feed.Encode(feed.Position{Commit: c.Hash}, hist.Dir()), nil
}

// parseSinceDate reads a day (midnight UTC) or an RFC 3339 time.
func parseSinceDate(s string) (time.Time, bool) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, true
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// sinceDate is the cursor after the newest first-parent commit made
// before t, so that the feed lists the commits from t on; "0_" when the
// whole history is that recent.
func sinceDate(ctx context.Context, hist ports.History, t time.Time) (string, error) {
	c, ok := hist.Head()
	for ok && !c.Time.Before(t) {
		var err error
		if c, ok, err = hist.Parent(ctx, c); err != nil {
			return "", fmt.Errorf("reading the history: %w", err)
		}
	}
	if !ok {
		return feed.ReplayToken, nil
	}
	return feed.Encode(feed.Position{Commit: c.Hash}, hist.Dir()), nil
}

// looksLikeCursor reports whether s is spelled as a feed cursor is
// (base64url, and longer than any revision a person types).
func looksLikeCursor(s string) bool {
	if len(s) < 24 {
		return false
	}
	return strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == ""
}
