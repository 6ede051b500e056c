package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/corpus"
)

// validate runs the JSON layer of one tool and returns the issue paths.
func validate(t *testing.T, tool, args string) []string {
	t.Helper()
	set, err := decodeArgs([]byte(args))
	if err != nil {
		t.Fatalf("decodeArgs(%s): %v", args, err)
	}
	if _, ok := lookupTool(tool); !ok {
		t.Fatalf("no tool %q", tool)
	}
	_, issues := parsed(tool, set)
	paths := make([]string, len(issues))
	for i, is := range issues {
		paths[i] = is.path
	}
	return paths
}

// list builds a JSON array of n strings prefix0..prefix<n-1>.
func list(prefix string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%q", fmt.Sprintf("%s%d", prefix, i))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

// validationCases hold every accepted and refused example of
// mcp-server.md §8.1 and of the conformance cases search-invalid-input,
// search-query-length, get-invalid-input, context-invalid-paths and
// superseded-invalid-input. want lists the paths of the issues in order
// ("" for unknown keys); nil means accepted. The reference words and
// sometimes splits issues differently; which arguments are refused must
// agree.
var validationCases = []struct {
	name, tool, args string
	want             []string
}{
	// search_decisions: query
	{"no arguments", ToolSearchDecisions, ``, []string{"query"}},
	{"empty object", ToolSearchDecisions, `{}`, []string{"query"}},
	{"empty query", ToolSearchDecisions, `{"query":""}`, []string{"query"}},
	{"blank query", ToolSearchDecisions, `{"query":"   "}`, []string{"query"}},
	{"one space", ToolSearchDecisions, `{"query":" "}`, []string{"query"}},
	{"BOM-only query is blank", ToolSearchDecisions, `{"query":"\ufeff"}`, []string{"query"}},
	{"NBSP and EM SPACE only", ToolSearchDecisions, `{"query":"\u00a0\u2003"}`, []string{"query"}},
	{"NEL is not JS whitespace", ToolSearchDecisions, `{"query":"\u0085"}`, nil},
	{"ZWSP is not JS whitespace", ToolSearchDecisions, `{"query":"\u200b"}`, nil},
	{"query number", ToolSearchDecisions, `{"query":5}`, []string{"query"}},
	{"query null", ToolSearchDecisions, `{"query":null}`, []string{"query"}},
	{"query 256", ToolSearchDecisions, `{"query":"` + rep("x", 256) + `"}`, nil},
	{"query 257", ToolSearchDecisions, `{"query":"` + rep("x", 257) + `"}`, []string{"query"}},
	{"query 128 emoji", ToolSearchDecisions, `{"query":"` + rep("😀", 128) + `"}`, nil},
	{"query 129 emoji", ToolSearchDecisions, `{"query":"` + rep("😀", 129) + `"}`, []string{"query"}},
	{"query 256 e-acute", ToolSearchDecisions, `{"query":"` + rep("é", 256) + `"}`, nil},
	{"duplicate key last wins", ToolSearchDecisions, `{"query":5,"query":"x"}`, nil},
	{"duplicate key last loses", ToolSearchDecisions, `{"query":"x","query":5}`, []string{"query"}},
	// search_decisions: unknown keys
	{"unknown key", ToolSearchDecisions, `{"query":"x","unknownField":1}`, []string{""}},
	{"unknown keys and missing query", ToolSearchDecisions, `{"bogus":1,"zzz":2}`, []string{"query", ""}},
	{"proto key is unknown", ToolSearchDecisions, `{"query":"x","__proto__":{}}`, []string{""}},
	{"three issues, unknown last", ToolSearchDecisions, `{"extra":true,"query":5,"limit":0}`, []string{"query", "limit", ""}},
	{"limit then unknown", ToolSearchDecisions, `{"query":"x","limit":0,"bogus":1}`, []string{"limit", ""}},
	// search_decisions: filters
	{"status bad option", ToolSearchDecisions, `{"query":"x","status":["approved"]}`, []string{"status.0"}},
	{"status duplicate", ToolSearchDecisions, `{"query":"x","status":["accepted","accepted"]}`, []string{"status"}},
	{"status string", ToolSearchDecisions, `{"query":"x","status":"accepted"}`, []string{"status"}},
	{"status empty", ToolSearchDecisions, `{"query":"x","status":[]}`, []string{"status"}},
	{"status seven with repeat", ToolSearchDecisions, `{"query":"x","status":["draft","proposed","accepted","rejected","superseded","deprecated","draft"]}`, []string{"status", "status"}},
	{"status all six", ToolSearchDecisions, `{"query":"x","status":["draft","proposed","accepted","rejected","superseded","deprecated"]}`, nil},
	{"status non-string blocks uniqueness", ToolSearchDecisions, `{"query":"x","status":["accepted",5,"accepted"]}`, []string{"status.1"}},
	{"status bad option blocks uniqueness", ToolSearchDecisions, `{"query":"x","status":["Accepted","accepted","accepted"]}`, []string{"status.0"}},
	{"status null", ToolSearchDecisions, `{"query":"x","status":null}`, []string{"status"}},
	{"scope too many and repeated", ToolSearchDecisions, `{"query":"x","scope":["org","org","domain","component"]}`, []string{"scope", "scope"}},
	{"scope bad option", ToolSearchDecisions, `{"query":"x","scope":["team"]}`, []string{"scope.0"}},
	{"scope all three", ToolSearchDecisions, `{"query":"x","scope":["org","domain","component"]}`, nil},
	{"tags empty", ToolSearchDecisions, `{"query":"x","tags":[]}`, []string{"tags"}},
	{"tag 64", ToolSearchDecisions, `{"query":"x","tags":["` + rep("t", 64) + `"]}`, nil},
	{"tag 65", ToolSearchDecisions, `{"query":"x","tags":["` + rep("t", 65) + `"]}`, []string{"tags.0"}},
	{"tags 32", ToolSearchDecisions, `{"query":"x","tags":` + list("t", 32) + `}`, nil},
	{"tags 33", ToolSearchDecisions, `{"query":"x","tags":` + list("t", 33) + `}`, []string{"tags"}},
	{"tag empty", ToolSearchDecisions, `{"query":"x","tags":[""]}`, []string{"tags.0"}},
	{"tags repeated", ToolSearchDecisions, `{"query":"x","tags":["a","a"]}`, []string{"tags"}},
	{"tags differ by case", ToolSearchDecisions, `{"query":"x","tags":["a","A"]}`, nil},
	{"tag non-string blocks uniqueness", ToolSearchDecisions, `{"query":"x","tags":["a",5,"a"]}`, []string{"tags.1"}},
	{"tag too long keeps uniqueness", ToolSearchDecisions, `{"query":"x","tags":["` + rep("t", 65) + `","` + rep("t", 65) + `"]}`, []string{"tags.0", "tags.1", "tags"}},
	// pagination fields
	{"limit 0", ToolSearchDecisions, `{"query":"x","limit":0}`, []string{"limit"}},
	{"limit 101", ToolSearchDecisions, `{"query":"x","limit":101}`, []string{"limit"}},
	{"limit 1.5", ToolSearchDecisions, `{"query":"x","limit":1.5}`, []string{"limit"}},
	{"limit string", ToolSearchDecisions, `{"query":"x","limit":"5"}`, []string{"limit"}},
	{"limit null", ToolSearchDecisions, `{"query":"x","limit":null}`, []string{"limit"}},
	{"limit true", ToolSearchDecisions, `{"query":"x","limit":true}`, []string{"limit"}},
	{"limit negative zero", ToolSearchDecisions, `{"query":"x","limit":-0}`, []string{"limit"}},
	{"limit overflow", ToolSearchDecisions, `{"query":"x","limit":1e400}`, []string{"limit"}},
	{"limit huge", ToolSearchDecisions, `{"query":"x","limit":9007199254740993}`, []string{"limit"}},
	{"limit 1e2", ToolSearchDecisions, `{"query":"x","limit":1e2}`, nil},
	{"limit 5.0", ToolSearchDecisions, `{"query":"x","limit":5.0}`, nil},
	{"limit rounds to 1", ToolSearchDecisions, `{"query":"x","limit":1.0000000000000001}`, nil},
	{"limits 100", ToolSearchDecisions, `{"query":"x","limit":100,"findingsLimit":100}`, nil},
	{"findingsLimit -1", ToolSearchDecisions, `{"query":"x","findingsLimit":-1}`, []string{"findingsLimit"}},
	{"cursor 4096", ToolSearchDecisions, `{"query":"x","cursor":"` + rep("c", 4096) + `"}`, nil},
	{"cursor 4097", ToolSearchDecisions, `{"query":"x","cursor":"` + rep("c", 4097) + `"}`, []string{"cursor"}},
	{"cursor empty is a cursor", ToolSearchDecisions, `{"query":"x","cursor":""}`, nil},
	{"findingsCursor number and findingsLimit 0", ToolSearchDecisions, `{"query":"x","findingsCursor":5,"findingsLimit":0}`, []string{"findingsCursor", "findingsLimit"}},
	// get_decision
	{"ref word", ToolGetDecision, `{"ref":"abc"}`, []string{"ref"}},
	{"ref leading colon", ToolGetDecision, `{"ref":":0001"}`, []string{"ref"}},
	{"ref upper-case log", ToolGetDecision, `{"ref":"Payments:0001"}`, []string{"ref"}},
	{"ref 129 matching", ToolGetDecision, `{"ref":"` + rep("l", 124) + `:0001"}`, []string{"ref"}},
	{"ref 128 matching", ToolGetDecision, `{"ref":"` + rep("l", 123) + `:0001"}`, nil},
	{"ref 200 x", ToolGetDecision, `{"ref":"` + rep("x", 200) + `"}`, []string{"ref", "ref"}},
	{"ref empty", ToolGetDecision, `{"ref":""}`, []string{"ref"}},
	{"ref missing", ToolGetDecision, `{}`, []string{"ref"}},
	{"ref number", ToolGetDecision, `{"ref":2}`, []string{"ref"}},
	{"ref unknown key", ToolGetDecision, `{"ref":"0002","include":"body"}`, []string{""}},
	{"ref three digits", ToolGetDecision, `{"ref":"002"}`, []string{"ref"}},
	{"ref trailing space", ToolGetDecision, `{"ref":"0002 "}`, []string{"ref"}},
	{"ref log starts with dash", ToolGetDecision, `{"ref":"-x:0001"}`, []string{"ref"}},
	{"ref ULID with I", ToolGetDecision, `{"ref":"01I9Z3K4M5N6P7Q8R9S0T1V2W3"}`, []string{"ref"}},
	{"ref local", ToolGetDecision, `{"ref":"0001"}`, nil},
	{"ref five digits", ToolGetDecision, `{"ref":"12345"}`, nil},
	{"ref federated", ToolGetDecision, `{"ref":"payments:0001"}`, nil},
	{"ref dashed log", ToolGetDecision, `{"ref":"a-b:0001"}`, nil},
	{"ref digit log", ToolGetDecision, `{"ref":"1:0001"}`, nil},
	{"ref ULID", ToolGetDecision, `{"ref":"x:01J9Z3K4M5N6P7Q8R9S0T1V2W3"}`, nil},
	{"ref lower ULID", ToolGetDecision, `{"ref":"01j9z3k4m5n6p7q8r9s0t1v2w3"}`, nil},
	{"ref with pagination", ToolGetDecision, `{"ref":"0010","limit":1,"cursor":"x","findingsLimit":3,"findingsCursor":"y"}`, nil},
	// get_decision_context
	{"files absolute", ToolGetDecisionContext, `{"files":["/abs"]}`, []string{"files.0"}},
	{"files dotdot segment", ToolGetDecisionContext, `{"files":["a/../b"]}`, []string{"files.0"}},
	{"files drive", ToolGetDecisionContext, `{"files":["C:/x"]}`, []string{"files.0"}},
	{"files backslash", ToolGetDecisionContext, `{"files":["a\\b"]}`, []string{"files.0"}},
	{"files empty string", ToolGetDecisionContext, `{"files":[""]}`, []string{"files.0"}},
	{"files empty", ToolGetDecisionContext, `{"files":[]}`, []string{"files"}},
	{"files 1024", ToolGetDecisionContext, `{"files":["` + rep("a", 1024) + `"],"findingsLimit":1}`, nil},
	{"files 1025", ToolGetDecisionContext, `{"files":["` + rep("a", 1025) + `"]}`, []string{"files.0"}},
	{"files 256", ToolGetDecisionContext, `{"files":` + list("f", 256) + `}`, nil},
	{"files 257", ToolGetDecisionContext, `{"files":` + list("f", 257) + `}`, []string{"files"}},
	{"files unknown key", ToolGetDecisionContext, `{"files":["a"],"paths":["b"]}`, []string{""}},
	{"files several bad", ToolGetDecisionContext, `{"files":["ok.txt","..","c:x","x/.."]}`, []string{"files.1", "files.2", "files.3"}},
	{"files string", ToolGetDecisionContext, `{"files":"services/api/main.go"}`, []string{"files"}},
	{"files missing", ToolGetDecisionContext, `{}`, []string{"files"}},
	{"files non-string", ToolGetDecisionContext, `{"files":[5]}`, []string{"files.0"}},
	{"files dots inside names", ToolGetDecisionContext, `{"files":["..foo/bar","foo../bar","z:"],"findingsLimit":1}`, []string{"files.2"}},
	{"files escape", ToolGetDecisionContext, `{"files":["../escape.md"]}`, []string{"files.0"}},
	{"files abs md", ToolGetDecisionContext, `{"files":["/abs.md"]}`, []string{"files.0"}},
	{"files windows", ToolGetDecisionContext, `{"files":["docs\\adr\\x.md"]}`, []string{"files.0"}},
	{"files drive md", ToolGetDecisionContext, `{"files":["C:/x.md"]}`, []string{"files.0"}},
	{"files drive relative", ToolGetDecisionContext, `{"files":["c:x"]}`, []string{"files.0"}},
	{"files trailing dotdot", ToolGetDecisionContext, `{"files":["a/.."]}`, []string{"files.0"}},
	{"files dot and empty segments", ToolGetDecisionContext, `{"files":["a/./b.md","a//b"]}`, nil},
	{"files duplicates allowed", ToolGetDecisionContext, `{"files":["a","a"]}`, nil},
	{"files dotdot prefix in name", ToolGetDecisionContext, `{"files":["a/..b"]}`, nil},
	{"files digit colon", ToolGetDecisionContext, `{"files":["1:x"]}`, nil},
	{"files trailing slash", ToolGetDecisionContext, `{"files":["src/"]}`, nil},
	// list_superseded
	{"superseded no arguments", ToolListSuperseded, ``, nil},
	{"superseded empty", ToolListSuperseded, `{}`, nil},
	{"superseded query", ToolListSuperseded, `{"query":"x"}`, []string{""}},
	{"superseded status", ToolListSuperseded, `{"status":["superseded"]}`, []string{""}},
	{"superseded limit 0", ToolListSuperseded, `{"limit":0}`, []string{"limit"}},
	{"superseded cursor null", ToolListSuperseded, `{"cursor":null}`, []string{"cursor"}},
	{"superseded findingsCursor number", ToolListSuperseded, `{"findingsCursor":7}`, []string{"findingsCursor"}},
	{"superseded all pagination", ToolListSuperseded, `{"cursor":"a","limit":2,"findingsCursor":"b","findingsLimit":1}`, nil},
}

func TestValidationRefusesExactlyTheReferenceSet(t *testing.T) {
	for _, tc := range validationCases {
		t.Run(tc.tool+"/"+tc.name, func(t *testing.T) {
			got := validate(t, tc.tool, tc.args)
			if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("issue paths = %q, want %q", got, tc.want)
			}
		})
	}
}

