package app

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// schemaNode is the part of a published input schema the arguments are
// read by.
type schemaNode struct {
	Type      string   `json:"type"`
	MinLength *int     `json:"minLength"`
	MaxLength *int     `json:"maxLength"`
	Pattern   string   `json:"pattern"`
	Minimum   *float64 `json:"minimum"`
	Maximum   *float64 `json:"maximum"`
	MinItems  *int     `json:"minItems"`
	MaxItems  *int     `json:"maxItems"`
	Enum      []string `json:"enum"`
	Items     *schemaNode
}

// inputSchema is a tool's published input schema: its properties in the
// order they are written, decoded, and the schema resolved for
// validation.
type inputSchema struct {
	order    []string
	props    map[string]schemaNode
	required []string
	closed   bool
	resolved *jsonschema.Resolved
}

func readInputSchema(t *testing.T, raw json.RawMessage) inputSchema {
	t.Helper()
	var doc struct {
		Properties           json.RawMessage `json:"properties"`
		Required             []string        `json:"required"`
		AdditionalProperties *bool           `json:"additionalProperties"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	s := inputSchema{props: map[string]schemaNode{}, required: doc.Required}
	s.closed = doc.AdditionalProperties != nil && !*doc.AdditionalProperties
	dec := json.NewDecoder(strings.NewReader(string(doc.Properties)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		tok, _ := dec.Token()
		var n schemaNode
		if err := dec.Decode(&n); err != nil {
			t.Fatal(err)
		}
		s.order = append(s.order, tok.(string))
		s.props[tok.(string)] = n
	}
	var js jsonschema.Schema
	if err := json.Unmarshal(raw, &js); err != nil {
		t.Fatal(err)
	}
	var err error
	if s.resolved, err = js.Resolve(nil); err != nil {
		t.Fatal(err)
	}
	return s
}

// readArgs reads one argument set the way the tool does and returns the
// properties it looked up, in order, and the issues.
func readArgs(t *testing.T, tool string, args map[string]any) ([]string, []issue) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	set, err := decodeArgs(raw)
	if err != nil {
		t.Fatal(err)
	}
	r := newArgReader(set, nil)
	switch tool {
	case ToolSearchDecisions:
		readSearch(r)
	case ToolGetDecision:
		readGet(r)
	case ToolGetDecisionContext:
		readContext(r)
	case ToolListSuperseded:
		readSuperseded(r)
	case ToolGetSupersessionChain:
		readChain(r)
	case ToolListDecisionChanges:
		readChanges(r)
	case ToolQueryDecision:
		readAsk(r)
	case ToolListReviewQueue:
		readQueue(r)
	default:
		t.Fatalf("no reader for %s", tool)
	}
	known := slices.Clone(r.known)
	return known, r.finish()
}

// sample is a value a property accepts: a string of n characters (a ref
// where the schema has a pattern), or a list of n distinct items.
func sample(n schemaNode, size int) any {
	switch n.Type {
	case "string":
		switch {
		case len(n.Enum) > 0:
			return n.Enum[size%len(n.Enum)]
		case n.Pattern != "" && size >= 6:
			return strings.Repeat("a", size-5) + ":0001"
		case n.Pattern != "":
			return strings.Repeat("1", size)
		}
		return strings.Repeat("a", size)
	case "array":
		items := make([]any, size)
		for i := range items {
			if len(n.Items.Enum) > 0 {
				items[i] = n.Items.Enum[i%len(n.Items.Enum)]
			} else {
				items[i] = fmt.Sprintf("x%d", i)
			}
		}
		return items
	}
	return size
}

// boundaries are values at and across every bound the schema states for
// a property, and of every wrong JSON type.
func boundaries(n schemaNode) []any {
	out := []any{nil, true, map[string]any{}}
	across := func(lo, hi *int) []int {
		var sizes []int
		if lo != nil {
			sizes = append(sizes, *lo, *lo-1)
		}
		if hi != nil {
			sizes = append(sizes, *hi, *hi+1)
		}
		return slices.DeleteFunc(sizes, func(s int) bool { return s < 0 })
	}
	switch n.Type {
	case "string":
		out = append(out, 5, []any{"a"}, "not in the enum", "ab/cd")
		for _, size := range across(n.MinLength, n.MaxLength) {
			out = append(out, sample(n, size))
		}
	case "integer":
		out = append(out, "1", 1.5, *n.Minimum, *n.Minimum-1, *n.Maximum, *n.Maximum+1, (*n.Minimum+*n.Maximum)/2)
	case "array":
		out = append(out, "a", []any{5}, []any{"not in the enum"}, []any{""}, []any{strings.Repeat("a", 2000)})
		for _, size := range across(n.MinItems, n.MaxItems) {
			out = append(out, sample(n, size))
		}
	}
	return out
}

// TestInputSchemasDescribeTheArguments holds every published input
// schema to the reading of the arguments, the one validation path:
// the same properties in the same order, the same required ones, no
// others, and at every bound the schema states (lengths, item counts,
// enums, integer ranges, types) the same verdict. The reading may refuse
// more than the schema can say (a blank query, a repeated tag, a ".."
// in a path); it never accepts what the schema refuses.
func TestInputSchemasDescribeTheArguments(t *testing.T) {
	for _, tool := range New(nil, Options{Extended: true}).Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			s := readInputSchema(t, tool.InputSchema)
			known, issues := readArgs(t, tool.Name, map[string]any{})
			if !slices.Equal(known, s.order) {
				t.Fatalf("the arguments are read in the order %q, the schema lists %q", known, s.order)
			}
			var required []string
			for _, is := range issues {
				if is.msg == "is required" {
					required = append(required, is.path)
				}
			}
			if !slices.Equal(required, s.required) {
				t.Errorf("required %q, the schema says %q", required, s.required)
			}
			base := map[string]any{}
			for _, name := range s.required {
				base[name] = sample(s.props[name], 4)
			}
			if _, issues := readArgs(t, tool.Name, base); len(issues) > 0 {
				t.Fatalf("the required arguments alone are refused: %v", issues)
			}
			extra := map[string]any{"bogus": 1}
			for k, v := range base {
				extra[k] = v
			}
			if _, issues := readArgs(t, tool.Name, extra); !s.closed || len(issues) == 0 {
				t.Errorf("an unknown argument: schema closed %v, refused %v", s.closed, len(issues) > 0)
			}
			for _, name := range s.order {
				for _, v := range boundaries(s.props[name]) {
					args := map[string]any{name: v}
					for k, bv := range base {
						if k != name {
							args[k] = bv
						}
					}
					_, issues := readArgs(t, tool.Name, args)
					schemaOK := s.resolved.Validate(roundTrip(t, args)) == nil
					if schemaOK != (len(issues) == 0) && !(schemaOK && parserOnly(issues)) {
						t.Errorf("%s=%s: the schema accepts it %v, the reading refuses it with %v", name, short(v), schemaOK, issues)
					}
				}
			}
		})
	}
}

// parserOnly reports refusals the schema cannot state: they are the
// reading's own rules.
func parserOnly(issues []issue) bool {
	for _, is := range issues {
		if !strings.Contains(is.msg, "must be a repository-relative POSIX path") && !strings.Contains(is.msg, "values must be unique") &&
			!strings.Contains(is.msg, "must not be blank") && !strings.Contains(is.msg, "must be a date that exists") &&
			!strings.Contains(is.msg, "needs an explicit zone") {
			return false
		}
	}
	return len(issues) > 0
}

func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// walk calls a tool page by page, as an MCP client would, following each
// channel's cursor until it is exhausted, and returns the items and
// findings of the pages of each channel while it was being walked (a
// channel called without its cursor starts again, which a client
// ignores).
func walk(t *testing.T, s *Service, tool string, args map[string]any, items func(Outcome) []string) ([]string, []adr.Finding, int) {
	t.Helper()
	var all []string
	var findings []adr.Finding
	walkItems, walkFindings := true, true
	for calls := 1; ; calls++ {
		raw, _ := json.Marshal(args)
		res, err := s.Call(context.Background(), tool, raw)
		if err != nil || res.IsError {
			t.Fatalf("%s %s: %v %s", tool, raw, err, res.Text)
		}
		o := res.Structured.Result
		if walkItems {
			all = append(all, items(o)...)
		}
		page := cursorsOf(t, o)
		if walkFindings {
			findings = append(findings, page.Findings.Items...)
		}
		next, fnext := page.Cursor, page.Findings.Cursor
		walkItems, walkFindings = walkItems && next != nil, walkFindings && fnext != nil
		if !walkItems {
			next = nil
		}
		if !walkFindings {
			fnext = nil
		}
		if !walkItems && !walkFindings {
			return all, findings, calls
		}
		args = maps(args, "cursor", next, "findingsCursor", fnext)
	}
}

// answerPage is what a client pages an answer by: its primary cursor and its
// findings channel, read from the answer's JSON.
type answerPage struct {
	Cursor   *string      `json:"cursor"`
	Findings FindingsPage `json:"findings"`
}

func cursorsOf(t *testing.T, o Outcome) answerPage {
	t.Helper()
	raw, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	var p answerPage
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWholeAnswers: a whole answer has every item and every finding the
// pages have, in their order, and no cursor.
func TestWholeAnswers(t *testing.T) {
	r := generatedReader(300)
	s := New(r, Options{Extended: true})
	ctx := context.Background()
	cases := []struct {
		in    Input
		args  map[string]any
		items func(Outcome) []string
	}{
		{SearchInput{Query: "the"}, map[string]any{"query": "the", "limit": 7, "findingsLimit": 2}, func(o Outcome) []string {
			var ids []string
			for _, it := range o.(SearchResults).Items {
				ids = append(ids, string(it.SourcePath))
			}
			return ids
		}},
		{SupersededInput{}, map[string]any{"limit": 5, "findingsLimit": 3}, func(o Outcome) []string {
			var ids []string
			for _, it := range o.(Entries).Items {
				ids = append(ids, string(it.SourcePath))
			}
			return ids
		}},
		{ContextInput{Files: []string{"services/payments/api/x.go", "web/src/cart/a.tsx", "package.json"}},
			map[string]any{"files": []string{"services/payments/api/x.go", "web/src/cart/a.tsx", "package.json"}, "limit": 4, "findingsLimit": 9},
			func(o Outcome) []string {
				// Each page is split by bucket; the whole walk, in record
				// order, is what pages and the whole answer share.
				m := o.(Matches)
				var ids []string
				for _, bucket := range [][]ContextEntry{m.Governing, m.ActiveProposals, m.History} {
					for _, e := range bucket {
						ids = append(ids, string(e.ID)+" "+string(e.SourcePath))
					}
				}
				slices.Sort(ids)
				return ids
			}},
		{GetInput{Ref: "0001"}, map[string]any{"ref": "0001", "findingsLimit": 1}, func(Outcome) []string { return nil }},
	}
	for _, tc := range cases {
		t.Run(tc.in.ToolName(), func(t *testing.T) {
			res, err := s.Whole(ctx, tc.in)
			if err != nil || res.IsError {
				t.Fatalf("%v %s", err, res.Text)
			}
			whole := res.Structured.Result
			wholePage := cursorsOf(t, whole)
			if wholePage.Cursor != nil || wholePage.Findings.Cursor != nil {
				t.Fatalf("a whole answer with cursors: %+v", whole)
			}
			items, findings, calls := walk(t, s, tc.in.ToolName(), tc.args, tc.items)
			if calls < 2 {
				t.Fatalf("one page only: the case proves nothing")
			}
			if tc.in.ToolName() == ToolGetDecisionContext {
				slices.Sort(items)
			}
			if got := tc.items(whole); !slices.Equal(got, items) {
				t.Errorf("whole items %q, pages %q", got, items)
			}
			if got := wholePage.Findings.Items; !reflect.DeepEqual(got, findings) {
				t.Errorf("whole findings %d, pages %d", len(got), len(findings))
			}
		})
	}
}

// maps returns m with the given keys set to the non-nil values and the
// others removed.
func maps(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		k := kv[i].(string)
		if p := kv[i+1].(*string); p != nil {
			out[k] = *p
		} else {
			delete(out, k)
		}
	}
	return out
}
