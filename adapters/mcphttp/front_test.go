package mcphttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adrkit/adrkit-go/internal/httpload"
)

// A real go-sdk client, in both protocol eras, reaches the tools through
// the front: one corpus at /mcp, and named ones at /mcp/<name>.
func TestFrontServesMCPInBothEras(t *testing.T) {
	single := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}}, ServerOptions{})
	multi := serve(t, Options{Endpoints: echoCorpora("payments", "search")}, ServerOptions{})
	tests := []struct {
		url, corpus string
	}{
		{single.url + "/mcp", "only"},
		{multi.url + "/mcp/payments", "payments"},
		{multi.url + "/mcp/search", "search"},
	}
	for _, tt := range tests {
		for _, version := range []string{"", "2025-06-18", "2025-11-25"} { // "": the 2026-07-28 probe
			t.Run(tt.corpus+"/"+version, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
				cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: tt.url, DisableStandaloneSSE: true},
					&sdk.ClientSessionOptions{ProtocolVersion: version})
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				tools, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(tools.Tools) != 1 || tools.Tools[0].Name != "echo" {
					t.Errorf("tools/list = %+v, want echo alone", tools.Tools)
				}
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello"}})
				if err != nil {
					t.Fatal(err)
				}
				if want := tt.corpus + ": hello"; len(res.Content) != 1 || res.Content[0].(*sdk.TextContent).Text != want {
					t.Errorf("tools/call = %+v, want %q", res.Content, want)
				}
			})
		}
	}
}

func TestFrontRouting(t *testing.T) {
	single := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}}, ServerOptions{})
	multi := serve(t, Options{Endpoints: echoCorpora("payments", "search")}, ServerOptions{})
	tests := []struct {
		name, url string
		status    int
		text      string
	}{
		{"single", single.url + "/mcp", 200, "only: hi"},
		{"single, named path", single.url + "/mcp/only", 404, ""},
		{"single, trailing slash", single.url + "/mcp/", 404, ""},
		{"named", multi.url + "/mcp/payments", 200, "payments: hi"},
		{"named, other", multi.url + "/mcp/search", 200, "search: hi"},
		{"named, unknown", multi.url + "/mcp/nope", 404, ""},
		{"named, bare /mcp", multi.url + "/mcp", 404, ""},
		{"named, deeper", multi.url + "/mcp/payments/x", 404, ""},
		{"elsewhere", multi.url + "/", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := post(t, tt.url, callEcho(1, "hi"), nil)
			if got.Status != tt.status || echoText(string(got.Body)) != tt.text {
				t.Errorf("POST %s = %d %q, want %d with text %q", tt.url, got.Status, string(got.Body), tt.status, tt.text)
			}
		})
	}
}

func TestFrontAuthentication(t *testing.T) {
	file := t.TempDir() + "/tokens"
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, []TokenConfig{{SHA256: digestOf(gammaToken), Corpora: []string{"payments"}}})
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, Options{Endpoints: echoCorpora("payments", "search"), Tokens: tokens}, ServerOptions{})
	const (
		missing = `Bearer realm="adrkit-mcp"`
		unknown = `Bearer realm="adrkit-mcp", error="invalid_token", error_description="the token is not known"`
		scope   = `Bearer realm="adrkit-mcp", error="insufficient_scope", error_description="the token does not reach this corpus"`
	)
	tests := []struct {
		name, corpus, authorization string
		status                      int
		challenge                   string
	}{
		{"no token", "payments", "", 401, missing},
		{"basic", "payments", "Basic YWxhZGRpbjpvcGVuc2VzYW1l", 401, missing},
		{"bearer, nothing", "payments", "Bearer", 401, missing},
		{"bearer, blank", "payments", "Bearer ", 401, missing}, // the blank is trimmed away
		{"unknown", "payments", "Bearer " + deltaToken, 401, unknown},
		{"not a token", "payments", "Bearer a,b", 401, unknown},
		{"digest as token", "payments", "Bearer " + digestOf(alphaToken), 401, unknown},
		{"file token", "payments", "Bearer " + alphaToken, 200, ""},
		{"file token, other corpus", "search", "Bearer " + alphaToken, 200, ""},
		{"scheme case", "search", "bearer " + alphaToken, 200, ""},
		{"file token, unknown corpus", "nope", "Bearer " + alphaToken, 404, ""},
		{"scoped token", "payments", "Bearer " + gammaToken, 200, ""},
		{"scoped token, not its corpus", "search", "Bearer " + gammaToken, 403, scope},
		// Whether a corpus exists is not told to a token that cannot read it.
		{"scoped token, unknown corpus", "nope", "Bearer " + gammaToken, 403, scope},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := post(t, s.url+"/mcp/"+tt.corpus, callEcho(1, "hi"), map[string]string{"Authorization": tt.authorization})
			if got.Status != tt.status {
				t.Fatalf("status %d %q, want %d", got.Status, string(got.Body), tt.status)
			}
			if c := got.Header.Get("WWW-Authenticate"); c != tt.challenge {
				t.Errorf("WWW-Authenticate = %q, want %q", c, tt.challenge)
			}
			if tt.status == 200 && echoText(string(got.Body)) != tt.corpus+": hi" {
				t.Errorf("answer %q", string(got.Body))
			}
		})
	}
}

