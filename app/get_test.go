package app

import (
	"testing"

	"github.com/adrkit/adrkit-go/domain/cursor"
)

func TestGetOutcomes(t *testing.T) {
	p := edgeProjection()
	tests := []struct {
		ref, outcome, text string
	}{
		{"0001", "found", `Found decision "0001"; 4 findings on this page.`},
		{"9999", "not-found", `No local decision matches "9999"; 4 findings on this page.`},
		{"0010", "ambiguous-local-id", `Returned 2 candidates for ambiguous local ref "0010"; 4 findings on this page.`},
		{"payments:0001", "federated-log-unavailable", `Named-log federation is unavailable for "payments:0001"; 4 findings on this page.`},
		// A log-qualified ref is never looked up locally, even when a
		// local record holds the id.
		{"x:0010", "federated-log-unavailable", `Named-log federation is unavailable for "x:0010"; 4 findings on this page.`},
	}
	for _, tc := range tests {
		t.Run(tc.ref, func(t *testing.T) {
			res := answerGet(p, GetInput{Ref: tc.ref})
			r := result(t, res)
			if r["outcome"] != tc.outcome || res.Text != tc.text {
				t.Errorf("got %v %q", r["outcome"], res.Text)
			}
			if _, ok := r["findings"]; !ok {
				t.Errorf("no findings page")
			}
		})
	}

	r := result(t, answerGet(p, GetInput{Ref: "x:0010"}))
	if r["log"] != "x" || r["id"] != "0010" || r["requestedRef"] != "x:0010" {
		t.Errorf("federated = %v", r)
	}
	d := result(t, answerGet(p, GetInput{Ref: "0001"}))["decision"].(map[string]any)
	if d["requestedRef"] != "0001" || d["sourcePath"] != "docs/adr/0001-x.md" || d["frontmatter"].(map[string]any)["id"] != "0001" {
		t.Errorf("decision = %v", d)
	}
}

func TestGetAmbiguousWalk(t *testing.T) {
	p := edgeProjection()
	res := answerGet(p, GetInput{Ref: "0010", Page: Page{Limit: 1}})
	r := result(t, res)
	if res.Text != `Returned 1 candidate for ambiguous local ref "0010"; 4 findings on this page.` {
		t.Errorf("text = %q", res.Text)
	}
	first := r["candidates"].([]any)[0].(map[string]any)
	if first["sourcePath"] != "docs/adr/0010-first-duplicate.md" || first["status"] != "accepted" {
		t.Errorf("first candidate = %v", first)
	}
	c := nextCursor(t, res, false)
	if c == "" {
		t.Fatal("no cursor")
	}
	r = result(t, answerGet(p, GetInput{Ref: "0010", Page: Page{Limit: 1, Cursor: &c}}))
	second := r["candidates"].([]any)[0].(map[string]any)
	if second["sourcePath"] != "docs/adr/0010-second-duplicate.md" || r["cursor"] != nil {
		t.Errorf("second page = %v", r)
	}
}

