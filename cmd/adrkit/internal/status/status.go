// Package status is adrkit status: a record's status changed, and the
// records its supersession names kept in step (app.SetStatus).
package status

import (
	"context"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/domain/adr"
)

// Options is one run of adrkit status.
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	Input   app.StatusInput
	JSON    bool

	// Folder checks the corpus and opens the ADR directory for writing.
	Folder func(context.Context) (*factory.Corpus, *workspace.Folder, error)
	Style  func() (render.Style, error)
}

// NewCmdStatus is adrkit status; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdStatus(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	statuses := factory.StringsOf(adr.Statuses)
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
				return factory.UsageError{Command: cmd.FullName(), Msg: "a record id and a status are needed: adrkit status ID STATUS"}
			}
			opts := &Options{
				Out: f.Out, Command: cmd.FullName(), JSON: cmd.Bool("json"),
				Input:  app.StatusInput{ID: args[0], Status: adr.Status(args[1]), By: cmd.String("by"), DryRun: cmd.Bool("dry-run")},
				Folder: func(ctx context.Context) (*factory.Corpus, *workspace.Folder, error) { return f.WriterFolder(ctx, cmd) },
				Style:  func() (render.Style, error) { return f.Style(cmd) },
			}
			if cmd.IsSet("by") && opts.Input.By == "" {
				return factory.UsageError{Command: cmd.FullName(), Msg: "--by needs a record id"}
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run edits the records and prints the lines changed.
func run(ctx context.Context, opts *Options) error {
	_, folder, err := opts.Folder(ctx)
	if err != nil {
		return err
	}
	res, err := app.SetStatus(ctx, folder, opts.Input)
	if err != nil {
		return factory.EditExit(opts.Command, err)
	}
	return factory.Printed(res, func() error {
		if opts.JSON {
			return render.WriteJSON(opts.Out, res)
		}
		style, err := opts.Style()
		if err != nil {
			return err
		}
		return render.WriteStatus(opts.Out, res, style)
	})
}
