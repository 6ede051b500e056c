package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/memcorpus"
)

var (
	fuzzFilesOnce sync.Once
	fuzzFiles     map[string][]byte
	fuzzFilesErr  error
)

// fixtureCorpus is an in-memory copy (memcorpus) of
// testdata/corpus/docs/adr, read from disk once, so that the dispatch and
// framing fuzz targets run the real tools (parsing, invariants, paging,
// cursors) without disk I/O in every execution.
func fixtureCorpus(tb testing.TB) *memcorpus.Reader {
	tb.Helper()
	fuzzFilesOnce.Do(func() {
		dir := filepath.Join("testdata", "corpus", "docs", "adr")
		entries, err := os.ReadDir(dir)
		if err != nil {
			fuzzFilesErr = err
			return
		}
		fuzzFiles = map[string][]byte{}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				fuzzFilesErr = err
				return
			}
			fuzzFiles[e.Name()] = b
		}
	})
	if fuzzFilesErr != nil {
		tb.Fatalf("loading the fixture corpus: %v", fuzzFilesErr)
	}
	r := memcorpus.New("docs/adr")
	for name, b := range fuzzFiles {
		r.WriteFile(name, b)
	}
	return r
}

var (
	fuzzSchemasOnce sync.Once
	fuzzSchemas     map[string]*jsonschema.Resolved
	fuzzSchemasErr  error
)

// toolOutputSchemas resolves the embedded output schema of every tool.
func toolOutputSchemas(tb testing.TB) map[string]*jsonschema.Resolved {
	tb.Helper()
	fuzzSchemasOnce.Do(func() {
		fuzzSchemas = map[string]*jsonschema.Resolved{}
		for _, name := range fuzzToolNames {
			raw, err := readSchema(name + ".output.json")
			if err != nil {
				fuzzSchemasErr = err
				return
			}
			var s jsonschema.Schema
			if err := json.Unmarshal(raw, &s); err != nil {
				fuzzSchemasErr = err
				return
			}
			if fuzzSchemas[name], err = s.Resolve(nil); err != nil {
				fuzzSchemasErr = err
				return
			}
		}
	})
	if fuzzSchemasErr != nil {
		tb.Fatalf("output schemas: %v", fuzzSchemasErr)
	}
	return fuzzSchemas
}

// fuzzToolNames are the four tools the server registers.
var fuzzToolNames = []string{app.ToolGetDecision, app.ToolGetDecisionContext, app.ToolListSuperseded, app.ToolSearchDecisions}

// fuzzReasons are the corpus-unavailable reasons a fuzzed call may meet.
var fuzzReasons = []corpus.UnavailableReason{
	corpus.RootNotFound, corpus.RootNotDirectory, corpus.RootNotReadable, corpus.RootNotGit, corpus.DirNotFound,
	corpus.DirNotDirectory, corpus.DirNotReadable, corpus.DirOutsideRoot, corpus.CorpusChangedDuringLoad,
}

// encodedAnswer is the structuredContent the server would send for res.
func encodedAnswer(t *testing.T, res app.Result) []byte {
	t.Helper()
	raw, err := encodeStructured(res.Structured)
	if err != nil {
		t.Fatalf("the structured answer cannot be encoded: %v", err)
	}
	return raw
}

// withArg returns args with key set to value (args is a JSON object).
func withArg(t *testing.T, args []byte, key, value string) []byte {
	t.Helper()
	obj := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(args)) > 0 {
		if err := json.Unmarshal(args, &obj); err != nil {
			t.Fatalf("accepted arguments do not decode as an object: %v", err)
		}
	}
	v, _ := json.Marshal(value)
	obj[key] = v
	out, _ := json.Marshal(obj)
	return out
}

