package mcphttp

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// The access log of a sequence of requests, accepted and refused, is
// pinned line for line; no token and no argument ever reaches it.
func TestAccessLog(t *testing.T) {
	file := t.TempDir() + "/tokens"
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, []TokenConfig{{SHA256: digestOf(gammaToken), Corpora: []string{"payments"}}})
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, Options{Corpora: echoCorpora("payments", "search"), Tokens: tokens, MaxBodyBytes: 4 << 10}, ServerOptions{})
	const secretArgument = "s3cr3t-argument-value"
	const secretToolName = "paste of a secret: hunter2-hunter2"
	requests := []struct {
		corpus, body string
		hdr          map[string]string
		status       int
	}{
		{"payments", callEcho(1, secretArgument), nil, 401},
		{"payments", callEcho(1, secretArgument), bearer(deltaToken), 401},
		{"search", callEcho(1, secretArgument), bearer(gammaToken), 403},
		{"payments", callEcho(1, secretArgument), bearer(gammaToken), 200},
		{"search", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, bearer(alphaToken), 200},
		{"search", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, bearer(alphaToken), 202},
		{"search", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"` + secretToolName + `","arguments":{}}}`, bearer(alphaToken), 200},
		{"search", `[{"jsonrpc":"2.0","id":4,"method":"ping"}]`, bearer(alphaToken), 400},
		{"search", `{"jsonrpc":"2.0","id":5,"method":`, bearer(alphaToken), 400},
		{"search", `{"jsonrpc":"2.0","id":6,"method":42,"params":{"name":"echo"}}`, bearer(alphaToken), 400},
		{"search", callEcho(7, strings.Repeat(secretArgument, 300)), bearer(alphaToken), 413},
		{"nope", callEcho(8, secretArgument), bearer(alphaToken), 404},
		{"payments", callEcho(9, secretArgument), map[string]string{"Authorization": "Bearer " + alphaToken, "Host": "evil.example.com"}, 403},
	}
	for i, r := range requests {
		if got := post(t, s.url+"/mcp/"+r.corpus, r.body, r.hdr); got.status != r.status {
			t.Fatalf("request %d: status %d %q, want %d", i, got.status, got.body, r.status)
		}
	}
	// A GET (a client asking for an event stream) has no body to peek at.
	req, err := http.NewRequest(http.MethodGet, s.url+"/mcp/search", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+alphaToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if readAll(t, resp); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: status %d, want 405", resp.StatusCode)
	}
	log := s.logs.String()
	goldie.New(t, goldie.WithFixtureDir("testdata/golden")).Assert(t, "access-log", []byte(log))
	for _, secret := range []string{alphaToken, gammaToken, deltaToken, digestOf(alphaToken), digestOf(gammaToken),
		"Bearer", secretArgument, "hunter2", "127.0.0.1", "evil.example.com"} {
		if strings.Contains(log, secret) {
			t.Errorf("the access log holds %q:\n%s", secret, log)
		}
	}
}

func TestPeekMessage(t *testing.T) {
	tests := []struct {
		body   string
		method string
		tool   string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_decisions","arguments":{"query":"x"}}}`, "tools/call", "search_decisions"},
		{`{"params":{"arguments":{"name":"not-this"},"name":"get_decision"},"method":"tools/call"}`, "tools/call", "get_decision"},
		{`{"method":"tools/list","params":{"name":"ignored"}}`, "tools/list", ""},
		{`{"method":"tools/call","params":{"name":42}}`, "tools/call", ""},
		{`{"method":"tools/call","params":[1]}`, "tools/call", ""},
		{`{"method":"tools/call","params":{"name":"a b"}}`, "tools/call", "invalid"},
		{`{"method":"tools/call","params":{"name":"` + strings.Repeat("a", 129) + `"}}`, "tools/call", "invalid"},
		{`{"method":"$/cancelRequest"}`, "$/cancelRequest", ""},
		{`{"method":"x\u0000y"}`, "invalid", ""},
		{`{"id":1,"result":{}}`, "", ""},
		{` [{"method":"ping"}]`, "batch", ""},
		{`{"method":"ping"`, "unparsable", ""},
		{``, "", ""},
		{" \n", "", ""},
	}
	for _, tt := range tests {
		got := peekMessage([]byte(tt.body))
		if got.method != tt.method || got.tool != tt.tool {
			t.Errorf("peekMessage(%s) = %+v, want method %q tool %q", tt.body, got, tt.method, tt.tool)
		}
	}
}
