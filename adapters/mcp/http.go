package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP header names of the streamable HTTP transport (canonical form).
const (
	headerProtocolVersion = "Mcp-Protocol-Version"
	headerMethod          = "Mcp-Method"
	headerName            = "Mcp-Name"
)

// HTTPOptions configures NewHTTP, as the field of the same name does
// Options.
type HTTPOptions struct {
	FullContent bool
}

// HTTPHandler serves the tools of one service over MCP streamable HTTP,
// stateless, in both protocol eras, with the same engine (SDK server,
// tools, middleware) as the stdio Server and so the same answer bytes.
// Create it with NewHTTP.
//
// Every POST is a connection of its own, judged by the era rules the stdio
// transport applies to a connection's opening message, with its
// MCP-Protocol-Version header in the place of what came before:
//
//   - no header: the body decides; without an envelope (the 2025 era,
//     initialize optional) it is served in the legacy era;
//   - a handshake revision (2024-10-07 to 2025-11-25): legacy, as on a
//     connection pinned by initialize;
//   - 2026-07-28: modern, as on a connection pinned by an envelope; the
//     request must carry the _meta envelope, and Mcp-Method (and, for
//     tools/call, Mcp-Name) must repeat the body (HeaderMismatch, -32020,
//     otherwise, as the 2026-07-28 transport requires);
//   - any other revision: UnsupportedProtocolVersion (-32022).
//
// A protocol-version claim in _meta must equal the header (-32020); an
// envelope naming any revision but 2026-07-28 is then refused (-32022) as
// on a stdio connection's opening. Errors of envelope requests get the
// statuses 2026-07-28 gives them (404 for -32601, 400 for -32602, -32020,
// -32021 and -32022); those of handshake-era requests 200. A body that is
// not JSON (-32700), or JSON that is not a request or notification
// (-32600), gets 400 with an error that has no id. No session id is ever
// minted or read.
//
// It is meant to stand behind the team front (adapters/mcphttp), which
// checks Host, Origin and tokens and bounds the body first; it bounds a
// body only by MaxLineBytes, the stdio line bound.
type HTTPHandler struct {
	// streamable is go-sdk's handler over this service's engine.
	streamable http.Handler
	// tools are the names of the tools served, which NoteDispatch may be
	// told.
	tools map[string]bool

	// draining is done once Drain is called: open subscriptions/listen
	// streams end, and new ones end at once.
	draining context.Context
	drain    context.CancelFunc
}

// NewHTTP returns the handler of the tools of svc. Like New, it does no
// I/O: whether the corpus behind svc can be read is the front's readiness
// check, which the composition root gives it beside this handler.
func NewHTTP(svc ToolService, opts HTTPOptions) *HTTPHandler {
	e := newEngine(svc, opts.FullContent)
	h := &HTTPHandler{tools: map[string]bool{}}
	for _, t := range svc.Tools() {
		h.tools[t.Name] = true
	}
	h.draining, h.drain = context.WithCancel(context.Background())
	h.streamable = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return e.server }, streamableOptions())
	return h
}

// streamableOptions are the options of go-sdk's streamable HTTP handler:
//
//   - Stateless: no session ids; any replica answers any request.
//   - JSONResponse: one JSON answer per POST, no event stream (but for
//     subscriptions/listen, which the SDK always streams).
//   - PropagateRequestCancellation: a 2026-era call whose client has gone
//     away stops instead of reading a corpus for nobody.
//   - DisableLocalhostProtection: the front refuses a Host that a loopback
//     connection must not carry, allowing the configured names the SDK's
//     own check would refuse.
func streamableOptions() *sdk.StreamableHTTPOptions {
	return &sdk.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		PropagateRequestCancellation: true,
		DisableLocalhostProtection:   true,
	}
}

// Drain ends the subscriptions/listen streams that are open, which would
// otherwise outlive any shutdown, and makes new ones end at once; the
// server calls it when it starts shutting down. Requests of every other
// kind are not affected.
func (h *HTTPHandler) Drain() { h.drain() }

// ServeHTTP answers one POST; other methods (a 2025-era client's GET for
// a stream of server messages, or DELETE of a session) get the SDK's 405,
// whatever revision their headers name.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		out := r.Clone(r.Context())
		out.Header = withoutMCPHeaders(r.Header)
		h.streamable.ServeHTTP(w, out)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxLineBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, fmt.Sprintf("request body larger than %d bytes", tooLarge.Limit), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	h.ServeBody(w, r, body)
}