// FuzzToolDispatch calls app.Service.Call with arbitrary JSON arguments
// over the fixture corpus (or a corpus that is unavailable, chosen by
// mode), for one of the four tools (sel below 200) or an arbitrary tool
// name. Properties:
//
//   - nothing panics; the only errors are ErrUnknownTool, exactly for
//     names that are not one of the four tools, and
//     ErrArgumentsNotObject, exactly for arguments that are not one JSON
//     object;
//   - every other answer is either an isError refusal (the contract's
//     prefix, no structured content) or a structured answer that
//     validates against the output schema the server advertises for the
//     tool, with corpusHealth present except on corpus-unavailable;
//   - answers are deterministic: a second call through the same Service
//     (what it remembers warm) and a call through a new Service give the
//     same text and the same JSON;
//   - every cursor an answer mints is accepted when handed back with the
//     same arguments (the next page, never invalid-cursor).
func FuzzToolDispatch(f *testing.F) {
	for _, s := range []struct {
		name, args string
		mode       byte
	}{
		{"search_decisions", `{"query":"cache"}`, 0},
		{"search_decisions", `{"query":"e","limit":1,"findingsLimit":2}`, 0},
		{"search_decisions", `{"query":"cache","status":["accepted","rejected"],"scope":["component"],"tags":["cache"]}`, 0},
		{"get_decision", `{"ref":"0005","limit":1}`, 0},
		{"get_decision", `{"ref":"payments:0001"}`, 0},
		{"get_decision", `{"ref":"0001","findingsLimit":1,"findingsCursor":"AQ"}`, 0},
		{"get_decision_context", `{"files":["src/cache/x.go","jobs/run.sh"],"limit":1}`, 0},
		{"list_superseded", `{"limit":1}`, 0},
		{"list_superseded", `{"cursor":"not-a-cursor"}`, 0},
		{"list_superseded", ``, 3},
		{"search_decisions", `{"query":"x"}`, 7},
		{"nope", `{}`, 0},
		{"get_decision", `[1]`, 0},
		{"get_decision", `{"ref":"0001","bogus":true}`, 0},
	} {
		sel := byte(slices.Index(fuzzToolNames, s.name))
		if !slices.Contains(fuzzToolNames, s.name) {
			sel = 255
		}
		f.Add(sel, s.name, []byte(s.args), s.mode)
	}
	schemas := toolOutputSchemas(f)
	fixtureCorpus(f)
	f.Fuzz(func(t *testing.T, sel byte, name string, args []byte, mode byte) {
		if sel < 200 {
			name = fuzzToolNames[int(sel)%len(fuzzToolNames)]
		}
		reader := fixtureCorpus(t)
		if mode%4 == 3 {
			reader.FailOpen(&ports.UnavailableError{Reason: fuzzReasons[int(mode/4)%len(fuzzReasons)]})
		}
		ctx := context.Background()
		svc := app.New(reader, app.Options{})
		res, err := svc.Call(ctx, name, args)
		isTool := slices.Contains(fuzzToolNames, name)
		switch {
		case !isTool:
			if !errors.Is(err, app.ErrUnknownTool) {
				t.Fatalf("tool %q: %v, want ErrUnknownTool", name, err)
			}
			return
		case errors.Is(err, app.ErrArgumentsNotObject):
			var obj map[string]json.RawMessage
			if len(bytes.TrimSpace(args)) == 0 || (json.Unmarshal(args, &obj) == nil && obj != nil) {
				t.Fatalf("arguments %q are an object (or empty) but were refused as not one", args)
			}
			return
		case err != nil:
			t.Fatalf("%s %q: unexpected error %v", name, args, err)
		}
		if res.IsError {
			if res.Structured != nil || !strings.HasPrefix(res.Text, "Input validation error: Invalid arguments for tool "+name+": ") {
				t.Fatalf("refusal with structured %v, text %q", res.Structured, res.Text)
			}
		} else {
			checkAnswer(t, schemas[name], name, res)
		}

		// Deterministic, and a fresh Service answers alike.
		again, err2 := svc.Call(ctx, name, args)
		plain, err3 := app.New(reader, app.Options{}).Call(ctx, name, args)
		if err2 != nil || err3 != nil {
			t.Fatalf("repeated call failed: %v / %v", err2, err3)
		}
		first := encodedAnswer(t, res)
		for i, other := range []app.Result{again, plain} {
			if other.Text != res.Text || other.IsError != res.IsError || !bytes.Equal(encodedAnswer(t, other), first) {
				t.Fatalf("call %d differs:\n%s %s\n%s %s", i+2, res.Text, first, other.Text, encodedAnswer(t, other))
			}
		}
		if res.IsError {
			return
		}

		// Minted cursors lead to the next page.
		var answer struct {
			Result struct {
				Outcome  string  `json:"outcome"`
				Cursor   *string `json:"cursor"`
				Findings struct {
					Cursor *string `json:"cursor"`
				} `json:"findings"`
			} `json:"result"`
		}
		if err := json.Unmarshal(first, &answer); err != nil {
			t.Fatal(err)
		}
		for key, c := range map[string]*string{"cursor": answer.Result.Cursor, "findingsCursor": answer.Result.Findings.Cursor} {
			if c == nil {
				continue
			}
			next, err := svc.Call(ctx, name, withArg(t, args, key, *c))
			if err != nil || next.IsError {
				t.Fatalf("following %s: %v %s", key, err, next.Text)
			}
			checkAnswer(t, schemas[name], name, next)
			var page struct {
				Result struct {
					Outcome string `json:"outcome"`
					Reason  string `json:"reason"`
				} `json:"result"`
			}
			_ = json.Unmarshal(encodedAnswer(t, next), &page)
			if page.Result.Outcome != answer.Result.Outcome {
				t.Fatalf("following the minted %s of a %s answer gave %s (%s)", key, answer.Result.Outcome, page.Result.Outcome, page.Result.Reason)
			}
		}
	})
}

// checkAnswer validates a structured answer against the tool's output
// schema and the corpusHealth rule.
func checkAnswer(t *testing.T, schema *jsonschema.Resolved, tool string, res app.Result) {
	t.Helper()
	raw := encodedAnswer(t, res)
	var generic map[string]any
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatalf("%s answer is not a JSON object: %v", tool, err)
	}
	if err := schema.Validate(generic); err != nil {
		t.Fatalf("%s answer does not match its output schema: %v\n%s", tool, err, raw)
	}
	result, _ := generic["result"].(map[string]any)
	_, health := generic["corpusHealth"]
	if unavailable := result["outcome"] == "corpus-unavailable"; health == unavailable {
		t.Fatalf("%s: corpusHealth present %v on outcome %v", tool, health, result["outcome"])
	}
	if res.Text == "" {
		t.Fatalf("%s: empty summary line", tool)
	}
}
