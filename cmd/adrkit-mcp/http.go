package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v3"

	"github.com/adrkit/adrkit-go/adapters/clock"
	"github.com/adrkit/adrkit-go/adapters/mcp"
	"github.com/adrkit/adrkit-go/adapters/mcphttp"
	"github.com/adrkit/adrkit-go/cmd/internal/entry"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
)

// checkHTTPFlags refuses the flag combinations HTTP serving does not take.
func checkHTTPFlags(cmd *cli.Command) error {
	httpSet := cmd.IsSet("http")
	switch {
	case httpSet && cmd.String("http") == "":
		return usageError{msg: "--http needs an address, host:port (127.0.0.1:8080 serves this machine only)"}
	case httpSet && !strings.Contains(cmd.String("http"), ":"):
		return usageError{msg: addressAdvice(cmd.String("http"))}
	case !httpSet && cmd.IsSet("config"):
		return usageError{msg: "--config configures the HTTP server: give --http too"}
	case !httpSet && cmd.IsSet("token-file"):
		return usageError{msg: "--token-file configures the HTTP server: give --http too"}
	case !httpSet:
		return nil
	case cmd.IsSet("config") && (cmd.IsSet("cwd") || cmd.IsSet("dir") || cmd.IsSet("rev")):
		return usageError{msg: "--config lists the corpora (cwd, dir and rev of each): it cannot be combined with --cwd, --dir or --rev"}
	case cmd.IsSet("config") && cmd.String("config") == "":
		return usageError{msg: "--config needs a file"}
	case cmd.IsSet("token-file") && cmd.String("token-file") == "":
		return usageError{msg: "--token-file needs a file"}
	case cmd.IsSet("cwd") && cmd.String("cwd") == "":
		return usageError{msg: `--cwd (or ADRKIT_MCP_CWD) is "", which names no directory; give the repository root`}
	}
	return nil
}

// addressAdvice refuses an --http value without a port separator: a bare
// port (8080) is the common slip, answered with the loopback address
// that serves it.
func addressAdvice(addr string) string {
	if _, err := strconv.ParseUint(addr, 10, 16); err == nil {
		return fmt.Sprintf("--http needs host:port, not a port alone; give 127.0.0.1:%s to serve this machine only", addr)
	}
	return fmt.Sprintf("--http needs host:port, not %q (127.0.0.1:8080 serves this machine only)", addr)
}

// serveHTTP serves the corpora over streamable HTTP until ctx is done
// (SIGINT or SIGTERM), then answers the calls in flight and returns 0.
// SIGHUP reloads the token file. Everything the server says goes to
// stderr as JSON (log/slog): the access log, one record per MCP request,
// and the lines about starting, reloading and stopping. It returns the
// exit status.
func serveHTTP(ctx context.Context, cmd *cli.Command, surface entry.Surface, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "adrkit-mcp: %v\n", err)
		return code
	}
	where := entry.Locate(cmd, os.Getwd, entry.ServerEnv) // as over stdio
	single := mcphttp.CorpusConfig{Cwd: where.Root, Dir: where.Dir, Rev: where.Rev}
	setup, err := mcphttp.LoadSetup(cmd.String("config"), cmd.String("token-file"), single)
	if err != nil {
		return fail(2, err)
	}
	endpoints := make([]mcphttp.Endpoint, 0, len(setup.Corpora))
	for _, c := range setup.Corpora {
		endpoints = append(endpoints, endpoint(c, surface))
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	frontOpts := mcphttp.Options{
		Endpoints: endpoints, Tokens: setup.Tokens,
		AllowedHosts: setup.AllowedHosts, AllowedOrigins: setup.AllowedOrigins,
		Log: log, Clock: clock.System{},
	}
	var serverOpts mcphttp.ServerOptions
	setup.Apply(&frontOpts, &serverOpts)
	front, err := mcphttp.New(frontOpts)
	if err != nil {
		return fail(2, err)
	}
	addr := cmd.String("http")
	srv, err := mcphttp.Listen(addr, front, serverOpts)
	var exposure *mcphttp.ExposureError
	switch {
	case errors.As(err, &exposure):
		return fail(2, err)
	case err != nil:
		return fail(1, err)
	}

	// SIGHUP is caught before "listening" is logged: whoever waits for
	// that line may send one at once, and its default action ends the
	// process.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	// A corpus that cannot be read yet does not stop the server (a
	// mirror may still be cloning): /readyz answers 503 until it can.
	paths := make([]string, 0, len(endpoints))
	for _, c := range endpoints {
		path := "/mcp"
		if c.Name != "" {
			path += "/" + c.Name
		}
		paths = append(paths, path)
		if err := c.Ready(ctx); err != nil {
			log.Warn("corpus not ready", "path", path, "error", err.Error())
		}
	}
	log.Info("listening", "addr", srv.Addr().String(), "paths", paths, "tokens", setup.Tokens != nil)

	run := mcphttp.RunOptions{Reload: hup, Log: log} // Grace 0: mcphttp.DefaultShutdownGrace
	if setup.Tokens.HasFile() {
		run.Tokens = setup.Tokens
	}
	if err := srv.Run(ctx, run); err != nil {
		return 1
	}
	return 0
}

// endpoint serves the corpus c over HTTP: the service the composition
// root builds for it (entry.Location.Service), behind adapters/mcp's
// handler, and its readiness. Nothing is read yet: a corpus that cannot
// be read is what /readyz and every tool call report.
func endpoint(c mcphttp.CorpusConfig, surface entry.Surface) mcphttp.Endpoint {
	where := entry.Location{Root: c.Cwd, Dir: cmp.Or(c.Dir, corpus.DefaultDir), Rev: c.Rev, RootNamed: true, Env: entry.ServerEnv}
	svc, ready := where.Service(surface)
	h := mcp.NewHTTP(svc, mcp.HTTPOptions{FullContent: surface.FullContent})
	return mcphttp.Endpoint{Name: c.Name, Handler: h, Ready: withCause(ready), Drain: h.Drain}
}

// withCause is ready with the cause of an unusable corpus (the path or
// revision that failed) in the text of its failure: the failure is
// written only to the server's log, for which the contract's reason
// sentence alone does not say which.
func withCause(ready func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		err := ready(ctx)
		var u *ports.UnavailableError
		if errors.As(err, &u) && u.Err != nil {
			return fmt.Errorf("%w (%v)", err, u.Err)
		}
		return err
	}
}
