// Package mcp is adrkit mcp: the MCP server on stdin and stdout, the one
// entry adrkit-mcp has too (entry.Serve).
package mcp

import (
	"context"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
)

// Options is one run of adrkit mcp.
type Options struct {
	// Where is the corpus served, located with the server's variables too.
	Where   entry.Location
	Surface entry.Surface
	In      io.Reader
	Out     io.Writer
	Err     io.Writer
	// Getenv is the run's environment, where a server started outside a
	// repository looks for CLAUDE_PROJECT_DIR.
	Getenv func(string) (string, bool)
}

// NewCmdMCP is adrkit mcp; runF, when set, is called instead of the run
// (tests intercept the options with it).
func NewCmdMCP(f *factory.Factory, runF func(context.Context, *Options) error) *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve the decisions to a coding agent over MCP on stdin/stdout (as adrkit-mcp does)",
		UsageText: "adrkit mcp [--cwd <path>] [--dir <path>] [--rev <revision>] [--tools default|extended] [--content summary|full]",
		Description: "Speaks the Model Context Protocol on stdin and stdout, one JSON-RPC message per line,\n" +
			"exactly as the adrkit-mcp binary: the four tools (with --tools extended, also\n" +
			"get_supersession_chain, list_decision_changes and list_review_queue), both protocol\n" +
			"eras. The corpus is read afresh for every call. Ends with status 0 when stdin ends.\n" +
			"As adrkit-mcp does, it reads ADRKIT_MCP_CWD, ADRKIT_MCP_DIR and ADRKIT_MCP_REV for what\n" +
			"no option (and no ADRKIT_CWD, ADRKIT_DIR or ADRKIT_REV) gives. Started outside any repository\n" +
			"with no --cwd, it serves the one CLAUDE_PROJECT_DIR names, else the first of the client's MCP\n" +
			"roots in one, and says why it reads nothing until then (docs/agents.md).\n\n" +
			"Examples:\n" +
			"  adrkit mcp\n" +
			"  adrkit --rev main mcp          # answer from main, whatever the working tree holds\n" +
			"  adrkit mcp --tools extended    # also the supersession chain, the change feed and the review queue\n" +
			"  adrkit mcp --content full      # for clients that give the model only a tool's content",
		Flags: entry.ServeFlags(f.Getenv),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := factory.NoArgs(cmd); err != nil {
				return err
			}
			surface, err := entry.ReadSurface(cmd)
			if err != nil {
				return factory.UsageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			// The server colours nothing, but a bad --color is still a
			// mistake; the corpus is checked, and a failure worded, by
			// entry.Serve, as for adrkit-mcp.
			if _, err := factory.ColorMode(cmd); err != nil {
				return err
			}
			if err := entry.ServerVariables(cmd, f.Getenv); err != nil {
				return factory.UsageError{Command: cmd.FullName(), Msg: err.Error()}
			}
			opts := &Options{Where: entry.Locate(cmd, f.Getwd, entry.ServerEnv), Surface: surface, In: f.In, Out: f.Out, Err: f.ErrOut, Getenv: f.Getenv}
			return factory.Run(ctx, opts, runF, run)
		},
	}
}

// run serves until stdin ends.
func run(ctx context.Context, opts *Options) error {
	std := entry.Stdio{Program: "adrkit", Command: "adrkit mcp", In: opts.In, Out: opts.Out, Err: opts.Err, Getenv: opts.Getenv}
	if code := entry.Serve(ctx, opts.Where, opts.Surface, std); code != factory.ExitOK {
		return factory.ExitError{Code: code}
	}
	return nil
}