// On a loopback connection only loopback names (and allowed hosts) are
// answered: the DNS-rebinding defence.
func TestFrontHostOnLoopback(t *testing.T) {
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}, AllowedHosts: []string{"adrkit.example.com"}}, ServerOptions{})
	port := s.url[strings.LastIndex(s.url, ":"):]
	tests := []struct {
		host   string
		status int
	}{
		{"127.0.0.1" + port, 200},
		{"localhost" + port, 200},
		{"LOCALHOST", 200},
		{"127.0.0.2" + port, 200},
		{"[::1]" + port, 200},
		{"adrkit.example.com" + port, 200},
		{"evil.example.com" + port, 403},
		{"evil.example.com", 403},
		{"localhost.evil.example.com", 403},
		{"10.0.0.5" + port, 403},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			got := post(t, s.url+"/mcp", callEcho(1, "hi"), map[string]string{"Host": tt.host, "Origin": "http://" + tt.host})
			if got.Status != tt.status {
				t.Errorf("Host %s: status %d %q, want %d", tt.host, got.Status, string(got.Body), tt.status)
			}
		})
	}
}

// Elsewhere any Host is answered unless allowed hosts are listed. The
// connection's address is set in the request's context, as net/http does,
// so that no traffic leaves the loopback interface.
func TestFrontHostElsewhere(t *testing.T) {
	nonLoopback := &net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 8080}
	tests := []struct {
		allowed []string
		host    string
		status  int
	}{
		{nil, "adrkit.team.svc", 200},
		{nil, "10.0.0.5:8080", 200},
		{[]string{"adrkit.team.svc"}, "adrkit.team.svc:8080", 200},
		{[]string{"adrkit.team.svc"}, "ADRKIT.team.svc.", 200},
		{[]string{"adrkit.team.svc"}, "evil.example.com", 403},
		// A loopback name arriving on another address is not special.
		{[]string{"adrkit.team.svc"}, "localhost", 403},
		{[]string{"fd00::1"}, "[fd00::1]:8080", 200},
	}
	for _, tt := range tests {
		front, err := New(Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}, AllowedHosts: tt.allowed, Clock: &stepClock{}})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(callEcho(1, "hi")))
		req.Host = tt.host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, net.Addr(nonLoopback)))
		rec := httptest.NewRecorder()
		front.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("allowed %v, Host %s: status %d %q, want %d", tt.allowed, tt.host, rec.Code, rec.Body, tt.status)
		}
	}
}

// A cross-origin browser request is refused unless its origin is allowed;
// clients that send no Origin are not affected.
func TestFrontOrigin(t *testing.T) {
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}, AllowedOrigins: []string{"https://console.example.com"}}, ServerOptions{})
	self := s.url
	tests := []struct {
		name   string
		hdr    map[string]string
		status int
	}{
		{"no origin", nil, 200},
		{"same origin", map[string]string{"Origin": self}, 200},
		{"same origin per fetch metadata", map[string]string{"Origin": "https://elsewhere.example.com", "Sec-Fetch-Site": "same-origin"}, 200},
		{"other origin", map[string]string{"Origin": "https://evil.example.com"}, 403},
		{"other loopback port", map[string]string{"Origin": "http://localhost:5173"}, 403},
		{"null origin", map[string]string{"Origin": "null"}, 403},
		{"cross-site per fetch metadata", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"allowed origin", map[string]string{"Origin": "https://console.example.com", "Sec-Fetch-Site": "cross-site"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := post(t, s.url+"/mcp", callEcho(1, "hi"), tt.hdr)
			if got.Status != tt.status {
				t.Errorf("status %d %q, want %d", got.Status, string(got.Body), tt.status)
			}
		})
	}
}

