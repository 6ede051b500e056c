package mcphttp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// idleConn sends one request on a connection of its own, reads the
// answer, and leaves the connection open and idle.
func idleConn(t *testing.T, addr, authorization string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.SetDeadline(time.Now().Add(30 * time.Second)); err != nil { // a hang guard only
		t.Fatal(err)
	}
	body := callEcho(1, "x")
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"MCP-Protocol-Version: 2025-06-18\r\n%sContent-Length: %d\r\n\r\n%s", authorization, len(body), body)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return conn
}

// Idle keep-alive connections do not lock others out: at the connection
// cap, an idle one is closed to let a new one in. Before, the new
// connection waited in the backlog for an idle timeout (120 s).
func TestIdleConnectionsGiveWayAtCapacity(t *testing.T) {
	file := t.TempDir() + "/tokens"
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, auth := range []string{"", "Authorization: Bearer " + alphaToken + "\r\n"} {
		t.Run(fmt.Sprintf("authenticated=%v", auth != ""), func(t *testing.T) {
			s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}, Tokens: tokens}, ServerOptions{MaxConns: 2})
			addr := s.srv.Addr().String()
			idleConn(t, addr, auth)
			idleConn(t, addr, auth)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard only
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/mcp", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+alphaToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("a new connection while two idle ones fill the cap: %v", err)
			}
			resp.Body.Close()
		})
	}
}

// A connection whose requests never got past the token check is closed
// after the short idle timeout (the header timeout), not the long one.
// Before, it could stay for IdleTimeout (120 s by default).
func TestUnauthenticatedIdleConnectionClosedSoon(t *testing.T) {
	file := t.TempDir() + "/tokens"
	writeFile(t, file, alphaToken+"\n")
	tokens, err := LoadTokens(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}, Tokens: tokens},
		ServerOptions{ReadHeaderTimeout: 50 * time.Millisecond, IdleTimeout: time.Hour})
	addr := s.srv.Addr().String()
	unauthenticated := idleConn(t, addr, "")
	authenticated := idleConn(t, addr, "Authorization: Bearer "+alphaToken+"\r\n")
	// The server closes the first: the read ends (before the 30 s guard).
	if n, err := unauthenticated.Read(make([]byte, 1)); err == nil {
		t.Fatalf("read %d bytes from an idle connection", n)
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the unauthenticated idle connection was kept open")
	}
	// The second is still open: a request on it is answered.
	body := callEcho(2, "y")
	fmt.Fprintf(authenticated, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s", alphaToken, len(body), body)
	resp, err := http.ReadResponse(bufio.NewReader(authenticated), nil)
	if err != nil {
		t.Fatalf("the authenticated idle connection: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d", resp.StatusCode)
	}
}

// Sockets that send nothing never keep a token holder out: they count
// against their own allowance (MaxNewConns), and at it the oldest is
// closed for the newcomer, and the closing logged. Before, 20 silent
// sockets filled the four places and the call waited for the header
// timeout (an hour here; 15 s for 1,000 sockets with the defaults).
func TestSilentConnectionsGiveWay(t *testing.T) {
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}, Tokens: alphaTokens(t)},
		ServerOptions{MaxConns: 4, MaxNewConns: 4, ReadHeaderTimeout: time.Hour, FirstByteTimeout: time.Hour, acceptSilent: true})
	for range 20 {
		dialSilent(t, s.srv.Addr().String())
	}
	if got := guardedCall(t, s.url+"/mcp"); got.Status != http.StatusOK {
		t.Fatalf("the call beside 20 silent sockets: %d %s", got.Status, got.Body)
	}
	// 21 new connections, 4 allowed: the 17 oldest silent ones went, and
	// the log says so within a second.
	if n := awaitCount(s.logs, closedCrowded)(17); n != 17 {
		t.Errorf("%d connections logged as %q, want 17:\n%s", n, closedCrowded, s.logs)
	}
}

// A connection that sends nothing is closed after FirstByteTimeout, well
// before the header timeout, and the closing logged. Before, it stayed
// for the header timeout.
func TestSilentConnectionClosedAtFirstByteDeadline(t *testing.T) {
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}},
		ServerOptions{ReadHeaderTimeout: time.Hour, FirstByteTimeout: 20 * time.Millisecond, acceptSilent: true})
	silent := dialSilent(t, s.srv.Addr().String())
	if n, err := silent.Read(make([]byte, 1)); err == nil {
		t.Fatalf("read %d bytes from a silent connection", n)
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the silent connection was kept open")
	}
	// The log says so within a second.
	awaitCount(s.logs, closedSilent)(1)
}
