package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
)

// The protocol-abuse tests. Each states the answer the server is designed
// to give; docs/reliability.md lists them with the bounds asserted here.

const (
	// hugeLine is the size of the abusive lines: far above the 16 MiB
	// line bound (mcp.MaxLineBytes), streamed, never held by the test.
	hugeLine = 100 * mib
	// hugeLineRSS bounds the server's peak resident memory while it
	// discards a huge line: the line buffer stops at the 16 MiB bound,
	// whatever the line's length. Measured: about 55 MB.
	hugeLineRSS = 64 * mib
	// overlongDiagnostic is the one stderr line a discarded line gives.
	overlongDiagnostic = "adrkit-mcp: transport error: discarded an input line longer than 16777216 bytes"
	notJSONDiagnostic  = "adrkit-mcp: transport error: ignored a line that is not a JSON-RPC 2.0 message: it is not JSON"
)

// writeHuge writes n bytes of filler in 1 MiB pieces.
func writeHuge(w io.Writer, n int, filler byte) error {
	chunk := bytes.Repeat([]byte{filler}, mib)
	for ; n > 0; n -= len(chunk) {
		if n < len(chunk) {
			chunk = chunk[:n]
		}
		if _, err := w.Write(chunk); err != nil {
			return err
		}
	}
	return nil
}

// TestAbuseHugeLines: a line of 100 MiB is discarded as it streams in,
// with one diagnostic; the server's memory stays bounded; the requests
// around it are answered; the exit status is 1 (a diagnostic was given).
func TestAbuseHugeLines(t *testing.T) {
	repo := abuseRepo(t)
	tests := []struct {
		name  string
		write func(w io.Writer) error
		// want are the ids (raw JSON) that must be answered, once each.
		want []string
	}{
		{"garbage without a newline, then requests", func(w io.Writer) error {
			if err := writeHuge(w, hugeLine, 'x'); err != nil {
				return err
			}
			_, err := io.WriteString(w, "\n"+ping("1")+toolCall("2", "search_decisions", `{"query":"cache"}`))
			return err
		}, []string{"1", "2"}},
		{"a request whose line is too long, between two requests", func(w io.Writer) error {
			if _, err := io.WriteString(w, ping("1")+`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"`); err != nil {
				return err
			}
			if err := writeHuge(w, hugeLine, 'y'); err != nil {
				return err
			}
			_, err := io.WriteString(w, `"}}`+"\n"+ping("2"))
			return err
		}, []string{"1", "2"}},
		{"requests, then a huge final line without a newline", func(w io.Writer) error {
			if _, err := io.WriteString(w, ping("1")+toolCall("2", "list_superseded", `{}`)); err != nil {
				return err
			}
			return writeHuge(w, hugeLine, '{')
		}, []string{"1", "2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := startSession(t, repo).runMeasured(tc.write, len(tc.want))
			t.Logf("peak RSS %d bytes", f.peakRSS)
			got := f.answers()
			for _, id := range tc.want {
				if got[id] != 1 {
					t.Errorf("id %s answered %d times, want once", id, got[id])
				}
			}
			if len(f.frames) != len(tc.want) {
				t.Errorf("%d answers, want %d: %q", len(f.frames), len(tc.want), f.raw)
			}
			if d := f.diagnostics(); f.code != 1 || len(d) != 1 || d[0] != overlongDiagnostic {
				t.Errorf("exit %d, stderr %q; want 1 and the one diagnostic", f.code, f.stderr)
			}
			if f.peakRSS == 0 || f.peakRSS > hugeLineRSS {
				t.Errorf("peak RSS %d bytes, bound %d", f.peakRSS, hugeLineRSS)
			}
		})
	}
}

// TestAbuseDeepJSON: deeply nested JSON neither crashes nor hangs the
// server. Up to encoding/json's depth limit (10,000) a request is
// answered (the SDK refuses params nested deeper than 1,000 levels with
// -32602); a line nested deeper than that cannot be parsed by Go and is
// reported with a diagnostic, never silently dropped.
func TestAbuseDeepJSON(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	input := strings.Join([]string{
		strings.Repeat("[", 100000),
		deep(100000),
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + deep(100000) + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":` + deep(5000) + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_decisions","arguments":{"query":"x","deep":` + deep(5000) + `}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_decisions","arguments":{"query":"x","deep":` + deep(900) + `}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
	}, "\n") + "\n"
	f := startSession(t, abuseRepo(t)).run(writeString(input))
	got := f.answers()
	if got["1"] != 0 {
		t.Errorf("the request nested 100,000 deep was answered: Go's parser cannot read it")
	}
	for _, id := range []string{"2", "3", "4", "5"} {
		if got[id] != 1 {
			t.Errorf("id %s answered %d times, want once", id, got[id])
		}
	}
	var refused struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(mustFrame(t, f, "4"), &refused); err != nil || !refused.Result.IsError ||
		!strings.Contains(refused.Result.Content[0].Text, `unknown argument "deep"`) {
		t.Errorf("arguments nested 900 deep: %s, want the validation refusal", mustFrame(t, f, "4"))
	}
	// Three lines Go cannot parse (the two 100,000-deep arrays and the
	// deep request): one diagnostic each; the unclosed one too, as it
	// cannot be told apart from a well-formed one without parsing it.
	if d := f.diagnostics(); f.code != 1 || len(d) != 3 {
		t.Errorf("exit %d, %d diagnostics %q; want 1 and three", f.code, len(d), d)
	}
	for _, d := range f.diagnostics() {
		if !strings.Contains(d, "nested more than 10000 levels deep") {
			t.Errorf("diagnostic %q", d)
		}
	}
}

