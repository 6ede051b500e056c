package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// TestAbuseOddIDs: ids of every JSON-RPC shape. Strings and integers in
// the safe range are echoed with their type (an integer written as 1.0
// or 1e3 comes back as 1 and 1000, as JavaScript reads it); null,
// fractions, 2^53 and non-scalars are not JSON-RPC requests: no answer,
// one diagnostic each.
func TestAbuseOddIDs(t *testing.T) {
	long := strconv.Quote(strings.Repeat("i", 10000))
	tests := []struct{ sent, echoed string }{
		{`"s"`, `"s"`}, {`""`, `""`}, {long, long}, {`"é😀\t"`, `"é😀\t"`}, {`"\u00e9"`, `"é"`},
		{`0`, `0`}, {`-1`, `-1`}, {`9007199254740991`, `9007199254740991`}, {`-9007199254740991`, `-9007199254740991`},
		{`1.0`, `1`}, {`1e3`, `1000`}, {`-0`, `0`}, {`12E-1`, ``},
		{`null`, ``}, {`9007199254740992`, ``}, {`1.5`, ``}, {`true`, ``}, {`{}`, ``}, {`[]`, ``},
	}
	for _, tc := range tests {
		t.Run(tc.sent[:min(len(tc.sent), 20)], func(t *testing.T) {
			f := startSession(t, abuseRepo(t)).run(writeString(ping(tc.sent) + ping(`"after"`)))
			if f.answer(`"after"`) == nil {
				t.Errorf("the request after it was not answered")
			}
			if tc.echoed == "" {
				if len(f.frames) != 1 || f.code != 1 || len(f.diagnostics()) != 1 {
					t.Errorf("%d answers %q, exit %d, stderr %q; want no answer and one diagnostic", len(f.frames), f.raw, f.code, f.stderr)
				}
				return
			}
			if len(f.frames) != 2 || f.answer(tc.echoed) == nil || f.code != 0 || f.stderr != "" {
				t.Errorf("answers %q, exit %d, stderr %q; want id %s echoed", f.raw, f.code, f.stderr, tc.echoed)
			}
		})
	}
}

// TestAbuseDuplicateIDs: an id used again after its answer arrived is
// answered again; the same id pipelined many times (against JSON-RPC's
// rules) gets at least one answer and never more than it was sent, and
// the connection goes on.
func TestAbuseDuplicateIDs(t *testing.T) {
	// Sequential reuse: each request waits for the previous answer.
	sequential := startSession(t, abuseRepo(t))
	answers := make(chan string, 8)
	go func() {
		defer close(answers)
		br := bufio.NewReader(sequential.stdout)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			answers <- strings.TrimSuffix(line, "\n")
		}
	}()
	for i := 0; i < 3; i++ {
		if _, err := io.WriteString(sequential.stdin, ping("7")); err != nil {
			t.Fatal(err)
		}
		if a := <-answers; a != `{"jsonrpc":"2.0","id":7,"result":{}}` {
			t.Fatalf("answer %d to the reused id: %q", i+1, a)
		}
	}
	_ = sequential.stdin.Close()
	if _, open := <-answers; open {
		t.Error("an extra answer arrived")
	}
	_ = sequential.cmd.Wait()
	if code := sequential.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d", code)
	}

	const copies = 50
	pipelined := strings.Repeat(toolCall("8", "list_superseded", `{}`), copies) + ping("9")
	f := startSession(t, abuseRepo(t)).run(writeString(pipelined))
	if n := f.answers()["8"]; n < 1 || n > copies {
		t.Errorf("id 8 sent %d times answered %d times", copies, n)
	}
	if f.answers()["9"] != 1 || f.code != 0 {
		t.Errorf("after the duplicates: %d answers for id 9, exit %d, stderr %q", f.answers()["9"], f.code, f.stderr)
	}
}

// TestAbuseGarbage interleaves a mebibyte of random bytes (invalid UTF-8,
// NULs, control characters; no line of it is JSON) with requests, some of
// which carry invalid UTF-8 themselves: each garbage line is reported
// once on stderr (exit 1), every request is answered, stdout holds only
// frames.
func TestAbuseGarbage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var input bytes.Buffer
	want := map[string]bool{}
	for i := 0; input.Len() < mib; i++ {
		line := make([]byte, rng.IntN(2000))
		for j := range line {
			line[j] = byte(rng.UintN(256))
			if line[j] == '\n' {
				line[j] = 0
			}
		}
		// A leading 0xFF byte keeps every garbage line from being JSON.
		input.WriteByte(0xff)
		input.Write(line)
		input.WriteByte('\n')
		id := strconv.Itoa(i)
		switch i % 3 {
		case 0:
			input.WriteString(ping(id))
		case 1:
			input.WriteString(toolCall(id, "search_decisions", "{\"query\":\"\xff\xfecache\xc0\"}"))
		default:
			input.WriteString(toolCall(id, "get_decision", "{\"ref\":\"0001\",\"cursor\":\"\xed\xa0\x80\"}"))
		}
		input.WriteString("\r\n")
		want[id] = true
	}
	f := startSession(t, abuseRepo(t)).run(writeString(input.String()))
	got := f.answers()
	for id := range want {
		if got[id] != 1 {
			t.Fatalf("id %s answered %d times", id, got[id])
		}
	}
	if len(f.frames) != len(want) || f.code != 1 {
		t.Errorf("%d answers for %d requests, exit %d, stderr %.300q", len(f.frames), len(want), f.code, f.stderr)
	}
	d := f.diagnostics()
	if len(d) != len(want) || slices.ContainsFunc(d, func(line string) bool { return line != notJSONDiagnostic }) {
		t.Errorf("%d diagnostics for %d garbage lines: %.300q", len(d), len(want), f.stderr)
	}
}

// TestAbusePipelinedCallsTakeTurns: 200 tool calls written at once
// against a corpus of 2,000 records, none answered before all are sent,
// are all answered, each with its tool's outcome, and the server's memory
// stays within burstRSS (each call reading a corpus of its own at once
// would hold 200 of them).
func TestAbusePipelinedCallsTakeTurns(t *testing.T) {
	root := t.TempDir()
	if _, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: 2000, Seed: 5, Broken: 0.01}); err != nil {
		t.Fatal(err)
	}
	calls := corpusgen.Workload(2000)
	want := map[string]string{}
	var input strings.Builder
	for i := range 200 {
		c := calls[i%len(calls)]
		id := strconv.Itoa(i + 1)
		input.WriteString(toolCall(id, c.Tool, string(c.Args)))
		want[id] = c.Tool
	}
	f := startSession(t, root).runMeasured(writeString(input.String()), len(want))
	t.Logf("200 pipelined calls: peak RSS %d bytes", f.peakRSS)
	got := f.answers()
	for id, tool := range want {
		if got[id] != 1 {
			t.Fatalf("id %s (%s) answered %d times, want once", id, tool, got[id])
		}
		var res struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		}
		if err := json.Unmarshal(f.answer(id)["result"], &res); err != nil || res.IsError || len(res.StructuredContent) == 0 {
			t.Fatalf("id %s (%s): not a tool answer: %s", id, tool, f.answer(id)["result"])
		}
	}
	if f.code != 0 || f.stderr != "" {
		t.Errorf("exit %d, stderr %q", f.code, f.stderr)
	}
	if f.peakRSS == 0 || f.peakRSS > burstRSS {
		t.Errorf("peak RSS %d bytes, bound %d", f.peakRSS, burstRSS)
	}
}
