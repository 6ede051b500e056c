// Package migrate is adrkit migrate: an adr-tools, MADR or log4brains
// folder turned into adrkit records (app.Migrate).
package migrate

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/domain/migrate"
)

// Options is one run of adrkit migrate.
type Options struct {
	Out   io.Writer
	Input app.MigrateInput
	JSON  bool

	// Folder checks the corpus and opens the ADR directory for writing.
	Folder func(context.Context) (*factory.Corpus, *workspace.Folder, error)
	Style  func() (render.Style, error)
}

// NewCmdMigrate is adrkit migrate; runF, when set, is called instead of
// the run (tests intercept the options with it).
func NewCmdMigrate(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	formats := factory.StringsOf(migrate.Formats)
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
			if err := factory.NoArgs(cmd); err != nil {
				return err
			}
			in := app.MigrateInput{Options: migrate.Options{Rename: cmd.Bool("rename")}, DryRun: cmd.Bool("dry-run")}
			if from := cmd.String("from"); from != "auto" {
				if !slices.Contains(formats, from) {
					return factory.UsageError{Command: cmd.FullName(), Msg: fmt.Sprintf("--from must be auto, %s, got %q", strings.Join(formats, ", "), from)}
				}
				in.Options.From = migrate.Format(from)
			}
			opts := &Options{
				Out: f.Out, Input: in, JSON: cmd.Bool("json"),
				Folder: func(ctx context.Context) (*factory.Corpus, *workspace.Folder, error) { return f.WriterFolder(ctx, cmd) },
				Style:  func() (render.Style, error) { return f.Style(cmd) },
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run migrates the folder (or plans it) and prints the plan.
func run(ctx context.Context, opts *Options) error {
	c, folder, err := opts.Folder(ctx)
	if err != nil {
		return err
	}
	rep, err := app.Migrate(ctx, folder, opts.Input)
	if err != nil {
		return factory.ExitError{Code: factory.ExitFailure, Msg: err.Error()}
	}
	return factory.Printed(rep, func() error {
		if opts.JSON {
			return render.WriteMigrateJSON(opts.Out, rep, c.Source)
		}
		style, err := opts.Style()
		if err != nil {
			return err
		}
		return render.WriteMigrate(opts.Out, rep, c.Source, style)
	})
}