func TestFrontBodyLimit(t *testing.T) {
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}, MaxBodyBytes: 1 << 10, DrainBytes: 4 << 10}, ServerOptions{})
	call := callEcho(1, "hi")
	tests := []struct {
		name   string
		size   int
		status int
	}{
		{"at the limit", 1 << 10, 200},
		{"one byte over", 1<<10 + 1, 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Blanks after the JSON make the body exactly size bytes.
			body := call + strings.Repeat(" ", tt.size-len(call))
			got := post(t, s.url+"/mcp", body, nil)
			if got.Status != tt.status {
				t.Errorf("%d bytes: status %d %q, want %d", tt.size, got.Status, string(got.Body), tt.status)
			}
		})
	}
}

func TestFrontInFlightRefused(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	blocking := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		w.WriteHeader(http.StatusOK)
	})
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: blocking}}, MaxInFlight: 1, InFlightWait: -1}, ServerOptions{})
	first := make(chan httpload.Answer)
	go func() { first <- post(t, s.url+"/mcp", callEcho(1, "a"), nil) }()
	<-entered
	got := post(t, s.url+"/mcp", callEcho(2, "b"), nil)
	if got.Status != http.StatusServiceUnavailable || got.Header.Get("Retry-After") != "1" {
		t.Errorf("second call while full: %d, Retry-After %q; want 503 and 1", got.Status, got.Header.Get("Retry-After"))
	}
	close(release)
	if got := <-first; got.Status != http.StatusOK {
		t.Errorf("first call: %d", got.Status)
	}
	// Places are given back: the next call gets one.
	go func() { <-entered }()
	if got := post(t, s.url+"/mcp", callEcho(3, "c"), nil); got.Status != http.StatusOK {
		t.Errorf("call after the first ended: %d", got.Status)
	}
}

func TestFrontInFlightQueued(t *testing.T) {
	entered, release := make(chan struct{}, 2), make(chan struct{})
	blocking := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		w.WriteHeader(http.StatusOK)
	})
	queued := make(chan struct{})
	front, err := New(Options{Endpoints: []Endpoint{{Handler: blocking}}, MaxInFlight: 1, InFlightWait: time.Minute, Clock: &stepClock{}})
	if err != nil {
		t.Fatal(err)
	}
	front.queued = func() { close(queued) }
	srv := httptest.NewServer(front)
	defer srv.Close()

	answers := make(chan int, 2)
	send := func(id int) {
		got := post(t, srv.URL+"/mcp", callEcho(id, "x"), nil)
		answers <- got.Status
	}
	go send(1)
	<-entered
	go send(2)
	<-queued // the second call waits for the first's place
	close(release)
	for range 2 {
		if status := <-answers; status != http.StatusOK {
			t.Errorf("status %d, want 200 for both", status)
		}
	}
}