// Refused input must never reach the corpus, and the text must carry the
// contract prefix.
func TestCallRefusesBeforeTouchingTheCorpus(t *testing.T) {
	for _, tc := range validationCases {
		t.Run(tc.tool+"/"+tc.name, func(t *testing.T) {
			r := openFails(unavailableErr(corpus.DirNotFound))
			res, err := New(r, Options{}).Call(context.Background(), tc.tool, json.RawMessage(tc.args))
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if tc.want == nil {
				if res.IsError || r.Opens() != 1 {
					t.Fatalf("accepted input: IsError=%v opens=%d text=%q", res.IsError, r.Opens(), res.Text)
				}
				return
			}
			if !res.IsError || res.Structured != nil || r.Opens() != 0 {
				t.Fatalf("refused input: IsError=%v structured=%v opens=%d", res.IsError, res.Structured, r.Opens())
			}
			prefix := "Input validation error: Invalid arguments for tool " + tc.tool + ": "
			if !strings.HasPrefix(res.Text, prefix) || len(res.Text) == len(prefix) {
				t.Fatalf("text %q lacks prefix or detail", res.Text)
			}
		})
	}
}

func TestValidationDetailIsPlainAndOrdered(t *testing.T) {
	tests := []struct {
		tool, args, want string
	}{
		{ToolSearchDecisions, `{"zzz":1,"query":5,"limit":0,"bogus":2}`,
			`query: must be a string, got number; limit: must be an integer from 1 to 100, got 0; unknown arguments "zzz", "bogus"`},
		{ToolSearchDecisions, `{"query":"  "}`, `query: must not be blank (it holds only whitespace)`},
		{ToolSearchDecisions, `{"query":"x","status":["accepted","accepted"]}`, `status: values must be unique, but "accepted" is repeated`},
		{ToolGetDecision, `{}`, `ref: is required`},
		{ToolGetDecisionContext, `{"files":["a","/b"]}`,
			`files.1: must be a repository-relative POSIX path without a backslash, a leading "/", a drive prefix such as "C:" or a ".." segment, got "/b"`},
		{ToolListSuperseded, `{"limit":1.5}`, `limit: must be an integer from 1 to 100, got 1.5`},
		{ToolListSuperseded, `{"cursor":null}`, `cursor: must be a string, got null`},
	}
	for _, tc := range tests {
		r := corpusOf()
		res, err := New(r, Options{}).Call(context.Background(), tc.tool, json.RawMessage(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		want := validationPrefix(tc.tool) + tc.want
		if res.Text != want {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.tool, tc.args, res.Text, want)
		}
	}
}

func TestCallRejectsNonObjectArgumentsAndUnknownTools(t *testing.T) {
	s := New(corpusOf(), Options{})
	for _, args := range []string{`null`, `[1]`, `"x"`, `5`, `{"a":`, `{} {}`, `{"a":1}x`} {
		_, err := s.Call(context.Background(), ToolListSuperseded, json.RawMessage(args))
		if !errors.Is(err, ErrArgumentsNotObject) {
			t.Errorf("Call(%s) error = %v, want ErrArgumentsNotObject", args, err)
		}
	}
	if _, err := s.Call(context.Background(), "bogus_tool", nil); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("unknown tool error = %v", err)
	}
}

