package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/adapters/gitrev"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/corpus"
)

// Envelopes used by the modern-era tests.
const (
	modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"0"}}`
	initLegacy = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`
)

// fakeTools is a tool service driven by the arguments of each call, so
// raw-frame tests can exercise every kind of answer without a corpus.
//
//	{}                              echo: Text "called <tool>", a not-found outcome "echo"
//	                                whose requestedRef is the arguments' text
//	{"mode":"refuse"}               an isError result (input validation failure)
//	{"mode":"panic"}                panics
//	{"mode":"fail"}                 returns an unexpected error
//	{"mode":"block"}                waits for the call's context to end
//	{"mode":"wait","key":K}         waits until a call {"mode":"release","key":K} ran
//	{"mode":"release","key":K}      releases the waiters on K
type fakeTools struct {
	mu    sync.Mutex
	gates map[string]chan struct{}
	// calls records the arguments of every call, in arrival order.
	calls []json.RawMessage
}

func (f *fakeTools) Tools() []app.ToolInfo { return app.New(nil, app.Options{}).Tools() }

func (f *fakeTools) gate(key string) chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gates == nil {
		f.gates = map[string]chan struct{}{}
	}
	if f.gates[key] == nil {
		f.gates[key] = make(chan struct{})
	}
	return f.gates[key]
}

func (f *fakeTools) Call(ctx context.Context, tool string, args json.RawMessage) (app.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, args)
	f.mu.Unlock()
	var in struct{ Mode, Key string }
	if len(args) > 0 {
		if err := json.Unmarshal(args, &in); err != nil {
			return app.Result{}, fmt.Errorf("%w: %w", app.ErrArgumentsNotObject, err)
		}
	}
	switch in.Mode {
	case "refuse":
		return app.Result{Text: "Input validation error: Invalid arguments for tool " + tool + ": nope", IsError: true}, nil
	case "panic":
		panic("deliberate test panic")
	case "fail":
		return app.Result{}, errors.New("deliberate test failure")
	case "block":
		<-ctx.Done()
		return app.Result{}, ctx.Err()
	case "wait":
		<-f.gate(in.Key)
	case "release":
		close(f.gate(in.Key))
	}
	echo := app.NotFound{Outcome: "echo", RequestedRef: string(args)}
	return app.Result{Text: "called " + tool, Structured: &app.Answer{Result: echo}}, nil
}

// harness runs a Server over pipes with a fake tool service.
type harness struct {
	t      *testing.T
	tools  *fakeTools
	in     *io.PipeWriter
	frames chan map[string]any
	noise  chan string
	served chan error

	mu    sync.Mutex
	diags []error
}

// start serves a fresh connection with a fake tool service. input, when
// non-nil, wraps the reading end of the stdin pipe (to observe how the
// server reads it).
func start(t *testing.T, input func(io.Reader) io.Reader) *harness {
	t.Helper()
	tools := &fakeTools{}
	h := startServer(t, t.TempDir(), input, tools)
	h.tools = tools
	return h
}

// startOn serves a fresh connection with the real tool service over the
// repository at root.
func startOn(t *testing.T, root string) *harness {
	t.Helper()
	return startServer(t, root, nil, nil)
}

// startServer serves a fresh connection with tools, or the real tool
// service over root when tools is nil.
func startServer(t *testing.T, root string, input func(io.Reader) io.Reader, tools ToolService) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{
		t: t, in: inW,
		frames: make(chan map[string]any, 1024),
		noise:  make(chan string, 1024),
		served: make(chan error, 1),
	}
	var in io.Reader = inR
	if input != nil {
		in = input(inR)
	}
	if tools == nil {
		tools = serviceOver(root, false)
	}
	srv := New(tools, Options{In: in, Out: outW, OnError: h.report})
	go func() {
		err := srv.Serve(t.Context())
		_ = outW.Close()
		h.served <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var frame map[string]any
			if err := json.Unmarshal(sc.Bytes(), &frame); err != nil {
				h.noise <- sc.Text()
				continue
			}
			h.frames <- frame
		}
		close(h.frames)
	}()
	t.Cleanup(func() { _ = inW.Close() })
	return h
}

// serviceOver is the service the binaries build for the repository at
// root (cmd/internal/entry's Location.Service), from the same readers:
// the working tree and, with extended, its git history, with a fixed day
// for the review queue.
func serviceOver(root string, extended bool) *app.Service {
	var opts app.Options
	if extended {
		opts = app.Options{Extended: true, History: gitrev.NewHistory(root, corpus.DefaultDir, ""), Clock: fixedDay{}}
	}
	return app.New(filesystem.New(root, corpus.DefaultDir), opts)
}

