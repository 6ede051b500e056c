package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/httpload"
)

// Helpers of the tests of `adrkit-mcp --http` (http_*_test.go): they start
// the built binary on a loopback port chosen by the kernel, learn the
// address from its "listening" log record, and talk to it as HTTP clients
// do. Every wait is bounded by httpGuard, which only turns a hang into a
// failure.

// httpGuard bounds every wait on an HTTP server process.
const httpGuard = 2 * time.Minute

// Envelope and headers of a 2026-07-28 request.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"it","version":"0"}}`

// httpServer is a running `adrkit-mcp --http`.
type httpServer struct {
	t    *testing.T
	cmd  *exec.Cmd
	url  string // http://127.0.0.1:PORT
	addr string

	mu      sync.Mutex
	stderr  bytes.Buffer
	records []map[string]any
	changed chan struct{} // closed and replaced on every new record

	exited chan struct{}
	code   int
}

// cleanEnv is the environment without ADRKIT_MCP_* variables: the flags
// alone configure the server.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ADRKIT_MCP_") {
			env = append(env, kv)
		}
	}
	return env
}

// startHTTP starts the binary with args (which must include --http) and
// waits until it listens. The server is stopped with SIGTERM, if still
// running, when the test ends.
func startHTTP(t *testing.T, args ...string) *httpServer {
	t.Helper()
	s := launchHTTP(t, args...)
	rec, err := s.await(func(r map[string]any) bool { return r["msg"] == "listening" })
	if err != nil {
		t.Fatalf("adrkit-mcp %q did not start: %v\nstderr:\n%s", args, err, s.log())
	}
	s.addr, _ = rec["addr"].(string)
	s.url = "http://" + s.addr
	return s
}

// launchHTTP starts the binary without waiting for anything.
func launchHTTP(t *testing.T, args ...string) *httpServer {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = cleanEnv()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &httpServer{t: t, cmd: cmd, changed: make(chan struct{}), exited: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			s.mu.Lock()
			s.stderr.Write(line)
			s.stderr.WriteByte('\n')
			var rec map[string]any
			if json.Unmarshal(line, &rec) == nil {
				s.records = append(s.records, rec)
			}
			close(s.changed)
			s.changed = make(chan struct{})
			s.mu.Unlock()
		}
		_ = cmd.Wait()
		s.mu.Lock()
		s.code = cmd.ProcessState.ExitCode()
		s.mu.Unlock()
		close(s.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-s.exited:
			return
		default:
		}
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(httpGuard):
			_ = cmd.Process.Kill()
			<-s.exited
		}
	})
	return s
}

// await waits for a log record (from the start) that match accepts, and
// returns it; an error if the process ends or the guard passes first.
func (s *httpServer) await(match func(map[string]any) bool) (map[string]any, error) {
	deadline := time.After(httpGuard)
	for i := 0; ; {
		s.mu.Lock()
		for ; i < len(s.records); i++ {
			if match(s.records[i]) {
				rec := s.records[i]
				s.mu.Unlock()
				return rec, nil
			}
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-s.exited:
			// The reader may have seen more before the exit.
			s.mu.Lock()
			n := len(s.records)
			s.mu.Unlock()
			if i < n {
				continue
			}
			return nil, fmt.Errorf("the process exited (status %d)", s.exitCode())
		case <-deadline:
			return nil, errors.New("gave up waiting")
		}
	}
}

// awaitMsg waits for the n-th record (from 1) whose msg is msg.
func (s *httpServer) awaitMsg(msg string, n int) map[string]any {
	s.t.Helper()
	seen := 0
	rec, err := s.await(func(r map[string]any) bool {
		if r["msg"] == msg {
			seen++
		}
		return r["msg"] == msg && seen == n
	})
	if err != nil {
		s.t.Fatalf("waiting for log record %q #%d: %v\nstderr:\n%s", msg, n, err, s.log())
	}
	return rec
}

// log is everything the server wrote to stderr so far.
func (s *httpServer) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// logRecords is a copy of the parsed log records so far.
func (s *httpServer) logRecords() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.records...)
}

func (s *httpServer) exitCode() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.code
}

// signal sends sig to the server.
func (s *httpServer) signal(sig os.Signal) {
	s.t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatal(err)
	}
}

// wait waits for the process to end and returns its exit status.
func (s *httpServer) wait() int {
	s.t.Helper()
	select {
	case <-s.exited:
	case <-time.After(httpGuard):
		_ = s.cmd.Process.Kill()
		s.t.Fatalf("adrkit-mcp did not exit\nstderr:\n%s", s.log())
	}
	return s.exitCode()
}

// stop sends SIGTERM and returns the exit status.
func (s *httpServer) stop() int {
	s.t.Helper()
	s.signal(syscall.SIGTERM)
	return s.wait()
}

// runHTTPBinary runs the binary to its end (a start-up failure) and
// returns its exit status and stderr.
func runHTTPBinary(t *testing.T, args ...string) (int, string) {
	t.Helper()
	s := launchHTTP(t, args...)
	code := s.wait()
	return code, s.log()
}

// answer is one HTTP exchange.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// call POSTs body to the server's path with the headers of a streamable
// HTTP client (those of a 2026-07-28 request when body carries its
// envelope, by httpload's rules), then hdr.
func (s *httpServer) call(path, body string, hdr map[string]string) answer {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), httpGuard)
	defer cancel()
	return postTo(s.t, ctx, s.url+path, body, hdr)
}

// postTo POSTs body to url (see call).
func postTo(t *testing.T, ctx context.Context, url, body string, hdr map[string]string) answer {
	t.Helper()
	target := httpload.Target{URL: url, Header: http.Header{}}
	for k, v := range hdr {
		target.Header.Set(k, v)
	}
	a, err := httpload.Send(ctx, target, []byte(body))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return answer{status: a.Status, header: a.Header, body: a.Body}
}

// get fetches path.
func (s *httpServer) get(path string) (int, string) {
	s.t.Helper()
	resp, err := http.Get(s.url + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// toolCallHTTP is a tools/call request of the 2025 era (modern=false) or
// of 2026-07-28.
func toolCallHTTP(id int, tool, args string, modern bool) string {
	if modern {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`, id, tool, args, modernMeta)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

// structured is the structuredContent of a tools/call answer.
func structured(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var msg struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &msg); err != nil || msg.Result.IsError || msg.Result.StructuredContent == nil {
		t.Fatalf("not a tool answer: %s", body)
	}
	return msg.Result.StructuredContent
}
