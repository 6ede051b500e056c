// Package doctor is adrkit doctor: the repository and the agents'
// configuration that init writes checked, with what to fix (app.Doctor).
package doctor

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/probe"
	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/domain/hostconfig"
	"github.com/adrkit/adrkit-go/ports"
)

// Options is one run of adrkit doctor.
type Options struct {
	Out io.Writer
	// Hosts are the agents to check (nil: those with files here).
	Hosts []agenthost.Host
	// DirNamed says --dir (or its variable) named the ADR directory.
	DirNamed bool
	// Getwd is the directory adrkit was started in.
	Getwd func() (string, error)
	// Probe starts the commands the agents' files name (nil: real ones).
	Probe ports.Processes

	// Locate is where the corpus options point, read without the corpus.
	Locate func() *factory.Corpus
	Corpus func(context.Context) (*factory.Corpus, error)
	Color  func() (render.Style, error)
	Clock  func() ports.Clock
}

// NewCmdDoctor is adrkit doctor; runF, when set, is called instead of the
// run (tests intercept the options with it).
func NewCmdDoctor(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check this repository and the agents' configuration that init writes, and say what to fix",
		UsageText: "adrkit doctor [--agents claude,codex,cursor,vscode,copilot]",
		Description: "Checks, in order: the repository root, the ADR directory, lint's summary, each agent's\n" +
			"files that 'adrkit init' writes (the MCP server entry, the hooks), that the commands they\n" +
			"name are on PATH and start, that each adrkit server answers an MCP initialize, and that each\n" +
			"hook answers a synthetic session-start event (run with a state directory of its own, so no\n" +
			"real session is affected). Without --agents it checks the agents whose files are present.\n" +
			"Every problem comes with what to do. Exits 0 when there is none, 1 otherwise.\n\n" +
			"Examples:\n" +
			"  adrkit doctor\n" +
			"  adrkit doctor --agents claude,codex",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agents", Usage: "comma-separated: claude, codex, cursor, vscode, copilot, gemini (default: those with files here)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := factory.NoArgs(cmd); err != nil {
				return err
			}
			opts := &Options{
				Out: f.Out, DirNamed: cmd.IsSet("dir"), Getwd: f.Getwd, Probe: f.Probe,
				Locate: func() *factory.Corpus { return f.Locate(cmd) },
				Corpus: func(ctx context.Context) (*factory.Corpus, error) { return f.Corpus(ctx, cmd) },
				Color:  func() (render.Style, error) { return f.Color(cmd) },
				Clock:  f.Clock,
			}
			if cmd.IsSet("agents") {
				hs, err := hostconfig.ParseHosts(cmd.String("agents"))
				if err != nil {
					return factory.UsageError{Command: cmd.FullName(), Msg: "--agents: " + err.Error()}
				}
				opts.Hosts = hs
			}
			if _, err := factory.ColorMode(cmd); err != nil {
				return err
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run checks and prints the checks; status 1 when one found a problem.
func run(ctx context.Context, opts *Options) error {
	style, err := opts.Color()
	if err != nil {
		return err
	}
	rep, err := gather(ctx, opts)
	if err != nil {
		return factory.ExitError{Code: factory.ExitFailure, Msg: err.Error()}
	}
	if err := render.WriteDoctor(opts.Out, rep, style); err != nil {
		return err
	}
	if rep.Problems() > 0 {
		return factory.ExitError{Code: factory.ExitFailure}
	}
	return nil
}

// gather gathers what the checks need: the root, the directory and lint's
// report, the repository's files and a prober.
func gather(ctx context.Context, opts *Options) (*app.DoctorReport, error) {
	c := opts.Locate()
	if st, err := os.Stat(filepath.Join(c.Where.Root, ".git")); c.Where.Root == "" || err != nil || st == nil {
		return &app.DoctorReport{Checks: []app.Check{{
			Status: app.CheckProblem, Subject: "repository",
			Detail: "no repository root: no directory with a .git entry at or above the working directory",
			Fix:    "run adrkit doctor inside the repository, or name its root with --cwd",
		}}}, nil
	}
	root, err := filepath.Abs(c.Where.Root)
	if err != nil {
		return nil, err
	}
	in := app.DoctorInput{Root: root, Dir: c.Where.Dir, Hosts: opts.Hosts}
	switch {
	case opts.DirNamed:
		in.DirFrom = "option"
	default:
		wd, werr := opts.Getwd()
		if werr != nil {
			wd = root
		}
		if choice, err := workspace.FindDir(root, wd); err == nil {
			in.Dir, in.DirFrom = choice.Dir, choice.From
		}
	}
	if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(in.Dir))); err != nil || !st.IsDir() {
		in.DirFrom = ""
	} else if set, err := opts.Corpus(ctx); err != nil {
		in.LintErr = err.Error()
	} else if lint, err := set.Service.Lint(ctx, app.LintInput{Clock: opts.Clock()}); err != nil {
		in.LintErr = set.Failure(err).Error()
	} else {
		in.Lint = lint
	}
	files, err := workspace.OpenRepoFiles(root)
	if err != nil {
		return nil, err
	}
	defer files.Close()
	p := opts.Probe
	if p == nil {
		real, err := probe.New()
		if err != nil {
			return nil, err
		}
		defer real.Close()
		p = real
	}
	return app.Doctor(ctx, files, p, in), nil
}
