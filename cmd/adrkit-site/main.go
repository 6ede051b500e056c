// Command adrkit-site builds the decision browser: the static site of a
// repository's decisions that `adrkit site` writes or previews
// (docs/site.md). It is a program of its own so that the Markdown
// renderer, whose package initialisation costs about a millisecond, is
// linked into it alone and not into every adrkit process (ADR 0035);
// `adrkit site` checks its command line and runs this program.
//
// It takes adrkit's corpus options (--cwd, --dir, --rev and their
// ADRKIT_MCP_* variables) and `adrkit site`'s, and speaks as
// `adrkit site`: the same output, the same diagnostics word for word, the
// same exit statuses (0 once the site is written or --serve is stopped,
// 1 when the corpus cannot be read or OUTDIR cannot be written, 2 for a
// command-line mistake).
package main

import (
	"context"
	"io"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/clock"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/cmd/internal/sitecli"
	"github.com/adrkit/adrkit-go/internal/version"
	"github.com/adrkit/adrkit-go/ports"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr, environment{
		Getenv: os.LookupEnv,
		Clock:  clock.System{},
		Getwd:  os.Getwd,
	}))
}

// environment is what a run takes from the process besides its arguments
// and output streams, so that tests run it in-process.
type environment struct {
	// Getenv looks up an environment variable (os.LookupEnv in main).
	Getenv func(string) (string, bool)
	// Clock tells lint's reviewBy check today's date.
	Clock ports.Clock
	// Getwd is the working directory, where the repository root and the
	// ADR directory are looked for when no option names them.
	Getwd func() (string, error)
}

// Exit statuses and the two errors that choose one, as adrkit's
// (cmd/internal/entry). A usage error points at the help of `adrkit
// site`.
const (
	exitFailure = entry.ExitFailure
)

type (
	usageError = entry.UsageError
	exitError  = entry.ExitError
)

// init makes --version print "adrkit-site VERSION", as the other
// binaries print theirs: adrkit compares it with its own.
func init() {
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "print this help and exit"}
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version and exit", Local: true}
	cli.VersionPrinter = entry.PrintVersion
}

// run executes one command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, env environment) int {
	if env.Getenv == nil {
		env.Getenv = func(string) (string, bool) { return "", false }
	}
	if env.Getwd == nil {
		env.Getwd = os.Getwd
	}
	root := &cli.Command{
		Name:  sitecli.Program,
		Usage: "the program behind `adrkit site`: " + sitecli.Usage,
		UsageText: "adrkit-site [--cwd DIR] [--dir DIR] [--rev REV] (OUTDIR | --serve ADDR) [--title TEXT] [--base-url URL] [--as-of YYYY-MM-DD]\n" +
			"adrkit-site --version",
		Description: sitecli.Description + "\n\n" +
			"adrkit site runs this program (found beside adrkit, on the PATH or through ADRKIT_SITE),\n" +
			"passing it the corpus options; its diagnostics are adrkit site's.",
		Version:         version.String(),
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Flags:           append(entry.CorpusFlags(env.Getenv, entry.CLIEnv), sitecli.Flags()...),
		OnUsageError: func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return usageError{Command: sitecli.Name, Msg: entry.DescribeParseError(err)}
		},
		// Exit statuses are decided below, from the error Run returns.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return buildSite(ctx, cmd, env, stdout)
		},
	}
	// A signal ends --serve with status 0 (entry.Run catches it once the
	// command starts).
	return entry.Run(ctx, root, args, stderr)
}
