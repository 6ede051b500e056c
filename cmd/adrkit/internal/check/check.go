// Package check is adrkit check, the pull-request gate: what governs each
// changed file, and what the change broke.
package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/gitrev"
	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports"
)

// Options is one run of adrkit check.
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	// Files are the FILE arguments as given.
	Files []string
	// Comment prints the pull-request comment instead of Format.
	Comment bool
	Format  render.LintFormat
	FailOn  render.FailOn
	AsOf    string
	// Since is --changed-since ("": the named files only).
	Since string
	// SARIFFile and Summary name the report files also written ("": none).
	SARIFFile, Summary string

	Corpus func(context.Context) (*factory.Corpus, error)
	Style  func() (render.Style, error)
	Clock  func() ports.Clock
}

// NewCmdCheck is adrkit check; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdCheck(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "check a change (the pull-request gate): what governs each changed file, and what the change broke",
		UsageText: "adrkit check [FILE...] [--changed-since REV] [--format text|json|sarif|github|comment] [--fail-on error|warning|never]",
		Description: "The changed files are the FILEs named, and with --changed-since what changed since REV: the\n" +
			"commits of HEAD that REV lacks (from their merge base, like git diff REV...), plus the working\n" +
			"tree's staged, unstaged and untracked (not ignored) changes; deleted files count. For each\n" +
			"changed file check lists the decisions that cover it, by affects pattern or by an @adr marker\n" +
			"in the file's first 8 KiB, and the holds on the line of each governing decision (superseded by\n" +
			"a proposal, dangling, a cycle...). It exits 1 only for an error in a record the change adds or\n" +
			"modifies, or one the change caused in another record (a reference to a record it deleted);\n" +
			"a record that was already broken and is untouched is a warning. Holds and markers only warn.\n" +
			"Exit 2 for a usage mistake (an unknown REV included), 0 otherwise. --format comment is the\n" +
			"pull-request comment the GitHub Action posts (docs/github-action.md).\n\n" +
			"Examples:\n" +
			"  adrkit check --changed-since origin/main\n" +
			"  adrkit check services/api/server.go docs/adr/0012-use-grpc.md\n" +
			"  adrkit check --changed-since \"$BASE_SHA\" --format github --sarif-file adrkit.sarif \\\n" +
			"      --summary \"$GITHUB_STEP_SUMMARY\"",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "changed-since", Usage: "the change is what HEAD and the working tree have that this revision lacks"},
			&cli.StringFlag{Name: "format", Value: string(render.LintText), Usage: "text, json, sarif (2.1.0), github (workflow annotations) or comment (a pull-request comment in Markdown, at most 65,536 characters, marked <!-- adrkit:check --> on its first line)"},
			&cli.StringFlag{Name: "fail-on", Value: string(render.FailOnError), Usage: "exit 1 on an error the change is answerable for (error), also on any warning (warning), or never"},
			&cli.StringFlag{Name: "as-of", Usage: "compare reviewBy dates with this day (YYYY-MM-DD) instead of today (UTC)"},
			&cli.StringFlag{Name: "sarif-file", Usage: "also write the SARIF log to this file", TakesFile: true},
			&cli.StringFlag{Name: "summary", Usage: "also append a Markdown summary (a table of the changed files and their governing decisions) to this file, e.g. $GITHUB_STEP_SUMMARY", TakesFile: true},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			usage := func(format string, a ...any) error {
				return factory.UsageError{Command: cmd.FullName(), Msg: fmt.Sprintf(format, a...)}
			}
			opts := &Options{
				Out: f.Out, Command: cmd.FullName(), Files: cmd.Args().Slice(),
				AsOf: cmd.String("as-of"), Since: cmd.String("changed-since"),
				SARIFFile: cmd.String("sarif-file"), Summary: cmd.String("summary"),
				Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) },
				Style:  func() (render.Style, error) { return f.Style(cmd) },
				Clock:  f.Clock,
			}
			// comment is check's own format: the pull-request comment.
			opts.Comment = cmd.String("format") == "comment"
			opts.Format = render.LintText
			if !opts.Comment {
				format, err := render.ParseLintFormat(cmd.String("format"))
				if err != nil {
					return usage("--format must be text, json, sarif, github or comment, got %q", cmd.String("format"))
				}
				opts.Format = format
			}
			failOn, err := render.ParseFailOn(cmd.String("fail-on"))
			if err != nil {
				return usage("%s", err)
			}
			opts.FailOn = failOn
			if cmd.IsSet("as-of") {
				if err := app.ValidateDate(opts.AsOf); err != nil {
					return usage("--as-of: %s", err)
				}
			}
			if cmd.IsSet("changed-since") && opts.Since == "" {
				return usage("--changed-since needs a revision (a branch, a tag, a hash)")
			}
			if cmd.String("rev") != "" {
				return usage("check reads the working tree: --rev (or ADRKIT_REV) does not apply; use --changed-since")
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run gathers the changed files, checks the change and prints the
// report (and the report files asked for); status 1 when it fails the
// gate.
func run(ctx context.Context, opts *Options) error {
	usage := func(format string, a ...any) error {
		return factory.UsageError{Command: opts.Command, Msg: fmt.Sprintf(format, a...)}
	}
	c, err := opts.Corpus(ctx)
	if err != nil {
		return err
	}
	style, err := opts.Style()
	if err != nil {
		return err
	}
	files, err := c.RepoPaths(opts.Command, opts.Files)
	if err != nil {
		return err
	}
	for i, p := range files {
		// check reads each file for markers and reports it by its tidy
		// repository path.
		tidy, ok := markers.InTree(markers.NormalizePath(p))
		if !ok {
			return usage("%q is not a path inside the repository", opts.Files[i])
		}
		files[i] = tidy
	}
	in := app.CheckInput{AsOf: opts.AsOf, Clock: opts.Clock()}
	ropts := render.CheckOptions{
		Format: opts.Format, FailOn: opts.FailOn, Source: c.Source, Style: style,
		Tool: render.Tool{Name: "adrkit", Version: factory.Version(), InformationURI: factory.InformationURI},
	}
	if since := opts.Since; since != "" {
		cs, err := gitrev.Changes(ctx, c.Where.Root, since)
		switch {
		case errors.Is(err, gitrev.ErrRevision):
			return usage("--changed-since: %s", err)
		case err != nil:
			var u *ports.UnavailableError
			if errors.As(err, &u) {
				return c.Failure(err)
			}
			return factory.ExitError{Code: factory.ExitFailure, Msg: "listing the changed files: " + err.Error()}
		}
		files = append(files, cs.Files...)
		in.Base = c.Where.At(cs.Base.String()).Reader()
		in.Tip, in.TipName = c.Where.At(cs.Since.String()).Reader(), since
		ropts.Since, ropts.Base = since, cs.Base.String()
	}
	in.Files = files
	if in.Markers, err = app.ReadMarkers(ctx, c.Where.At("").Heads(), files); err != nil {
		return err
	}
	rep, err := c.Service.Check(ctx, in)
	if err != nil {
		if errors.Is(err, app.ErrInvalidLintInput) {
			return usage("%s", err)
		}
		return c.Failure(err)
	}
	return report(opts, rep, ropts)
}

// report writes the report files asked for, then the report on stdout.
func report(opts *Options, rep *app.CheckReport, ropts render.CheckOptions) error {
	if err := writeReportFile(opts.SARIFFile, false, func(w io.Writer) error {
		return render.WriteJSON(w, render.CheckSARIF(rep, ropts.Tool))
	}); err != nil {
		return err
	}
	if err := writeReportFile(opts.Summary, true, func(w io.Writer) error {
		return render.WriteCheckMarkdown(w, rep, ropts)
	}); err != nil {
		return err
	}
	write := render.WriteCheck
	if opts.Comment {
		write = render.WriteCheckComment
	}
	if err := write(opts.Out, rep, ropts); err != nil {
		return err
	}
	if opts.FailOn.Failed(rep) {
		return factory.ExitError{Code: factory.ExitFailure}
	}
	return nil
}

// writeReportFile writes a report to the file at name (appending when
// appendTo is set, as $GITHUB_STEP_SUMMARY wants); nothing when name is
// empty. These are the only files adrkit check writes, and only when
// asked: never anything in the corpus.
func writeReportFile(name string, appendTo bool, write func(io.Writer) error) error {
	if name == "" {
		return nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendTo {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(name, flags, 0o644)
	if err != nil {
		return factory.ExitError{Code: factory.ExitFailure, Msg: "writing a report: " + err.Error()}
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return factory.ExitError{Code: factory.ExitFailure, Msg: "writing " + name + ": " + werr.Error()}
	}
	return nil
}
