package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/internal/version"
)

// Name is the server name reported to clients.
const Name = "adrkit-mcp"

// cacheTTLMillis is the cache hint on the answers that cannot change while
// the process runs (server/discover and tools/list on the modern era).
const cacheTTLMillis = 300000

// Options configures a Server: its streams and what its answers carry.
// The service it serves is built by the composition root
// (cmd/internal/entry), which has already checked the corpus.
type Options struct {
	// FullContent adds the structured answer, as JSON text, as a second
	// text block of every successful tools/call answer's content, for
	// clients that pass only content to the model and ignore
	// structuredContent. Off, content is the contract's one summary line.
	FullContent bool
	// In is where requests are read from (required).
	In io.Reader
	// Out receives the protocol frames and nothing else (required).
	Out io.Writer
	// OnError receives failures on the connection that no request can be
	// told about: malformed input, refused protocol revisions, output
	// write failures (required). It may be called concurrently. The
	// process streams and the words of a diagnostic are the entry's
	// (cmd/internal/entry), not this library's.
	OnError func(error)
	// Locate, when set, finds the corpus from the client, for a server
	// started where there is none: once a client that declared the roots
	// capability in its initialize has sent notifications/initialized,
	// and whenever it sends notifications/roots/list_changed, it is
	// asked for its roots (roots/list), and tool calls are answered from
	// then on by the service Locate returns for its answer, which offers
	// the same tools as the one given to New. Tool calls wait while the
	// client is being asked; until it has answered, and for a client
	// without roots, the service given to New answers. It is the
	// composition root's: this package only parses what the client said.
	Locate func(context.Context, ClientRoots) ToolService
}

// Server is one MCP server over one byte stream pair. Create it with New;
// call Serve once at a time.
type Server struct {
	tools ToolService
	opts  Options
}

// ToolService answers tool calls: app.Service is the one the binaries
// serve; tests give their own.
type ToolService interface {
	Tools() []app.ToolInfo
	Call(ctx context.Context, tool string, args json.RawMessage) (app.Result, error)
}

// New returns a Server of the tools of svc for opts. It does no I/O. It
// panics when In, Out or OnError is missing, a mistake of the program
// rather than of its input.
func New(svc ToolService, opts Options) *Server {
	if opts.In == nil || opts.Out == nil || opts.OnError == nil {
		panic("mcp.New: Options.In, Out and OnError are required")
	}
	return &Server{tools: svc, opts: opts}
}

// Serve serves requests until the input ends (after answering every
// request already read) or ctx is done (abandoning the requests in
// flight); in both cases it returns nil. Failures on the connection
// itself (malformed input, write errors) go to OnError, not to the
// caller.
func (s *Server) Serve(ctx context.Context) error {
	e := newEngine(s.tools, s.opts.FullContent)
	c := newStdioConn(s.opts.In, s.opts.Out, s.opts.OnError)
	if s.opts.Locate != nil {
		// Asking the client ends with its input: nothing can answer then.
		life, stop := context.WithCancel(ctx)
		defer stop()
		go func() {
			select {
			case <-c.drained:
				stop()
			case <-life.Done():
			}
		}()
		e.roots = &roots{locate: s.opts.Locate, life: life, current: s.tools}
	}
	return e.run(ctx, c)
}

// engine is the SDK server with what the middleware and tool handlers
// need: one per stdio connection, one per corpus served over HTTP (where
// the SDK connects a session of its own to it for every request).
type engine struct {
	impl        *sdk.Implementation
	tools       ToolService
	fullContent bool
	server      *sdk.Server
	// roots, on a stdio connection with Options.Locate, is the service
	// found from the client's roots (nil: tools, always).
	roots *roots
}

// newEngine builds the SDK server: the tools of svc as its tool table
// describes them and the era middleware. Both
// transports build it here, and only here.
func newEngine(svc ToolService, fullContent bool) *engine {
	s := &engine{impl: &sdk.Implementation{Name: Name, Version: version.String()}, tools: svc, fullContent: fullContent}
	s.server = sdk.NewServer(s.impl, &sdk.ServerOptions{
		Capabilities: capabilities(),
		// The only revision server/discover advertises, and the one an
		// envelope must name (legacy requests never reach this check).
		SupportedProtocolVersions: []string{modernRevision},
		SetCacheable: func(_ context.Context, _ sdk.Request, c *sdk.Cacheable) {
			c.TTLMs, c.CacheScope = cacheTTLMillis, "public"
		},
	})
	for _, t := range svc.Tools() {
		s.server.AddTool(&sdk.Tool{
			Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Annotations: annotations(),
		}, s.toolHandler(t.Name))
	}
	s.server.AddReceivingMiddleware(s.middleware)
	return s
}

// annotations are the same for every tool: each one only reads the local
// corpus and answers the same way until the corpus changes.
func annotations() *sdk.ToolAnnotations {
	no := false
	return &sdk.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}
}

// run serves one connection until it ends or ctx is done; then requests in
// flight are abandoned.
func (s *engine) run(ctx context.Context, c *stdioConn) error {
	// The session starts out "initialized": the contract serves requests
	// that arrive before (or without) an initialize, which the SDK would
	// otherwise refuse, and initialize itself is answered by the
	// middleware. The revision recorded here only keeps the SDK from
	// treating legacy tool calls as modern ones.
	state := &sdk.ServerSessionState{InitializeParams: &sdk.InitializeParams{
		ProtocolVersion: legacyRevisions[0],
		Capabilities:    &sdk.ClientCapabilities{},
	}}
	ss, err := s.server.Connect(ctx, c, &sdk.ServerSessionOptions{State: state})
	if err != nil {
		return fmt.Errorf("connecting the MCP session: %w", err)
	}
	ended := make(chan struct{})
	go func() {
		_ = ss.Wait() // failures were reported by the transport
		close(ended)
	}()
	select {
	case <-ended:
	case <-ctx.Done():
		// The SDK's Close waits for every handler to return; closing the
		// connection first cancels them.
		_ = c.Close()
		_ = ss.Close()
		<-ended
	}
	return nil
}

// toolHandler calls the service for one tool. Whatever goes wrong inside,
// the client gets an answer: an unexpected failure or a panic becomes an
// isError result.
func (s *engine) toolHandler(name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = faultResult(fmt.Sprintf("Tool %s failed unexpectedly: %v", name, p)), nil
			}
		}()
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		// The SDK found the tool (registered from the same table) and the
		// era pin refused arguments that are not an object, so an error
		// here is the service's own failure.
		svc := s.tools
		if s.roots != nil {
			svc = s.roots.service(ctx)
		}
		r, err := svc.Call(ctx, name, args)
		if err != nil {
			return faultResult(fmt.Sprintf("Tool %s failed unexpectedly: %v", name, err)), nil
		}
		out := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: r.Text}}, IsError: r.IsError}
		if !r.IsError {
			structured, err := encodeStructured(r.Structured)
			if err != nil {
				return faultResult(fmt.Sprintf("Tool %s produced an answer that cannot be encoded: %v", name, err)), nil
			}
			out.StructuredContent = structured
			if s.fullContent {
				out.Content = append(out.Content, &sdk.TextContent{Text: string(structured)})
			}
		}
		return out, nil
	}
}

// encodeStructured encodes a structured answer up front. The SDK encodes
// results only when writing them, and a result it cannot encode is
// dropped without any answer; encoded here, such a failure becomes an
// isError answer instead. HTML characters are left unescaped, as the
// reference writes them.
func encodeStructured(v *app.Answer) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

// faultResult is the isError answer for a failure that is not the
// caller's fault.
func faultResult(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, IsError: true}
}
