package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/migrate"
)

// The two commands that write: migrate and new. They write the working
// tree only, never a revision, and the MCP server has neither.

// writerFolder settles the global options as every command does and opens
// the ADR directory for writing.
func writerFolder(ctx context.Context, cmd *cli.Command, env environment) (*settings, *workspace.Folder, error) {
	if cmd.String("rev") != "" {
		return nil, nil, usageError{Command: cmd.FullName(), Msg: cmd.Name + " writes the working tree; --rev (or ADRKIT_REV) cannot be used with it"}
	}
	s, err := settle(ctx, cmd, env)
	if err != nil {
		return nil, nil, err
	}
	folder, err := workspace.OpenFolder(s.cwd, s.dir)
	if err != nil {
		return nil, nil, exitError{Code: exitFailure, Msg: err.Error()}
	}
	return s, folder, nil
}

func migrateCommand(stdout io.Writer, env environment) *cli.Command {
	formats := stringsOf(migrate.Formats)
	return &cli.Command{
		Name:      "migrate",
		Usage:     "turn an existing ADR folder (adr-tools, MADR, log4brains) into adrkit records (writes files)",
		UsageText: "adrkit migrate [--from auto|" + strings.Join(formats, "|") + "] [--dry-run] [--rename] [--json]",
		Description: "Reads every Markdown file at the top level of the ADR directory and puts adrkit frontmatter\n" +
			"in front of each decision: id from the file name's number, title, status, date, deciders,\n" +
			"supersession (both directions) and relations, and provenance naming the source. The body\n" +
			"is kept byte for byte. README, index and template files, and files that are records already,\n" +
			"are left alone, so a second run changes nothing. Each file is written atomically.\n" +
			"Only this command, new, status, renumber and index --write write; the MCP server never does.\n" +
			"Formats: nygard (adr-tools: '# 1. Title', 'Date:', '## Status' with 'Superseded by' links),\n" +
			"madr (2.x '* Status:' bullets; 3 and 4 YAML frontmatter), log4brains (YYYYMMDD-slug.md).\n" +
			"Exits 0 when every decision was migrated, 1 when one could not be (the others are written),\n" +
			"2 for a usage error.\n\n" +
			"Examples:\n" +
			"  adrkit migrate --dry-run        # the plan: format, id, status, relations, warnings per file\n" +
			"  adrkit migrate                  # write it\n" +
			"  adrkit migrate --rename         # also rename files to NNNN-slug.md where needed\n" +
			"  adrkit --dir doc/adr migrate --from nygard --json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Value: "auto", Usage: "read decisions as this format: auto (each file on its own), " + strings.Join(formats, ", ")},
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the plan"},
			&cli.BoolFlag{Name: "rename", Usage: "rename decision files to <id>-<slug>.md where their name is not that (each rename is reported)"},
			&cli.BoolFlag{Name: "json", Usage: "print the plan (and what was written) as JSON"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			opts := migrate.Options{Rename: cmd.Bool("rename")}
			if from := cmd.String("from"); from != "auto" {
				if !slices.Contains(formats, from) {
					return usageError{Command: cmd.FullName(), Msg: fmt.Sprintf("--from must be auto, %s, got %q", strings.Join(formats, ", "), from)}
				}
				opts.From = migrate.Format(from)
			}
			s, folder, err := writerFolder(ctx, cmd, env)
			if err != nil {
				return err
			}
			rep, err := app.Migrate(ctx, folder, app.MigrateInput{Options: opts, DryRun: cmd.Bool("dry-run")})
			if err != nil {
				return exitError{Code: exitFailure, Msg: err.Error()}
			}
			return printed(rep, func() error {
				if cmd.Bool("json") {
					return render.WriteMigrateJSON(stdout, rep, s.source)
				}
				return render.WriteMigrate(stdout, rep, s.source, s.style)
			})
		},
	}
}

