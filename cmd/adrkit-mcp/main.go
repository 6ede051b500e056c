// Command adrkit-mcp serves a repository's architecture decision records to
// coding agents over the Model Context Protocol on stdin/stdout, or, with
// --http, to a team over streamable HTTP (one repository at /mcp, or the
// corpora of --config at /mcp/<name>).
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
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/mcp"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

const usageLine = "usage: adrkit-mcp [--cwd <path>] [--dir <path>] [--rev <revision>] [--tools default|extended] [--content summary|full] " +
	"[--http <addr> [--config <file>] [--token-file <file>]]   (adrkit-mcp --help for details)"

func main() {
	mcp.SetCollector()
	// A client that goes away must not kill the process silently: with
	// SIGPIPE ignored a write to the closed stdout fails with EPIPE, which
	// is reported on stderr and ends the process with status 1.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// The values of --tools (ADRKIT_MCP_TOOLS): the default surface is the
// four tools of the contract, unchanged; the extended one adds two.
const (
	toolsDefault  = "default"
	toolsExtended = "extended"
)

// The values of --content (ADRKIT_MCP_CONTENT): a tool answer's content
// is the contract's one summary line, or that line and the structured
// answer as JSON text, for clients that pass only content to the model.
const (
	contentSummary = "summary"
	contentFull    = "full"
)

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// run parses args and serves; it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var served *serveOutcome
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
		Version:   mcp.Version,
		Writer:    stdout,
		ErrWriter: stderr,
		Flags: []cli.Flag{
			&cli.StringFlag{
				Name:      "cwd",
				Usage:     "repository root, a Git worktree (default: the working directory)",
				Sources:   cli.EnvVars("ADRKIT_MCP_CWD"),
				TakesFile: true,
			},
			&cli.StringFlag{
				Name:      "dir",
				Usage:     `ADR directory, relative to the repository root ("" for the root itself)`,
				Value:     mcp.DefaultDir,
				Sources:   cli.EnvVars("ADRKIT_MCP_DIR"),
				TakesFile: true,
			},
			&cli.StringFlag{
				Name: "rev",
				Usage: "serve the ADR directory as of this git revision (HEAD, a branch, a tag, HEAD~3, a hash) " +
					"instead of the working tree; branches are re-resolved on every call",
				Sources: cli.EnvVars("ADRKIT_MCP_REV"),
			},
			&cli.StringFlag{
				Name: "tools",
				Usage: "tool surface: default (the four tools) or extended (adds get_supersession_chain, " +
					"list_decision_changes and list_review_queue; see docs/extended-tools.md)",
				Value:   toolsDefault,
				Sources: cli.EnvVars("ADRKIT_MCP_TOOLS"),
			},
			&cli.StringFlag{
				Name: "content",
				Usage: "content of a tool answer: summary (the one summary line) or full (also the structured answer " +
					"as JSON text, for clients that give the model only content and ignore structuredContent)",
				Value:   contentSummary,
				Sources: cli.EnvVars("ADRKIT_MCP_CONTENT"),
			},
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
		},
		OnUsageError: func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return usageError{msg: describeParseError(err)}
		},
		// Exit codes are decided below, from the error Run returns.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return usageError{msg: fmt.Sprintf("unexpected argument %q: adrkit-mcp takes no positional arguments", cmd.Args().First())}
			}
			if t := cmd.String("tools"); t != toolsDefault && t != toolsExtended {
				return usageError{msg: fmt.Sprintf("--tools must be %q or %q, got %q", toolsDefault, toolsExtended, t)}
			}
			if c := cmd.String("content"); c != contentSummary && c != contentFull {
				return usageError{msg: fmt.Sprintf("--content must be %q or %q, got %q", contentSummary, contentFull, c)}
			}
			if err := checkHTTPFlags(cmd); err != nil {
				return err
			}
			if cmd.IsSet("http") {
				served = &serveOutcome{code: serveHTTP(ctx, cmd, stderr)}
				return nil
			}
			served = serve(ctx, cmd, stdin, stdout, stderr)
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
	if served == nil { // --help or --version
		return 0
	}
	return served.status(ctx)
}

// serveOutcome records how serving ended.
type serveOutcome struct {
	err       error
	diagnosed *atomic.Bool
	// code, when set, is the exit status, decided by the HTTP server.
	code int
}

// status is the exit status for the outcome: a signal ends the process
// cleanly whatever happened before it.
func (o *serveOutcome) status(ctx context.Context) int {
	switch {
	case o.diagnosed == nil:
		return o.code
	case ctx.Err() != nil:
		return 0
	case o.err != nil:
		return 1
	case o.diagnosed.Load():
		return 1
	}
	return 0
}

// serve builds the server from the flags and runs it until stdin ends or
// ctx is done. Start-up failures are printed here, as one line.
func serve(ctx context.Context, cmd *cli.Command, stdin io.Reader, stdout, stderr io.Writer) *serveOutcome {
	diagnosed := new(atomic.Bool)
	var stderrMu sync.Mutex
	out := &serveOutcome{diagnosed: diagnosed}
	cwd, dir, rev := cmd.String("cwd"), cmd.String("dir"), cmd.String("rev")
	if cmd.IsSet("cwd") && cwd == "" {
		// An empty root names no directory; the library would read an
		// empty Cwd as "the working directory".
		out.err = &ports.UnavailableError{Reason: corpus.RootNotFound}
	}
	if cmd.IsSet("dir") && dir == "" {
		dir = "." // the root itself; the library reads "" as the default
	}
	if out.err == nil {
		srv := mcp.New(mcp.Options{
			Cwd: cwd, Dir: dir, Rev: rev, ExtendedTools: cmd.String("tools") == toolsExtended,
			FullContent: cmd.String("content") == contentFull,
			In:          stdin, Out: stdout, Err: stderr,
			OnError: func(err error) {
				diagnosed.Store(true)
				stderrMu.Lock()
				defer stderrMu.Unlock()
				_, _ = io.WriteString(stderr, "adrkit-mcp: transport error: "+err.Error()+"\n")
			},
		})
		out.err = srv.Serve(ctx)
		_ = srv.Close()
	}
	if out.err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "adrkit-mcp: %s\n", startupMessage(out.err, cwd, dir, rev))
	}
	return out
}

// describeParseError words a flag-parsing failure of the cli package.
func describeParseError(err error) string {
	msg := err.Error()
	const unknown, missing = "flag provided but not defined: -", "flag needs an argument: "
	switch {
	case strings.HasPrefix(msg, unknown):
		return fmt.Sprintf("unknown option --%s", strings.TrimPrefix(msg, unknown))
	case strings.HasPrefix(msg, missing):
		return fmt.Sprintf("option %s needs a value", strings.TrimPrefix(msg, missing))
	}
	return msg
}
