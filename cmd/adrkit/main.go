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
// The files of this package only parse flags and wire the pieces: the
// answers come from app, the layout (and the walking of pages) from
// adapters/render; what adrkit mcp shares with adrkit-mcp from cmd/internal/entry.
package main

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/adrkit/adrkit-go/adapters/clock"
	"github.com/adrkit/adrkit-go/adapters/render"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	buildversion "github.com/adrkit/adrkit-go/internal/version"
	"github.com/adrkit/adrkit-go/ports"
)

func main() {
	code := run(context.Background(), os.Args, os.Stdout, os.Stderr, environment{
		Stdin:    os.Stdin,
		Getenv:   os.LookupEnv,
		Clock:    clock.System{},
		Terminal: render.IsTerminal(os.Stdout),
		Columns:  terminalColumns,
		Getwd:    os.Getwd,
	})
	os.Exit(code)
}

// environment is what a run takes from the process besides its arguments
// and output streams, so that tests can run the command in-process with a
// fixed clock, their own variables and a pretend terminal.
type environment struct {
	Stdin io.Reader
	// Getenv looks up an environment variable (os.LookupEnv in main).
	Getenv func(string) (string, bool)
	// Clock tells lint today's date.
	Clock ports.Clock
	// Terminal says stdout is a terminal, which --color auto colours and
	// whose width tables are fitted to.
	Terminal bool
	// Columns is the terminal's width, 0 when unknown (nil: unknown).
	Columns func() int
	// Getwd is the working directory, where the repository root and the
	// ADR directory are looked for when no option names them (os.Getwd
	// when nil).
	Getwd func() (string, error)
	// Probe starts the commands doctor checks (nil: the real processes).
	Probe ports.Processes
}

// Exit statuses and the two errors that choose one, shared with
// adrkit-mcp (cmd/internal/entry).
const (
	exitOK      = entry.ExitOK
	exitFailure = entry.ExitFailure
	exitUsage   = entry.ExitUsage
)

type (
	usageError = entry.UsageError
	exitError  = entry.ExitError
)

// run executes one command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, env environment) int {
	if env.Getenv == nil {
		env.Getenv = func(string) (string, bool) { return "", false }
	}
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	if env.Getwd == nil {
		env.Getwd = os.Getwd
	}
	return entry.Run(ctx, rootCommand(stdout, stderr, env), args, stderr)
}

// init replaces the cli package's help and version flags and version
// printer, so that what they print is in our words.
func init() {
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "print this help and exit"}
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version and exit", Local: true}
	cli.VersionPrinter = entry.PrintVersion
}

// version is what --version and machine-readable reports name.
func version() string { return buildversion.String() }

// fromEnv is the value source of an option also read from the variable
// key of the run's environment.
func fromEnv(env environment, key string) cli.ValueSourceChain {
	return entry.FromEnv(env.Getenv, key)
}

// describeParseError is the one wording of a flag-parsing failure
// (entry.DescribeParseError).
func describeParseError(err error) string { return entry.DescribeParseError(err) }

// onUsageError turns the cli package's parse failures into our wording.
func onUsageError(_ context.Context, cmd *cli.Command, err error, _ bool) error {
	return usageError{Command: cmd.FullName(), Msg: describeParseError(err)}
}

// terminalColumns is stdout's terminal width, 0 when it cannot be read.
func terminalColumns() int {
	w, _, err := term.GetSize(int(os.Stdout.Fd()))
	if err != nil {
		return 0
	}
	return w
}

// tableWidth is the width tables are fitted to: none unless stdout is a
// terminal; then $COLUMNS when it is a positive number (a user's choice,
// and how tests pretend), else the terminal's own width.
func tableWidth(env environment) int {
	if !env.Terminal {
		return 0
	}
	if v, ok := env.Getenv("COLUMNS"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
			return n
		}
	}
	if env.Columns != nil {
		return env.Columns()
	}
	return 0
}

// printed ends a command whose report is complete even when part of the
// work failed (migrate, status, renumber, queue): print it, then exit 1
// if it says something failed.
func printed(report interface{ Failed() bool }, print func() error) error {
	if err := print(); err != nil {
		return err
	}
	if report.Failed() {
		return exitError{Code: exitFailure}
	}
	return nil
}
