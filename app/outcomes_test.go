package app

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/lineage/feed"
)

// wire encodes a structured answer as the MCP adapter and adrkit --json
// do: encoding/json, HTML characters left alone.
func wire(t *testing.T, res Result) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res.Structured); err != nil {
		t.Fatalf("encoding %s: %v", res.Text, err)
	}
	return buf.String()
}

// TestTextMarshalsLikeJSONStringify: Text writes what JSON.stringify
// writes, which for valid UTF-8 is what encoding/json writes (HTML
// left alone) but for U+2028 and U+2029.
func TestTextMarshalsLikeJSONStringify(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain", "Use PostgreSQL", `"Use PostgreSQL"`},
		{"quotes, backslash, HTML", `a "b" \ <c> & d`, `"a \"b\" \\ <c> & d"`},
		{"controls", "a\tb\nc\x00\x1f\x7f", `"a\tb\nc\u0000\u001f` + "\x7f" + `"`},
		{"non-ASCII", "日本語 🚀 é", `"日本語 🚀 é"`},
		{"line separator stays raw", "a\u2028b", "\"a\u2028b\""},
		{"lone high surrogate (WTF-8)", "Lone \xed\xa0\x80 title", `"Lone \ud800 title"`},
		{"lone low surrogate (WTF-8)", "\xed\xbf\xbf", `"\udfff"`},
		{"other invalid byte", "a\xffb", "\"a\uFFFDb\""},
		{"empty", "", `""`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(struct {
				V Text `json:"v"`
			}{Text(tc.in)}); err != nil {
				t.Fatal(err)
			}
			if got, want := buf.String(), `{"v":`+tc.want+"}\n"; got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// loneCorpus is a corpus whose titles all hold a lone surrogate, written
// in YAML as a "\ud800" (or "\udfff") escape: 0001 replaced by 0002,
// both covering src/**, and two records sharing the id 0003.
func loneCorpus() []corpus.Candidate {
	record := func(id, title, status, extra string) string {
		return "---\nid: \"" + id + "\"\ntitle: \"" + title + "\"\nstatus: " + status + "\ndate: 2026-01-01\n" + extra + "---\n\nBody.\n"
	}
	affects := "affects:\n  - type: path\n    pattern: \"src/**\"\n"
	return []corpus.Candidate{
		{Path: "docs/adr/0001-old.md", Content: []byte(record("0001", `Lone \ud800 old`, "superseded",
			"deciders: [\"@a\"]\nsupersededBy: \"0002\"\n"+affects))},
		{Path: "docs/adr/0002-new.md", Content: []byte(record("0002", `Lone \udfff new`, "accepted",
			"deciders: [\"@a\"]\nsupersedes: [\"0001\"]\n"+affects))},
		{Path: "docs/adr/0003-a.md", Content: []byte(record("0003", `Lone \ud800 a`, "draft", ""))},
		{Path: "docs/adr/0003-b.md", Content: []byte(record("0003", `Lone \ud800 b`, "proposed", ""))},
	}
}

// titleMember matches every "title" member of an answer, whatever object
// it is in.
var titleMember = regexp.MustCompile(`"title":"((?:[^"\\]|\\.)*)"`)

// TestLoneSurrogateTitles is the regression test of the lone-surrogate
// title (docs/reliability.md): in every answer that carries titles,
// every title member shows the \ud800 escape, as frontmatter.title
// always did, and nothing shows a replacement character.
func TestLoneSurrogateTitles(t *testing.T) {
	p := corpus.Build(loneCorpus(), nil)
	if p.RecordCount != 4 {
		t.Fatalf("%d records, want 4: %+v", p.RecordCount, p.Findings)
	}
	answers := []struct {
		name   string
		res    Result
		titles int
	}{
		{"get_decision found", answerGet(p, GetInput{Ref: "0001"}), 2}, // decision.title and frontmatter.title
		{"get_decision ambiguous", answerGet(p, GetInput{Ref: "0003"}), 2},
		{"search_decisions", answerSearch(p, SearchInput{Query: "lone"}), 4},
		{"get_decision_context", answerContext(p, ContextInput{Files: []string{"src/app.go"}}, nil), 2},
		{"list_superseded", answerSuperseded(p, SupersededInput{}), 2}, // the entry and its resolved target
		{"get_supersession_chain", answerChain(p, ChainInput{Ref: "0001"}), 2},
		{"get_supersession_chain ambiguous", answerChain(p, ChainInput{Ref: "0003"}), 2},
	}
	for _, tc := range answers {
		t.Run(tc.name, func(t *testing.T) {
			got := wire(t, tc.res)
			titles := titleMember.FindAllStringSubmatch(got, -1)
			if len(titles) != tc.titles {
				t.Fatalf("%d title members, want %d:\n%s", len(titles), tc.titles, got)
			}
			for _, m := range titles {
				if !strings.HasPrefix(m[1], `Lone \ud800 `) && !strings.HasPrefix(m[1], `Lone \udfff `) {
					t.Errorf("title %q, want the lone surrogate as an escape", m[1])
				}
			}
			if strings.Contains(got, "\uFFFD") || strings.Contains(got, `\ufffd`) {
				t.Errorf("a replacement character in:\n%s", got)
			}
		})
	}
	// get_decision's two titles are the same text, to the byte.
	found := titleMember.FindAllString(wire(t, answerGet(p, GetInput{Ref: "0002"})), -1)
	if len(found) != 2 || found[0] != found[1] || found[0] != `"title":"Lone \udfff new"` {
		t.Errorf("decision.title and frontmatter.title: %q", found)
	}
}

// TestLoneSurrogateTitlesInTheFeed: list_decision_changes carries
// titles too, read from each commit's records.
func TestLoneSurrogateTitlesInTheFeed(t *testing.T) {
	h := &fakeHistory{}
	h.commit("1", `0001-a.md=0001 proposed "Lone \ud800 feed"`)
	h.commit("2", `0001-a.md=0001 accepted "Lone \ud800 feed"`)
	svc := New(corpusOf(), Options{Extended: true, History: h})
	res, err := svc.CallInput(context.Background(), ChangesInput{Since: ptr(feed.ReplayToken)})
	if err != nil {
		t.Fatal(err)
	}
	got := wire(t, res)
	titles := titleMember.FindAllStringSubmatch(got, -1)
	if len(titles) != 2 || titles[0][1] != `Lone \ud800 feed` || titles[1][1] != `Lone \ud800 feed` {
		t.Errorf("titles %q in:\n%s", titles, got)
	}
}
