package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestLinesThatAreNotJSON: a blank line is nothing (a keep-alive
// newline); any other line that is not JSON is reported as JSON that is
// not JSON-RPC is, once, and nothing answers it.
func TestLinesThatAreNotJSON(t *testing.T) {
	h := start(t, nil)
	for _, line := range []string{"", "   ", "\t"} {
		h.line(line)
	}
	for _, line := range []string{"{this is not json", "hello", `{"jsonrpc":"2.0",`, "\x00\x01"} {
		h.line(line)
	}
	if res := h.result(`{"jsonrpc":"2.0","id":1,"method":"ping"}`); len(res) != 0 {
		t.Errorf("ping = %s", asJSON(res))
	}
	if rest := h.finish(); len(rest) != 0 {
		t.Errorf("frames for the bad lines: %s", asJSON(rest))
	}
	d := h.diagnostics()
	if len(d) != 4 {
		t.Fatalf("diagnostics = %v, want one per line that is not blank", d)
	}
	for _, e := range d {
		if e.Error() != "ignored a line that is not a JSON-RPC 2.0 message: it is not JSON" {
			t.Errorf("diagnostic %q", e)
		}
	}
}

func TestCarriageReturnIsStripped(t *testing.T) {
	h := start(t, nil)
	h.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n")
	if frame := h.next(); frame["id"] != 1.0 {
		t.Errorf("CRLF line answered with %s", asJSON(frame))
	}
	h.finishQuiet()
}

func TestMessagesThatAreNotJSONRPC(t *testing.T) {
	for _, line := range []string{
		`{"id":1,"method":"ping"}`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"jsonrpc":2,"id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":99}`,
		`{"jsonrpc":"2.0"}`,
		`[]`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`5`,
		`"ping"`,
		`null`,
		`{"jsonrpc":"2.0","id":1,"method":5}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":5}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":1.5}}}`,
		`{"jsonrpc":"2.0","id":1,"result":5}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`,
	} {
		t.Run(line, func(t *testing.T) {
			h := start(t, nil)
			h.line(line)
			// Nothing answers the line; the next request is served as usual.
			if res := h.result(`{"jsonrpc":"2.0","id":"after","method":"ping"}`); len(res) != 0 {
				t.Errorf("ping = %s", asJSON(res))
			}
			if rest := h.finish(); len(rest) != 0 {
				t.Errorf("frames for the bad line: %s", asJSON(rest))
			}
			d := h.diagnostics()
			if len(d) != 1 || !strings.Contains(d[0].Error(), "not a JSON-RPC 2.0 message") {
				t.Errorf("diagnostics = %v, want one about the message", d)
			}
		})
	}
}

func TestResponsesFromTheClient(t *testing.T) {
	h := start(t, nil)
	// Before the era is chosen, a response is reported...
	h.line(`{"jsonrpc":"2.0","id":42,"result":{}}`)
	h.line(`{"jsonrpc":"2.0","id":43,"error":{"code":-1,"message":"m"}}`)
	h.result(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if d := h.diagnostics(); len(d) != 2 {
		t.Errorf("diagnostics before pinning = %v, want two", d)
	}
	// ...after it, ignored.
	h.line(`{"jsonrpc":"2.0","id":44,"result":{}}`)
	h.line(`{"jsonrpc":"2.0","error":{"code":-1,"message":"m"}}`)
	h.result(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if rest := h.finish(); len(rest) != 0 {
		t.Errorf("unexpected frames: %s", asJSON(rest))
	}
	if d := h.diagnostics(); len(d) != 2 {
		t.Errorf("diagnostics after pinning = %v, want still two", d)
	}
}

// TestFinalLineWithoutNewlineIsAnswered: end of input ends the last
// line too, so a client that writes one request without its newline and
// closes is answered (issue 27 item 8).
func TestFinalLineWithoutNewlineIsAnswered(t *testing.T) {
	h := start(t, nil)
	h.result(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	h.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\r")
	rest := h.finish()
	if len(rest) != 1 || rest[0]["id"] != 2.0 {
		t.Errorf("frames after end of input: %s", asJSON(rest))
	}
	if d := h.diagnostics(); len(d) != 0 {
		t.Errorf("diagnostics = %v", d)
	}
}

// longLine streams a line of n bytes of filler followed by a newline and
// then rest, without ever holding the line in memory.
type longLine struct {
	n    int64
	rest *strings.Reader
}

func (l *longLine) Read(p []byte) (int, error) {
	if l.n > 0 {
		k := int64(len(p))
		if k > l.n {
			k = l.n
		}
		for i := range p[:k] {
			p[i] = 'x'
		}
		l.n -= k
		return int(k), nil
	}
	if l.n == 0 {
		l.n = -1
		p[0] = '\n'
		return 1, nil
	}
	return l.rest.Read(p)
}

func TestOverlongLineIsDiscardedWithBoundedMemory(t *testing.T) {
	const size = 100 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	var out bytes.Buffer
	var diags []error
	srv := New(&fakeTools{}, Options{
		In:      &longLine{n: size, rest: strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")},
		Out:     &out,
		OnError: func(err error) { diags = append(diags, err) },
	})
	if err := srv.Serve(context.Background()); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	runtime.ReadMemStats(&after)

	if got := out.String(); got != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" {
		t.Errorf("output = %q, want only the ping's answer", got)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Error(), "longer than") {
		t.Errorf("diagnostics = %v, want one about the long line", diags)
	}
	// The line is discarded as it streams: allocation stays near the bound
	// (the buffer growing to MaxLineBytes), far below the line's size.
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 4*MaxLineBytes {
		t.Errorf("allocated %d bytes for a %d-byte line", allocated, size)
	}
}

func TestLineAtTheBoundIsServed(t *testing.T) {
	// A request padded with spaces to exactly MaxLineBytes is still read.
	req := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	line := req + strings.Repeat(" ", MaxLineBytes-len(req)) + "\n"
	var out bytes.Buffer
	var diags []error
	srv := New(&fakeTools{}, Options{In: strings.NewReader(line), Out: &out, OnError: func(err error) { diags = append(diags, err) }})
	if err := srv.Serve(context.Background()); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if out.String() != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" || len(diags) != 0 {
		t.Errorf("output %q, diagnostics %v", out.String(), diags)
	}
}

// eofSignal closes seen when the wrapped reader reports end of input.
type eofSignal struct {
	r    io.Reader
	seen chan struct{}
	once sync.Once
}

func (e *eofSignal) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if errors.Is(err, io.EOF) {
		e.once.Do(func() { close(e.seen) })
	}
	return n, err
}

func TestEndOfInputAnswersEveryRequestAlreadyRead(t *testing.T) {
	sig := &eofSignal{seen: make(chan struct{})}
	h := start(t, func(r io.Reader) io.Reader { sig.r = r; return sig })
	h.result(initLegacy)
	h.line(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"list_superseded","arguments":{"mode":"wait","key":"k"}}}`)
	for i := range 20 {
		h.line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_decisions","arguments":{}}}`, 100+i))
		h.line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 200+i))
	}
	_ = h.in.Close()
	<-sig.seen
	// Only now, with end of input already read, does the slow call finish.
	close(h.tools.gate("k"))
	answered := map[any]bool{}
	for _, frame := range h.finish() {
		answered[frame["id"]] = true
	}
	if !answered["slow"] {
		t.Error("the request in flight at end of input was not answered")
	}
	for i := range 20 {
		if !answered[float64(100+i)] || !answered[float64(200+i)] {
			t.Errorf("request %d or %d was not answered", 100+i, 200+i)
		}
	}
}

