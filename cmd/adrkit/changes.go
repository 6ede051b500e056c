package main

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	adrcli "github.com/adrkit/adrkit-go/adapters/cli"
	"github.com/adrkit/adrkit-go/adapters/gitrev"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
)

// changesWalkLimit is the page size of the human mode, which prints every
// page: the largest the tool accepts.
const changesWalkLimit = 200

func changesCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "changes",
		Usage:     "list what changed in the decision records, commit by commit, from git history",
		UsageText: "adrkit changes [--since CURSOR] [--json [--limit N]]",
		Description: "Reads the first-parent git history of the ADR directory (HEAD, or --rev) and lists the\n" +
			"record-level changes: added, status-changed, edited, removed, renamed, oldest first. This is\n" +
			"the list_decision_changes tool. Without --since nothing is listed: the answer is a cursor for\n" +
			"the head, to pass as --since later and see only what landed since. --since 0_ lists the whole\n" +
			"history. Exits 1 when the cursor's commit was rewritten away (start again from 0_ or the\n" +
			"head cursor it prints) or the history cannot be read.\n\n" +
			"Examples:\n" +
			"  adrkit changes --since 0_\n" +
			"  cursor=$(adrkit changes --json | jq -r .result.cursor)\n" +
			"  adrkit changes --since \"$cursor\"",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "since", Usage: `a cursor from an earlier run, or "0_" for the whole history`},
			&cli.BoolFlag{Name: "json", Usage: "print the structured answer the MCP tool returns ({result}), one page of it"},
			&cli.IntFlag{Name: "limit", Usage: "with --json: page size, 1 to 200 (default 50)", HideDefault: true},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			asJSON := cmd.Bool("json")
			var in app.ChangesInput
			if cmd.IsSet("limit") {
				if !asJSON {
					return usageError{command: cmd.FullName(), msg: "--limit pages the --json output; without --json every page is printed"}
				}
				if cmd.Int("limit") == 0 {
					return usageError{command: cmd.FullName(), msg: "--limit must be from 1 to 200, got 0"}
				}
				in.Limit = cmd.Int("limit")
			}
			if cmd.IsSet("since") {
				since := cmd.String("since")
				in.Since = &since
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			svc := app.New(nil, app.Options{History: gitrev.NewHistory(s.cwd, s.dir, s.rev)})
			if !asJSON && in.Since != nil {
				in.Limit = changesWalkLimit
			}
			res, err := svc.ListDecisionChanges(ctx, in)
			if err != nil {
				return exitError{code: exitFailure, msg: err.Error()}
			}
			if res.IsError {
				return usageError{command: cmd.FullName(), msg: adrcli.RefusalDetail(app.ToolListDecisionChanges, res.Text)}
			}
			ans, _ := res.Structured.(app.Answer)
			if asJSON {
				if err := adrcli.WriteJSON(stdout, ans); err != nil {
					return err
				}
			}
			switch r := ans.Result.(type) {
			case app.ChangesAnswer:
				if asJSON {
					return nil
				}
				page := r
				for page.HasMore {
					next := page.Cursor
					in.Since = &next
					res, err := svc.ListDecisionChanges(ctx, in)
					if err != nil {
						return exitError{code: exitFailure, msg: err.Error()}
					}
					more, ok := res.Structured.(app.Answer).Result.(app.ChangesAnswer)
					if !ok {
						return exitError{code: exitFailure, msg: "the history was rewritten while it was being read; run the command again"}
					}
					r.Items = append(r.Items, more.Items...)
					r.Cursor, r.HasMore, r.Head = more.Cursor, more.HasMore, more.Head
					page = more
				}
				return writeChanges(stdout, r, cmd.IsSet("since"), s.style)
			case app.RestartAnswer:
				return exitError{code: exitFailure, msg: "the cursor's commit is no longer in the history (it was rewritten); " +
					"start again with --since 0_ to list every change, or --since " + r.HeadCursor + " to list only new ones"}
			case app.InvalidCursor:
				return usageError{command: cmd.FullName(), msg: "--since was refused: " + r.Message}
			case app.HistoryUnavailable:
				return exitError{code: exitFailure, msg: r.Message}
			}
			return exitError{code: exitFailure, msg: "list_decision_changes gave an answer of an unexpected shape"}
		},
	}
}

// writeChanges renders every change for a person, then the cursor to
// continue from.
func writeChanges(w io.Writer, r app.ChangesAnswer, since bool, st adrcli.Style) error {
	var b strings.Builder
	switch {
	case !since:
		b.WriteString("Nothing is listed without --since: the feed starts at the head")
		if r.Head != nil {
			b.WriteString(" (commit " + (*r.Head)[:7] + ")")
		}
		b.WriteString(".\n")
	case len(r.Items) == 0:
		b.WriteString("No decision changed.\n")
	default:
		t := columns{header: []string{"COMMIT", "DATE (UTC)", "ID", "CHANGE", "DETAIL", "TITLE", "PATH"}, style: st}
		for _, it := range r.Items {
			t.add(styled(it.Commit[:7], st.Dim), styled(changeDate(it.CommittedAt), nil), styled(it.ID, st.Bold),
				styled(string(it.Kind), nil), styled(changeDetail(it), nil), styled(it.Title, nil), styled(it.SourcePath, st.Dim))
		}
		b.WriteString(t.String())
		b.WriteString("\n" + countOf(len(r.Items), "change", "changes") + ".\n")
	}
	b.WriteString(st.Dim("To see what changes next: ") + "adrkit changes --since " + r.Cursor + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// changeDate shortens the RFC 3339 time to minutes.
func changeDate(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// changeDetail says what a change did, in a few words.
func changeDetail(it app.ChangeItem) string {
	switch it.Kind {
	case feed.Added:
		return string(it.Status) + ", " + map[feed.Cause]string{
			feed.FileCreated: "new file", feed.BecameValid: "file now valid", feed.IDChanged: "file took this id",
		}[it.Cause]
	case feed.Removed:
		return map[feed.Cause]string{
			feed.FileDeleted: "file deleted", feed.BecameInvalid: "file no longer valid", feed.IDChanged: "file has another id now",
		}[it.Cause]
	case feed.Renamed:
		return "from " + it.FromPath
	case feed.StatusChanged:
		return string(it.Before) + " → " + string(it.After)
	}
	return "still " + string(it.Status)
}
