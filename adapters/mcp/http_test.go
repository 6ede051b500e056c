package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/httpload"
)

// serveHTTP serves the fake tool service over HTTP.
func serveHTTP(t *testing.T) (*httptest.Server, *HTTPHandler) {
	t.Helper()
	h := NewHTTP(&fakeTools{}, HTTPOptions{})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, h
}

// post sends body to url with the headers hdr as given (httpload.Send).
func post(t *testing.T, url, body string, hdr map[string]string) httpload.Answer {
	t.Helper()
	target := httpload.Target{URL: url, Header: http.Header{}, AsGiven: true}
	for k, v := range hdr {
		target.Header.Set(k, v)
	}
	a, err := httpload.Send(context.Background(), target, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// modern are the headers of a 2026-07-28 request for method (and tool).
func modern(method, tool string) map[string]string {
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	if tool != "" {
		h["Mcp-Name"] = tool
	}
	return h
}

func TestHTTPServesBothEras(t *testing.T) {
	srv, _ := serveHTTP(t)
	// A 2025-era client: initialize optional, then its revision in the
	// header.
	for _, hdr := range []map[string]string{nil, {"MCP-Protocol-Version": "2025-06-18"}} {
		got := post(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_decision","arguments":{"x":1}}}`, hdr)
		if got.Status != http.StatusOK || !strings.Contains(string(got.Body), `"text":"called get_decision"`) ||
			strings.Contains(string(got.Body), "resultType") || strings.Contains(string(got.Body), "_meta") {
			t.Errorf("legacy call with %v: %d %s", hdr, got.Status, string(got.Body))
		}
		list := post(t, srv.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, hdr)
		if list.Status != http.StatusOK || strings.Contains(string(list.Body), "ttlMs") || !strings.Contains(string(list.Body), `"name":"search_decisions"`) {
			t.Errorf("legacy tools/list with %v: %d %.200s", hdr, list.Status, string(list.Body))
		}
	}
	init := post(t, srv.URL, initLegacy, nil)
	if init.Status != http.StatusOK || !strings.Contains(string(init.Body), `"protocolVersion":"2025-06-18"`) {
		t.Errorf("initialize: %d %s", init.Status, string(init.Body))
	}
	if n := post(t, srv.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil); n.Status != http.StatusAccepted || string(n.Body) != "" {
		t.Errorf("notification: %d %q", n.Status, string(n.Body))
	}

	// A 2026-07-28 client: the envelope, and the headers mirroring it.
	disc := post(t, srv.URL, `{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{`+modernMeta+`}}`, modern("server/discover", ""))
	if disc.Status != http.StatusOK || !strings.Contains(string(disc.Body), `"supportedVersions":["2026-07-28"]`) ||
		!strings.Contains(string(disc.Body), `"ttlMs":300000,"cacheScope":"public"`) {
		t.Errorf("discover: %d %s", disc.Status, string(disc.Body))
	}
	call := post(t, srv.URL, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_decision","arguments":{},`+modernMeta+`}}`,
		modern("tools/call", "get_decision"))
	if call.Status != http.StatusOK || !strings.Contains(string(call.Body), `"resultType":"complete"`) || !strings.Contains(string(call.Body), `"io.modelcontextprotocol/serverInfo"`) {
		t.Errorf("modern call: %d %s", call.Status, string(call.Body))
	}
	// A tool name outside plain ASCII travels Base64-encoded in Mcp-Name.
	enc := post(t, srv.URL, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_decision","arguments":{},`+modernMeta+`}}`,
		modern("tools/call", "=?base64?Z2V0X2RlY2lzaW9u?="))
	if enc.Status != http.StatusOK || !strings.Contains(string(enc.Body), `"resultType":"complete"`) {
		t.Errorf("Base64 Mcp-Name: %d %s", enc.Status, string(enc.Body))
	}
	for _, ex := range []httpload.Answer{init, disc, call} {
		if ex.Header.Get("Mcp-Session-Id") != "" {
			t.Errorf("a session id was minted: %v", ex.Header)
		}
	}
}

func TestHTTPRefusals(t *testing.T) {
	srv, _ := serveHTTP(t)
	const (
		listModern = `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{` + modernMeta + `}}`
		callModern = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_decision","arguments":{},` + modernMeta + `}}`
	)
	for _, tc := range []struct {
		name, body string
		hdr        map[string]string
		status     int
		// want is the answer's error code and (when set) message; noID says
		// the error names no request.
		code    int64
		message string
		noID    bool
	}{
		{name: "not JSON", body: `{"jsonrpc":`, status: 400, code: -32700, noID: true},
		{name: "a batch", body: `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, status: 400, code: -32600, noID: true},
		{name: "not JSON-RPC 2.0", body: `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, status: 400, code: -32600, noID: true},
		{name: "a response", body: `{"jsonrpc":"2.0","id":1,"result":{}}`, status: 400, code: -32600, noID: true},
		{name: "legacy unknown method", body: `{"jsonrpc":"2.0","id":7,"method":"foo/bar"}`, status: 200, code: -32601, message: `method not found: "foo/bar"`},
		{name: "legacy discover", body: `{"jsonrpc":"2.0","id":7,"method":"server/discover"}`, status: 200, code: -32601},
		{name: "legacy malformed tools/call", body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":5}}`, status: 200, code: -32602},
		{name: "unsupported header revision", body: `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, hdr: map[string]string{"MCP-Protocol-Version": "2099-01-01"},
			status: 400, code: -32022,
			message: `MCP-Protocol-Version "2099-01-01" is not supported; supported: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07`},
		// An envelope naming another revision is refused as on a stdio
		// connection's opening, whatever its header's revision.
		{name: "unsupported envelope revision", body: `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			hdr: map[string]string{"MCP-Protocol-Version": "2099-01-01"}, status: 400, code: -32022, message: `revision "2099-01-01" is not supported; supported: 2026-07-28`},
		{name: "envelope of a handshake revision", body: `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			hdr: map[string]string{"MCP-Protocol-Version": "2025-06-18"}, status: 400, code: -32022, message: `revision "2025-06-18" is not supported; supported: 2026-07-28`},
		{name: "envelope without the header", body: listModern, status: 400, code: -32020},
		{name: "envelope unlike the header", body: listModern, hdr: map[string]string{"MCP-Protocol-Version": "2025-06-18"}, status: 400, code: -32020},
		{name: "envelope unlike an unknown header", body: listModern, hdr: map[string]string{"MCP-Protocol-Version": "2099-01-01"}, status: 400, code: -32020},
		{name: "no Mcp-Method", body: listModern, hdr: map[string]string{"MCP-Protocol-Version": "2026-07-28"}, status: 400, code: -32020},
		{name: "Mcp-Method unlike the body", body: listModern, hdr: modern("tools/call", ""), status: 400, code: -32020},
		{name: "no Mcp-Name", body: callModern, hdr: modern("tools/call", ""), status: 400, code: -32020},
		{name: "Mcp-Name unlike the body", body: callModern, hdr: modern("tools/call", "search_decisions"), status: 400, code: -32020},
		{name: "modern without the envelope", body: `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, hdr: modern("tools/list", ""), status: 400, code: -32602,
			message: "the MCP-Protocol-Version header names revision 2026-07-28: the request must carry the _meta envelope (io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities)"},
		{name: "modern invalid envelope", body: `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			hdr: modern("tools/list", ""), status: 400, code: -32602},
		{name: "modern ping", body: `{"jsonrpc":"2.0","id":7,"method":"ping","params":{` + modernMeta + `}}`, hdr: modern("ping", ""), status: 404, code: -32601, message: `method not found: "ping"`},
		{name: "modern unknown method", body: `{"jsonrpc":"2.0","id":7,"method":"foo/bar","params":{` + modernMeta + `}}`, hdr: modern("foo/bar", ""), status: 404, code: -32601},
		{name: "modern initialize", body: initLegacy, hdr: modern("initialize", ""), status: 400, code: -32022},
		{name: "modern unknown tool", body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope","arguments":{},` + modernMeta + `}}`,
			hdr: modern("tools/call", "nope"), status: 400, code: -32602},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := post(t, srv.URL, tc.body, tc.hdr)
			var answer struct {
				ID    json.RawMessage `json:"id"`
				Error struct {
					Code    int64  `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(string(got.Body)), &answer); err != nil || got.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %q (%s) is not a JSON answer", got.Status, string(got.Body), got.Header.Get("Content-Type"))
			}
			if got.Status != tc.status || answer.Error.Code != tc.code || (tc.message != "" && answer.Error.Message != tc.message) {
				t.Errorf("got %d %s, want %d, code %d %q", got.Status, string(got.Body), tc.status, tc.code, tc.message)
			}
			if (answer.ID == nil) != tc.noID {
				t.Errorf("id = %s, want an id: %v", answer.ID, !tc.noID)
			}
		})
	}
}

func TestHTTPTransportEdges(t *testing.T) {
	srv, _ := serveHTTP(t)
	// A 2025-era client may ask for a stream of server messages (GET) or
	// end its session (DELETE), naming its revision: 405, there are none.
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		req, err := http.NewRequest(method, srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		req.Header.Set("Mcp-Session-Id", "abc")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Errorf("%s: %d, Allow %q", method, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}

	// A session id and a Last-Event-ID from an older client are ignored.
	stale := map[string]string{"Mcp-Session-Id": "abc", "Last-Event-ID": "s_1"}
	if got := post(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, stale); got.Status != 200 || string(got.Body) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("ping with a session id and Last-Event-ID: %d %s", got.Status, string(got.Body))
	}

	// A notification that cannot be accepted is refused with 400; the
	// others are accepted.
	bad := `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	if got := post(t, srv.URL, bad, modern("notifications/initialized", "")); got.Status != http.StatusBadRequest || !strings.Contains(string(got.Body), `"code":-32602`) {
		t.Errorf("notification with a broken envelope: %d %s", got.Status, string(got.Body))
	}
	if got := post(t, srv.URL, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`, nil); got.Status != http.StatusAccepted {
		t.Errorf("cancellation: %d %s", got.Status, string(got.Body))
	}
}

// A subscriptions/listen stream is acknowledged and stays open until the
// client leaves or the server drains; then it ends, and a new one ends at
// once.
func TestHTTPListenEndsOnDrain(t *testing.T) {
	srv, h := serveHTTP(t)
	listen := `{"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modernMeta + `}}`
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(listen))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range modern("subscriptions/listen", "") {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard only
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	r := bufio.NewReader(resp.Body)
	var ack string
	for ack == "" {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			ack = data
		}
	}
	if !strings.Contains(ack, `"method":"notifications/subscriptions/acknowledged"`) {
		t.Fatalf("first event %s", ack)
	}
	h.Drain()
	if _, err := io.ReadAll(r); err != nil {
		t.Fatalf("the stream did not end cleanly: %v", err)
	}
	again := post(t, srv.URL, listen, modern("subscriptions/listen", ""))
	if again.Status != http.StatusOK {
		t.Errorf("listen after drain: %d %s", again.Status, string(again.Body))
	}
}

// dispatchNoter is a ResponseWriter that wants to know what the handler
// dispatched, as the team front's access log does.
type dispatchNoter struct {
	*httptest.ResponseRecorder
	notes        int
	method, tool string
	refuse       bool
}

func (n *dispatchNoter) NoteDispatch(method, tool string) bool {
	n.notes++
	n.method, n.tool = method, tool
	return !n.refuse
}

// The handler tells its writer the method and tool it dispatches, decoded
// once and case-sensitively as dispatch decodes them, and only names it
// knows: anything else is one fixed word. Before the handler said it, the
// front decoded the body again, case-insensitively: a body with "method"
// and "METHOD" ran one method and logged the other.
func TestHTTPNotesDispatch(t *testing.T) {
	_, h := serveHTTP(t)
	for _, tc := range []struct {
		name, body   string
		method, tool string
		answered     string
	}{
		{"a tool call with a decoy METHOD", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_decisions","arguments":{}},"METHOD":"ping"}`,
			"tools/call", "search_decisions", `called search_decisions`},
		{"a ping with a decoy METHOD", `{"jsonrpc":"2.0","id":1,"METHOD":"tools/call","method":"ping"}`, "ping", "", `"result":{}`},
		{"a decoy NAME", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"NAME":"get_decision","name":"search_decisions","arguments":{}}}`,
			"tools/call", "search_decisions", `called search_decisions`},
		{"tools/list", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "tools/list", "", `"tools"`},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "notifications/initialized", "", ""},
		{"an unknown method", `{"jsonrpc":"2.0","id":1,"method":"a/b.c"}`, "other", "", `-32601`},
		{"an unknown tool", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x/y.z","arguments":{}}}`, "tools/call", "other", `-32602`},
		{"a tool name that is not a string", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}`, "tools/call", "", `-32602`},
		{"not JSON", `{"jsonrpc":`, "unparsable", "", `-32700`},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "invalid", "", `-32600`},
		{"a response", `{"jsonrpc":"2.0","id":1,"result":{}}`, "invalid", "", `-32600`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			w := &dispatchNoter{ResponseRecorder: httptest.NewRecorder()}
			h.ServeHTTP(w, req)
			if w.notes != 1 || w.method != tc.method || w.tool != tc.tool {
				t.Errorf("noted %d times, last %q %q; want once, %q %q", w.notes, w.method, w.tool, tc.method, tc.tool)
			}
			if !strings.Contains(w.Body.String(), tc.answered) {
				t.Errorf("answer %d %s, want it to hold %s", w.Code, w.Body, tc.answered)
			}
		})
	}
	// A writer that refuses the request gets nothing written: its owner
	// answers.
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	w := &dispatchNoter{ResponseRecorder: httptest.NewRecorder(), refuse: true}
	h.ServeHTTP(w, req)
	if w.notes != 1 || w.Body.Len() != 0 || w.Code != http.StatusOK || len(w.Header()) != 0 {
		t.Errorf("a refused request was answered: %d %v %s", w.Code, w.Header(), w.Body)
	}
}
