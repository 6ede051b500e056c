// Package initcmd is adrkit init: a repository wired for coding agents
// (app.Init). (init is Go's own word; the package is named for the
// command.)
package initcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/adapters/workspace"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/domain/hostconfig"
	"github.com/adrkit/adrkit-go/ports"
)

// Options is one run of adrkit init.
type Options struct {
	Out io.Writer
	// Command is the full name, for usage errors.
	Command string
	Hosts   []agenthost.Host
	// Launch is the executable the entries run.
	Launch string
	DryRun bool
	// Probe looks the executable up (nil: PATH).
	Probe ports.Processes

	// Locate is where the corpus options point, read without the corpus.
	Locate func() *factory.Corpus
	Color  func() (render.Style, error)
	Clock  func() ports.Clock
}

// NewCmdInit is adrkit init; runF, when set, is called instead of the run
// (tests intercept the options with it).
func NewCmdInit(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "wire this repository for coding agents: MCP server entries, hooks, a first record (writes files)",
		UsageText: "adrkit init [--agents claude,codex,cursor,vscode,copilot,gemini] [--dry-run] [--command PATH]",
		Description: "For each agent named, writes the MCP server entry (.mcp.json for Claude Code and GitHub\n" +
			"Copilot, .codex/config.toml, .cursor/mcp.json, .vscode/mcp.json) and the hooks that hand the\n" +
			"model the decisions governing a file when it edits it (.claude/settings.json, also run by\n" +
			"VS Code's agent, .codex/hooks.json, .cursor/hooks.json; Copilot's hooks cannot add context;\n" +
			"Gemini CLI's .gemini/settings.json carries both),\n" +
			"and a first decision record when the ADR directory has none. Existing files are merged:\n" +
			"nothing of yours is dropped, an entry named adrkit is kept as it is, and a file that cannot\n" +
			"be rewritten without loss (comments, a trailing comma) is left alone with the snippet to\n" +
			"add. A second run changes nothing.\n" +
			"Every entry starts 'adrkit' (--command names another executable), so it must be on PATH.\n" +
			"Exits 0 when everything is set up, 1 when a file was left for you to edit, 2 for a usage error.\n\n" +
			"Examples:\n" +
			"  adrkit init                                # Claude Code\n" +
			"  adrkit init --agents claude,codex,cursor --dry-run\n" +
			"  adrkit init --agents vscode,copilot --command /usr/local/bin/adrkit\n" +
			"  adrkit init --agents gemini",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agents", Value: string(agenthost.Claude), Usage: "comma-separated: claude, codex, cursor, vscode, copilot, gemini"},
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print what would be written"},
			&cli.StringFlag{Name: "command", Value: "adrkit", Usage: "the adrkit executable the entries run (a name on PATH, or an absolute path)", TakesFile: true},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := factory.NoArgs(cmd); err != nil {
				return err
			}
			hosts, err := hostconfig.ParseHosts(cmd.String("agents"))
			if err != nil {
				return factory.UsageError{Command: cmd.FullName(), Msg: "--agents: " + err.Error()}
			}
			if cmd.String("command") == "" {
				return factory.UsageError{Command: cmd.FullName(), Msg: "--command names the adrkit executable; it cannot be empty"}
			}
			if cmd.String("rev") != "" {
				return factory.UsageError{Command: cmd.FullName(), Msg: "init writes the working tree; --rev (or ADRKIT_REV) cannot be used with it"}
			}
			if _, err := factory.ColorMode(cmd); err != nil {
				return err
			}
			opts := &Options{
				Out: f.Out, Command: cmd.FullName(), Hosts: hosts, Launch: cmd.String("command"), DryRun: cmd.Bool("dry-run"), Probe: f.Probe,
				Locate: func() *factory.Corpus { return f.Locate(cmd) },
				Color:  func() (render.Style, error) { return f.Color(cmd) },
				Clock:  f.Clock,
			}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run writes the agents' files (and a first record) and says what it did.
func run(ctx context.Context, opts *Options) error {
	fail := func(msg string) error { return factory.ExitError{Code: factory.ExitFailure, Msg: msg} }
	style, err := opts.Color()
	if err != nil {
		return err
	}
	c := opts.Locate()
	root, dir := c.Where.Root, c.Where.Dir
	if st, err := os.Stat(filepath.Join(root, ".git")); err != nil || root == "" || st == nil {
		return fail("no repository here: init wires a Git worktree (a directory with a .git entry); run 'git init' first, or name the root with --cwd")
	}
	dirPath, rel, err := dirInside(root, dir)
	if err != nil {
		return factory.UsageError{Command: opts.Command, Msg: err.Error()}
	}
	var folder *workspace.Folder
	switch st, err := os.Stat(dirPath); {
	case err == nil && !st.IsDir():
		return fail("the ADR directory " + dir + " is a file")
	case errors.Is(err, fs.ErrNotExist) && opts.DryRun:
		if folder, err = workspace.PlannedFolder(root, rel); err != nil {
			return fail(err.Error())
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dirPath, 0o755); err != nil {
			return fail("creating the ADR directory " + dir + ": " + factory.DescribeFileError(err))
		}
		fallthrough
	default:
		f, err := workspace.OpenFolder(root, dir)
		if err != nil {
			return fail(err.Error())
		}
		folder, rel = f, f.Rel()
	}
	files, err := workspace.OpenRepoFiles(root)
	if err != nil {
		return fail(err.Error())
	}
	defer files.Close()
	launch := hostconfig.Launch{Command: opts.Launch, Dir: rel}
	rep, err := app.Init(ctx, files, folder, app.InitInput{
		Hosts: opts.Hosts, Launch: launch, DryRun: opts.DryRun, Date: opts.Clock().Now().UTC().Format("2006-01-02"),
	})
	notes := render.InitCommand{Name: launch.Command, NotOnPath: !onPath(opts.Probe, launch.Command)}
	if err != nil {
		// The report would claim files not written: the error names the
		// one that failed.
		return fail(err.Error())
	}
	if err := render.WriteInit(opts.Out, rep, notes, style); err != nil {
		return err
	}
	if rep.Manual() {
		return factory.ExitError{Code: factory.ExitFailure}
	}
	return nil
}

// dirInside is the ADR directory's path, and its path relative to the
// root, "/"-separated; it must lie inside the root (init creates it when
// missing, and nothing outside the repository).
func dirInside(root, dir string) (abs, rel string, err error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", "", err
	}
	p := dir
	if !filepath.IsAbs(p) {
		p = filepath.Join(absRoot, filepath.FromSlash(dir))
	}
	rel, err = filepath.Rel(absRoot, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "", fmt.Errorf("--dir %s is not inside the repository", dir)
	}
	return p, filepath.ToSlash(rel), nil
}

// onPath reports whether the executable the entries name is found on
// PATH (or, for a path, exists), as doctor would look it up.
func onPath(probe ports.Processes, command string) bool {
	if probe != nil {
		_, err := probe.LookPath(command)
		return err == nil
	}
	_, err := exec.LookPath(command)
	return err == nil
}
