package mcphttp

import (
	"net/http"
	"testing"
	"time"
)

// Where the kernel can hold back connections until they speak (Linux's
// TCP_DEFER_ACCEPT), sockets that send nothing never reach the server:
// none is crowded out, and a call beside them is answered.
func TestKernelHoldsSilentConnections(t *testing.T) {
	s := serve(t, Options{Endpoints: []Endpoint{{Handler: echoHandler("only")}}, Tokens: alphaTokens(t)},
		ServerOptions{MaxConns: 4, MaxNewConns: 4, ReadHeaderTimeout: time.Hour, FirstByteTimeout: time.Hour})
	for range 20 {
		dialSilent(t, s.srv.Addr().String())
	}
	if got := guardedCall(t, s.url+"/mcp"); got.Status != http.StatusOK {
		t.Fatalf("the call beside 20 silent sockets: %d %s", got.Status, got.Body)
	}
	s.srv.conns.mu.Lock()
	defer s.srv.conns.mu.Unlock()
	if n, crowded := len(s.srv.conns.open), s.srv.conns.closes[closedCrowded]; n > 1 || crowded > 0 {
		t.Errorf("%d connections open, %d crowded out; want at most the caller's and none", n, crowded)
	}
}
