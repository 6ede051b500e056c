package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/ports"
)

// Protocol-abuse tests of the transport that need its insides: what a
// reader does after end of input, and how lines nested too deeply for
// Go's JSON parser are classified.

// TestAbuseDeepNesting is the regression test for lines nested deeper
// than encoding/json's limit: json.Valid refuses them, and they used to
// be skipped silently as "not JSON", so a well-formed request nested that
// deeply got neither an answer nor a word. They are now reported with a
// diagnostic. Lines within the limit are parsed as before.
func TestAbuseDeepNesting(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name string
		line string
		want frameKind
	}{
		{"at the limit: JSON (a batch)", deep(maxJSONDepth), frameInvalid},
		{"one past the limit", deep(maxJSONDepth + 1), frameInvalid},
		{"a request with params nested 100,000 deep", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + deep(100000) + `}}`, frameInvalid},
		{"unclosed, past the limit", strings.Repeat("{\"a\":", 20000), frameInvalid},
		{"unclosed, within the limit: not JSON", strings.Repeat("[", 5000), frameNotJSON},
		{"brackets inside a string do not count", `"` + strings.Repeat("[", 20000) + `"x`, frameNotJSON},
		{"escaped quotes keep the string open", `"\"` + strings.Repeat("[", 20000) + `\\`, frameNotJSON},
		{"within the limit: a request", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + deep(5000) + `}}`, frameRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := parseFrame([]byte(tc.line))
			if f.kind != tc.want {
				t.Fatalf("kind %d (%s), want %d", f.kind, f.problem, tc.want)
			}
			if tc.want == frameInvalid && tc.line[0] != '[' && !strings.Contains(f.problem, "nested more than 10000 levels deep") {
				t.Errorf("problem %q", f.problem)
			}
		})
	}

	// Over a whole session: the deep request is reported once, the
	// requests around it are answered.
	var out lockedBuffer
	var diags []string
	srv := New(&fakeTools{}, Options{
		In: strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + tests[2].line + "\n" +
			`{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"),
		Out:     &out,
		OnError: func(err error) { diags = append(diags, err.Error()) },
	})
	if err := srv.Serve(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := string(out.Bytes()); strings.Count(got, "\n") != 2 || !strings.Contains(got, `"id":1,`) || !strings.Contains(got, `"id":3,`) {
		t.Errorf("output %q", got)
	}
	if len(diags) != 1 || !strings.Contains(diags[0], "nested more than 10000 levels deep") {
		t.Errorf("diagnostics %q", diags)
	}
}

// afterEOF is an input that ends (io.EOF) after first, and would yield
// more if it were read again; it counts the reads after the end.
type afterEOF struct {
	mu        sync.Mutex
	first     io.Reader
	ended     bool
	readAfter int
}

func (r *afterEOF) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		r.readAfter++
		return copy(p, `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n"), nil
	}
	n, err := r.first.Read(p)
	if errors.Is(err, io.EOF) {
		r.ended = true
	}
	return n, err
}

// TestAbuseNothingIsReadAfterEndOfInput: the first end of input ends the
// connection's input for good (a terminal's ^D, say, after which more
// could be typed): the requests before it are answered, nothing after it
// is even read.
func TestAbuseNothingIsReadAfterEndOfInput(t *testing.T) {
	in := &afterEOF{first: strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_superseded","arguments":{}}}` + "\n")}
	var out lockedBuffer
	srv := New(app.New(fixtureCorpus(t), app.Options{}), Options{In: in, Out: &out, OnError: func(err error) { t.Errorf("diagnostic: %v", err) }})
	if err := srv.Serve(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := string(out.Bytes()); strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"result":`) {
		t.Errorf("output %q, want the answer to id 1 only", got)
	}
	if in.readAfter != 0 {
		t.Errorf("the input was read %d times after it ended", in.readAfter)
	}
}

// failingInput yields data, then fails with a read error.
type failingInput struct{ data io.Reader }

func (r *failingInput) Read(p []byte) (int, error) {
	n, err := r.data.Read(p)
	if errors.Is(err, io.EOF) {
		return 0, errors.New("input/output error")
	}
	return n, err
}

// TestAbuseInputReadError: a failing stdin is reported once, and the
// requests read before the failure are still answered.
func TestAbuseInputReadError(t *testing.T) {
	var out lockedBuffer
	var diags []string
	srv := New(&fakeTools{}, Options{
		In:      &failingInput{data: bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}`))},
		Out:     &out,
		OnError: func(err error) { diags = append(diags, err.Error()) },
	})
	if err := srv.Serve(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := string(out.Bytes()); got != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" {
		t.Errorf("output %q", got)
	}
	if len(diags) != 1 || !strings.Contains(diags[0], "input/output error") {
		t.Errorf("diagnostics %q", diags)
	}
}

// heldReader holds the first Open of a corpus until release is closed,
// so that a call is in flight for as long as a test needs; entered is
// signalled when it is held.
type heldReader struct {
	ports.CorpusReader
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (r *heldReader) Open(ctx context.Context) (ports.ADRDir, error) {
	held := false
	r.once.Do(func() { held = true })
	if held {
		close(r.entered)
		<-r.release
	}
	return r.CorpusReader.Open(ctx)
}

// TestAbuseCancellationInFlight: with the real tool service, a call the
// client cancels while it is in flight, its projection held in the
// middle of reading or waiting for its turn behind one, gets no answer at
// all; the calls around it are answered. The calls are held by the test,
// not timed against the notification.
func TestAbuseCancellationInFlight(t *testing.T) {
	root := copyCorpus(t)
	r := &heldReader{CorpusReader: filesystem.New(root, "docs/adr"), entered: make(chan struct{}), release: make(chan struct{})}
	h := startServer(t, root, nil, app.New(r, app.Options{MaxLoads: 1}))
	h.result(initLegacy)
	call := func(id, tool, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	// 2 holds the one turn to read; 3 waits for it.
	h.line(call("2", "search_decisions", `{"query":"cache"}`))
	<-r.entered
	h.line(call("3", "list_superseded", `{}`))
	for _, id := range []string{"2", "3"} {
		h.line(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`)
	}
	h.line(call("4", "get_decision", `{"ref":"0001"}`))
	h.result(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	close(r.release)
	if got := h.next(); got["id"] != float64(4) || got["result"] == nil {
		t.Fatalf("expected the answer to 4, got %s", asJSON(got))
	}
	h.finishQuiet()
}
