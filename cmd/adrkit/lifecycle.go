package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/index"
)

// The commands of a record's life after "new": status and renumber edit
// records in the working tree; index writes or checks a Markdown index.

// editExit turns an error of an editing use case into the command's
// exit: a refused request is a usage error (2), a state of the directory
// that stops the edit a failure (1); nothing was written in either case.
func editExit(cmd *cli.Command, err error) error {
	switch {
	case errors.Is(err, app.ErrEditInput):
		return usageError{Command: cmd.FullName(), Msg: strings.TrimPrefix(err.Error(), app.ErrEditInput.Error()+": ")}
	case errors.Is(err, app.ErrEditConflict):
		return exitError{Code: exitFailure, Msg: strings.TrimPrefix(err.Error(), app.ErrEditConflict.Error()+": ")}
	}
	return exitError{Code: exitFailure, Msg: err.Error()}
}

func statusCommand(stdout io.Writer, env environment) *cli.Command {
	statuses := stringsOf(adr.Statuses)
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
				return usageError{Command: cmd.FullName(), Msg: "a record id and a status are needed: adrkit status ID STATUS"}
			}
			in := app.StatusInput{ID: args[0], Status: adr.Status(args[1]), By: cmd.String("by"), DryRun: cmd.Bool("dry-run")}
			if cmd.IsSet("by") && in.By == "" {
				return usageError{Command: cmd.FullName(), Msg: "--by needs a record id"}
			}
			s, folder, err := writerFolder(ctx, cmd, env)
			if err != nil {
				return err
			}
			res, err := app.SetStatus(ctx, folder, in)
			if err != nil {
				return editExit(cmd, err)
			}
			return printed(res, func() error {
				if cmd.Bool("json") {
					return render.WriteJSON(stdout, res)
				}
				return render.WriteStatus(stdout, res, s.style)
			})
		},
	}
}

func indexCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "write or check a Markdown index of the decisions in a file (README.md, an index page)",
		UsageText: "adrkit index (--write FILE | --check FILE)",
		Description: "Keeps an index of the decisions, grouped by status and linked (links relative to FILE's\n" +
			"directory; a superseded decision points at its successor), between the lines\n" +
			"  " + index.Begin + "\n  " + index.End + "\n" +
			"in FILE. Text outside the markers is never changed; a file without them gets the index\n" +
			"appended at its end, and a file that does not exist is created. A second --write changes\n" +
			"nothing. --check changes nothing and exits 1 when the index in FILE is not what --write\n" +
			"would write (for CI). FILE is taken as a shell gives it (from the directory you are in)\n" +
			"and must be inside the repository. Exits 0 when written or up to date, 1 when stale or\n" +
			"the markers are broken (one without the other, two pairs), 2 for a usage error.\n\n" +
			"Examples:\n" +
			"  adrkit index --write docs/adr/README.md\n" +
			"  adrkit index --check README.md",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "write", Usage: "write the index into this file", TakesFile: true},
			&cli.StringFlag{Name: "check", Usage: "exit 1 when the index in this file is stale; write nothing", TakesFile: true},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			write, check := cmd.String("write"), cmd.String("check")
			if (write == "") == (check == "") {
				return usageError{Command: cmd.FullName(), Msg: "name one file: --write FILE or --check FILE"}
			}
			file := write + check
			if cmd.String("rev") != "" {
				return usageError{Command: cmd.FullName(), Msg: "index reads the working tree; --rev (or ADRKIT_REV) cannot be used with it"}
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			// FILE as a shell gives it (ADR 0033): from the directory the
			// command was started in, or the repository path.
			paths, err := s.repoPaths(cmd, []string{file})
			if err != nil {
				return err
			}
			folder, err := workspace.OpenFolder(s.cwd, filepath.FromSlash(path.Dir(paths[0])))
			if err != nil {
				return usageError{Command: cmd.FullName(), Msg: file + ": the file's directory must exist, inside the repository"}
			}
			name := path.Base(paths[0])
			shown := folder.DisplayPath(name)
			old, err := folder.Read(name)
			exists := err == nil
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return exitError{Code: exitFailure, Msg: err.Error()}
			}
			text, err := s.service.Index(ctx, folder.Rel(), string(old))
			switch {
			case errors.Is(err, index.ErrMarkers):
				return exitError{Code: exitFailure, Msg: shown + ": " + err.Error() + "; fix them by hand, then run adrkit index --write " + shown}
			case err != nil:
				return s.failure(err)
			}
			if exists && text == string(old) {
				_, err := fmt.Fprintf(stdout, "%s: the index is up to date.\n", shown)
				return err
			}
			if check != "" {
				what := "the index is stale"
				switch {
				case !exists:
					what = "the file does not exist"
				case !strings.Contains(string(old), index.Begin):
					what = "it has no index yet"
				}
				return exitError{Code: exitFailure, Msg: fmt.Sprintf("%s: %s; run adrkit index --write %s", shown, what, shown)}
			}
			if exists {
				err = folder.Replace(name, []byte(text))
			} else {
				err = folder.Create(name, []byte(text))
			}
			if err != nil {
				return exitError{Code: exitFailure, Msg: err.Error()}
			}
			_, err = fmt.Fprintf(stdout, "%s: index written.\n", shown)
			return err
		},
	}
}

func renumberCommand(stdout io.Writer, env environment) *cli.Command {
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
				return usageError{Command: cmd.FullName(), Msg: "a record id and the new id, or --next, are needed: adrkit renumber ID (NEWID | --next)"}
			}
			s, folder, err := writerFolder(ctx, cmd, env)
			if err != nil {
				return err
			}
			repo, err := workspace.OpenRepoFiles(folder.Root())
			if err != nil {
				return exitError{Code: exitFailure, Msg: err.Error()}
			}
			defer repo.Close()
			res, err := app.Renumber(ctx, folder, repo, in)
			if err != nil {
				return editExit(cmd, err)
			}
			return printed(res, func() error {
				if cmd.Bool("json") {
					return render.WriteJSON(stdout, res)
				}
				return render.WriteRenumber(stdout, res, s.style)
			})
		},
	}
}
