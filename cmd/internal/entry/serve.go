package entry

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/adrkit/adrkit-go/adapters/mcp"
)

// The values of --tools (ADRKIT_MCP_TOOLS): the four tools of the
// contract, unchanged, or those and the extended ones
// (docs/extended-tools.md).
const (
	ToolsDefault  = "default"
	ToolsExtended = "extended"
)

// The values of --content (ADRKIT_MCP_CONTENT): a tool answer's content
// is its summary line, or that line and the structured answer as JSON
// text, for clients that hand the model only content.
const (
	ContentSummary = "summary"
	ContentFull    = "full"
)

// ServeFlags are the options of the MCP server that both entries take,
// besides the corpus options.
func ServeFlags(getenv func(string) (string, bool)) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{
			Name: "tools",
			Usage: "tool surface: default (the four tools) or extended (adds get_supersession_chain, " +
				"list_decision_changes and list_review_queue; see docs/extended-tools.md)",
			Value:   ToolsDefault,
			Sources: FromEnv(getenv, "ADRKIT_MCP_TOOLS"),
		},
		&cli.StringFlag{
			Name: "content",
			Usage: "content of a tool answer: summary (the one summary line) or full (also the structured answer " +
				"as JSON text, for clients that give the model only content and ignore structuredContent)",
			Value:   ContentSummary,
			Sources: FromEnv(getenv, "ADRKIT_MCP_CONTENT"),
		},
	}
}

// Surface is what the server offers besides the corpus: the extended
// tools, and the structured answer in content as well.
type Surface struct {
	Extended, FullContent bool
}

// ReadSurface reads --tools and --content; a value outside their sets is
// a usage error, returned as its message.
func ReadSurface(cmd *cli.Command) (Surface, error) {
	tools, content := cmd.String("tools"), cmd.String("content")
	switch {
	case tools != ToolsDefault && tools != ToolsExtended:
		return Surface{}, fmt.Errorf("--tools must be %q or %q, got %q", ToolsDefault, ToolsExtended, tools)
	case content != ContentSummary && content != ContentFull:
		return Surface{}, fmt.Errorf("--content must be %q or %q, got %q", ContentSummary, ContentFull, content)
	}
	return Surface{Extended: tools == ToolsExtended, FullContent: content == ContentFull}, nil
}

// Stdio is the process side of one stdio server: where it reads and
// answers, the name every diagnostic on Err starts with ("adrkit-mcp",
// "adrkit") and the command line that starts it ("adrkit mcp").
type Stdio struct {
	Program, Command string
	In               io.Reader
	Out              io.Writer
	Err              io.Writer
	// Getenv reads the environment (nil: the process's); Serve reads
	// ProjectDirVar with it.
	Getenv func(string) (string, bool)
}

// TerminalNotice is what the server started as command says on stderr
// when stdin is a terminal: a person started it by hand, and would
// otherwise see nothing happen.
func TerminalNotice(command string) string {
	return command + " speaks the Model Context Protocol on stdin and stdout, for an MCP client such as Claude Code. " +
		"To try it, run `npx @modelcontextprotocol/inspector " + command + "`, or type " +
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + " and press Enter; Ctrl-D ends it."
}

// Serve serves MCP over std for the corpus at l until the input ends or ctx
// is done, and returns the exit status: 0 at the end of input or on a
// signal (during start-up too), 1 when the corpus cannot be read at
// start-up (said on std.Err in Describe's words, before anything is
// read), when serving failed, or when a transport problem was reported on
// std.Err while serving (each as one line, "<program>: transport error:
// ..."), whatever happened after it.
//
// A server that l does not locate (Unlocated: started outside any
// repository, no --cwd) is not refused (ADR 0044): it serves the
// repository of ProjectDirVar when that names one, else the first of the
// client's workspace roots (MCP roots) that lies in one, once the client
// has listed them; until then its tools answer corpus-unavailable and
// say why.
func Serve(ctx context.Context, l Location, s Surface, std Stdio) int {
	// A client that goes away must not kill the process silently: with
	// SIGPIPE ignored a write to the closed stdout fails with EPIPE, which
	// is reported.
	signal.Ignore(syscall.SIGPIPE)
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(std.Err, "%s: %s\n", std.Program, fmt.Sprintf(format, args...))
	}
	getenv := std.Getenv
	if getenv == nil {
		getenv = os.LookupEnv
	}
	if dir, ok := getenv(ProjectDirVar); ok && dir != "" && l.Unlocated() {
		l = l.Within(dir)
	}
	var svc mcp.ToolService
	var locate func(context.Context, mcp.ClientRoots) mcp.ToolService
	if l.Unlocated() {
		svc = l.unlocated(s, offersNoRoots)
		locate = l.fromRoots(s, func(root string) { say("serving the repository at %s, a workspace root of the client", root) })
	} else {
		opened, err := l.Open(ctx, s)
		if err != nil {
			return failed(ctx, l, std, err)
		}
		svc = opened
	}
	SetCollector()
	if f, ok := std.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		say("%s", TerminalNotice(std.Command))
	}
	var diagnosed atomic.Bool
	srv := mcp.New(svc, mcp.Options{
		FullContent: s.FullContent, In: std.In, Out: std.Out, Locate: locate,
		OnError: func(err error) {
			diagnosed.Store(true)
			say("transport error: %v", err)
		},
	})
	if err := srv.Serve(ctx); err != nil {
		return failed(ctx, l, std, err)
	}
	if diagnosed.Load() && ctx.Err() == nil {
		return 1
	}
	return 0
}

// failed is the exit status of a server that could not serve: 0 when ctx
// ended (a signal is a clean end, whatever it interrupted), else 1, with
// err said on std.Err (an unusable corpus in Describe's words).
func failed(ctx context.Context, l Location, std Stdio, err error) int {
	if ctx.Err() != nil {
		return 0
	}
	msg := l.Describe(err)
	if msg == "" {
		msg = err.Error()
	}
	fmt.Fprintf(std.Err, "%s: %s\n", std.Program, msg)
	return 1
}
