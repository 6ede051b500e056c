package app

import (
	"fmt"
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

func TestSearchMatching(t *testing.T) {
	p := edgeProjection()
	tests := []struct {
		name string
		in   SearchInput
		want []string // "id:fields"
	}{
		{"body only", SearchInput{Query: "pgvector"}, []string{"0001:[body]"}},
		{"body and title", SearchInput{Query: "mongodb"}, []string{"0002:[body title]"}},
		{"tag only", SearchInput{Query: "storage"}, []string{"0001:[tag]"}},
		{"id", SearchInput{Query: "0015"}, []string{"0015:[id]"}},
		{"fullwidth and padding fold", SearchInput{Query: "  ＰＯＳＴＧＲＥＳＱＬ  "}, []string{"0001:[body title]"}},
		{"fullwidth tag folds", SearchInput{Query: "bus"}, []string{"0003:[tag title]"}},
		{"final sigma", SearchInput{Query: "οδος σας"}, []string{"0001:[body]"}},
		{"body id tag title order", SearchInput{Query: "dup"}, []string{"0010:[body tag]", "0010:[body tag]"}},
		{"graveyard included", SearchInput{Query: "cache"}, []string{"0010:[tag title]", "0010:[title]", "0011:[title]"}},
		{"status any-of", SearchInput{Query: "cache", Status: []adr.Status{adr.StatusProposed, adr.StatusSuperseded}}, []string{"0010:[title]", "0011:[title]"}},
		{"scope any-of", SearchInput{Query: "e", Scope: []adr.Scope{adr.ScopeOrg}}, []string{"0002:[body tag title]"}},
		{"scope default component", SearchInput{Query: "mongodb", Scope: []adr.Scope{adr.ScopeComponent}}, nil},
		{"tags all-of", SearchInput{Query: "a", Tags: []string{"database", "storage"}}, []string{"0001:[body tag title]"}},
		{"tags exact case", SearchInput{Query: "a", Tags: []string{"Database"}}, nil},
		{"tags unnormalised", SearchInput{Query: "a", Tags: []string{"bus"}}, nil},
		{"no match", SearchInput{Query: "zzz"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := answerSearch(p, tc.in)
			var got []string
			for _, it := range res.Structured.Result.(SearchResults).Items {
				got = append(got, fmt.Sprintf("%s:%v", it.ID, it.MatchedFields))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSearchShape(t *testing.T) {
	p := edgeProjection()
	res := answerSearch(p, SearchInput{Query: "zzz"})
	if res.Text != "Returned 0 decision results; 4 findings on this page." {
		t.Errorf("text = %q", res.Text)
	}
	r := result(t, res)
	if r["outcome"] != "results" || r["cursor"] != nil || len(r["items"].([]any)) != 0 {
		t.Errorf("empty results = %v", r)
	}
	h := tree(t, res)["corpusHealth"].(map[string]any)
	if h["fingerprint"] != testFP || h["recordCount"] != float64(10) || h["excludedCount"] != float64(0) {
		t.Errorf("corpusHealth = %v", h)
	}
}

// Walking either channel returns every item once, in order, and never
// moves the other channel.
func TestSearchWalk(t *testing.T) {
	p := edgeProjection()
	in := SearchInput{Query: "a", Page: Page{Limit: 3, FindingsLimit: 1}}
	var walked []string
	for page := 0; ; page++ {
		res := answerSearch(p, in)
		r := result(t, res)
		if r["outcome"] != "results" {
			t.Fatalf("page %d: %s", page, render(t, res))
		}
		walked = append(walked, ids(t, r["items"])...)
		if got := len(r["findings"].(map[string]any)["items"].([]any)); got != 1 {
			t.Fatalf("findings page moved: %d items", got)
		}
		next := nextCursor(t, res, false)
		if next == "" {
			break
		}
		// The same needle, reordered filters: the same query shape.
		in.Query = "  A "
		in.Cursor = &next
	}
	all := ids(t, result(t, answerSearch(p, SearchInput{Query: "a", Page: Page{Limit: 100}}))["items"])
	if !slices.Equal(walked, all) {
		t.Errorf("walk %q != one page %q", walked, all)
	}

	var findings int
	in = SearchInput{Query: "nothing matches", Page: Page{FindingsLimit: 3}}
	for {
		res := answerSearch(p, in)
		findings += len(result(t, res)["findings"].(map[string]any)["items"].([]any))
		next := nextCursor(t, res, true)
		if next == "" {
			break
		}
		// A findings cursor binds only findingsLimit: a new query keeps it.
		in.Query = "other"
		in.FindingsCursor = &next
	}
	if findings != len(p.Findings) {
		t.Errorf("findings walk saw %d of %d", findings, len(p.Findings))
	}
}

func TestSearchCursorBinding(t *testing.T) {
	p := edgeProjection()
	first := SearchInput{Query: "e", Status: []adr.Status{adr.StatusAccepted, adr.StatusRejected}, Page: Page{Limit: 1}}
	c := nextCursor(t, answerSearch(p, first), false)
	if c == "" {
		t.Fatal("no cursor minted")
	}
	tests := []struct {
		name string
		in   SearchInput
		want string // outcome or invalid-cursor reason
	}{
		{"same shape", SearchInput{Query: " E ", Status: []adr.Status{adr.StatusRejected, adr.StatusAccepted, adr.StatusAccepted}, Page: Page{Limit: 1, Cursor: &c}}, "results"},
		{"other query", SearchInput{Query: "a", Status: first.Status, Page: Page{Limit: 1, Cursor: &c}}, "query-mismatch"},
		{"other limit", SearchInput{Query: "e", Status: first.Status, Page: Page{Limit: 2, Cursor: &c}}, "query-mismatch"},
		{"default limit differs", SearchInput{Query: "e", Status: first.Status, Page: Page{Cursor: &c}}, "query-mismatch"},
		{"other status", SearchInput{Query: "e", Status: []adr.Status{adr.StatusAccepted}, Page: Page{Limit: 1, Cursor: &c}}, "query-mismatch"},
		{"added tags", SearchInput{Query: "e", Status: first.Status, Tags: []string{"x"}, Page: Page{Limit: 1, Cursor: &c}}, "query-mismatch"},
		{"results cursor as findings cursor", SearchInput{Query: "e", Status: first.Status, Page: Page{Limit: 1, FindingsCursor: &c}}, "wrong-channel"},
		{"garbage", SearchInput{Query: "e", Page: Page{Cursor: ptr("garbage")}}, "decode-failed"},
		{"empty", SearchInput{Query: "e", Page: Page{Cursor: ptr("")}}, "decode-failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := result(t, answerSearch(p, tc.in))
			got, _ := r["outcome"].(string)
			if got == "invalid-cursor" {
				got = r["reason"].(string)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
