package main

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
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/domain/hostconfig"
)

func doctorCommand(stdout io.Writer, env environment) *cli.Command {
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
			&cli.StringFlag{Name: "agents", Usage: "comma-separated: claude, codex, cursor, vscode, copilot (default: those with files here)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			var hosts []agenthost.Host
			if cmd.IsSet("agents") {
				hs, err := hostconfig.ParseHosts(cmd.String("agents"))
				if err != nil {
					return usageError{Command: cmd.FullName(), Msg: "--agents: " + err.Error()}
				}
				hosts = hs
			}
			mode, err := render.ParseColorMode(cmd.String("color"))
			if err != nil {
				return usageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			style := render.NewStyle(render.UseColor(mode, env.Terminal, env.Getenv))
			rep, err := doctor(ctx, cmd, env, hosts)
			if err != nil {
				return exitError{Code: exitFailure, Msg: err.Error()}
			}
			if err := render.WriteDoctor(stdout, rep, style); err != nil {
				return err
			}
			if rep.Problems() > 0 {
				return exitError{Code: exitFailure}
			}
			return nil
		},
	}
}

// doctor gathers what the checks need: the root, the directory and lint's
// report, the repository's files and a prober.
func doctor(ctx context.Context, cmd *cli.Command, env environment, hosts []agenthost.Host) (*app.DoctorReport, error) {
	s := &settings{cwd: cmd.String("cwd"), dir: cmd.String("dir")}
	locate(cmd, env, s)
	if st, err := os.Stat(filepath.Join(s.cwd, ".git")); s.cwd == "" || err != nil || st == nil {
		return &app.DoctorReport{Checks: []app.Check{{
			Status: app.CheckProblem, Subject: "repository",
			Detail: "no repository root: no directory with a .git entry at or above the working directory",
			Fix:    "run adrkit doctor inside the repository, or name its root with --cwd",
		}}}, nil
	}
	root, err := filepath.Abs(s.cwd)
	if err != nil {
		return nil, err
	}
	in := app.DoctorInput{Root: root, Dir: s.dir, Hosts: hosts}
	switch {
	case cmd.IsSet("dir"):
		in.DirFrom = "option"
	default:
		wd, werr := env.Getwd()
		if werr != nil {
			wd = root
		}
		if choice, err := workspace.FindDir(root, wd); err == nil {
			in.Dir, in.DirFrom = choice.Dir, choice.From
		}
	}
	if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(in.Dir))); err != nil || !st.IsDir() {
		in.DirFrom = ""
	} else if set, err := settle(ctx, cmd, env); err != nil {
		in.LintErr = err.Error()
	} else if lint, err := set.service.Lint(ctx, app.LintInput{Clock: env.Clock}); err != nil {
		in.LintErr = set.failure(err).Error()
	} else {
		in.Lint = lint
	}
	files, err := workspace.OpenRepoFiles(root)
	if err != nil {
		return nil, err
	}
	defer files.Close()
	p := env.Probe
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
