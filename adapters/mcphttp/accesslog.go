package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"
)

// maxLoggedName bounds the method and tool names written to the log; the
// MCP tool-name rules allow 128 characters.
const maxLoggedName = 128

// peeked is what the access log tells of a request body: the JSON-RPC
// method and, for tools/call, the tool. Never the arguments.
type peeked struct {
	method, tool string
}

// peekMessage reads the method and tool name of a JSON-RPC request body.
// One json.Unmarshal into a struct that names only those two fields does
// it: the decoder skips everything else (the arguments above all) without
// building values for it, and a field of the wrong type is left empty
// while the rest is still decoded. A batch is logged as "batch"; a body
// that is not JSON as "unparsable", an empty one not at all.
func peekMessage(body []byte) peeked {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 {
		return peeked{} // a GET or DELETE: nothing to tell
	}
	if trimmed[0] == '[' {
		return peeked{method: "batch"}
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		if _, typeErr := err.(*json.UnmarshalTypeError); !typeErr {
			return peeked{method: "unparsable"}
		}
	}
	p := peeked{method: loggableName(msg.Method)}
	if msg.Method == "tools/call" {
		p.tool = loggableName(msg.Params.Name)
	}
	return p
}

// loggableName is name if it looks like a method or tool name (letters,
// digits and "_-./$", at most maxLoggedName), "invalid" if it does not,
// so that nothing a client chose freely (a secret pasted into a tool
// name, say) reaches the log.
func loggableName(name string) string {
	if name == "" {
		return ""
	}
	if len(name) > maxLoggedName {
		return "invalid"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '_' || c == '-' || c == '.' || c == '/' || c == '$':
		default:
			return "invalid"
		}
	}
	return name
}

// logRequest writes the access-log record of one MCP request: method,
// tool, corpus, status, duration, and the HTTP method when it is not
// POST. No header, token, argument or address is ever part of it.
func (f *Front) logRequest(ctx context.Context, httpMethod, corpus string, p peeked, status int, d time.Duration) {
	attrs := make([]slog.Attr, 0, 6)
	if httpMethod != http.MethodPost {
		attrs = append(attrs, slog.String("http", loggableName(httpMethod)))
	}
	if p.method != "" {
		attrs = append(attrs, slog.String("method", p.method))
	}
	if p.tool != "" {
		attrs = append(attrs, slog.String("tool", p.tool))
	}
	if corpus != "" {
		attrs = append(attrs, corpusAttr(corpus))
	}
	attrs = append(attrs, slog.Int("status", status), slog.Float64("durationMs", float64(d.Microseconds())/1000))
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelWarn
	}
	f.log.LogAttrs(ctx, level, "mcp request", attrs...)
}

func corpusAttr(name string) slog.Attr { return slog.String("corpus", name) }

// recorder remembers the status of a response. It unwraps to the
// underlying writer, so http.ResponseController (which go-sdk uses to
// flush) reaches the connection.
type recorder struct {
	http.ResponseWriter
	code int
}

func (r *recorder) WriteHeader(code int) {
	if r.code == 0 && code >= 200 {
		r.code = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Flush lets handlers that assert http.Flusher stream through the
// recorder.
func (r *recorder) Flush() {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	_ = http.NewResponseController(r.ResponseWriter).Flush()
}

// Unwrap is for http.ResponseController.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// status is the status sent, 200 when the handler wrote nothing.
func (r *recorder) status() int {
	if r.code == 0 {
		return http.StatusOK
	}
	return r.code
}
