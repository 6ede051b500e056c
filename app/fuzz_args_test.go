package app

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// The argument-validation fuzz targets. Seeds live in
// testdata/fuzz/FuzzArguments and testdata/fuzz/FuzzTypedArguments.

// fuzzTools are the four MCP tools, indexed by the fuzzer's tool byte.
var fuzzTools = []string{ToolGetDecision, ToolGetDecisionContext, ToolListSuperseded, ToolSearchDecisions}

// parsed validates a decoded argument set for tool, returning the typed
// input (as any, for comparison) and the issues.
func parsed(tool string, set argSet) (any, []issue) {
	switch tool {
	case ToolSearchDecisions:
		return parseSearch(set)
	case ToolGetDecision:
		return parseGet(set)
	case ToolGetDecisionContext:
		return parseContext(set)
	default:
		return parseSuperseded(set)
	}
}

// typedIssues validates a typed input the way the command line does.
func typedIssues(in any) []issue {
	switch v := in.(type) {
	case SearchInput:
		return v.issues()
	case GetInput:
		return v.issues()
	case ContextInput:
		return v.issues()
	case SupersededInput:
		return v.issues()
	}
	panic("unknown input type")
}

// encodeInput writes a typed input back as JSON arguments: the inverse
// of parsing, for the round-trip property.
func encodeInput(in any) []byte {
	obj := map[string]any{}
	page := func(p Page) {
		if p.Cursor != nil {
			obj["cursor"] = *p.Cursor
		}
		if p.Limit != 0 {
			obj["limit"] = p.Limit
		}
		if p.FindingsCursor != nil {
			obj["findingsCursor"] = *p.FindingsCursor
		}
		if p.FindingsLimit != 0 {
			obj["findingsLimit"] = p.FindingsLimit
		}
	}
	switch v := in.(type) {
	case SearchInput:
		obj["query"] = v.Query
		if v.Status != nil {
			obj["status"] = v.Status
		}
		if v.Tags != nil {
			obj["tags"] = v.Tags
		}
		if v.Scope != nil {
			obj["scope"] = v.Scope
		}
		page(v.Page)
	case GetInput:
		obj["ref"] = v.Ref
		page(v.Page)
	case ContextInput:
		if v.Files != nil {
			obj["files"] = v.Files
		}
		page(v.Page)
	case SupersededInput:
		page(v.Page)
	}
	out, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	return out
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
//   - an accepted argument set validates again: its typed form has no
//     issue (what the command line checks), and written back as JSON it
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
		r := &fakeReader{}
		res, callErr := New(r, Options{}).Call(context.Background(), tool, json.RawMessage(args))
		if decodeErr != nil {
			if !errors.Is(decodeErr, ErrArgumentsNotObject) || !errors.Is(callErr, ErrArgumentsNotObject) {
				t.Fatalf("decode error %v, Call error %v: want ErrArgumentsNotObject for both", decodeErr, callErr)
			}
			if r.opens != 0 {
				t.Fatalf("arguments that are no object opened the corpus %d times", r.opens)
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
			if !res.IsError || res.Structured != nil || res.Text != want.Text || r.opens != 0 {
				t.Fatalf("refused arguments: IsError %v, structured %v, opens %d, text %q (want %q)",
					res.IsError, res.Structured, r.opens, res.Text, want.Text)
			}
			if !strings.HasPrefix(res.Text, validationPrefix(tool)) || len(res.Text) == len(validationPrefix(tool)) {
				t.Fatalf("refusal text %q", res.Text)
			}
			if !utf8.ValidString(res.Text) {
				t.Fatalf("refusal text is not UTF-8: %q", res.Text)
			}
			return
		}
		if res.IsError || res.Structured == nil || r.opens != 1 {
			t.Fatalf("accepted arguments: IsError %v, structured %v, opens %d: %s", res.IsError, res.Structured != nil, r.opens, res.Text)
		}
		if typed := typedIssues(in); len(typed) > 0 {
			t.Fatalf("accepted arguments %s give typed issues %v", args, issueTexts(typed))
		}
		again := encodeInput(in)
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

// FuzzTypedArguments builds typed inputs from arbitrary strings (what the
// command line hands the use cases) and checks that they are refused or
// accepted exactly as the same values sent as JSON arguments are, with
// the same issues in the same order.
func FuzzTypedArguments(f *testing.F) {
	f.Add("cache", "0042", "src/app.ts", "docs/../x", "database", "accepted", "org", "", 0, 0)
	f.Add(" \u3000 ", "x:0001", "", "/abs", "", "nope", "component", "c", 101, -1)
	f.Add(strings.Repeat("é", 257), strings.Repeat("1", 129), strings.Repeat("a", 1025), "C:x", strings.Repeat("t", 65), "draft", "domain", "c", 100, 1)
	f.Fuzz(func(t *testing.T, query, ref, file1, file2, tag, status, scope, cursor string, limit, findingsLimit int) {
		for _, s := range []string{query, ref, file1, file2, tag, status, scope, cursor} {
			if !utf8.ValidString(s) {
				// JSON cannot carry these bytes; the command line gets
				// its strings from the operating system as they are.
				return
			}
		}
		page := Page{Limit: limit, FindingsLimit: findingsLimit}
		if cursor != "" {
			page.Cursor = &cursor
		}
		inputs := map[string]any{
			ToolSearchDecisions:    SearchInput{Query: query, Status: []adr.Status{adr.Status(status)}, Tags: []string{tag, tag + "x"}, Scope: []adr.Scope{adr.Scope(scope)}, Page: page},
			ToolGetDecision:        GetInput{Ref: ref, Page: page},
			ToolGetDecisionContext: ContextInput{Files: []string{file1, file2}, Page: page},
			ToolListSuperseded:     SupersededInput{Page: page},
		}
		for tool, in := range inputs {
			typed := issueTexts(typedIssues(in))
			set, err := decodeArgs(encodeInput(in))
			if err != nil {
				t.Fatalf("%s: encoded input does not decode: %v", tool, err)
			}
			_, jsonIssues := parsed(tool, set)
			if !reflect.DeepEqual(typed, issueTexts(jsonIssues)) {
				t.Fatalf("%s %+v:\n typed %q\n  json %q", tool, in, typed, issueTexts(jsonIssues))
			}
		}
	})
}
