package main

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
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports"
)

func checkCommand(stdout io.Writer, env environment) *cli.Command {
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
				return usageError{Command: cmd.FullName(), Msg: fmt.Sprintf(format, a...)}
			}
			// comment is check's own format: the pull-request comment.
			comment := cmd.String("format") == "comment"
			format := render.LintText
			if !comment {
				f, err := render.ParseLintFormat(cmd.String("format"))
				if err != nil {
					return usage("--format must be text, json, sarif, github or comment, got %q", cmd.String("format"))
				}
				format = f
			}
			failOn, err := render.ParseFailOn(cmd.String("fail-on"))
			if err != nil {
				return usage("%s", err)
			}
			asOf := cmd.String("as-of")
			if cmd.IsSet("as-of") {
				if err := app.ValidateDate(asOf); err != nil {
					return usage("--as-of: %s", err)
				}
			}
			since := cmd.String("changed-since")
			if cmd.IsSet("changed-since") && since == "" {
				return usage("--changed-since needs a revision (a branch, a tag, a hash)")
			}
			if cmd.String("rev") != "" {
				return usage("check reads the working tree: --rev (or ADRKIT_REV) does not apply; use --changed-since")
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}

			files, err := s.repoPaths(cmd, cmd.Args().Slice())
			if err != nil {
				return err
			}
			for i, p := range files {
				// check reads each file for markers and reports it by its
				// tidy repository path.
				tidy, ok := markers.InTree(markers.NormalizePath(p))
				if !ok {
					return usage("%q is not a path inside the repository", cmd.Args().Get(i))
				}
				files[i] = tidy
			}
			in := app.CheckInput{AsOf: asOf, Clock: env.Clock}
			opts := render.CheckOptions{
				Format: format, FailOn: failOn, Source: s.source, Style: s.style,
				Tool: render.Tool{Name: "adrkit", Version: version(), InformationURI: informationURI},
			}
			if since != "" {
				cs, err := gitrev.Changes(ctx, s.cwd, since)
				switch {
				case errors.Is(err, gitrev.ErrRevision):
					return usage("--changed-since: %s", err)
				case err != nil:
					var u *ports.UnavailableError
					if errors.As(err, &u) {
						return s.failure(err)
					}
					return exitError{Code: exitFailure, Msg: "listing the changed files: " + err.Error()}
				}
				files = append(files, cs.Files...)
				in.Base = s.where.At(cs.Base.String()).Reader()
				in.Tip, in.TipName = s.where.At(cs.Since.String()).Reader(), since
				opts.Since, opts.Base = since, cs.Base.String()
			}
			in.Files = files
			if in.Markers, err = app.ReadMarkers(ctx, s.where.At("").Heads(), files); err != nil {
				return err
			}
			rep, err := s.service.Check(ctx, in)
			if err != nil {
				if errors.Is(err, app.ErrInvalidLintInput) {
					return usage("%s", err)
				}
				return s.failure(err)
			}

			if err := writeReportFile(cmd.String("sarif-file"), false, func(w io.Writer) error {
				return render.WriteJSON(w, render.CheckSARIF(rep, opts.Tool))
			}); err != nil {
				return err
			}
			if err := writeReportFile(cmd.String("summary"), true, func(w io.Writer) error {
				return render.WriteCheckMarkdown(w, rep, opts)
			}); err != nil {
				return err
			}
			write := render.WriteCheck
			if comment {
				write = render.WriteCheckComment
			}
			if err := write(stdout, rep, opts); err != nil {
				return err
			}
			if failOn.Failed(rep) {
				return exitError{Code: exitFailure}
			}
			return nil
		},
	}
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
		return exitError{Code: exitFailure, Msg: "writing a report: " + err.Error()}
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return exitError{Code: exitFailure, Msg: "writing " + name + ": " + werr.Error()}
	}
	return nil
}