// Every refusal reason a call can produce, and its precedence: the
// primary channel first, then the findings channel; decode, channel,
// corpus, query shape, applicability, range.
func TestInvalidCursorReasons(t *testing.T) {
	p := edgeProjection()
	fp := p.Fingerprint
	other := "f" + fp[1:]
	qhGet := func(ref string, limit int) string { return cursor.QueryHash(ref, limit) }
	qh20 := cursor.QueryHash(20)
	mint := cursor.Mint

	ambiguous2 := mint(cursor.DecisionCandidates, fp, qhGet("0010", 20), 2)
	ambiguous1 := mint(cursor.DecisionCandidates, fp, qhGet("0010", 20), 1)
	goodFindings := mint(cursor.DecisionFindings, fp, qh20, 1)
	tests := []struct {
		name string
		in   GetInput
		want string
	}{
		{"decode", GetInput{Ref: "0010", Page: Page{Cursor: ptr("not-a-real-cursor")}}, "decode-failed"},
		{"padded", GetInput{Ref: "0010", Page: Page{Cursor: ptr(ambiguous1 + "==")}}, "decode-failed"},
		{"wrong channel", GetInput{Ref: "0010", Page: Page{Cursor: &goodFindings}}, "wrong-channel"},
		{"other tool", GetInput{Ref: "0010", Page: Page{Cursor: ptr(mint(cursor.SearchResults, fp, qh20, 1))}}, "wrong-channel"},
		{"corpus changed", GetInput{Ref: "0010", Page: Page{Cursor: ptr(mint(cursor.DecisionCandidates, other, qhGet("0010", 20), 1))}}, "corpus-changed"},
		{"corpus before query", GetInput{Ref: "0011", Page: Page{Cursor: ptr(mint(cursor.DecisionCandidates, other, qhGet("0010", 20), 1))}}, "corpus-changed"},
		{"query mismatch", GetInput{Ref: "0011", Page: Page{Cursor: &ambiguous1}}, "query-mismatch"},
		{"raw ref binds", GetInput{Ref: "0010", Page: Page{Limit: 2, Cursor: &ambiguous1}}, "query-mismatch"},
		{"not applicable to found", GetInput{Ref: "0001", Page: Page{Cursor: ptr(mint(cursor.DecisionCandidates, fp, qhGet("0001", 20), 1))}}, "cursor-not-applicable"},
		{"not applicable to not-found", GetInput{Ref: "9999", Page: Page{Cursor: ptr(mint(cursor.DecisionCandidates, fp, qhGet("9999", 20), 1))}}, "cursor-not-applicable"},
		{"not applicable to federated", GetInput{Ref: "p:0010", Page: Page{Cursor: ptr(mint(cursor.DecisionCandidates, fp, qhGet("p:0010", 20), 1))}}, "cursor-not-applicable"},
		{"mismatch before not applicable", GetInput{Ref: "0001", Page: Page{Cursor: &ambiguous1}}, "query-mismatch"},
		{"out of range", GetInput{Ref: "0010", Page: Page{Cursor: &ambiguous2}}, "offset-out-of-range"},
		{"in range", GetInput{Ref: "0010", Page: Page{Cursor: &ambiguous1}}, "ambiguous-local-id"},
		{"findings out of range", GetInput{Ref: "0001", Page: Page{FindingsCursor: ptr(mint(cursor.DecisionFindings, fp, qh20, 4))}}, "offset-out-of-range"},
		{"findings cursor survives any ref", GetInput{Ref: "9999", Page: Page{FindingsCursor: &goodFindings}}, "not-found"},
		{"findings bound to findingsLimit", GetInput{Ref: "9999", Page: Page{FindingsLimit: 3, FindingsCursor: &goodFindings}}, "query-mismatch"},
		{"primary reported first", GetInput{Ref: "0010", Page: Page{Cursor: &ambiguous2, FindingsCursor: ptr("junk")}}, "offset-out-of-range"},
		{"findings reported after a good primary", GetInput{Ref: "0010", Page: Page{Cursor: &ambiguous1, FindingsCursor: ptr("junk")}}, "decode-failed"},
		{"not-applicable beats findings", GetInput{Ref: "0001", Page: Page{Cursor: ptr(mint(cursor.DecisionCandidates, fp, qhGet("0001", 20), 1)), FindingsCursor: ptr("junk")}}, "cursor-not-applicable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := answerGet(p, tc.in)
			r := result(t, res)
			got := r["outcome"].(string)
			if got == "invalid-cursor" {
				got = r["reason"].(string)
				msg := cursor.Reason(got).Message()
				if res.Text != msg || r["message"] != msg {
					t.Errorf("text %q / message %v, want %q", res.Text, r["message"], msg)
				}
				if _, ok := tree(t, res)["corpusHealth"]; !ok {
					t.Error("invalid-cursor lacks corpusHealth")
				}
				if len(r) != 3 {
					t.Errorf("invalid-cursor has extra members: %v", r)
				}
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
