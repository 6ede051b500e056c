package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adrkit/adrkit-go/internal/httpload"
)

// stepClock advances 1.5 ms at every reading, so that every logged
// duration is exactly 1.5 ms and the access log can be a golden file.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(1500 * time.Microsecond)
	return c.t
}

// echoServer is a small real MCP server: one tool, echo, whose answer
// names the corpus it came from.
func echoServer(corpus string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "echo-" + corpus, Version: "0.0.1"}, nil)
	s.AddTool(&sdk.Tool{
		Name:        "echo",
		Description: "Says the text back.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
	}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var in struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: corpus + ": " + in.Text}}}, nil
	})
	return s
}

// echoHandler serves echoServer(corpus) with go-sdk's streamable HTTP
// handler, configured as adapters/mcp configures it behind the front, and
// tells the front what it dispatches as adapters/mcp's HTTPHandler does
// (NoteDispatch: known names only, fixed words for the rest).
func echoHandler(corpus string) http.Handler {
	s := echoServer(corpus)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, ok := w.(interface {
			NoteDispatch(method, tool string) bool
		})
		if r.Method != http.MethodPost || !ok {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if !n.NoteDispatch(noteOf(body)) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// noteOf is what an echo corpus dispatches for body, in the words of
// adapters/mcp's HTTPHandler.
func noteOf(body []byte) (method, tool string) {
	var fields map[string]json.RawMessage
	if !json.Valid(body) {
		return "unparsable", ""
	}
	var m string
	if json.Unmarshal(body, &fields) != nil || json.Unmarshal(fields["method"], &m) != nil {
		return "invalid", ""
	}
	method = "other"
	if slices.Contains([]string{"initialize", "ping", "tools/list", "tools/call", "server/discover", "subscriptions/listen", "notifications/initialized"}, m) {
		method = m
	}
	var params map[string]json.RawMessage
	var name string
	if m == "tools/call" && json.Unmarshal(fields["params"], &params) == nil && json.Unmarshal(params["name"], &name) == nil {
		tool = "other"
		if name == "echo" {
			tool = name
		}
	}
	return method, tool
}

// echoCorpora are named corpora served by echo servers.
func echoCorpora(names ...string) []Endpoint {
	var cs []Endpoint
	for _, n := range names {
		cs = append(cs, Endpoint{Name: n, Handler: echoHandler(n)})
	}
	return cs
}

// logBuffer collects the JSON log; the time attribute is dropped so that
// records can be compared.
type logBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	written chan struct{} // closed and replaced at every write
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written != nil {
		close(b.written)
		b.written = nil
	}
	return b.buf.Write(p)
}

// next is closed at the next write.
func (b *logBuffer) next() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written == nil {
		b.written = make(chan struct{})
	}
	return b.written
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(b, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
}

// served is a front listening on a loopback port.
type served struct {
	url  string
	srv  *Server
	logs *logBuffer
}

// serve starts a front over opts on 127.0.0.1 and stops it when the test
// ends. Clock and Log are filled in when unset.
func serve(t *testing.T, opts Options, sopts ServerOptions) *served {
	t.Helper()
	logs := &logBuffer{}
	if opts.Clock == nil {
		opts.Clock = &stepClock{}
	}
	if opts.Log == nil {
		opts.Log = logs.logger()
	}
	if sopts.ShutdownIdle == 0 {
		// The kept-alive connections of the test's clients then close at
		// once when the test ends.
		sopts.ShutdownIdle = time.Millisecond
	}
	front, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen("127.0.0.1:0", front, sopts)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return &served{url: "http://" + srv.Addr().String(), srv: srv, logs: logs}
}

// post sends body to url through httpload.Send with the headers of a
// 2025-era MCP client, then hdr: "Host" sets the request's host, a value
// of "" removes the header.
func post(t *testing.T, url, body string, hdr map[string]string) httpload.Answer {
	t.Helper()
	target := httpload.Target{URL: url, Header: http.Header{"Mcp-Protocol-Version": {"2025-06-18"}}, AsGiven: true}
	for k, v := range hdr {
		switch {
		case k == "Host":
			target.Host = v
		case v == "":
			target.Header.Del(k)
		default:
			target.Header.Set(k, v)
		}
	}
	a, err := httpload.Send(context.Background(), target, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// callEcho is a 2025-era tools/call of echo.
func callEcho(id int, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`, id, text)
}

// callEchoModern is a 2026-07-28 tools/call of echo, with its envelope.
func callEchoModern(id int, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q},`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id, text)
}

// echoText is the text of an echo answer, or "" when body is not one.
func echoText(body string) string {
	var msg struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if json.Unmarshal([]byte(body), &msg) != nil || len(msg.Result.Content) != 1 {
		return ""
	}
	return msg.Result.Content[0].Text
}

func bearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

// alphaTokens are tokens of the file kind holding alpha alone.
func alphaTokens(t *testing.T) *Tokens {
	t.Helper()
	file := t.TempDir() + "/tokens"
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tokens
}

// dialSilent opens a connection to addr and sends nothing on it; the test
// closes it when it ends.
func dialSilent(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.SetDeadline(time.Now().Add(30 * time.Second)); err != nil { // a hang guard only
		t.Fatal(err)
	}
	return conn
}

// guardedCall makes a call with alpha's token to url on a new connection,
// guarded against a hang.
func guardedCall(t *testing.T, url string) httpload.Answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard only
	defer cancel()
	a, err := httpload.Send(ctx, httpload.Target{URL: url, Token: alphaToken,
		Header: http.Header{"Mcp-Protocol-Version": {"2025-06-18"}}}, []byte(callEcho(1, "x")))
	if err != nil {
		t.Fatalf("a call to %s: %v", url, err)
	}
	return a
}

// awaitCount waits until the log's "connections closed" records for
// reason count at least n closes, and returns their count.
func awaitCount(logs *logBuffer, reason string) func(n int) int {
	return func(n int) int {
		for {
			next := logs.next()
			total := 0
			for _, line := range nonEmptyLines(logs.String()) {
				var rec struct {
					Msg, Reason string
					Count       int
				}
				if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "connections closed" && rec.Reason == reason {
					total += rec.Count
				}
			}
			if total >= n {
				return total
			}
			<-next
		}
	}
}
