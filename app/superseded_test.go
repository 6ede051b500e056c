package app

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

func TestListSupersededStates(t *testing.T) {
	p := edgeProjection()
	before := slices.Clone(p.Findings)
	res := answerSuperseded(p, SupersededInput{})
	if res.Text != "Returned 4 superseded decision entries; 6 findings on this page." {
		t.Errorf("text = %q", res.Text)
	}
	r := result(t, res)
	got := map[string]string{}
	for _, it := range r["items"].([]any) {
		m := it.(map[string]any)
		b, _ := json.Marshal(m["supersededBy"])
		got[m["id"].(string)] = string(b)
	}
	want := map[string]string{
		"0011": `{"candidateCount":2,"reason":"ambiguous","resolved":false,"targetRef":"0010"}`,
		"0012": `{"reason":"dangling","resolved":false,"targetRef":"0099"}`,
		"0013": `{"id":"0020","log":"payments","reason":"federated-unavailable","resolved":false,"targetRef":"payments:0020"}`,
		"0014": `{"resolved":true,"target":{"id":"0015","sourcePath":"docs/adr/0015-x.md","status":"accepted","title":"Cluster"}}`,
	}
	if len(got) != len(want) {
		t.Errorf("entries = %v", got)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: got %s\nwant %s", id, got[id], w)
		}
	}
	if ids := ids(t, r["items"]); !slices.Equal(ids, []string{"0011", "0012", "0013", "0014"}) {
		t.Errorf("order = %v", ids)
	}

	// The derived findings are merged in canonical order; the corpus
	// findings of the projection are left untouched.
	var rules []string
	for _, f := range r["findings"].(map[string]any)["items"].([]any) {
		m := f.(map[string]any)
		rules = append(rules, m["rule"].(string)+"/"+m["id"].(string))
		if m["rule"] == RuleSupersededTargetAmbiguous && m["severity"] != "warn" ||
			m["rule"] == RuleSupersededTargetFederated && m["severity"] != "info" {
			t.Errorf("derived severity: %v", m)
		}
		if _, ok := m["path"]; ok && (m["rule"] == RuleSupersededTargetAmbiguous || m["rule"] == RuleSupersededTargetFederated) {
			t.Errorf("derived finding has a path: %v", m)
		}
	}
	wantRules := []string{
		"dangling-supersededBy/0012", "dangling-supersededBy/0013",
		"superseded-target-ambiguous/0011", "superseded-target-federated-unavailable/0013",
		"unique-id/0010", "unique-id/0010",
	}
	if !slices.Equal(rules, wantRules) {
		t.Errorf("findings = %q", rules)
	}
	if !slices.EqualFunc(before, p.Findings, func(a, b adr.Finding) bool { return a == b }) {
		t.Error("projection findings were modified")
	}
}

func TestListSupersededPaging(t *testing.T) {
	p := edgeProjection()
	res := answerSuperseded(p, SupersededInput{Page: Page{Limit: 3, FindingsLimit: 1}})
	if res.Text != "Returned 3 superseded decision entries; 1 finding on this page." {
		t.Errorf("text = %q", res.Text)
	}
	c := nextCursor(t, res, false)
	fc := nextCursor(t, res, true)
	if c == "" || fc == "" {
		t.Fatal("cursors missing")
	}
	res = answerSuperseded(p, SupersededInput{Page: Page{Limit: 3, FindingsLimit: 1, Cursor: &c}})
	if res.Text != "Returned 1 superseded decision entry; 1 finding on this page." {
		t.Errorf("text = %q", res.Text)
	}
	if r := result(t, res); r["cursor"] != nil || !slices.Equal(ids(t, r["items"]), []string{"0014"}) {
		t.Errorf("second page = %v", r)
	}
	// Walking the findings to the end.
	n := 0
	in := SupersededInput{Page: Page{FindingsLimit: 4}}
	for {
		res := answerSuperseded(p, in)
		n += len(result(t, res)["findings"].(map[string]any)["items"].([]any))
		next := nextCursor(t, res, true)
		if next == "" {
			break
		}
		in.FindingsCursor = &next
	}
	if n != 6 {
		t.Errorf("findings walk saw %d", n)
	}
}

func TestListSupersededEmpty(t *testing.T) {
	p := projection(nil, rec{id: "0001", title: "One", status: adr.StatusAccepted})
	res := answerSuperseded(p, SupersededInput{})
	if res.Text != "Returned 0 superseded decision entries; 0 findings on this page." {
		t.Errorf("text = %q", res.Text)
	}
	b, _ := json.Marshal(res.Structured)
	want := `{"corpusHealth":{"fingerprint":"` + testFP + `","recordCount":1,"excludedCount":0},"result":{"outcome":"entries","items":[],"cursor":null,"findings":{"items":[],"cursor":null}}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}