// ServeBody answers one POST whose body its caller has already read and
// bounded (r.Body is not read): a front that reads bodies itself, to bound
// what they hold and how long they take, hands them on without a second
// copy.
func (h *HTTPHandler) ServeBody(w http.ResponseWriter, r *http.Request, body []byte) {
	f := parseFrame(body)
	if !h.noteDispatch(w, f) {
		return
	}
	switch f.kind {
	case frameNotJSON:
		writeError(w, http.StatusBadRequest, jsonrpc.ID{}, &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "parse error: the body is not JSON"})
		return
	case frameInvalid:
		writeError(w, http.StatusBadRequest, jsonrpc.ID{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: " + f.problem})
		return
	case frameResponse:
		writeError(w, http.StatusBadRequest, jsonrpc.ID{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: "invalid request: this server sends no requests, so it takes no responses"})
		return
	}

	pin, modern, refusal := eraPinFor(f, r.Header)
	if refusal != nil {
		writeError(w, http.StatusBadRequest, f.id, refusal)
		return
	}
	d := pin.judge(f)
	// A diagnostic has no channel of its own over HTTP: the answer (and the
	// access log's status) is the whole report.
	switch {
	case d.drop:
		writeError(w, http.StatusBadRequest, jsonrpc.ID{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: d.diagnostic.Error()})
		return
	case d.verdict != nil:
		writeError(w, errorStatus(d.verdict.Code, modern), f.id, d.verdict)
		return
	}

	msg := forSDK(f, d)
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		writeError(w, http.StatusInternalServerError, f.id, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()})
		return
	}
	ctx := r.Context()
	if msg.Method == methodListen {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(h.draining, cancel)
		defer stop()
	}
	out := r.Clone(ctx)
	out.Header = sdkHeader(r.Header, f, d)
	out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(data)), int64(len(data))
	out.TransferEncoding = nil
	h.streamable.ServeHTTP(w, out)
}

// DispatchNoter is an optional interface of the http.ResponseWriter that
// HTTPHandler.ServeHTTP is given: once a POST's body is decoded, and
// before anything is answered, the handler calls NoteDispatch with the
// method it dispatches and, for tools/call, the tool, decoded exactly as
// dispatch decodes them (case-sensitive, one decoding of the body). Only
// names this server knows are passed: any other method or tool is
// "other", a body that is not JSON "unparsable", and JSON that is not a
// request or notification "invalid". When NoteDispatch returns false the
// handler writes nothing and returns: the writer's owner answers.
//
// The team front (adapters/mcphttp) implements it: its access log says
// what was run, not what a second decoding of the body would have said,
// and it counts subscriptions/listen streams apart from calls.
type DispatchNoter interface {
	NoteDispatch(method, tool string) bool
}

// Fixed words noted in the place of a method or tool name.
const (
	noteOther      = "other"
	noteUnparsable = "unparsable"
	noteInvalid    = "invalid"
)

// noteDispatch tells w, when it is a DispatchNoter, what f dispatches;
// false means w refused the request.
func (h *HTTPHandler) noteDispatch(w http.ResponseWriter, f frame) bool {
	n, ok := w.(DispatchNoter)
	if !ok {
		return true
	}
	var method, tool string
	switch f.kind {
	case frameNotJSON:
		method = noteUnparsable
	case frameInvalid, frameResponse:
		method = noteInvalid
	default:
		method = noteOther
		// Noted by name: the requests some era serves and the
		// notifications a client sends.
		if served[eraLegacy][f.method] || served[eraModern][f.method] ||
			f.method == methodCancelled || f.method == methodInitialized {
			method = f.method
		}
		if f.method == methodToolsCall && jsonType(f.params["name"]) == "string" {
			tool = noteOther
			if name := stringField(f.params, "name"); h.tools[name] {
				tool = name
			}
		}
	}
	return n.NoteDispatch(method, tool)
}

// eraPinFor checks what the streamable HTTP transport requires of the
// request's headers, and returns the eraPin its MCP-Protocol-Version
// header (and its envelope, if any) call for, and whether the request is
// of the 2026-07-28 kind, whose errors carry the statuses that revision
// assigns; a refusal is a transport error (400).
func eraPinFor(f frame, header http.Header) (pin *eraPin, modern bool, refusal *jsonrpc.Error) {
	revision := header.Get(headerProtocolVersion)
	// A claim that is not a string is an invalid envelope, for the era pin.
	env := checkEnvelope(f.meta)
	claim, claimed := env.revision, env.claimed
	if claimed {
		switch {
		case revision == "":
			return nil, false, &jsonrpc.Error{Code: sdk.CodeHeaderMismatch,
				Message: "the MCP-Protocol-Version header is required when _meta names " + sdk.MetaKeyProtocolVersion}
		case claim != revision:
			return nil, false, &jsonrpc.Error{Code: sdk.CodeHeaderMismatch,
				Message: fmt.Sprintf("header mismatch: MCP-Protocol-Version %q, but _meta names revision %q", revision, claim)}
		}
	}
	pin = &eraPin{byHeader: true}
	switch {
	case revision == "":
		pin.phase = phaseOpening
	case revision == modernRevision:
		pin.phase = phaseModern
	case claimed:
		// An envelope naming another revision: refused as on a stdio
		// connection's opening, in the same words (-32022), whether or
		// not the header's revision is a handshake one.
		pin.phase = phaseOpening
	case slices.Contains(legacyRevisions, revision):
		pin.phase = phaseLegacy
	default:
		supported := append([]string{modernRevision}, legacyRevisions...)
		return nil, false, unsupportedRevision(revision, fmt.Sprintf("MCP-Protocol-Version %q is not supported", revision), supported...)
	}
	modern = pin.phase == phaseModern || claimed
	if pin.phase == phaseModern && f.kind == frameRequest {
		if problem := checkMirroredHeaders(f, header); problem != "" {
			return nil, false, &jsonrpc.Error{Code: sdk.CodeHeaderMismatch, Message: problem}
		}
	}
	return pin, modern, nil
}

