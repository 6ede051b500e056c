package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
	"github.com/adrkit/adrkit-go/internal/httpload"
	"github.com/adrkit/adrkit-go/internal/rusage"
)

// loadRSS bounds the server's peak resident memory under the load of
// TestHTTPLoad (issue 16: 200 MB).
const loadRSS = 200 << 20

// loadCorpus is the record count of the load test's corpus: a team
// repository of some years.
const loadCorpus = 500

// TestHTTPLoad: 32 clients, each making 100 tool calls one after the
// other on its own keep-alive connection, half of them in the 2025 era
// and half in 2026-07-28, all four tools, against the binary serving a
// corpus of 500 records. Every answer must be the answer the same call
// got alone before the load (the result byte for byte, under the
// request's own id), and the server's peak resident memory must stay
// within loadRSS. The figures it logs are in docs/reliability.md.
func TestHTTPLoad(t *testing.T) {
	root := t.TempDir()
	if _, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: loadCorpus, Seed: 7, Broken: 0.01, Federated: 2}); err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, "--http", "127.0.0.1:0", "--cwd", root)
	calls := corpusgen.Workload(loadCorpus)
	body := func(c, n int) []byte {
		call := calls[(c+n)%len(calls)]
		return []byte(toolCallHTTP(n, call.Tool, string(call.Args), c%2 == 1))
	}
	// The answer each call gets alone, by era and tool.
	want := map[string]json.RawMessage{}
	for era := range 2 {
		for i := range calls {
			a := s.call("/mcp", string(body(era, i)), nil)
			var msg struct {
				Result json.RawMessage `json:"result"`
			}
			if a.status != 200 || json.Unmarshal(a.body, &msg) != nil || len(msg.Result) == 0 {
				t.Fatalf("reference call: %d %s", a.status, a.body)
			}
			want[fmt.Sprint(era, (era+i)%len(calls))] = msg.Result
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a hang guard only
	defer cancel()
	res, err := httpload.Run(ctx, httpload.Target{URL: s.url + "/mcp"}, httpload.Load{
		Clients: 32, Calls: 100, Body: body,
		Check: func(c, n, status int, got []byte) error {
			var msg struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if status != 200 || json.Unmarshal(got, &msg) != nil || msg.ID != n {
				return fmt.Errorf("status %d: %.300s", status, got)
			}
			if w := want[fmt.Sprint(c%2, (c+n)%len(calls))]; !bytes.Equal(msg.Result, w) {
				return fmt.Errorf("answer differs from the call made alone:\n got %.300s\nwant %.300s", msg.Result, w)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	peak, err := rusage.PeakRSS(s.cmd.Process.Pid)
	switch {
	case err == rusage.ErrUnsupported:
		t.Log("no /proc: peak RSS not measured")
	case err != nil:
		t.Fatal(err)
	case peak > loadRSS:
		t.Errorf("peak RSS %d bytes, bound %d", peak, loadRSS)
	}
	t.Logf("32 clients x 100 calls on %d records: %v wall, %.0f calls/s, median %v, p99 %v, max %v; server peak RSS %.1f MiB",
		loadCorpus, res.Wall.Round(time.Millisecond), float64(len(res.Latencies))/res.Wall.Seconds(),
		res.Quantile(0.5).Round(10*time.Microsecond), res.Quantile(0.99).Round(10*time.Microsecond),
		res.Latencies[len(res.Latencies)-1].Round(10*time.Microsecond), float64(peak)/(1<<20))
	if code := s.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// Abuse against the binary: an 8 MiB body is refused and the next request
// on the same connection answered (default limits); clients too slow with
// their headers or their body are cut off by the timeouts of the config
// (made small, on a second server).
func TestHTTPAbuse(t *testing.T) {
	repo := newRepo(t)
	ctx, cancel := context.WithTimeout(context.Background(), httpGuard)
	defer cancel()
	next := []byte(toolCallHTTP(2, "get_decision", `{"ref":"0001"}`, false))

	plain := startHTTP(t, "--http", "127.0.0.1:0", "--cwd", repo)
	over, err := httpload.Oversize(ctx, httpload.Target{URL: plain.url + "/mcp"}, 8<<20, next)
	if err != nil {
		t.Fatal(err)
	}
	if over.Status != http.StatusRequestEntityTooLarge || over.Closed {
		t.Errorf("8 MiB body: status %d, closed %v; want 413 on a connection kept open", over.Status, over.Closed)
	}
	if over.NextStatus != 200 || !strings.Contains(string(over.NextBody), `"outcome":"found"`) {
		t.Errorf("the request after it: %d %s", over.NextStatus, over.NextBody)
	}
	if code := plain.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}

	config := filepath.Join(t.TempDir(), "config.yaml")
	writeTestFile(t, config, fmt.Sprintf("corpora:\n  - {name: repo, cwd: %q}\nauth: none\nlimits:\n  readHeaderTimeout: 500ms\n  readTimeout: 1s\n", repo))
	s := startHTTP(t, "--http", "127.0.0.1:0", "--config", config)
	target := httpload.Target{URL: s.url + "/mcp/repo"}

	if _, err := httpload.SlowHeaders(ctx, target); err != nil {
		t.Errorf("headers too slow: %v", err)
	}
	status, _, err := httpload.SlowBody(ctx, target)
	if err != nil || status != http.StatusRequestTimeout {
		t.Errorf("body too slow: status %d, %v; want 408 and the connection closed", status, err)
	}
	// The server is none the worse.
	if a := s.call("/mcp/repo", string(next), nil); a.status != 200 {
		t.Errorf("a call afterwards: %d %s", a.status, a.body)
	}
	if code := s.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// A cursor minted by one replica continues on another: two processes
// serve the same repository, a search is begun on the first and finished
// on the second, page for page as the first would have answered it.
func TestHTTPCursorAcrossReplicas(t *testing.T) {
	root := t.TempDir()
	if _, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: 40, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	one := startHTTP(t, "--http", "127.0.0.1:0", "--cwd", root)
	two := startHTTP(t, "--http", "127.0.0.1:0", "--cwd", root)
	for _, modern := range []bool{false, true} {
		page := func(s *httpServer, cursor string) ([]any, string) {
			args := `{"query":"PostgreSQL","limit":3}`
			if cursor != "" {
				args = `{"query":"PostgreSQL","limit":3,"cursor":"` + cursor + `"}`
			}
			a := s.call("/mcp", toolCallHTTP(1, "search_decisions", args, modern), nil)
			res := structured(t, a.body)["result"].(map[string]any)
			items, _ := res["items"].([]any)
			next, _ := res["cursor"].(string)
			return items, next
		}
		first, cursor := page(one, "")
		if cursor == "" || len(first) != 3 {
			t.Fatalf("first page: %d items, cursor %q", len(first), cursor)
		}
		pages := 1
		for cursor != "" {
			fromTwo, nextTwo := page(two, cursor)
			fromOne, nextOne := page(one, cursor)
			if fmt.Sprint(fromTwo) != fmt.Sprint(fromOne) || nextTwo != nextOne {
				t.Fatalf("page %d continued on the other replica differs:\n%v %q\n%v %q", pages+1, fromTwo, nextTwo, fromOne, nextOne)
			}
			if len(fromTwo) == 0 {
				t.Fatalf("page %d is empty", pages+1)
			}
			cursor, pages = nextTwo, pages+1
		}
		if pages < 3 {
			t.Errorf("only %d pages: the walk proves little", pages)
		}
	}
}

// A real client, go-sdk's, over HTTP in both eras: the legacy handshake,
// and 2026-07-28 found through server/discover (with a tools list-changed
// handler, which makes it open subscriptions/listen too). The modern
// session is left open: SIGTERM ends its listen stream instead of waiting
// the grace period out, and the process exits 0 without a warning.
func TestGoSDKClientOverHTTP(t *testing.T) {
	repo := newRepo(t)
	s := startHTTP(t, "--http", "127.0.0.1:0", "--cwd", repo)
	var open []*mcp.ClientSession
	defer func() {
		for _, cs := range open {
			_ = cs.Close()
		}
	}()
	for _, tc := range []struct{ name, version, negotiated string }{
		{"legacy", "2025-06-18", "2025-06-18"},
		{"modern", "", "2026-07-28"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), httpGuard)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "adrkit-it", Version: "0"}, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {},
			})
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: tc.version})
			if err != nil {
				t.Fatalf("connect: %v\n%s", err, s.log())
			}
			open = append(open, cs)
			if init := cs.InitializeResult(); init.ProtocolVersion != tc.negotiated || init.ServerInfo.Name != "adrkit-mcp" {
				t.Errorf("negotiated %q with %+v", init.ProtocolVersion, init.ServerInfo)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) != 4 {
				t.Fatalf("tools/list: %v %v", tools, err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_decision", Arguments: map[string]any{"ref": "0001"}})
			if err != nil || res.IsError {
				t.Fatalf("tools/call: %+v %v", res, err)
			}
			if got, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(got), `"outcome":"found"`) {
				t.Errorf("structured answer %s", got)
			}
		})
	}
	if code := s.stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
	if log := s.log(); strings.Contains(log, `"level":"WARN"`) || !strings.Contains(log, `"method":"subscriptions/listen"`) {
		t.Errorf("want a listen stream and no warning:\n%s", log)
	}
}
