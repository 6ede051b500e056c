package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
)

// The commands of a record's life after "new": status and renumber edit
// records in the working tree; index writes or checks a Markdown index.

// editExit turns an error of an editing use case into the command's
// exit: a refused request is a usage error (2), a state of the directory
// that stops the edit a failure (1); nothing was written in either case.
func editExit(cmd *cli.Command, err error) error {
	switch {
	case errors.Is(err, app.ErrEditInput):
		return usageError{command: cmd.FullName(), msg: strings.TrimPrefix(err.Error(), app.ErrEditInput.Error()+": ")}
	case errors.Is(err, app.ErrEditConflict):
		return exitError{code: exitFailure, msg: strings.TrimPrefix(err.Error(), app.ErrEditConflict.Error()+": ")}
	}
	return exitError{code: exitFailure, msg: err.Error()}
}

func statusCommand(stdout io.Writer, env environment) *cli.Command {
	statuses := make([]string, len(adr.Statuses))
	for i, s := range adr.Statuses {
		statuses[i] = string(s)
	}
	return &cli.Command{
		Name:      "status",
		Usage:     "change a record's status (writes files)",
		UsageText: "adrkit status ID " + strings.Join(statuses, "|") + " [--by NEWID] [--dry-run] [--json]",
		Description: "Sets the status of record ID, changing only its status line. For superseded, --by names\n" +
			"the record that replaces it: ID gets supersededBy, and ID is added to that record's\n" +
			"supersedes. A record that stops being superseded loses its supersededBy, and the record\n" +
			"that replaced it stops listing it. Bodies and every other line are kept byte for byte;\n" +
			"each result is checked to be a valid record before anything is written, and each file is\n" +
			"written atomically. The output lists the lines changed in each file.\n" +
			"Exits 0 when written (or nothing needed changing), 1 when the records cannot be edited\n" +
			"(two records with the id, a result that would be invalid, such as accepted without\n" +
			"deciders), 2 for a usage error: an unknown status, a missing record, superseded without --by.\n\n" +
			"Examples:\n" +
			"  adrkit status 0007 accepted\n" +
			"  adrkit status 0003 superseded --by 0012 --dry-run",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "by", Usage: "for superseded: the id of the record that replaces it"},
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the lines that would change"},
			&cli.BoolFlag{Name: "json", Usage: "print the changes as JSON"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			args := cmd.Args().Slice()
			if len(args) != 2 {
				return usageError{command: cmd.FullName(), msg: "a record id and a status are needed: adrkit status ID STATUS"}
			}
			in := app.StatusInput{ID: args[0], Status: adr.Status(args[1]), By: cmd.String("by"), DryRun: cmd.Bool("dry-run")}
			if cmd.IsSet("by") && in.By == "" {
				return usageError{command: cmd.FullName(), msg: "--by needs a record id"}
			}
			s, folder, err := writerFolder(ctx, cmd, env)
			if err != nil {
				return err
			}
			res, err := app.SetStatus(ctx, folder, in)
			if err != nil {
				return editExit(cmd, err)
			}
			if cmd.Bool("json") {
				err = render.WriteJSON(stdout, res)
			} else {
				err = render.WriteStatus(stdout, res, s.style)
			}
			if err != nil {
				return err
			}
			if res.Failed() {
				return exitError{code: exitFailure}
			}
			return nil
		},
	}
}

var _ = fmt.Sprintf
