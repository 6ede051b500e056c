package mcphttp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/httpload"
)

func TestListenExposure(t *testing.T) {
	file := t.TempDir() + "/tokens"
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		addr    string
		tokens  *Tokens
		exposed bool
	}{
		{"127.0.0.1:0", nil, false},
		{"localhost:0", nil, false},
		{"127.0.0.1:0", tokens, false},
		{":0", nil, true},
		{"0.0.0.0:0", nil, true},
		{":0", tokens, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/tokens=%v", tt.addr, tt.tokens != nil), func(t *testing.T) {
			front, err := New(Options{Endpoints: []Endpoint{{Handler: echoHandler("x")}}, Tokens: tt.tokens, Clock: &stepClock{}})
			if err != nil {
				t.Fatal(err)
			}
			srv, err := Listen(tt.addr, front, ServerOptions{})
			var exposure *ExposureError
			if got := errors.As(err, &exposure); got != tt.exposed {
				t.Fatalf("Listen(%s) = %v, want exposure error %v", tt.addr, err, tt.exposed)
			}
			if tt.exposed {
				return // TestListenRefusesExposureBeforeBinding: nothing was bound
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := srv.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := srv.Serve(); err != nil {
				t.Errorf("Serve after Shutdown = %v, want nil", err)
			}
		})
	}
}

// On Shutdown the server stops accepting, answers what is in flight, and
// Serve returns nil.
func TestShutdownAnswersInFlight(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	})
	front, err := New(Options{Endpoints: []Endpoint{{Handler: slow}}, Clock: &stepClock{}})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen("127.0.0.1:0", front, ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	listenerClosed := make(chan struct{})
	srv.drained = func() { close(listenerClosed) }
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	url := "http://" + srv.Addr().String() + "/mcp"

	answer := make(chan httpload.Answer, 1)
	go func() { answer <- post(t, url, callEcho(1, "x"), nil) }()
	<-entered
	shutdown := make(chan error, 1)
	go func() { shutdown <- srv.Shutdown(context.Background()) }()
	<-listenerClosed
	if conn, err := net.Dial("tcp", srv.Addr().String()); err == nil {
		conn.Close()
		t.Error("a new connection was accepted during shutdown")
	}
	close(release)
	if got := <-answer; got.Status != http.StatusOK || string(got.Body) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("the call in flight got %d %q", got.Status, string(got.Body))
	}
	if err := <-shutdown; err != nil {
		t.Errorf("Shutdown = %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve = %v", err)
	}
}

// A Shutdown whose context ends before the calls in flight closes them.
func TestShutdownDeadline(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	stuck := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
	})
	front, err := New(Options{Endpoints: []Endpoint{{Handler: stuck}}, Clock: &stepClock{}})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen("127.0.0.1:0", front, ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve() }()
	failed := make(chan error, 1)
	go func() {
		_, _, err := httpload.Post(context.Background(), httpload.Target{URL: "http://" + srv.Addr().String() + "/mcp"}, []byte(callEcho(1, "x")))
		failed <- err
	}()
	<-entered
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := srv.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Shutdown with an ended context = %v, want context.Canceled", err)
	}
	if err := <-failed; err == nil {
		t.Error("the stuck call got an answer after its connection was closed")
	}
}

