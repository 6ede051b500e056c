// Command adrkit-mcp serves a repository's architecture decision records to
// coding agents over the Model Context Protocol on stdin/stdout, or, with
// --http, to a team over streamable HTTP (one repository at /mcp, or the
// corpora of --config at /mcp/<name>). With no --cwd or --dir it finds the
// repository root and the ADR directory as every adrkit command does
// (upward from the working directory; .adr-dir); outside any repository,
// over stdio, it serves the one CLAUDE_PROJECT_DIR or the client's MCP
// roots name (ADR 0044). `adrkit mcp` is the same entry under another name
// (cmd/internal/entry).
//
// Exit status over stdio: 0 when stdin ends (or on SIGINT/SIGTERM), 1 when
// the repository root or ADR directory is unusable at start-up or a
// transport problem was reported on stderr while serving, 2 for a
// command-line mistake. Over HTTP: 0 after SIGINT/SIGTERM (once the calls
// in flight are answered), 1 when the address cannot be listened on or
// serving fails, 2 for a command-line mistake, an unusable --config or
// --token-file, or a non-loopback address without tokens. An unreadable
// corpus does not stop an HTTP server: /readyz reports it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/internal/version"
)

const usageLine = "usage: adrkit-mcp [--cwd <path>] [--dir <path>] [--rev <revision>] [--tools default|extended] [--content summary|full] " +
	"[--http <addr> [--config <file>] [--token-file <file>]]   (adrkit-mcp --help for details)"

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// run parses args and serves; it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	code := -1 // set by the action; -1: --help or --version
	cmd := &cli.Command{
		Name:  "adrkit-mcp",
		Usage: "serve architecture decision records to coding agents over MCP (stdio, or streamable HTTP with --http)",
		UsageText: "adrkit-mcp [--cwd <path>] [--dir <path>] [--rev <revision>] [--tools default|extended] [--content summary|full]\n" +
			"adrkit-mcp --http <addr> [--cwd <path>] [--dir <path>] [--rev <revision>] [--token-file <file>] [--tools …] [--content …]\n" +
			"adrkit-mcp --http <addr> --config <file> [--token-file <file>] [--tools …] [--content …]",
		Description: "Reads requests on stdin and writes answers on stdout, one JSON-RPC message per line; stdio opens no socket.\n" +
			"With --http it serves streamable HTTP instead (stateless, JSON answers): one repository at /mcp, or the\n" +
			"corpora of --config at /mcp/<name>, with /healthz and /readyz; see docs/deploy.md and docs/security.md.\n" +
			"Both protocol eras are served: the initialize handshake and revision 2026-07-28.\n" +
			"The corpus is read afresh for every tool call and never written.",
		Version:   version.String(),
		Writer:    stdout,
		ErrWriter: stderr,
		Flags:     append(append(entry.CorpusFlags(os.LookupEnv, entry.ServerEnv), entry.ServeFlags(os.LookupEnv)...), httpFlags()...),
		OnUsageError: func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return usageError{msg: entry.DescribeParseError(err)}
		},
		// Exit codes are decided below, from the error Run returns.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return usageError{msg: fmt.Sprintf("unexpected argument %q: adrkit-mcp takes no positional arguments", cmd.Args().First())}
			}
			surface, err := entry.ReadSurface(cmd)
			if err != nil {
				return usageError{msg: err.Error()}
			}
			if err := checkHTTPFlags(cmd); err != nil {
				return err
			}
			// Signals end the serving cleanly. They are caught from here,
			// not from the start of main: --version and --help have
			// nothing to shut down, and catching them starts goroutines
			// and a thread that every such process would pay for.
			ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
			if cmd.IsSet("http") {
				signal.Ignore(syscall.SIGPIPE) // as over stdio: a closed stderr is not a silent death
				entry.SetCollector()
				code = serveHTTP(ctx, cmd, surface, stderr)
				return nil
			}
			code = entry.Serve(ctx, entry.Locate(cmd, os.Getwd, entry.ServerEnv), surface,
				entry.Stdio{Program: "adrkit-mcp", Command: "adrkit-mcp", In: stdin, Out: stdout, Err: stderr})
			return nil
		},
	}

	if err := cmd.Run(ctx, args); err != nil {
		var usage usageError
		if errors.As(err, &usage) {
			fmt.Fprintf(stderr, "adrkit-mcp: %s\n%s\n", usage.msg, usageLine)
			return 2
		}
		fmt.Fprintf(stderr, "adrkit-mcp: %v\n", err)
		return 1
	}
	return max(code, 0)
}

// httpFlags are the options only the HTTP server takes.
func httpFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{
			Name: "http",
			Usage: "serve streamable HTTP on this address (host:port) instead of stdio; an address beyond loopback " +
				"needs tokens (--token-file or tokens in --config)",
			Sources: cli.EnvVars("ADRKIT_MCP_HTTP"),
		},
		&cli.StringFlag{
			Name: "config",
			Usage: "with --http: a YAML file of corpora {name, cwd, dir, rev}, each served at /mcp/<name>, and tokens " +
				"{sha256, corpora} (docs/deploy.md); instead of --cwd, --dir and --rev",
			Sources:   cli.EnvVars("ADRKIT_MCP_CONFIG"),
			TakesFile: true,
		},
		&cli.StringFlag{
			Name: "token-file",
			Usage: "with --http: bearer tokens that reach every corpus, one per line (or sha256:<hex> of one); " +
				"read again on SIGHUP",
			Sources:   cli.EnvVars("ADRKIT_MCP_TOKEN_FILE"),
			TakesFile: true,
		},
	}
}
