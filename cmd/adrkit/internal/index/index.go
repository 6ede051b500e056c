// Package index is adrkit index: a Markdown index of the decisions
// written into a file, or checked there.
package index

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

	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	adrindex "github.com/adrkit/adrkit-go/domain/index"
)

// Options is one run of adrkit index.
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	// File is the file named, as a shell gives it; "" prints the index.
	File string
	// Check changes nothing: it says whether File is up to date.
	Check bool

	Corpus func(context.Context) (*factory.Corpus, error)
}

// NewCmdIndex is adrkit index; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdIndex(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "write or check a Markdown index of the decisions in a file (README.md, an index page)",
		UsageText: "adrkit index [--write FILE | --check FILE]",
		Description: "Without an option, prints the index of the decisions to stdout, links relative to the\n" +
			"directory you are in. With one, keeps the index (links relative to FILE's\n" +
			"directory; a superseded decision points at its successor), between the lines\n" +
			"  " + adrindex.Begin + "\n  " + adrindex.End + "\n" +
			"in FILE. Text outside the markers is never changed; a file without them gets the index\n" +
			"appended at its end, and a file that does not exist is created. A second --write changes\n" +
			"nothing. --check changes nothing and exits 1 when the index in FILE is not what --write\n" +
			"would write (for CI). FILE is taken as a shell gives it (from the directory you are in)\n" +
			"and must be inside the repository. Exits 0 when written or up to date, 1 when stale or\n" +
			"the markers are broken (one without the other, two pairs), 2 for a usage error.\n\n" +
			"Examples:\n" +
			"  adrkit index\n" +
			"  adrkit index --write docs/adr/README.md\n" +
			"  adrkit index --check README.md",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "write", Usage: "write the index into this file", TakesFile: true},
			&cli.StringFlag{Name: "check", Usage: "exit 1 when the index in this file is stale; write nothing", TakesFile: true},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := factory.NoArgs(cmd); err != nil {
				return err
			}
			write, check := cmd.String("write"), cmd.String("check")
			if write != "" && check != "" {
				return factory.UsageError{Command: cmd.FullName(), Msg: "name one file: --write FILE or --check FILE"}
			}
			if cmd.String("rev") != "" && write+check != "" {
				return factory.UsageError{Command: cmd.FullName(), Msg: "index reads the working tree; --rev (or ADRKIT_REV) cannot be used with it"}
			}
			opts := &Options{
				Out: f.Out, Command: cmd.FullName(), File: write + check, Check: check != "",
				Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) },
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run writes the index into the file, or says whether it is up to date.
func run(ctx context.Context, opts *Options) error {
	c, err := opts.Corpus(ctx)
	if err != nil {
		return err
	}
	fail := func(msg string) error { return factory.ExitError{Code: factory.ExitFailure, Msg: msg} }
	if opts.File == "" {
		return printIndex(ctx, c, opts)
	}
	// FILE as a shell gives it (ADR 0033): from the directory the command
	// was started in, or the repository path.
	paths, err := c.RepoPaths(opts.Command, []string{opts.File})
	if err != nil {
		return err
	}
	folder, err := workspace.OpenFolder(c.Where.Root, filepath.FromSlash(path.Dir(paths[0])))
	switch {
	case errors.Is(err, fs.ErrInvalid):
		return factory.UsageError{Command: opts.Command, Msg: opts.File + ": " + err.Error()}
	case err != nil:
		return factory.UsageError{Command: opts.Command, Msg: opts.File + ": the file's directory must exist, inside the repository"}
	}
	name := path.Base(paths[0])
	shown := folder.DisplayPath(name)
	old, err := folder.Read(name)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail(err.Error())
	}
	text, err := c.Service.Index(ctx, folder.Rel(), string(old))
	switch {
	case errors.Is(err, adrindex.ErrMarkers):
		return fail(shown + ": " + err.Error() + "; fix them by hand, then run adrkit index --write " + shown)
	case err != nil:
		return c.Failure(err)
	}
	if exists && text == string(old) {
		_, err := fmt.Fprintf(opts.Out, "%s: the index is up to date.\n", shown)
		return err
	}
	if opts.Check {
		what := "the index is stale"
		switch {
		case !exists:
			what = "the file does not exist"
		case !strings.Contains(string(old), adrindex.Begin):
			what = "it has no index yet"
		}
		return fail(fmt.Sprintf("%s: %s; run adrkit index --write %s", shown, what, shown))
	}
	if exists {
		err = folder.Replace(name, old, []byte(text))
	} else {
		err = folder.Create(name, []byte(text))
	}
	if err != nil {
		return fail(err.Error())
	}
	_, err = fmt.Fprintf(opts.Out, "%s: index written.\n", shown)
	return err
}

// printIndex writes the index alone to stdout, its links relative to the
// directory the command was started in (where a redirection puts it).
func printIndex(ctx context.Context, c *factory.Corpus, opts *Options) error {
	here, err := c.RepoPaths(opts.Command, []string{"index.md"})
	if err != nil {
		return err
	}
	text, err := c.Service.Index(ctx, path.Dir(here[0]), "")
	if err != nil {
		return c.Failure(err)
	}
	_, err = io.WriteString(opts.Out, text)
	return err
}
