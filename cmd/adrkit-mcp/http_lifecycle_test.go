package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// /healthz answers while the process is up; /readyz only once every
// corpus can be read. A server starts without its corpus, and tool calls
// meanwhile answer corpus-unavailable.
func TestHTTPReadiness(t *testing.T) {
	repo := newRepo(t)
	s := startHTTP(t, "--http", "127.0.0.1:0", "--cwd", repo, "--dir", "docs/later")
	if rec := s.awaitMsg("corpus not ready", 1); rec["path"] != "/mcp" {
		t.Errorf("start-up warning %v", rec)
	}
	if status, body := s.get("/healthz"); status != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", status, body)
	}
	if status, body := s.get("/readyz"); status != 503 || body != "not ready: 1 of 1 corpora cannot be read\n" {
		t.Errorf("/readyz without the ADR directory: %d %q", status, body)
	}
	got := s.call("/mcp", toolCallHTTP(1, "list_superseded", `{}`, false), nil)
	if res := structured(t, got.body)["result"].(map[string]any); res["outcome"] != "corpus-unavailable" {
		t.Errorf("a call without the ADR directory: %s", got.body)
	}
	if err := os.MkdirAll(filepath.Join(repo, "docs", "later"), 0o755); err != nil {
		t.Fatal(err)
	}
	if status, body := s.get("/readyz"); status != 200 || body != "ready\n" {
		t.Errorf("/readyz once the ADR directory exists: %d %q", status, body)
	}
}

// SIGHUP reads the token file again: a token added is accepted, a token
// removed gets 401; a file that cannot be used keeps the previous tokens.
func TestHTTPTokenReload(t *testing.T) {
	tokens := writeTokens(t, tokenAll)
	s := startHTTP(t, "--http", "127.0.0.1:0", "--cwd", newRepo(t), "--token-file", tokens)
	call := toolCallHTTP(1, "list_superseded", `{}`, false)
	status := func(token string) int {
		return s.call("/mcp", call, map[string]string{"Authorization": "Bearer " + token}).status
	}
	if a, l := status(tokenAll), status(tokenLater); a != 200 || l != 401 {
		t.Fatalf("before: %d, %d", a, l)
	}
	writeTestFile(t, tokens, tokenAll+"\nsha256:"+digest(tokenLater)+"\n")
	s.signal(syscall.SIGHUP)
	s.awaitMsg("token file reloaded", 1)
	if a, l := status(tokenAll), status(tokenLater); a != 200 || l != 200 {
		t.Errorf("after adding: %d, %d", a, l)
	}
	writeTestFile(t, tokens, "sha256:"+digest(tokenLater)+"\n")
	s.signal(syscall.SIGHUP)
	s.awaitMsg("token file reloaded", 2)
	removed := s.call("/mcp", call, map[string]string{"Authorization": "Bearer " + tokenAll})
	if removed.status != 401 || !strings.HasPrefix(removed.header.Get("WWW-Authenticate"), "Bearer ") || status(tokenLater) != 200 {
		t.Errorf("after removing: %d %v", removed.status, removed.header)
	}
	writeTestFile(t, tokens, "# emptied by mistake\n")
	s.signal(syscall.SIGHUP)
	if rec := s.awaitMsg("token file not reloaded; the previous tokens stay in force", 1); !strings.Contains(fmt.Sprint(rec["error"]), "holds no token") {
		t.Errorf("reload failure logged as %v", rec)
	}
	if status(tokenLater) != 200 {
		t.Error("a failed reload dropped the tokens in force")
	}
	if code := s.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// SIGTERM with a call in flight: the call is answered, then the process
// exits 0. The call is held in flight by the client itself: it asks for
// 100-continue, which the server sends once the front reads the body (the
// request holding its place in flight), and only then is SIGTERM sent and
// the body written.
func TestHTTPShutdownAnswersInFlight(t *testing.T) {
	s := startHTTP(t, "--http", "127.0.0.1:0", "--cwd", newRepo(t))
	body := toolCallHTTP(7, "get_decision", `{"ref":"0001"}`, false)
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n", s.addr, len(body))
	r := bufio.NewReader(conn)
	cont, err := http.ReadResponse(r, nil)
	if err != nil || cont.StatusCode != http.StatusContinue {
		t.Fatalf("waiting for 100 Continue: %v %v", cont, err)
	}
	s.signal(syscall.SIGTERM)
	s.awaitMsg("shutting down: answering the calls in flight", 1)
	if _, err := conn.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer resp.Body.Close()
	var sb strings.Builder
	if _, err := bufio.NewReader(resp.Body).WriteTo(&sb); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.Contains(sb.String(), `"outcome":"found"`) {
		t.Errorf("the call in flight got %d %s", resp.StatusCode, sb.String())
	}
	if code := s.wait(); code != 0 {
		t.Errorf("exit %d after SIGTERM\n%s", code, s.log())
	}
}