func TestFrontHealth(t *testing.T) {
	broken := errors.New("the revision origin/main does not resolve in /srv/mirrors/search.git")
	ok := func(context.Context) error { return nil }
	fail := func(context.Context) error { return broken }
	tests := []struct {
		name    string
		corpora []Endpoint
		status  int
		body    string
		logged  []string
	}{
		{"all ready", []Endpoint{{Name: "a", Handler: echoHandler("a"), Ready: ok}, {Name: "b", Handler: echoHandler("b")}}, 200, "ready\n", nil},
		{"one broken", []Endpoint{{Name: "payments", Handler: echoHandler("a"), Ready: ok}, {Name: "search", Handler: echoHandler("b"), Ready: fail}},
			503, "not ready: 1 of 2 corpora cannot be read\n",
			[]string{`{"level":"WARN","msg":"corpus not ready","corpus":"search","error":"the revision origin/main does not resolve in /srv/mirrors/search.git"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := serve(t, Options{Endpoints: tt.corpora}, ServerOptions{})
			for _, probe := range []struct {
				path, body string
				status     int
			}{{"/healthz", "ok\n", 200}, {"/readyz", tt.body, tt.status}} {
				resp, err := http.Get(s.url + probe.path)
				if err != nil {
					t.Fatal(err)
				}
				body := readAll(t, resp)
				if resp.StatusCode != probe.status || body != probe.body {
					t.Errorf("GET %s = %d %q, want %d %q", probe.path, resp.StatusCode, body, probe.status, probe.body)
				}
			}
			if got := nonEmptyLines(s.logs.String()); !slices.Equal(got, tt.logged) {
				t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.logged, "\n"))
			}
		})
	}
}

func TestNewRefuses(t *testing.T) {
	h := echoHandler("x")
	tests := []struct {
		name string
		opts Options
	}{
		{"no clock", Options{Endpoints: []Endpoint{{Handler: h}}}},
		{"no corpus", Options{Clock: &stepClock{}}},
		{"no handler", Options{Endpoints: []Endpoint{{Name: "a"}}, Clock: &stepClock{}}},
		{"bad name", Options{Endpoints: []Endpoint{{Name: "a/b", Handler: h}}, Clock: &stepClock{}}},
		{"twice", Options{Endpoints: []Endpoint{{Name: "a", Handler: h}, {Name: "a", Handler: h}}, Clock: &stepClock{}}},
		{"unnamed among named", Options{Endpoints: []Endpoint{{Handler: h}, {Name: "a", Handler: h}}, Clock: &stepClock{}}},
		{"bad host", Options{Endpoints: []Endpoint{{Handler: h}}, AllowedHosts: []string{"a b"}, Clock: &stepClock{}}},
		{"bad origin", Options{Endpoints: []Endpoint{{Handler: h}}, AllowedOrigins: []string{"example.com"}, Clock: &stepClock{}}},
	}
	for _, tt := range tests {
		if _, err := New(tt.opts); err == nil {
			t.Errorf("%s: New succeeded", tt.name)
		}
	}
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// A handler that panics is logged as a 500, and the server goes on.
func TestFrontPanicLogged(t *testing.T) {
	boom := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })
	s := serve(t, Options{Endpoints: []Endpoint{{Name: "bad", Handler: boom}, {Name: "good", Handler: echoHandler("good")}}}, ServerOptions{})
	if _, _, err := httpload.Post(context.Background(), httpload.Target{URL: s.url + "/mcp/bad"}, []byte(callEcho(1, "x"))); err == nil {
		t.Error("the panicking handler's connection was answered")
	}
	if got := post(t, s.url+"/mcp/good", callEcho(2, "y"), nil); echoText(string(got.Body)) != "good: y" {
		t.Errorf("after the panic: %d %q", got.Status, string(got.Body))
	}
	if !strings.Contains(s.logs.String(), `"corpus":"bad","status":500`) {
		t.Errorf("log:\n%s", s.logs.String())
	}
}

// bodyTaker is an endpoint handler that takes a POST's body as the front
// read it, and says whether anything was left to read from r.Body.
type bodyTaker struct {
	got, leftover chan []byte
}

func (b bodyTaker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "ServeHTTP called for a POST", http.StatusTeapot)
}

func (b bodyTaker) ServeBody(w http.ResponseWriter, r *http.Request, body []byte) {
	rest, _ := io.ReadAll(r.Body)
	b.got <- body
	b.leftover <- rest
	w.WriteHeader(http.StatusOK)
}

// TestFrontHandsTheBodyOn: a handler that takes a body as read (as
// adapters/mcp's does) is given the bytes the front read and bounded,
// and does not read them again from the request.
func TestFrontHandsTheBodyOn(t *testing.T) {
	h := bodyTaker{got: make(chan []byte, 1), leftover: make(chan []byte, 1)}
	front, err := New(Options{Endpoints: []Endpoint{{Handler: h}}, Clock: &stepClock{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(front)
	defer srv.Close()
	call := callEcho(1, "x")
	if got := post(t, srv.URL+"/mcp", call, nil); got.Status != http.StatusOK {
		t.Fatalf("status %d: %s", got.Status, got.Body)
	}
	if body := <-h.got; string(body) != call {
		t.Errorf("ServeBody got %q, want %q", body, call)
	}
	if rest := <-h.leftover; len(rest) != 0 {
		t.Errorf("r.Body still held %q", rest)
	}
}