func newCommand(stdout io.Writer, env environment) *cli.Command {
	statuses := stringsOf(app.NewStatuses)
	return &cli.Command{
		Name:      "new",
		Usage:     "write a new decision record with the next free number (writes a file)",
		UsageText: "adrkit new <title> [--status " + strings.Join(statuses, "|") + "] [--supersedes ID] [--deciders @a,team:b] [--template FILE] [--dry-run] [--json]",
		Description: "Writes <number>-<slug>.md in the ADR directory with minimal valid frontmatter and a short\n" +
			"body (Context, Decision, Consequences). The number is the next one free in the working tree\n" +
			"and on every local and remote-tracking branch, so two branches do not both add 0012; run\n" +
			"'git fetch' first to see your colleagues' branches too. With --supersedes the old record is\n" +
			"marked superseded: only its status and supersededBy lines change.\n" +
			"--template FILE replaces the body; {{id}}, {{title}}, {{date}} and {{status}} are filled in.\n" +
			"The frontmatter carries a commented affects example: fill it in so that the decision reaches\n" +
			"the files it governs (explain, check, the hook). --dry-run prints the record and writes nothing.\n" +
			"Exits 0 when written, 1 when the file exists or the record to supersede is missing, 2 for a\n" +
			"usage error (an accepted record needs --deciders).\n\n" +
			"Examples:\n" +
			"  adrkit new Use PostgreSQL for the catalogue\n" +
			"  adrkit new \"Cache search results\" --status proposed --deciders @ana,team:search\n" +
			"  adrkit new \"Move to OpenSearch\" --supersedes 0007 --status accepted --deciders @olaf",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "status", Value: string(adr.StatusDraft), Usage: "the status to start with: " + strings.Join(statuses, ", ")},
			&cli.StringFlag{Name: "supersedes", Usage: "id of the record this one replaces; it is marked superseded"},
			&cli.StringSliceFlag{Name: "deciders", Usage: "deciders, comma-separated or repeated: @handle, team:slug or email"},
			&cli.StringFlag{Name: "template", Usage: "a Markdown file to use as the body", TakesFile: true},
			&cli.BoolFlag{Name: "json", Usage: "print what was written as JSON"},
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the record that would be written"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			title := strings.Join(strings.Fields(strings.Join(cmd.Args().Slice(), " ")), " ")
			if title == "" {
				return usageError{Command: cmd.FullName(), Msg: "a title is needed: adrkit new <title>"}
			}
			in := app.NewInput{Title: title, Status: adr.Status(cmd.String("status")), Supersedes: cmd.String("supersedes"), DryRun: cmd.Bool("dry-run")}
			for _, d := range cmd.StringSlice("deciders") {
				for _, one := range strings.Split(d, ",") {
					if one = strings.TrimSpace(one); one != "" {
						in.Deciders = append(in.Deciders, one)
					}
				}
			}
			if tpl := cmd.String("template"); tpl != "" {
				b, err := os.ReadFile(tpl)
				if err != nil {
					return usageError{Command: cmd.FullName(), Msg: "--template: " + describeFileError(err)}
				}
				in.Template = string(b)
			}
			if !in.DryRun {
				if err := makeDefaultDir(cmd, env); err != nil {
					return err
				}
			}
			s, folder, err := newFolder(ctx, cmd, env, in.DryRun)
			if err != nil {
				return err
			}
			in.Date = env.Clock.Now().UTC().Format("2006-01-02")
			res, err := app.NewRecord(ctx, folder, in)
			switch {
			case errors.Is(err, app.ErrNewInput):
				return usageError{Command: cmd.FullName(), Msg: strings.TrimPrefix(err.Error(), app.ErrNewInput.Error()+": ")}
			case errors.Is(err, app.ErrNewConflict):
				return exitError{Code: exitFailure, Msg: strings.TrimPrefix(err.Error(), app.ErrNewConflict.Error()+": ")}
			case err != nil && res == nil:
				return exitError{Code: exitFailure, Msg: err.Error()}
			}
			var werr error
			if cmd.Bool("json") {
				werr = render.WriteJSON(stdout, res)
			} else {
				werr = render.WriteNew(stdout, res, s.style)
			}
			if err != nil {
				return exitError{Code: exitFailure, Msg: err.Error()}
			}
			return werr
		},
	}
}

// newFolder is where new writes: the ADR directory, or for a dry run in a
// repository that has none yet (which the real run creates), the
// directory as it will be.
func newFolder(ctx context.Context, cmd *cli.Command, env environment, dryRun bool) (*settings, *workspace.Folder, error) {
	if dryRun && cmd.String("rev") == "" {
		s := &settings{cwd: cmd.String("cwd"), dir: cmd.String("dir")}
		locate(cmd, env, s)
		if _, err := os.Stat(filepath.Join(s.cwd, ".git")); err == nil && s.unnamed {
			folder, err := workspace.PlannedFolder(s.cwd, s.dir)
			if err != nil {
				return nil, nil, exitError{Code: exitFailure, Msg: err.Error()}
			}
			return s, folder, nil
		}
	}
	return writerFolder(ctx, cmd, env)
}

// makeDefaultDir creates the ADR directory of a repository that has none
// yet, when no option names one: the first record starts the log. A
// directory the user named must exist.
func makeDefaultDir(cmd *cli.Command, env environment) error {
	if cmd.IsSet("dir") || cmd.String("rev") != "" {
		return nil
	}
	s := &settings{cwd: cmd.String("cwd")}
	locate(cmd, env, s)
	if _, err := os.Stat(filepath.Join(s.cwd, ".git")); err != nil {
		return nil // not a repository root: settle reports it
	}
	dir := filepath.Join(s.cwd, filepath.FromSlash(s.dir))
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return exitError{Code: exitFailure, Msg: "creating the ADR directory " + s.dir + ": " + describeFileError(err)}
	}
	return nil
}

// describeFileError words a file error without its absolute path.
func describeFileError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
