package mcphttp

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"time"
)

// maxLoggedName bounds the method and tool names written to the log; the
// MCP tool-name rules allow 128 characters.
const maxLoggedName = 128

// otherWord is logged in the place of anything a client chose that the
// server does not know: a corpus that is not served, an HTTP method that
// is not a standard one, a method or tool name the handler did not
// recognise. The log never carries client-chosen text, so a client can
// neither smuggle text into it (a token sent as the corpus, a path) nor
// grow its records.
const otherWord = "other"

// dispatched is what the access log tells of a request's body: what the
// corpus's handler said it dispatched (NoteDispatch), never the body.
type dispatched struct {
	method, tool string
}

// knownHTTPMethods are the HTTP methods logged by name.
var knownHTTPMethods = []string{
	http.MethodGet, http.MethodHead, http.MethodPut, http.MethodPatch, http.MethodDelete,
	http.MethodConnect, http.MethodOptions, http.MethodTrace,
}

// loggableName is name if it looks like a method or tool name (letters,
// digits and "_-./$", at most maxLoggedName), otherWord if it does not:
// the handler says only names it knows, and this bound holds whatever
// handler the front is given.
func loggableName(name string) string {
	if name == "" {
		return ""
	}
	if len(name) > maxLoggedName {
		return otherWord
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '_' || c == '-' || c == '.' || c == '/' || c == '$':
		default:
			return otherWord
		}
	}
	return name
}

// loggableCorpus is the corpus's name when it is a served one, otherWord
// otherwise (the path segment is the client's text, and /mcp/<token> is
// an easy mistake), "" for the only corpus.
func (f *Front) loggableCorpus(name string) string {
	if _, ok := f.corpora[name]; ok {
		return name
	}
	return otherWord
}

// logRequest writes the access-log record of one MCP request: method,
// tool, corpus, status, duration, and the HTTP method when it is not
// POST. No header, token, argument or address is ever part of it.
func (f *Front) logRequest(ctx context.Context, httpMethod, corpus string, p dispatched, status int, d time.Duration) {
	attrs := make([]slog.Attr, 0, 6)
	if httpMethod != http.MethodPost {
		known := otherWord
		if slices.Contains(knownHTTPMethods, httpMethod) {
			known = httpMethod
		}
		attrs = append(attrs, slog.String("http", known))
	}
	if p.method != "" {
		attrs = append(attrs, slog.String("method", p.method))
	}
	if p.tool != "" {
		attrs = append(attrs, slog.String("tool", p.tool))
	}
	if corpus := f.loggableCorpus(corpus); corpus != "" {
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
	// noted is what the handler said it dispatched; onDispatch, when set,
	// decides whether it is served (adapters/mcp's DispatchNoter).
	noted      dispatched
	onDispatch func(dispatched) bool
}

// NoteDispatch is told, by a handler that decodes the body (adapters/mcp's
// HTTPHandler), the method and tool it dispatches: the access log says
// what was run, from the one decoding dispatch itself used.
func (r *recorder) NoteDispatch(method, tool string) bool {
	r.noted = dispatched{method: loggableName(method), tool: loggableName(tool)}
	if r.onDispatch != nil {
		return r.onDispatch(r.noted)
	}
	return true
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
