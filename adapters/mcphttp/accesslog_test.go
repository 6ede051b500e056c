package mcphttp

import (
	"net/http"
	"slices"
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
	s := serve(t, Options{Endpoints: echoCorpora("payments", "search"), Tokens: tokens, MaxBodyBytes: 4 << 10}, ServerOptions{})
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
		if got := post(t, s.url+"/mcp/"+r.corpus, r.body, r.hdr); got.Status != r.status {
			t.Fatalf("request %d: status %d %q, want %d", i, got.Status, string(got.Body), r.status)
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

func TestLoggableName(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"search_decisions", "search_decisions"},
		{"$/cancelRequest", "$/cancelRequest"},
		{"", ""},
		{"a b", "other"},
		{"x\x00y", "other"},
		{strings.Repeat("a", 128), strings.Repeat("a", 128)},
		{strings.Repeat("a", 129), "other"},
	} {
		if got := loggableName(tt.name); got != tt.want {
			t.Errorf("loggableName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Nothing a client chooses reaches the log as it was sent: a corpus is
// named only when it is a served one, an HTTP method only when it is a
// standard one, and every record stays short however long the request
// line. Before, the corpus was the raw path segment (a token sent as the
// corpus, a decoded path, 60 KB segments on every 401), and the HTTP
// method was logged as sent.
func TestAccessLogClientText(t *testing.T) {
	file := t.TempDir() + "/tokens"
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, Options{Endpoints: echoCorpora("payments"), Tokens: tokens}, ServerOptions{})
	long := strings.Repeat("A", 60<<10)
	requests := []struct {
		method, path string
		hdr          map[string]string
		status       int
	}{
		{http.MethodPost, "/mcp/" + alphaToken, nil, 401},
		{http.MethodPost, "/mcp/" + alphaToken, bearer(alphaToken), 404},
		{http.MethodPost, "/mcp/%2Fetc%2Fshadow", nil, 401},
		{http.MethodPost, "/mcp/" + long, nil, 401},
		{"HUNTER2-METHOD", "/mcp/payments", bearer(alphaToken), 405},
		{http.MethodPost, "/mcp/payments", nil, 401},
	}
	for i, r := range requests {
		req, err := http.NewRequest(r.method, s.url+r.path, strings.NewReader(callEcho(1, "x")))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range r.hdr {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if readAll(t, resp); resp.StatusCode != r.status {
			t.Fatalf("request %d: status %d, want %d", i, resp.StatusCode, r.status)
		}
	}
	log := s.logs.String()
	for _, leak := range []string{alphaToken, "etc", "shadow", "%2F", "AAAA", "HUNTER2"} {
		if strings.Contains(log, leak) {
			t.Errorf("the access log holds %q", leak)
		}
	}
	lines := nonEmptyLines(log)
	if len(lines) != len(requests) {
		t.Fatalf("%d records, want %d:\n%s", len(lines), len(requests), log)
	}
	for _, l := range lines {
		if len(l) > 200 {
			t.Errorf("a record of %d bytes: %.300s", len(l), l)
		}
	}
	want := []string{
		`{"level":"INFO","msg":"mcp request","corpus":"other","status":401,"durationMs":1.5}`,
		`{"level":"INFO","msg":"mcp request","corpus":"other","status":404,"durationMs":1.5}`,
		`{"level":"INFO","msg":"mcp request","corpus":"other","status":401,"durationMs":1.5}`,
		`{"level":"INFO","msg":"mcp request","corpus":"other","status":401,"durationMs":1.5}`,
		`{"level":"INFO","msg":"mcp request","http":"other","corpus":"payments","status":405,"durationMs":1.5}`,
		`{"level":"INFO","msg":"mcp request","corpus":"payments","status":401,"durationMs":1.5}`,
	}
	if !slices.Equal(lines, want) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// The log says what the corpus's handler dispatched (DispatchNoter), not
// what a second decoding of the body says: before, the front decoded the
// body itself, case-insensitively, so a body whose "method" ran a search
// and whose "METHOD" said ping was logged as a ping.
func TestAccessLogSaysWhatWasDispatched(t *testing.T) {
	noting := func(method, tool string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n, ok := w.(interface{ NoteDispatch(string, string) bool })
			if !ok {
				t.Error("the front's writer takes no note of the dispatch")
			} else if !n.NoteDispatch(method, tool) {
				return
			}
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
		})
	}
	s := serve(t, Options{Endpoints: []Endpoint{
		{Name: "search", Handler: noting("tools/call", "search_decisions")},
		{Name: "long", Handler: noting("tools/call", strings.Repeat("x", 300))},
		{Name: "odd", Handler: noting("a b", "c\nd")},
	}}, ServerOptions{})
	decoy := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_decisions","arguments":{}},"METHOD":"ping","params":{"NAME":"x"}}`
	for _, c := range []string{"search", "long", "odd"} {
		if got := post(t, s.url+"/mcp/"+c, decoy, nil); got.Status != 200 {
			t.Fatalf("%s: %d %s", c, got.Status, string(got.Body))
		}
	}
	want := []string{
		`{"level":"INFO","msg":"mcp request","method":"tools/call","tool":"search_decisions","corpus":"search","status":200,"durationMs":1.5}`,
		`{"level":"INFO","msg":"mcp request","method":"tools/call","tool":"other","corpus":"long","status":200,"durationMs":1.5}`,
		`{"level":"INFO","msg":"mcp request","method":"other","tool":"other","corpus":"odd","status":200,"durationMs":1.5}`,
	}
	if got := nonEmptyLines(s.logs.String()); !slices.Equal(got, want) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
