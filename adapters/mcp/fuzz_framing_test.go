package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/app"
)

// framingHangGuard is how long one fuzzed session may take before it
// counts as hung; sessions take milliseconds, so only a hang reaches it.
const framingHangGuard = time.Minute

// lockedBuffer is an output sink safe for the concurrent writers of a
// session.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// serveBytes runs one session over input with the real tools over the
// fixture corpus and returns stdout and the diagnostics.
func serveBytes(t *testing.T, input []byte) ([]byte, []string) {
	t.Helper()
	var out lockedBuffer
	var mu sync.Mutex
	var diags []string
	srv := New(app.New(fixtureCorpus(t), app.Options{}), Options{In: bytes.NewReader(input), Out: &out, OnError: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		diags = append(diags, err.Error())
	}})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background()) }()
	timer := time.NewTimer(framingHangGuard)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-timer.C:
		t.Fatalf("the session did not end after its input did: it hangs\ninput %q", input)
	}
	mu.Lock()
	defer mu.Unlock()
	return out.Bytes(), diags
}

// idKey normalises a JSON-RPC id (raw JSON) for matching requests with
// answers: strings by their decoded text, numbers by their value.
func idKey(raw json.RawMessage) (string, bool) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return "s:" + x, true
	case float64:
		if x == 0 {
			x = 0 // -0 is answered as 0
		}
		return "n:" + strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return "", false
}

// plainID is an id this oracle is sure the server accepts: a string, or
// an integer literal well inside the safe range.
var plainID = regexp.MustCompile(`^(-?(0|[1-9][0-9]{0,14})|"[^"\\]*")$`)

// framingOracle reads the input the way a client that wrote it expects
// it to be answered, independently of the server's parser.
type framingOracle struct {
	// sure counts, per id, the complete lines that are plainly requests
	// (exactly jsonrpc, id, method and maybe params; "2.0"; a string
	// method other than subscriptions/listen, which stays open until the
	// connection ends; a plain id; params absent or an object without
	// _meta).
	sure map[string]int
	// any counts, per id, every complete line that carries an id at all.
	any map[string]int
	// cancels is set when some line is a notifications/cancelled: a
	// cancelled request is answered at most once, not exactly once.
	cancels bool
}

func readInput(input []byte) framingOracle {
	o := framingOracle{sure: map[string]int{}, any: map[string]int{}}
	lines := bytes.Split(input, []byte("\n"))
	for _, line := range lines { // the last piece, without its newline, ends at end of input
		line = bytes.TrimSuffix(line, []byte("\r"))
		var fields map[string]json.RawMessage
		if json.Unmarshal(line, &fields) != nil || fields == nil {
			continue
		}
		var method string
		hasMethod := json.Unmarshal(fields["method"], &method) == nil && bytes.HasPrefix(bytes.TrimSpace(fields["method"]), []byte(`"`))
		if hasMethod && method == methodCancelled {
			o.cancels = true
		}
		rawID, ok := fields["id"]
		if !ok {
			continue
		}
		key, ok := idKey(rawID)
		if !ok {
			continue
		}
		o.any[key]++
		if !plainID.Match(bytes.TrimSpace(rawID)) || string(bytes.TrimSpace(fields["jsonrpc"])) != `"2.0"` || !hasMethod ||
			method == methodListen {
			continue
		}
		extra := false
		for k := range fields {
			extra = extra || (k != "jsonrpc" && k != "id" && k != "method" && k != "params")
		}
		if params, ok := fields["params"]; ok {
			var p map[string]json.RawMessage
			if json.Unmarshal(params, &p) != nil || p == nil || p["_meta"] != nil {
				continue
			}
		}
		if !extra {
			o.sure[key]++
		}
	}
	return o
}

// FuzzStdioFraming feeds arbitrary byte streams to a whole session (our
// transport, era pinning, the SDK and the real tools over the fixture
// corpus). Properties:
//
//   - no panic, and no hang: the session ends once its input does;
//   - stdout holds only complete lines, each one JSON-RPC 2.0 answer
//     (an object with "jsonrpc":"2.0", an id, and a result or an error);
//   - nothing is answered that was not asked: every answer's id is the id
//     of a complete input line, and no id is answered more often than
//     lines carried it;
//   - every plainly well-formed request whose id no other line uses is
//     answered exactly once (at most once when the input cancels
//     something).
func FuzzStdioFraming(f *testing.F) {
	for _, s := range []string{
		initLegacy + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n",
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"search_decisions","arguments":{"query":"cache","limit":1}}}` + "\r\n",
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\nnot json\n\n[]\n" + `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n",
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + modernMeta + `}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_superseded","arguments":{},` + modernMeta + `}}` + "\n",
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_decision","arguments":{"ref":"0001"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}` + "\n",
		`{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":4,"method":"notifications/initialized"}` + "\n",
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}` + "\n" + `{"jsonrpc":"2.0","id":6,"method":"tools/call"}` + "\n",
		`{"jsonrpc":"2.0","id":7,"method":"initialize"}` + "\n" + `{"jsonrpc":"2.0","id":8,"method":"prompts/list"}` + "\n",
		"\xff\xfe\x00{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n" + `{"jsonrpc":"2.0","id":"\xff","method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
	} {
		f.Add([]byte(s))
	}
	fixtureCorpus(f)
	f.Fuzz(func(t *testing.T, input []byte) {
		out, _ := serveBytes(t, input)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			t.Fatalf("stdout ends in an incomplete line: %q", out)
		}
		answered := map[string]int{}
		for _, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
			if len(line) == 0 && len(out) == 0 {
				break
			}
			var frame map[string]json.RawMessage
			if err := json.Unmarshal(line, &frame); err != nil || frame == nil {
				t.Fatalf("stdout line is not a JSON object: %q", line)
			}
			_, hasResult := frame["result"]
			_, hasError := frame["error"]
			key, ok := idKey(frame["id"])
			if string(frame["jsonrpc"]) != `"2.0"` || !ok || hasResult == hasError {
				t.Fatalf("stdout line is not a JSON-RPC answer: %s", line)
			}
			answered[key]++
		}
		o := readInput(input)
		for key, n := range answered {
			if n > o.any[key] {
				t.Fatalf("id %s answered %d times, but %d lines carried it\ninput %q\noutput %s", key, n, o.any[key], input, out)
			}
		}
		for key, n := range o.sure {
			if n != 1 || o.any[key] != 1 {
				continue // a repeated id: answered at most that often (checked above)
			}
			if got := answered[key]; got != 1 && (got != 0 || !o.cancels) {
				t.Fatalf("request %s answered %d times, want once\ninput %q\noutput %s", key, got, input, out)
			}
		}
	})
}