func TestCancelledRequestGetsNoAnswer(t *testing.T) {
	for _, ec := range eraCases {
		t.Run(ec.name, func(t *testing.T) {
			h := start(t, nil)
			ec.open(h)
			h.line(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":` + ec.params(`{"name":"get_decision","arguments":{"mode":"block"}}`) + `}`)
			h.line(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"changed my mind"}}`)
			h.result(`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":` + ec.params(`{}`) + `}`)
			for _, frame := range h.finish() {
				t.Errorf("unexpected frame: %s", asJSON(frame))
			}
			// The id may be used again afterwards and is answered.
		})
	}
}

func TestRequestsAreAnsweredConcurrently(t *testing.T) {
	h := start(t, nil)
	h.result(initLegacy)
	// The first call waits for the second: served one at a time, the
	// connection would never answer either.
	h.line(`{"jsonrpc":"2.0","id":"first","method":"tools/call","params":{"name":"get_decision","arguments":{"mode":"wait","key":"a"}}}`)
	h.line(`{"jsonrpc":"2.0","id":"second","method":"tools/call","params":{"name":"get_decision","arguments":{"mode":"release","key":"a"}}}`)
	got := map[any]bool{h.next()["id"]: true, h.next()["id"]: true}
	if !got["first"] || !got["second"] {
		t.Errorf("answers = %v", got)
	}
	h.finishQuiet()
}

// failingWriter fails every write, like a stdout whose reader went away.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestWriteFailureIsReportedOnce(t *testing.T) {
	var diags []error
	var mu sync.Mutex
	in := strings.NewReader(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", 5))
	srv := New(&fakeTools{}, Options{In: in, Out: failingWriter{}, OnError: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		diags = append(diags, err)
	}})
	if err := srv.Serve(context.Background()); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Error(), "broken pipe") {
		t.Errorf("diagnostics = %v, want one write failure", diags)
	}
}

// TestServeStopsWhenTheContextEnds: the end of ctx abandons a call that
// never finishes on its own, and Serve returns.
func TestServeStopsWhenTheContextEnds(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	srv := New(&fakeTools{}, Options{In: inR, Out: outW, OnError: func(error) {}})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	// Once the handshake is answered the server is surely serving.
	if _, err := io.WriteString(inW, initLegacy+"\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(outR).ReadBytes('\n'); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_decision","arguments":{"mode":"block"}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
}
