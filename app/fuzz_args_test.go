package app

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// The argument-validation fuzz target. Seeds live in
// testdata/fuzz/FuzzArguments.

// fuzzTools are the four MCP tools, indexed by the fuzzer's tool byte.
var fuzzTools = []string{ToolGetDecision, ToolGetDecisionContext, ToolListSuperseded, ToolSearchDecisions}

// parsed validates a decoded argument set for tool, returning the typed
// input (as any, for comparison) and the issues.
func parsed(tool string, set argSet) (any, []issue) {
	r := newArgReader(set, nil)
	var in any
	switch tool {
	case ToolSearchDecisions:
		in = readSearch(r)
	case ToolGetDecision:
		in = readGet(r)
	case ToolGetDecisionContext:
		in = readContext(r)
	default:
		in = readSuperseded(r)
	}
	return in, r.finish()
}

func issueTexts(issues []issue) []string {
	out := make([]string, len(issues))
	for i, is := range issues {
		out[i] = is.String()
	}
	return out
}

// FuzzArguments feeds arbitrary bytes as the arguments of one of the four
// tools. Properties:
//
//   - decoding and validating never panic and are deterministic;
//   - Call agrees with the parser: bytes that are not one JSON object are
//     ErrArgumentsNotObject, refused arguments are an isError answer with
//     the contract's prefix and no structured content, accepted ones are
//     answered from the corpus;
//   - validation never touches the corpus: a refused call (or one whose
//     arguments are not an object) never opens the reader, an accepted
//     one opens it exactly once;
//   - an accepted argument set, as the Go value it is read into and
//     encoded back to JSON (what the command line's calls go through),
//     parses to the very same input.
func FuzzArguments(f *testing.F) {
	for _, s := range []struct {
		tool byte
		args string
	}{
		{3, `{"query":"cache"}`}, {3, `{"query":"  ","status":["accepted","accepted"],"bogus":1}`},
		{0, `{"ref":"payments:0042","limit":1e2}`}, {0, `{"ref":"01ARZ3NDEKTSV4RRFFQ69G5FAV","cursor":""}`},
		{1, `{"files":["a/./b.md","a//b","../x","C:/x","a\\b",""]}`}, {1, `{"files":"src"}`},
		{2, `{}`}, {2, `{"limit":1.5,"findingsLimit":-0}`}, {2, ``}, {2, `[]`}, {0, `{"ref":"0001"} {}`},
		{3, `{"query":"\ud800","tags":["a","a"],"scope":["org","x"]}`},
	} {
		f.Add(s.tool, []byte(s.args))
	}
	f.Fuzz(func(t *testing.T, toolByte byte, args []byte) {
		tool := fuzzTools[int(toolByte)%len(fuzzTools)]
		set, decodeErr := decodeArgs(args)
		r := corpusOf()
		res, callErr := New(r, Options{}).Call(context.Background(), tool, json.RawMessage(args))
		if decodeErr != nil {
			if !errors.Is(decodeErr, ErrArgumentsNotObject) || !errors.Is(callErr, ErrArgumentsNotObject) {
				t.Fatalf("decode error %v, Call error %v: want ErrArgumentsNotObject for both", decodeErr, callErr)
			}
			if r.Opens() != 0 {
				t.Fatalf("arguments that are no object opened the corpus %d times", r.Opens())
			}
			return
		}
		if callErr != nil {
			t.Fatalf("Call: %v", callErr)
		}
		in, issues := parsed(tool, set)
		set2, _ := decodeArgs(args)
		in2, issues2 := parsed(tool, set2)
		if !reflect.DeepEqual(in, in2) || !reflect.DeepEqual(issues, issues2) {
			t.Fatalf("validation is not deterministic: %+v %v / %+v %v", in, issues, in2, issues2)
		}
		if len(issues) > 0 {
			want := refusal(tool, issues)
			if !res.IsError || res.Structured != nil || res.Text != want.Text || r.Opens() != 0 {
				t.Fatalf("refused arguments: IsError %v, structured %v, opens %d, text %q (want %q)",
					res.IsError, res.Structured, r.Opens(), res.Text, want.Text)
			}
			if !strings.HasPrefix(res.Text, validationPrefix(tool)) || len(res.Text) == len(validationPrefix(tool)) {
				t.Fatalf("refusal text %q", res.Text)
			}
			if !utf8.ValidString(res.Text) {
				t.Fatalf("refusal text is not UTF-8: %q", res.Text)
			}
			return
		}
		if res.IsError || res.Structured == nil || r.Opens() != 1 {
			t.Fatalf("accepted arguments: IsError %v, structured %v, opens %d: %s", res.IsError, res.Structured != nil, r.Opens(), res.Text)
		}
		again, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		set3, err := decodeArgs(again)
		if err != nil {
			t.Fatalf("re-encoded arguments %s do not decode: %v", again, err)
		}
		in3, issues3 := parsed(tool, set3)
		if len(issues3) > 0 || !reflect.DeepEqual(in, in3) {
			t.Fatalf("re-encoded arguments %s parse to %+v %v, not %+v", again, in3, issueTexts(issues3), in)
		}
	})
}