// fixedDay is the clock of the review queue in these tests.
type fixedDay struct{}

func (fixedDay) Now() time.Time { return time.Date(2026, 1, 8, 12, 0, 0, 0, time.UTC) }

func (h *harness) report(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.diags = append(h.diags, err)
}

func (h *harness) diagnostics() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.diags...)
}

// send writes raw bytes to the server's input.
func (h *harness) send(raw string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, raw); err != nil {
		h.t.Fatalf("writing to the server: %v", err)
	}
}

// line writes one message line.
func (h *harness) line(msg string) { h.t.Helper(); h.send(msg + "\n") }

// next returns the next frame the server wrote.
func (h *harness) next() map[string]any {
	h.t.Helper()
	frame, ok := <-h.frames
	if !ok {
		h.t.Fatal("the server's output ended while a frame was expected")
	}
	return frame
}

// call sends a request line and returns the next frame, which must answer
// it.
func (h *harness) call(msg string) map[string]any {
	h.t.Helper()
	h.line(msg)
	frame := h.next()
	var req map[string]any
	if err := json.Unmarshal([]byte(msg), &req); err != nil {
		h.t.Fatalf("bad request in test: %v", err)
	}
	if !reflect.DeepEqual(frame["id"], req["id"]) {
		h.t.Fatalf("expected the answer to id %v, got %v", req["id"], asJSON(frame))
	}
	return frame
}

// result sends a request and returns its result, failing on an error.
func (h *harness) result(msg string) map[string]any {
	h.t.Helper()
	frame := h.call(msg)
	res, ok := frame["result"].(map[string]any)
	if !ok {
		h.t.Fatalf("expected a result for %s, got %s", msg, asJSON(frame))
	}
	return res
}

// errorCode sends a request and returns the code of its error answer.
func (h *harness) errorCode(msg string) int {
	h.t.Helper()
	frame := h.call(msg)
	e, ok := frame["error"].(map[string]any)
	if !ok {
		h.t.Fatalf("expected an error for %s, got %s", msg, asJSON(frame))
	}
	if _, hasResult := frame["result"]; hasResult {
		h.t.Fatalf("error frame also has a result: %s", asJSON(frame))
	}
	code, _ := e["code"].(float64)
	return int(code)
}

// finish closes the input, waits for Serve and returns the frames written
// after the last one read. Every output line must have been JSON.
func (h *harness) finish() []map[string]any {
	h.t.Helper()
	_ = h.in.Close()
	if err := <-h.served; err != nil {
		h.t.Fatalf("Serve returned %v", err)
	}
	var rest []map[string]any
	for frame := range h.frames {
		rest = append(rest, frame)
	}
	select {
	case line := <-h.noise:
		h.t.Fatalf("non-JSON output line: %q", line)
	default:
	}
	return rest
}

// finishQuiet is finish for tests that expect nothing more on output and
// no diagnostics.
func (h *harness) finishQuiet() {
	h.t.Helper()
	if rest := h.finish(); len(rest) > 0 {
		h.t.Fatalf("unexpected frames at the end: %s", asJSON(rest))
	}
	if d := h.diagnostics(); len(d) > 0 {
		h.t.Fatalf("unexpected diagnostics: %v", d)
	}
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// mustJSON parses a JSON literal written in a test.
func mustJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON in test: %v\n%s", err, s)
	}
	return v
}

// keys lists an object's keys, sorted.
func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// withMeta adds the modern envelope to a params object literal ("{}" or
// "{...}").
func withMeta(params string) string {
	params = strings.TrimSpace(params)
	if params == "{}" {
		return "{" + modernMeta + "}"
	}
	return "{" + modernMeta + "," + params[1:]
}

// readSchema returns the advertised schema file ("NAME.input.json",
// "NAME.output.json") of any tool, the extended ones included.
func readSchema(file string) (json.RawMessage, error) {
	for _, t := range app.New(nil, app.Options{Extended: true}).Tools() {
		switch file {
		case t.Name + ".input.json":
			return t.InputSchema, nil
		case t.Name + ".output.json":
			return t.OutputSchema, nil
		}
	}
	return nil, fmt.Errorf("no schema %s", file)
}

// defaultTools are the names of the default surface.
func defaultTools() []string {
	var names []string
	for _, t := range (&fakeTools{}).Tools() {
		names = append(names, t.Name)
	}
	return names
}