// checkMirroredHeaders checks the headers a 2026-07-28 request repeats its
// body in: Mcp-Method always, Mcp-Name for tools/call (decoded from the
// "=?base64?…?=" form a client uses for a name that is not plain ASCII).
// A tools/call without a string name is left to the era pin, which refuses
// it with -32602.
func checkMirroredHeaders(f frame, header http.Header) string {
	switch method := header.Get(headerMethod); {
	case method == "":
		return "the Mcp-Method header is required"
	case method != f.method:
		return fmt.Sprintf("header mismatch: Mcp-Method %q, but the body's method is %q", method, f.method)
	}
	if f.method != methodToolsCall || jsonType(f.params["name"]) != "string" {
		return ""
	}
	name := stringField(f.params, "name")
	raw := header.Get(headerName)
	if raw == "" {
		return "the Mcp-Name header is required for tools/call"
	}
	given, ok := decodeHeaderValue(raw)
	switch {
	case !ok:
		return "the Mcp-Name header is not valid base64 between =?base64? and ?="
	case given != name:
		return fmt.Sprintf("header mismatch: Mcp-Name %q, but the body names tool %q", given, name)
	}
	return ""
}

// decodeHeaderValue undoes the Base64 sentinel form of a mirrored header
// value ("=?base64?" + standard Base64 of the UTF-8 bytes + "?=").
func decodeHeaderValue(v string) (string, bool) {
	inner, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v, true
	}
	inner, ok = strings.CutSuffix(inner, "?=")
	if !ok {
		return v, true
	}
	b, err := base64.StdEncoding.DecodeString(inner)
	return string(b), err == nil
}

// errorStatus is the HTTP status of an error answer: for a 2026-07-28
// request the one that revision assigns to the code (as go-sdk does for
// the errors it answers itself), 200 otherwise.
func errorStatus(code int64, modern bool) int {
	if !modern {
		return http.StatusOK
	}
	switch code {
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case jsonrpc.CodeInvalidParams, sdk.CodeUnsupportedProtocolVersion, sdk.CodeMissingRequiredClientCapabilities, sdk.CodeHeaderMismatch:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// writeError answers with one JSON-RPC error, encoded as the SDK encodes
// every answer (so that a refusal's bytes are those stdio writes).
func writeError(w http.ResponseWriter, status int, id jsonrpc.ID, e *jsonrpc.Error) {
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: e})
	if err != nil {
		http.Error(w, "encoding an error answer: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// sdkHeader is the header the SDK's handler sees for f, served as d
// says: the client's, without any MCP header. A modern message (whose
// params the era pin left claiming 2026-07-28) gets the headers that
// revision needs, derived from the message itself; any other is left
// without MCP-Protocol-Version, which the SDK serves as a handshake-era
// request without a handshake.
func sdkHeader(client http.Header, f frame, d decision) http.Header {
	h := withoutMCPHeaders(client)
	if d.modern {
		h.Set(headerProtocolVersion, modernRevision)
		h.Set(headerMethod, f.method)
		if f.method == methodToolsCall {
			h.Set(headerName, stringField(f.params, "name"))
		}
	}
	return h
}

// withoutMCPHeaders is a copy of h without the MCP headers (Mcp-*, the
// session id among them), Last-Event-ID (streams are not resumable: a
// client's is ignored, as 2026-07-28 says, where the SDK would refuse the
// POST): what the SDK may see of a client's headers.
func withoutMCPHeaders(h http.Header) http.Header {
	out := h.Clone()
	for k := range out {
		if strings.HasPrefix(k, "Mcp-") {
			delete(out, k)
		}
	}
	out.Del("Last-Event-ID")
	return out
}
