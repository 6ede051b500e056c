// Package newcmd is adrkit new: the next record written (app.NewRecord).
// (new is Go's own word; the package is named for what it builds.)
package newcmd

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/ports"
)

// Options is one run of adrkit new. Input's Date is filled in by the run.
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	Input   app.NewInput
	JSON    bool
	// DirNamed says an option or variable named the ADR directory; Rev is
	// --rev (new refuses it when it checks the corpus).
	DirNamed bool
	Rev      string

	// Locate is where the corpus options point, read without the corpus.
	Locate func() *factory.Corpus
	// Folder checks the corpus and opens the ADR directory for writing.
	Folder func(context.Context) (*factory.Corpus, *workspace.Folder, error)
	Style  func() (render.Style, error)
	Clock  func() ports.Clock
}

// NewCmdNew is adrkit new; runF, when set, is called instead of the run
// (tests intercept the options with it).
func NewCmdNew(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	statuses := factory.StringsOf(app.NewStatuses)
	return &cli.Command{
		Name:      "new",
		Usage:     "write a new decision record with the next free number (writes a file)",
		UsageText: "adrkit new <title> [--status " + strings.Join(statuses, "|") + "] [--supersedes ID] [--deciders @a,team:b] [--template FILE] [--dry-run] [--json]",
		Description: "Writes <number>-<slug>.md in the ADR directory with minimal valid frontmatter and a short\n" +
			"body (Context, Decision, Consequences). The number is the next one free in the working tree\n" +
			"and on every local and remote-tracking branch, so two branches do not both add 0012; run\n" +
			"'git fetch' first to see your colleagues' branches too. With --supersedes ID the new record\n" +
			"lists ID and starts with its affects. A draft or a proposal leaves ID as it is: ID governs\n" +
			"until the new record is accepted (adrkit status NEW accepted marks ID superseded then);\n" +
			"an accepted record marks ID superseded at once (only its status and supersededBy lines).\n" +
			"--template FILE replaces the body; {{id}}, {{title}}, {{date}} and {{status}} are filled in.\n" +
			"The frontmatter carries a commented affects example: fill it in so that the decision reaches\n" +
			"the files it governs (explain, check, the hook). --dry-run prints the record and writes nothing.\n" +
			"Exits 0 when written, 1 when the file exists or the record to supersede is missing, 2 for a\n" +
			"usage error (an accepted record needs --deciders).\n\n" +
			"Examples:\n" +
			"  adrkit new Use PostgreSQL for the catalogue\n" +
			"  adrkit new \"Cache search results\" --status proposed --deciders @ana,team:search\n" +
			"  adrkit new \"Move to OpenSearch\" --supersedes 0007 --status proposed",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "status", Value: string(adr.StatusDraft), Usage: "the status to start with: " + strings.Join(statuses, ", ")},
			&cli.StringFlag{Name: "supersedes", Usage: "id of the record this one replaces (once accepted)"},
			factory.DecidersFlag(),
			&cli.StringFlag{Name: "template", Usage: "a Markdown file to use as the body", TakesFile: true},
			&cli.BoolFlag{Name: "json", Usage: "print what was written as JSON"},
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the record that would be written"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			title := strings.Join(strings.Fields(strings.Join(cmd.Args().Slice(), " ")), " ")
			if title == "" {
				return factory.UsageError{Command: cmd.FullName(), Msg: "a title is needed: adrkit new <title>"}
			}
			in := app.NewInput{Title: title, Status: adr.Status(cmd.String("status")), Supersedes: cmd.String("supersedes"),
				Deciders: factory.Deciders(cmd), DryRun: cmd.Bool("dry-run")}
			if tpl := cmd.String("template"); tpl != "" {
				b, err := os.ReadFile(tpl)
				if err != nil {
					return factory.UsageError{Command: cmd.FullName(), Msg: "--template: " + factory.DescribeFileError(err)}
				}
				in.Template = string(b)
			}
			opts := &Options{
				Out: f.Out, Command: cmd.FullName(), Input: in, JSON: cmd.Bool("json"), DirNamed: cmd.IsSet("dir"), Rev: cmd.String("rev"),
				Locate: func() *factory.Corpus { return f.Locate(cmd) },
				Folder: func(ctx context.Context) (*factory.Corpus, *workspace.Folder, error) { return f.WriterFolder(ctx, cmd) },
				Style:  func() (render.Style, error) { return f.Style(cmd) },
				Clock:  f.Clock,
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run writes the record (or prints it, for a dry run).
func run(ctx context.Context, opts *Options) error {
	in := opts.Input
	if !in.DryRun {
		if err := makeDefaultDir(opts); err != nil {
			return err
		}
	}
	folder, planned, err := newFolder(ctx, opts)
	if err != nil {
		return err
	}
	in.Date = opts.Clock().Now().UTC().Format("2006-01-02")
	res, err := app.NewRecord(ctx, folder, in)
	switch {
	case errors.Is(err, app.ErrNewInput):
		return factory.UsageError{Command: opts.Command, Msg: factory.TrimCause(err, app.ErrNewInput)}
	case errors.Is(err, app.ErrNewConflict):
		return factory.ExitError{Code: factory.ExitFailure, Msg: factory.TrimCause(err, app.ErrNewConflict)}
	case err != nil && res == nil:
		return factory.ExitError{Code: factory.ExitFailure, Msg: err.Error()}
	}
	var werr error
	switch {
	case opts.JSON:
		werr = render.WriteJSON(opts.Out, res)
	case planned:
		// The corpus was not read, nor the options of its output.
		werr = render.WriteNew(opts.Out, res, render.Style{})
	default:
		style, serr := opts.Style()
		if werr = serr; serr == nil {
			werr = render.WriteNew(opts.Out, res, style)
		}
	}
	if err != nil {
		return factory.ExitError{Code: factory.ExitFailure, Msg: err.Error()}
	}
	return werr
}

// newFolder is where new writes: the ADR directory, or for a dry run in a
// repository that has none yet (which the real run creates), the
// directory as it will be (planned).
func newFolder(ctx context.Context, opts *Options) (folder *workspace.Folder, planned bool, err error) {
	if opts.Input.DryRun && opts.Rev == "" {
		c := opts.Locate()
		if _, err := os.Stat(filepath.Join(c.Where.Root, ".git")); err == nil && c.Unnamed {
			folder, err := workspace.PlannedFolder(c.Where.Root, c.Where.Dir)
			if err != nil {
				return nil, false, factory.ExitError{Code: factory.ExitFailure, Msg: err.Error()}
			}
			return folder, true, nil
		}
	}
	_, folder, err = opts.Folder(ctx)
	return folder, false, err
}

// makeDefaultDir creates the ADR directory of a repository that has none
// yet, when no option names one: the first record starts the log. A
// directory the user named must exist.
func makeDefaultDir(opts *Options) error {
	if opts.DirNamed || opts.Rev != "" {
		return nil
	}
	c := opts.Locate()
	if _, err := os.Stat(filepath.Join(c.Where.Root, ".git")); err != nil {
		return nil // not a repository root: the corpus check reports it
	}
	dir := filepath.Join(c.Where.Root, filepath.FromSlash(c.Where.Dir))
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return factory.ExitError{Code: factory.ExitFailure, Msg: "creating the ADR directory " + c.Where.Dir + ": " + factory.DescribeFileError(err)}
	}
	return nil
}
