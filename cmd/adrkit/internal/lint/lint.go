// Package lint is adrkit lint, the CI gate: every finding of the corpus,
// in text, JSON, SARIF or GitHub annotations.
package lint

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
	"github.com/adrkit/adrkit-go/domain/markers"
	"github.com/adrkit/adrkit-go/ports"
)

// Options is one run of adrkit lint: its options read, and what it may
// build (each built only when called).
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	// Paths are the PATH arguments as given (none: the whole corpus).
	Paths  []string
	Format render.LintFormat
	Strict bool
	AsOf   string

	Corpus func(context.Context) (*factory.Corpus, error)
	Style  func() (render.Style, error)
	Clock  func() ports.Clock
}

// NewCmdLint is adrkit lint; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdLint(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "check every record and report what is wrong (the CI gate)",
		UsageText: "adrkit lint [PATH...] [--format text|json|sarif|github] [--strict] [--as-of YYYY-MM-DD]",
		Description: "Reports every corpus finding (schema, YAML, duplicate ids, dangling references...) with\n" +
			"its line where known, plus what only lint checks: affects patterns that can never match,\n" +
			"Markdown files that look like records but are not read (misnamed, nested, links), draft,\n" +
			"proposed or accepted decisions past their reviewBy date, prompts of adrkit new's template\n" +
			"left in a record (an error once it is accepted) and, in the working tree (not with --rev),\n" +
			"affects patterns that match no file git tracks, with the nearest that would. With PATHs\n" +
			"(files of the ADR directory, repository-relative) only their findings are reported; the\n" +
			"corpus is still read whole, so that a reference to another record is checked.\n" +
			"Exits 1 when there is an error (with --strict, also a warning), 0 otherwise.\n\n" +
			"Examples:\n" +
			"  adrkit lint\n" +
			"  adrkit lint docs/adr/0012-adopt-postgres.md\n" +
			"  adrkit lint --strict --as-of 2026-01-01\n" +
			"  adrkit lint --format sarif > adrkit.sarif\n" +
			"  adrkit lint --format github            # annotations in a GitHub Actions log",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: string(render.LintText), Usage: "text, json, sarif (2.1.0) or github (workflow annotations)"},
			&cli.BoolFlag{Name: "strict", Usage: "fail on warnings too"},
			&cli.StringFlag{Name: "as-of", Usage: "compare reviewBy dates with this day (YYYY-MM-DD) instead of today (UTC)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			format, err := render.ParseLintFormat(cmd.String("format"))
			if err != nil {
				return factory.UsageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			opts := &Options{
				Out: f.Out, Command: cmd.FullName(), Paths: cmd.Args().Slice(),
				Format: format, Strict: cmd.Bool("strict"), AsOf: cmd.String("as-of"),
				Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) },
				Style:  func() (render.Style, error) { return f.Style(cmd) },
				Clock:  f.Clock,
			}
			if cmd.IsSet("as-of") {
				if err := app.ValidateDate(opts.AsOf); err != nil {
					return factory.UsageError{Command: cmd.FullName(), Msg: "--as-of: " + err.Error()}
				}
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run reads the corpus, keeps the findings of the paths asked for and
// prints them; status 1 when they fail the gate.
func run(ctx context.Context, opts *Options) error {
	c, err := opts.Corpus(ctx)
	if err != nil {
		return err
	}
	in := app.LintInput{AsOf: opts.AsOf, Clock: opts.Clock()}
	if c.Where.Rev == "" {
		// The working tree's files, for the patterns that match none of
		// them; a revision is read as it was committed.
		tree, err := workspace.OpenRepoFiles(c.Where.Root)
		if err != nil {
			return factory.ExitError{Code: factory.ExitFailure, Msg: err.Error()}
		}
		defer tree.Close()
		in.Tree = tree
	}
	rep, err := c.Service.Lint(ctx, in)
	if err != nil {
		return c.Failure(err)
	}
	paths, err := lintPaths(opts, c, rep)
	if err != nil {
		return err
	}
	if paths != nil {
		rep = rep.Only(paths)
	}
	style, err := opts.Style()
	if err != nil {
		return err
	}
	err = render.WriteLint(opts.Out, rep, render.LintOptions{
		Format: opts.Format, Strict: opts.Strict, Source: c.Source, Style: style, Paths: paths,
		Tool: render.Tool{Name: "adrkit", Version: factory.Version(), InformationURI: factory.InformationURI},
	})
	if err != nil {
		return err
	}
	if rep.Failed(opts.Strict) {
		return factory.ExitError{Code: factory.ExitFailure}
	}
	return nil
}

// lintPaths reads the PATH arguments of lint: files of the ADR directory
// that lint read or reported, repository-relative (an absolute path
// inside the repository is made relative, a relative one is taken from
// the working directory). nil when none were given.
// A path outside the ADR directory, or one lint knows nothing about, is
// a usage error: it would be silently clean otherwise.
func lintPaths(opts *Options, c *factory.Corpus, rep *app.LintReport) ([]string, error) {
	if len(opts.Paths) == 0 {
		return nil, nil
	}
	args := opts.Paths
	paths, err := c.RepoPaths(opts.Command, args)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, arg := range args {
		p, ok := markers.InTree(paths[i])
		if !ok {
			return nil, factory.UsageError{Command: opts.Command, Msg: fmt.Sprintf("%q is not a path inside the repository", arg)}
		}
		if dir := c.Source.Dir; dir != "" && dir != "." && !strings.HasPrefix(p, dir+"/") {
			return nil, factory.UsageError{Command: opts.Command, Msg: fmt.Sprintf("%q is not in the ADR directory %q", arg, dir)}
		}
		if !rep.Knows(p) {
			return nil, factory.UsageError{Command: opts.Command, Msg: fmt.Sprintf(
				"lint reads no file %q: records are NNNN-slug.md files at the top of the ADR directory", p)}
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}
