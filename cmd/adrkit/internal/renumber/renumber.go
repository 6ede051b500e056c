// Package renumber is adrkit renumber: a record given a new id, and
// everything that names it rewritten (app.Renumber).
package renumber

import (
	"context"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
)

// Options is one run of adrkit renumber.
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	Input   app.RenumberInput
	JSON    bool

	// Folder checks the corpus and opens the ADR directory for writing.
	Folder func(context.Context) (*factory.Corpus, *workspace.Folder, error)
	Style  func() (render.Style, error)
}

// NewCmdRenumber is adrkit renumber; runF, when set, is called instead of
// the run (tests intercept the options with it).
func NewCmdRenumber(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "renumber",
		Usage:     "give a record a new id, where two branches took the same number (writes files)",
		UsageText: "adrkit renumber ID (NEWID | --next) [--dry-run] [--json]",
		Description: "Renames the record's file (the number its name starts with), rewrites its id, every\n" +
			"relation in other records that names it (supersedes, supersededBy, relatesTo,\n" +
			"conflictsWith) and every @adr marker that declares it in a file git tracks (only\n" +
			"declarations, as explain reads them: prose and code are left alone). --next takes the\n" +
			"number after the largest in the working tree and on every local and remote-tracking\n" +
			"branch, as new does ('git fetch' first). A NEWID that a record or a file name already\n" +
			"uses, here or on a branch, is refused. Each file is written atomically.\n" +
			"Exits 0 when written, 1 when the records cannot be edited or a file could not be\n" +
			"written, 2 for a usage error (a missing record included).\n\n" +
			"Examples:\n" +
			"  adrkit check --changed-since origin/main   # number-taken: 0012 is taken on origin/main\n" +
			"  adrkit renumber 0012 --next --dry-run\n" +
			"  adrkit renumber 0012 0015",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "next", Usage: "take the next number free in the working tree and on every branch"},
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the lines that would change"},
			&cli.BoolFlag{Name: "json", Usage: "print the changes as JSON"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			args := cmd.Args().Slice()
			in := app.RenumberInput{Next: cmd.Bool("next"), DryRun: cmd.Bool("dry-run")}
			switch {
			case len(args) == 1 && in.Next:
				in.ID = args[0]
			case len(args) == 2 && !in.Next:
				in.ID, in.NewID = args[0], args[1]
			default:
				return factory.UsageError{Command: cmd.FullName(), Msg: "a record id and the new id, or --next, are needed: adrkit renumber ID (NEWID | --next)"}
			}
			opts := &Options{
				Out: f.Out, Command: cmd.FullName(), Input: in, JSON: cmd.Bool("json"),
				Folder: func(ctx context.Context) (*factory.Corpus, *workspace.Folder, error) { return f.WriterFolder(ctx, cmd) },
				Style:  func() (render.Style, error) { return f.Style(cmd) },
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run renumbers the record and prints the lines changed.
func run(ctx context.Context, opts *Options) error {
	_, folder, err := opts.Folder(ctx)
	if err != nil {
		return err
	}
	repo, err := workspace.OpenRepoFiles(folder.Root())
	if err != nil {
		return factory.ExitError{Code: factory.ExitFailure, Msg: err.Error()}
	}
	defer repo.Close()
	res, err := app.Renumber(ctx, folder, repo, opts.Input)
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
		return render.WriteRenumber(opts.Out, res, style)
	})
}
