package app

import (
	"slices"
	"testing"
)

func TestContextBucketsAndWalk(t *testing.T) {
	p := edgeProjection()
	files := []string{"src/events/x.ts", "src/app.ts", "src/app.ts"}
	res := answerContext(p, ContextInput{Files: files}, nil)
	want := "Returned 4 context matches: 1 governing, 1 active proposal, 2 historical; 6 findings on this page."
	if res.Text != want {
		t.Errorf("text = %q", res.Text)
	}
	r := result(t, res)
	if g, a, h := ids(t, r["governing"]), ids(t, r["activeProposals"]), ids(t, r["history"]); !slices.Equal(g, []string{"0001"}) ||
		!slices.Equal(a, []string{"0003"}) || !slices.Equal(h, []string{"0002", "0011"}) {
		t.Errorf("buckets = %v %v %v", g, a, h)
	}
	h := r["history"].([]any)[1].(map[string]any)
	rel := h["relations"].(map[string]any)
	if rel["supersededBy"] != "0010" || len(rel["supersedes"].([]any)) != 0 || rel["relatesTo"] == nil {
		t.Errorf("relations = %v", rel)
	}
	if gov := r["governing"].([]any)[0].(map[string]any); gov["relations"].(map[string]any)["supersededBy"] != nil {
		t.Errorf("absent supersededBy must be null: %v", gov)
	}

	// The walk is paginated before it is split: page one holds 0001 and
	// 0002, page two 0003 and 0011; a reordered file list keeps the walk.
	res = answerContext(p, ContextInput{Files: files, Page: Page{Limit: 2}}, nil)
	if res.Text != "Returned 2 context matches: 1 governing, 0 active proposals, 1 historical; 6 findings on this page." {
		t.Errorf("page 1 text = %q", res.Text)
	}
	c := nextCursor(t, res, false)
	res = answerContext(p, ContextInput{Files: []string{"src/app.ts", "src/events/x.ts"}, Page: Page{Limit: 2, Cursor: &c}}, nil)
	if res.Text != "Returned 2 context matches: 0 governing, 1 active proposal, 1 historical; 6 findings on this page." {
		t.Errorf("page 2 text = %q", res.Text)
	}
	if result(t, res)["cursor"] != nil {
		t.Error("last page has a cursor")
	}
	// The context cursors are bound to the file set.
	r = result(t, answerContext(p, ContextInput{Files: []string{"src/app.ts"}, Page: Page{Limit: 2, Cursor: &c}}, nil))
	if r["reason"] != "query-mismatch" {
		t.Errorf("other files: %v", r)
	}
}

func TestContextDerivedFindings(t *testing.T) {
	p := edgeProjection()
	res := answerContext(p, ContextInput{Files: []string{"nothing/here"}}, nil)
	if res.Text != "Returned 0 context matches: 0 governing, 0 active proposals, 0 historical; 6 findings on this page." {
		t.Errorf("text = %q", res.Text)
	}
	var got []string
	for _, f := range result(t, res)["findings"].(map[string]any)["items"].([]any) {
		m := f.(map[string]any)
		got = append(got, m["rule"].(string)+"/"+m["id"].(string))
	}
	// The repo-qualified matcher is skipped silently; the inert ones
	// report on every call, matched or not, sorted in with the corpus's.
	want := []string{
		"affects-unresolvable/0015", "affects-unresolvable/0015",
		"dangling-supersededBy/0012", "dangling-supersededBy/0013",
		"unique-id/0010", "unique-id/0010",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings = %q", got)
	}
	if len(p.Findings) != 4 {
		t.Error("projection findings were modified")
	}
}