func mustFrame(t *testing.T, f finished, id string) []byte {
	t.Helper()
	fr := f.answer(id)
	if fr == nil {
		t.Fatalf("no answer for id %s", id)
	}
	b, _ := json.Marshal(fr)
	return b
}

// TestAbusePipelinedRequests writes 10,000 requests at once (pings,
// tools/list, all four tools, numeric and string ids) while reading the
// answers: every request is answered exactly once, with its own id, and
// tool calls with their tool's answer.
func TestAbusePipelinedRequests(t *testing.T) {
	const n = 10000
	const pipelinedRSS = 128 * mib
	calls := []struct{ tool, args, outcome string }{
		{"search_decisions", `{"query":"cache"}`, "results"},
		{"get_decision", `{"ref":"0005"}`, "ambiguous-local-id"},
		{"get_decision_context", `{"files":["src/cache/x.go"]}`, "matches"},
		{"list_superseded", `{}`, "entries"},
	}
	want := map[string]string{} // id -> what answers it
	var input strings.Builder
	input.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"abuse","version":"0"}}}` + "\n")
	want["0"] = "initialize"
	for i := 1; i <= n; i++ {
		id := strconv.Itoa(i)
		if i%3 == 0 {
			id = strconv.Quote("s" + id)
		}
		switch {
		case i%25 == 0:
			c := calls[(i/25)%len(calls)]
			input.WriteString(toolCall(id, c.tool, c.args))
			want[id] = c.outcome
		case i%10 == 0:
			input.WriteString(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}` + "\n")
			want[id] = "tools"
		default:
			input.WriteString(ping(id))
			want[id] = "ping"
		}
	}
	f := startSession(t, abuseRepo(t)).runMeasured(writeString(input.String()), len(want))
	t.Logf("%d requests: peak RSS %d bytes", n+1, f.peakRSS)
	got := f.answers()
	for id, what := range want {
		if got[id] != 1 {
			t.Fatalf("id %s (%s) answered %d times, want once", id, what, got[id])
		}
	}
	if len(f.frames) != len(want) {
		t.Fatalf("%d answers for %d requests", len(f.frames), len(want))
	}
	for _, fr := range f.frames {
		id := string(fr["id"])
		var res struct {
			Tools             []any `json:"tools"`
			StructuredContent struct {
				Result struct {
					Outcome string `json:"outcome"`
				} `json:"result"`
			} `json:"structuredContent"`
			ProtocolVersion string `json:"protocolVersion"`
		}
		if err := json.Unmarshal(fr["result"], &res); err != nil {
			t.Fatalf("id %s: %s", id, fr["error"])
		}
		switch what := want[id]; what {
		case "ping":
		case "tools":
			if len(res.Tools) != 4 {
				t.Fatalf("id %s: %d tools", id, len(res.Tools))
			}
		case "initialize":
			if res.ProtocolVersion != "2025-06-18" {
				t.Fatalf("initialize answered %q", res.ProtocolVersion)
			}
		default:
			if res.StructuredContent.Result.Outcome != what {
				t.Fatalf("id %s: outcome %q, want %q: %s", id, res.StructuredContent.Result.Outcome, what, fr["result"])
			}
		}
	}
	if f.code != 0 || f.stderr != "" {
		t.Errorf("exit %d, stderr %q", f.code, f.stderr)
	}
	if f.peakRSS == 0 || f.peakRSS > pipelinedRSS {
		t.Errorf("peak RSS %d bytes, bound %d", f.peakRSS, pipelinedRSS)
	}
}

// burstRSS bounds the server's peak resident memory while it answers a
// burst of tool calls on a corpus of 2,000 records: calls wait their turn
// to read the corpus (at most one projection per core at a time).
// Measured: about 52 MB, and 93 MB with every call reading at once.
const burstRSS = 72 * mib
