package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/app"
)

// FuzzHTTPMatchesStdio: a message POSTed without MCP headers is judged
// as the first message of a new stdio connection is, so it must get the
// same answer, byte for byte: the stdio session's whole output (one line,
// or nothing for a notification) against the HTTP answer. A body stdio
// answers nothing to (not JSON, not a JSON-RPC request or notification)
// gets 400 over HTTP with an error that names no request. Bodies that
// claim a protocol revision in _meta are left out: over HTTP such a claim
// needs its MCP-Protocol-Version header, by the transport's rule.
func FuzzHTTPMatchesStdio(f *testing.F) {
	for _, seed := range []string{
		initLegacy,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"s","method":"tools/list","params":{"cursor":"x"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_decisions","arguments":{"query":"cache","limit":1}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_decision_context","arguments":{"files":["src/a.go"]}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"list_superseded","arguments":{"bogus":1}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_decision","arguments":[1]}}`,
		`{"jsonrpc":"2.0","id":10,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":11,"method":"foo/bar","params":{}}`,
		`{"jsonrpc":"2.0","id":12,"method":"server/discover","params":{}}`,
		`{"jsonrpc":"2.0","id":13,"method":"initialize","params":{"protocolVersion":"2024-10-07","capabilities":{},"clientInfo":{"name":"a","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":14,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":15,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":5}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`not json`,
		``,
	} {
		f.Add(seed)
	}
	svc := app.New(fixtureCorpus(f), app.Options{})
	srv := httptest.NewServer(NewHTTP(svc, HTTPOptions{}))
	f.Cleanup(srv.Close)
	client := srv.Client()

	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\r\n") {
			return // one stdio line, its terminator the transport's own
		}
		fr := parseFrame([]byte(line))
		if checkEnvelope(fr.meta).claimed {
			return
		}
		stdout, _ := serveBytes(t, []byte(line+"\n"))

		req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(line))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}

		switch fr.kind {
		case frameRequest:
			if want := strings.TrimSuffix(string(stdout), "\n"); string(body) != want {
				t.Fatalf("%q:\nstdio %s\nhttp  %d %s", line, want, resp.StatusCode, body)
			}
		case frameNotification:
			// Accepted (202, no body), or refused (400) as stdio drops it.
			if len(stdout) != 0 || !(resp.StatusCode == http.StatusAccepted && len(body) == 0 || resp.StatusCode == http.StatusBadRequest) {
				t.Fatalf("notification %q: stdio %q, http %d %q", line, stdout, resp.StatusCode, body)
			}
		default:
			var answer struct {
				ID    json.RawMessage `json:"id"`
				Error *struct {
					Code int64 `json:"code"`
				} `json:"error"`
			}
			if len(stdout) != 0 || resp.StatusCode != http.StatusBadRequest || json.Unmarshal(body, &answer) != nil ||
				answer.ID != nil || answer.Error == nil {
				t.Fatalf("%q: stdio %q, http %d %s", line, stdout, resp.StatusCode, body)
			}
		}
	})
}
