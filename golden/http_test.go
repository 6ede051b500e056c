package golden

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/adapters/mcp"
	"github.com/adrkit/adrkit-go/adapters/mcphttp"
	"github.com/adrkit/adrkit-go/internal/httpload"
)

// The HTTP leg of every scenario.
//
// After the stdio run of an era, the same conversation is replayed over
// streamable HTTP (mcp.NewHTTP behind the team front, mcphttp.New, as
// adrkit-mcp --http serves it) on a fresh copy of the fixture, with the
// same steps, each message POSTed on its own with the headers an HTTP
// client of its era sends: a message with a 2026-07-28 envelope names
// that revision in MCP-Protocol-Version and repeats its method (and tool)
// in Mcp-Method (and Mcp-Name); any other names the revision the last
// initialize answer negotiated, or nothing before one.
//
// Every answer must be byte for byte the stdio answer to the same request
// in the same run, except for the ids the scenario's http section lists,
// one per line, with the reason:
//
//	-- http --
//	6: the connection was pinned to the 2025 era by initialize; over HTTP
//
// (the answer of a listed id must differ: a stale entry fails). Those
// are the requests whose stdio answer depends on the connection: stdio
// pins one era per connection from its opening messages, while over HTTP
// every request is judged alone, its MCP-Protocol-Version header in the
// place of the messages before it.
//
// The golden-ERA-http section records the exchange, one line per message
// sent: "ID STATUS" for an answer equal to stdio's, "ID STATUS BODY" for a
// listed one, "- STATUS" for a notification (and its body, if any).

// httpGuard bounds one HTTP exchange: only a hang guard.
const httpGuard = time.Minute

// fixedClock times the front's access log; the log is discarded.
type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Time{} }

// httpConn is the HTTP side of a scenario run.
type httpConn struct {
	target     httpload.Target
	negotiated string
	stdio      map[string]string
	stdioOnly  map[string]string
	seen       map[string]bool
	out        strings.Builder
	book
}

// runHTTP replays the scenario in era over HTTP and returns its
// golden-ERA-http section; stdio holds the stdio answers by id.
func (sc *scenario) runHTTP(t *testing.T, era string, stdio map[string]string) string {
	root, hist := sc.materialise(t)
	svc, ready := service(root, sc.dir, sc.extended)
	h := mcp.NewHTTP(svc, mcp.HTTPOptions{})
	front, err := mcphttp.New(mcphttp.Options{Endpoints: []mcphttp.Endpoint{{Handler: h, Ready: ready}}, Clock: fixedClock{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(front)
	t.Cleanup(srv.Close)
	c := &httpConn{
		target: httpload.Target{URL: srv.URL + "/mcp"},
		stdio:  stdio, stdioOnly: sc.stdioOnly, seen: map[string]bool{},
		book: book{answers: map[string]map[string]any{}},
	}
	sc.converse(t, era, root, hist, c)
	for id := range c.stdioOnly {
		if !c.seen[id] {
			t.Errorf("http section: no request with id %s", id)
		}
	}
	return c.out.String()
}

// send POSTs one message and checks its answer against stdio's.
func (c *httpConn) send(t *testing.T, msg string) {
	t.Helper()
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal([]byte(msg), &head); err != nil {
		t.Fatalf("request is not JSON: %v\n%s", err, msg)
	}
	target := c.target
	if c.negotiated != "" {
		target.Header = http.Header{"Mcp-Protocol-Version": {c.negotiated}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), httpGuard)
	defer cancel()
	status, data, err := httpload.Post(ctx, target, []byte(msg))
	if err != nil {
		t.Fatalf("POST %s: %v", msg, err)
	}
	body := withoutVersion(string(data))
	if head.ID == nil {
		fmt.Fprintf(&c.out, "- %d", status)
		if body != "" {
			c.out.WriteString(" " + body)
		}
		c.out.WriteString("\n")
		return
	}
	id := string(head.ID)
	var frame map[string]any
	if err := json.Unmarshal(data, &frame); err != nil {
		t.Fatalf("the answer to %s is not JSON (status %d): %q", msg, status, data)
	}
	c.answers[id] = frame
	c.seen[id] = true
	want, answered := c.stdio[id]
	reason, listed := c.stdioOnly[id]
	switch {
	case !answered:
		t.Errorf("id %s: answered over HTTP (%d %s) but not on stdio", id, status, body)
	case listed && body == want:
		t.Errorf("id %s is listed as stdio-only (%s), but HTTP answers it as stdio does: %s", id, reason, body)
	case !listed && body != want:
		t.Errorf("id %s: HTTP answers differently from stdio%s", id, firstDifference(want, body))
	}
	if listed {
		fmt.Fprintf(&c.out, "%s %d %s\n", id, status, body)
	} else {
		fmt.Fprintf(&c.out, "%s %d\n", id, status)
	}
	if v, ok := dig(frame, "result", "protocolVersion").(string); ok && strings.Contains(msg, `"method":"initialize"`) {
		c.negotiated = v
	}
}
