// Package explain is adrkit explain: the decisions that govern some
// files, by affects patterns and @adr markers (get_decision_context).
package explain

import (
	"context"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/toolcmd"
)

// Options is one run of adrkit explain: the FILE arguments are its Args.
type Options struct {
	toolcmd.Options
}

// NewCmdExplain is adrkit explain; runF, when set, is called instead of
// the run (tests intercept the options with it).
func NewCmdExplain(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "show which decisions govern some files, which proposals would, and which once did",
		UsageText: "adrkit explain FILE... [--json [--limit N] [--cursor C]]",
		Description: "FILEs are paths as a shell gives them: relative to the working directory (in a subdirectory,\n" +
			"a repository path such as git diff --name-only prints is taken too when that is the file that\n" +
			"exists) or absolute inside the repository; a path outside the repository is refused (status 2).\n" +
			"They need not exist. Each is matched against every record's affects patterns and read (its first\n" +
			"8 KiB) for @adr markers, which declare the decisions it lives under. Accepted decisions\n" +
			"govern; drafts and proposals are active proposals; rejected, superseded and deprecated ones\n" +
			"are history. Each record is shown with the matchers that fired for it and the markers that\n" +
			"declared it.\n\n" +
			"Like the reference's explain, it answers only for a corpus without errors: when adrkit lint\n" +
			"finds one, no decision is shown and the status is 1.\n\n" +
			"Examples:\n" +
			"  adrkit explain adapters/mcp/server.go\n" +
			"  adrkit explain $(git diff --name-only main)\n" +
			"  adrkit explain app/lint.go --json",
		Flags: toolcmd.PageFlags(),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if !cmd.Args().Present() {
				return factory.UsageError{Command: cmd.FullName(), Msg: "explain needs at least one FILE, e.g. adrkit explain src/app.go"}
			}
			base, err := toolcmd.Read(f, cmd, "printed")
			if err != nil {
				return err
			}
			opts := &Options{Options: base}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run reads the files' markers, calls get_decision_context with them and
// shows a person what governs each file.
func run(ctx context.Context, opts *Options) error {
	// The files' markers, read before the call unless it refuses the
	// files.
	var markers *app.MarkerReport
	bind := func(ctx context.Context, c *factory.Corpus) (app.Input, func(app.Outcome, render.Style) error, error) {
		// Each FILE is taken as a shell means it (relative to the working
		// directory, or absolute inside the repository) and then matched
		// as the reference's explain matches a repository path (ADR 0033).
		files, err := c.RepoPaths(opts.Command, opts.Args)
		if err != nil {
			return nil, nil, err
		}
		in := app.ContextInput{Files: files, CommandLine: true, Page: opts.Page}
		// Bad files are refused (by the call) before any is opened.
		if _, bad := app.RefuseContext(in); !bad {
			rep, err := app.ReadMarkers(ctx, c.Where.Heads(), slashed(files))
			if err != nil {
				return nil, nil, err
			}
			markers, in.Markers = &rep, rep.Declarations()
		}
		return in, func(r app.Outcome, style render.Style) error {
			m, _ := r.(app.Matches)
			return render.WriteExplain(opts.Out, m, files, markers, style)
		}, nil
	}
	return opts.Call(ctx, bind, func(ans *app.Answer) any {
		m, _ := ans.Result.(app.Matches)
		return render.ExplainJSON{CorpusHealth: ans.CorpusHealth, Result: ans.Result, Markers: render.NewMarkersJSON(markers), Withheld: m.Withheld}
	})
}

// slashed is files with the platform's separator written "/", the form
// a marker reader takes: on Windows a backslash separates, elsewhere it
// is part of a name and stays.
func slashed(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.ToSlash(f)
	}
	return out
}
