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
	"github.com/adrkit/adrkit-go/ports"
)

// Options is one run of adrkit status.
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	Input   app.StatusInput
	JSON    bool

	// Listing, when set, lists the records by status instead of editing.
	Listing *Listing

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
		Usage:     "list the records by status, or change one's status (writes files)",
		UsageText: "adrkit status [ID " + strings.Join(statuses, "|") + " [--deciders @a,team:b] [--by NEWID] [--dry-run] [--json]]",
		Description: "Without arguments, lists the records by status. With ID and STATUS, sets the status of\n" +
			"record ID, changing only its status line. accepted needs deciders: --deciders names them\n" +
			"(it replaces the record's list), and accepting a record that lists others in supersedes\n" +
			"marks each of them superseded by it in the same run: a proposal made with\n" +
			"adrkit new --supersedes replaces the old record only now. For superseded, --by names the\n" +
			"record that replaces it: ID gets supersededBy, and ID is added to that record's\n" +
			"supersedes. A record that stops being superseded loses its supersededBy, and the record\n" +
			"that replaced it stops listing it. Bodies and every other line are kept byte for byte;\n" +
			"each result is checked to be a valid record before anything is written, and each file is\n" +
			"written atomically. The output lists the lines changed in each file.\n" +
			"Exits 0 when written (or nothing needed changing), 1 when the records cannot be edited\n" +
			"(no record or two with the id, a result that would be invalid), 2 for a usage error: an\n" +
			"unknown status, accepted without --deciders, superseded without --by.\n\n" +
			"Examples:\n" +
			"  adrkit status\n" +
			"  adrkit status 0007 accepted --deciders @ana,team:data\n" +
			"  adrkit status 0003 superseded --by 0012 --dry-run",
		Flags: []cli.Flag{
			factory.DecidersFlag(),
			&cli.StringFlag{Name: "by", Usage: "for superseded: the id of the record that replaces it"},
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the lines that would change"},
			&cli.BoolFlag{Name: "json", Usage: "print the changes as JSON"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			args := cmd.Args().Slice()
			opts := &Options{
				Out: f.Out, Command: cmd.FullName(), JSON: cmd.Bool("json"),
				Folder: func(ctx context.Context) (*factory.Corpus, *workspace.Folder, error) { return f.WriterFolder(ctx, cmd) },
				Style:  func() (render.Style, error) { return f.Style(cmd) },
			}
			switch len(args) {
			case 0:
				opts.Listing = &Listing{Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) }, Clock: f.Clock}
				return factory.Run(ctx, opts, runF, run)
			case 2:
			default:
				return factory.UsageError{Command: cmd.FullName(), Msg: "a record id and a status are needed: adrkit status ID STATUS (alone, it lists the records)"}
			}
			opts.Input = app.StatusInput{ID: args[0], Status: adr.Status(args[1]), By: cmd.String("by"), Deciders: factory.Deciders(cmd), DryRun: cmd.Bool("dry-run")}
			if cmd.IsSet("by") && opts.Input.By == "" {
				return factory.UsageError{Command: cmd.FullName(), Msg: "--by needs a record id"}
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// Listing is adrkit status alone: it reads the corpus (a revision too)
// and writes nothing.
type Listing struct {
	Corpus func(context.Context) (*factory.Corpus, error)
	Clock  func() ports.Clock
}

// run edits the records and prints the lines changed, or lists them.
func run(ctx context.Context, opts *Options) error {
	if opts.Listing != nil {
		return list(ctx, opts)
	}
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

// list prints the valid records by status.
func list(ctx context.Context, opts *Options) error {
	c, err := opts.Listing.Corpus(ctx)
	if err != nil {
		return err
	}
	rep, err := c.Service.Lint(ctx, app.LintInput{Clock: opts.Listing.Clock()})
	if err != nil {
		return c.Failure(err)
	}
	if opts.JSON {
		return render.WriteJSON(opts.Out, rep.Records)
	}
	style, err := opts.Style()
	if err != nil {
		return err
	}
	return render.WriteStatuses(opts.Out, rep.Records, style)
}
