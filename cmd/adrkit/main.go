// Command adrkit shows, checks and serves a repository's architecture
// decision records: an overview of the corpus, lint for CI (text, JSON,
// SARIF, GitHub annotations), search, show, explain and superseded for
// people, a relation graph, and the MCP server for coding agents.
//
// Exit status: 0 on success (and for the overview, whatever it found);
// 1 when the corpus cannot be read, lint found errors (or, with --strict,
// warnings), show found no single record, or serving failed; 2 for a
// command-line mistake.
//
// This package only starts a run and builds the tree (tree.go): each
// command is its own package under cmd/adrkit/internal, handed a factory
// (cmd/adrkit/internal/factory) that builds what the command asks for on
// first use (ADR 0046); what adrkit mcp shares with adrkit-mcp is
// cmd/internal/entry's.
package main

import (
	"context"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/adrkit/adrkit-go/adapters/clock"
	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/ports"
)

func main() {
	code := run(context.Background(), os.Args, os.Stdout, os.Stderr, factory.Env{
		Stdin:    os.Stdin,
		Getenv:   os.LookupEnv,
		Clock:    func() ports.Clock { return clock.System{} },
		Terminal: func() bool { return render.IsTerminal(os.Stdout) },
		Columns:  terminalColumns,
		Getwd:    os.Getwd,
	})
	os.Exit(code)
}

// run executes one command line over env and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, env factory.Env) int {
	env.Stdout, env.Stderr = stdout, stderr
	return entry.Run(ctx, newTree(factory.New(env), args), args, stderr)
}

// terminalColumns is stdout's terminal width, 0 when it cannot be read.
func terminalColumns() int {
	w, _, err := term.GetSize(int(os.Stdout.Fd()))
	if err != nil {
		return 0
	}
	return w
}
