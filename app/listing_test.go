package app

import (
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// A search without a query lists every record the filters keep, in
// record order, with no matched fields; its cursors and a search's never
// continue each other's walks.
func TestSearchAll(t *testing.T) {
	p := edgeProjection()
	all := result(t, answerSearch(p, SearchInput{All: true}))
	if got := ids(t, all["items"]); len(got) != len(p.Records) {
		t.Errorf("listing = %v, want every record", got)
	}
	proposed := result(t, answerSearch(p, SearchInput{All: true, Status: []adr.Status{adr.StatusProposed, adr.StatusDraft}}))
	var want []string
	for _, r := range p.Records {
		if r.Frontmatter.Status == adr.StatusProposed || r.Frontmatter.Status == adr.StatusDraft {
			want = append(want, r.Frontmatter.ID)
		}
	}
	if got := ids(t, proposed["items"]); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("proposed = %v, want %v", got, want)
	}
	for _, it := range proposed["items"].([]any) {
		if f, ok := it.(map[string]any)["matchedFields"].([]any); !ok || len(f) != 0 {
			t.Errorf("matchedFields = %v, want []", it.(map[string]any)["matchedFields"])
		}
	}
	if refused, bad := refuse(SearchInput{All: true}); bad {
		t.Errorf("a listing needs no query: %v", refused.Text)
	}
	if _, bad := refuse(SearchInput{}); !bad {
		t.Error("a search needs a query")
	}

	res := answerSearch(p, SearchInput{All: true, Page: Page{Limit: 1}})
	c := nextCursor(t, res, false)
	if r := result(t, answerSearch(p, SearchInput{Query: "x", Page: Page{Limit: 1, Cursor: &c}})); r["reason"] != "query-mismatch" {
		t.Errorf("a listing cursor continued a search: %v", r)
	}
}

// Only keeps the findings of the files asked about, and Knows tells the
// files lint saw from those it did not.
func TestLintReportOnly(t *testing.T) {
	rep := &LintReport{
		Records: []Summary{{ID: "0001", SourcePath: "docs/adr/0001-a.md"}},
		Findings: []adr.Finding{
			{Rule: "r1", Path: "docs/adr/0001-a.md"},
			{Rule: "r2", Path: "docs/adr/0002-b.md"},
			{Rule: "r3", Path: "docs/adr/0001-a.md"},
		},
		RecordCount: 1,
	}
	only := rep.Only([]string{"docs/adr/0001-a.md"})
	if len(only.Findings) != 2 || only.Findings[0].Rule != "r1" || only.Findings[1].Rule != "r3" || only.RecordCount != 1 {
		t.Errorf("Only = %+v", only)
	}
	if len(rep.Findings) != 3 {
		t.Error("Only changed the report")
	}
	if !rep.Knows("docs/adr/0002-b.md") || !rep.Knows("docs/adr/0001-a.md") || rep.Knows("docs/adr/README.md") {
		t.Error("Knows")
	}
}