// The load and abuse harness against a front over real MCP handlers: the
// same checks phase 2 points at the adrkit-mcp binary.
func TestHarness(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	file := t.TempDir() + "/tokens"
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, Options{Endpoints: echoCorpora("payments"), Tokens: tokens}, ServerOptions{})
	target := httpload.Target{URL: s.url + "/mcp/payments", Token: alphaToken, Header: http.Header{"Mcp-Protocol-Version": {"2025-06-18"}}}
	// Slow clients are cut off by timeouts made small for the test.
	impatient := serve(t, Options{Endpoints: echoCorpora("payments"), Tokens: tokens}, ServerOptions{
		ReadHeaderTimeout: 100 * time.Millisecond,
		ReadTimeout:       200 * time.Millisecond,
	})
	impatientTarget := target
	impatientTarget.URL = impatient.url + "/mcp/payments"

	t.Run("32 clients x 100 calls, both eras", func(t *testing.T) {
		res, err := httpload.Run(ctx, target, httpload.Load{
			Clients: 32, Calls: 100,
			Body: func(c, n int) []byte {
				text := fmt.Sprintf("client %d call %d", c, n)
				if c%2 == 1 { // odd clients speak 2026-07-28
					return []byte(callEchoModern(n, text))
				}
				return []byte(callEcho(n, text))
			},
			Check: func(c, n, status int, body []byte) error {
				if want := fmt.Sprintf("payments: client %d call %d", c, n); status != 200 || echoText(string(body)) != want {
					return fmt.Errorf("got %d %q, want %q", status, body, want)
				}
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("3200 calls in %v: median %v, p99 %v", res.Wall, res.Quantile(0.5), res.Quantile(0.99))
	})

	t.Run("8 MiB body, then the next request on the same connection", func(t *testing.T) {
		res, err := httpload.Oversize(ctx, target, 8<<20, []byte(callEcho(1, "after")))
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != http.StatusRequestEntityTooLarge || res.Closed {
			t.Errorf("oversized body: status %d, closed %v; want 413 on a connection kept open", res.Status, res.Closed)
		}
		if res.NextStatus != 200 || echoText(string(res.NextBody)) != "payments: after" {
			t.Errorf("next request: %d %q", res.NextStatus, res.NextBody)
		}
	})

	t.Run("body past what is drained: 413 and the connection closed", func(t *testing.T) {
		res, err := httpload.Oversize(ctx, target, DefaultMaxBodyBytes+DefaultDrainBytes+1, []byte(callEcho(1, "after")))
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != http.StatusRequestEntityTooLarge || !res.Closed {
			t.Errorf("status %d, closed %v; want 413 and closed", res.Status, res.Closed)
		}
		if res.NextStatus != 200 || echoText(string(res.NextBody)) != "payments: after" {
			t.Errorf("next request on a new connection: %d %q", res.NextStatus, res.NextBody)
		}
	})

	t.Run("headers too slow", func(t *testing.T) {
		took, err := httpload.SlowHeaders(ctx, impatientTarget)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("cut off after %v", took)
	})

	t.Run("body too slow", func(t *testing.T) {
		status, took, err := httpload.SlowBody(ctx, impatientTarget)
		if err != nil {
			t.Fatal(err)
		}
		if status != http.StatusRequestTimeout {
			t.Errorf("status %d, want 408", status)
		}
		t.Logf("cut off after %v", took)
	})
}

// Headers past MaxHeaderBytes are refused with 431 before any handler.
func TestHeaderLimit(t *testing.T) {
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("x")}}}, ServerOptions{MaxHeaderBytes: 1 << 10})
	conn, err := net.Dial("tcp", s.srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write([]byte("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + strings.Repeat("a", 8<<10) + "\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("status %d, want 431", resp.StatusCode)
	}
	if strings.Contains(s.logs.String(), "mcp request") {
		t.Errorf("the refused request reached the front: %s", s.logs.String())
	}
}

// A subscriptions/listen stream gives its place in flight back, so that
// open streams cannot starve the calls; Shutdown drains it (Endpoint.Drain)
// instead of waiting for its client, and Serve returns.
func TestListenHoldsNoPlaceAndIsDrained(t *testing.T) {
	const listen = `{"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":{}}`
	opened, drained := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if string(body) != listen {
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
			return
		}
		if !w.(interface{ NoteDispatch(string, string) bool }).NoteDispatch("subscriptions/listen", "") {
			return
		}
		w.WriteHeader(http.StatusOK)
		_ = http.NewResponseController(w).Flush()
		close(opened)
		<-drained
	})
	front, err := New(Options{
		Endpoints:   []Endpoint{{Handler: h, Drain: func() { close(drained) }}},
		MaxInFlight: 1, InFlightWait: -1, Clock: &stepClock{},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen("127.0.0.1:0", front, ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	url := "http://" + srv.Addr().String() + "/mcp"

	streamed := make(chan httpload.Answer, 1)
	go func() { streamed <- post(t, url, listen, nil) }()
	<-opened
	if got := post(t, url, callEcho(1, "x"), nil); got.Status != http.StatusOK {
		t.Errorf("a call beside an open stream, with one place in flight: %d %s", got.Status, string(got.Body))
	}
	if err := srv.Shutdown(context.Background()); err != nil {
		t.Errorf("Shutdown = %v", err)
	}
	if got := <-streamed; got.Status != http.StatusOK {
		t.Errorf("the stream ended with %d", got.Status)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve = %v", err)
	}
}

// An address beyond loopback without tokens is refused before any socket
// is opened: the port is already held here, so a bind would fail with
// "address already in use", and the refusal must come first. Before, the
// server bound the address, looked at it, and closed it.
func TestListenRefusesExposureBeforeBinding(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	port := held.Addr().(*net.TCPAddr).Port
	front, err := New(Options{Endpoints: []Endpoint{{Handler: echoHandler("x")}}, Clock: &stepClock{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{
		fmt.Sprintf("0.0.0.0:%d", port), fmt.Sprintf(":%d", port), fmt.Sprintf("[::]:%d", port), fmt.Sprintf("10.1.2.3:%d", port),
	} {
		srv, err := Listen(addr, front, ServerOptions{})
		var exposure *ExposureError
		if !errors.As(err, &exposure) {
			if srv != nil {
				_ = srv.Shutdown(context.Background())
			}
			t.Errorf("Listen(%s) = %v, want an ExposureError before binding", addr, err)
		}
	}
	// A loopback address still gets as far as the bind, and its failure.
	if _, err := Listen(fmt.Sprintf("127.0.0.1:%d", port), front, ServerOptions{}); err == nil || errors.As(err, new(*ExposureError)) {
		t.Errorf("Listen on the held loopback port = %v, want the bind's failure", err)
	}
}

// On shutdown a kept-alive connection between requests is not cut: a
// request sent on it after the listener closed (one already on its way
// when SIGTERM came) is answered, with Connection: close, and only new
// connections are refused. Before, Shutdown closed the idle connection at
// once and the request got a reset and no answer (1 to 10 calls of 20
// busy clients per SIGTERM).
func TestShutdownAnswersRequestOnIdleConnection(t *testing.T) {
	front, err := New(Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}, Clock: &stepClock{}})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen("127.0.0.1:0", front, ServerOptions{ShutdownIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	drained := make(chan struct{})
	srv.drained = func() { close(drained) }
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	conn := idleConn(t, srv.Addr().String(), "")

	shutdown := make(chan error, 1)
	go func() { shutdown <- srv.Shutdown(context.Background()) }()
	<-drained
	if c, err := net.Dial("tcp", srv.Addr().String()); err == nil {
		c.Close()
		t.Error("a new connection was accepted during shutdown")
	}
	body := callEcho(2, "late")
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"MCP-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("the request sent on the idle connection during shutdown: %v", err)
	}
	got := readAll(t, resp)
	if resp.StatusCode != http.StatusOK || echoText(got) != "only: late" || !resp.Close {
		t.Errorf("answer during shutdown: %d close=%v %s", resp.StatusCode, resp.Close, got)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("after the answer the connection read %v, want EOF", err)
	}
	if err := <-shutdown; err != nil {
		t.Errorf("Shutdown = %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve = %v", err)
	}
}