func TestTypedInputsAreValidatedToo(t *testing.T) {
	r := corpusOf()
	s := New(r, Options{})
	ctx := context.Background()
	results := []Result{
		must(s.CallInput(ctx, SearchInput{Query: " "})),
		must(s.CallInput(ctx, SearchInput{Query: "x", Status: []adr.Status{"nope"}})),
		must(s.CallInput(ctx, SearchInput{Query: "x", Tags: []string{}})),
		must(s.CallInput(ctx, GetInput{Ref: "x"})),
		must(s.CallInput(ctx, ContextInput{})),
		must(s.CallInput(ctx, ContextInput{Files: []string{"../x"}})),
		must(s.CallInput(ctx, SupersededInput{Page: Page{Limit: 101}})),
		must(s.CallInput(ctx, SupersededInput{Page: Page{FindingsLimit: -1}})),
		must(s.CallInput(ctx, SupersededInput{Page: Page{Cursor: ptr(rep("c", 4097))}})),
	}
	for i, res := range results {
		if !res.IsError {
			t.Errorf("case %d accepted: %q", i, res.Text)
		}
	}
	if r.Opens() != 0 {
		t.Errorf("refused typed input opened the corpus %d times", r.Opens())
	}
}

func must(r Result, err error) Result {
	if err != nil {
		panic(err)
	}
	return r
}
