package app

import (
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
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

// TestContextCommandLine: the command line's explain takes any non-empty
// argument and matches it as written, where the tool's contract refuses
// unsafe paths; and it gives no decision for a corpus with an error
// finding (the edge corpus has four), where the tool answers anyway.
func TestContextCommandLine(t *testing.T) {
	src := []adr.Matcher{{Type: adr.MatcherPath, Pattern: "src/**"}}
	everything := []adr.Matcher{{Type: adr.MatcherPath, Pattern: "**"}}
	valid := projection(nil,
		rec{id: "0001", title: "Under src", status: adr.StatusAccepted, affects: src},
		rec{id: "0002", title: "Everything", status: adr.StatusAccepted, affects: everything},
	)
	for _, tc := range []struct {
		file string
		want []string // governing ids; nil when the tool refuses the file
	}{
		{"src/a.ts", []string{"0001", "0002"}},
		// The reference's glob library matches ** across a leading "/"
		// but never across a ".." segment; a backslash separates.
		{"/repo/src/a.ts", []string{"0002"}},
		{"src/../src/a.ts", []string{}},
		{"../elsewhere/a.ts", []string{}},
		{`src\a.ts`, []string{"0001", "0002"}},
		{"C:src/a.ts", []string{"0002"}},
	} {
		in := ContextInput{Files: []string{tc.file}, CommandLine: true}
		if _, refused := RefuseContext(in); refused {
			t.Errorf("%q: refused on the command line", tc.file)
			continue
		}
		r := result(t, answerContext(valid, in, nil))
		if got := ids(t, r["governing"]); !slices.Equal(got, tc.want) {
			t.Errorf("%q: governing %v, want %v", tc.file, got, tc.want)
		}
		if tc.file != "src/a.ts" {
			if _, refused := RefuseContext(ContextInput{Files: []string{tc.file}}); !refused {
				t.Errorf("%q: the tool's contract accepts it", tc.file)
			}
		}
	}
	if _, refused := RefuseContext(ContextInput{Files: []string{""}, CommandLine: true}); !refused {
		t.Error("an empty file is accepted")
	}

	p := edgeProjection()
	files := []string{"src/events/x.ts"}
	tool := answerContext(p, ContextInput{Files: files}, nil)
	cli := answerContext(p, ContextInput{Files: files, CommandLine: true}, nil)
	if m := tool.Structured.Result.(Matches); m.Withheld || len(m.Governing) == 0 {
		t.Errorf("the tool withholds: %+v", m)
	}
	m := cli.Structured.Result.(Matches)
	if !m.Withheld || len(m.Governing)+len(m.ActiveProposals)+len(m.History) != 0 || m.Cursor != nil {
		t.Errorf("the command line answers for a corpus with errors: %+v", m)
	}
	// Its findings are the corpus's alone: no affects finding derived.
	if len(m.Findings.Items) != len(p.Findings) {
		t.Errorf("findings %v, want the corpus's %v", m.Findings.Items, p.Findings)
	}
	if m := result(t, cli); m["withheld"] != nil {
		t.Errorf("withheld reached the answer's JSON: %v", m)
	}
}

// The tool's size cap does not withhold: the reference's command line
// reads an oversized record as any other. Every other error does, the
// race-only record-stat-error included (the reference then fails to read
// the file, a file-read error).
func TestContextCommandLineSizeCap(t *testing.T) {
	src := []adr.Matcher{{Type: adr.MatcherPath, Pattern: "src/**"}}
	for _, tc := range []struct {
		rule     string
		withheld bool
	}{
		{"record-too-large", false},
		{"record-stat-error", true},
		{"file-read", true},
	} {
		p := projection([]adr.Finding{{Rule: tc.rule, Severity: adr.SeverityError, Message: "m", Path: "docs/adr/0002-x.md"}},
			rec{id: "0001", title: "Under src", status: adr.StatusAccepted, affects: src})
		m := answerContext(p, ContextInput{Files: []string{"src/a.ts"}, CommandLine: true}, nil).Structured.Result.(Matches)
		if m.Withheld != tc.withheld || (len(m.Governing) == 0) != tc.withheld {
			t.Errorf("%s: withheld %v, governing %d", tc.rule, m.Withheld, len(m.Governing))
		}
	}
}
