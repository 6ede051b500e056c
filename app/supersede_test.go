package app

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
)

// TestSupersedeInTwoSteps: a proposal that would replace a decision in
// force copies its affects and leaves it governing (check shows the old
// as governing, the new as an active proposal, and no hold) until the
// proposal is accepted, which marks the old superseded in the same run;
// accepting without deciders is refused, naming the flag that gives them
// (ADR 0045).
func TestSupersedeInTwoSteps(t *testing.T) {
	ctx := context.Background()
	old := "---\nid: \"0001\"\ntitle: Use MySQL for orders\nstatus: accepted\ndate: 2026-01-01\ndeciders: [\"@olaf\"]\n" +
		"affects:\n  # the orders service\n  - type: path\n    pattern: \"services/orders/**\"\n  - type: package\n    pattern: mysql\n" +
		"---\n\n# Use MySQL for orders\n"
	m := &memFolder{files: map[string]string{"0001-use-mysql-for-orders.md": old}}
	res, err := NewRecord(ctx, m, NewInput{Title: "Use CockroachDB for orders", Status: adr.StatusProposed, Supersedes: "0001", Date: "2026-02-01"})
	if err != nil {
		t.Fatal(err)
	}
	if m.files["0001-use-mysql-for-orders.md"] != old || res.Superseded != "" || res.Pending != "docs/adr/0001-use-mysql-for-orders.md" {
		t.Fatalf("the proposal marked the old record: %+v\n%s", res, m.files["0001-use-mysql-for-orders.md"])
	}
	proposal, _ := frontmatter.ParseRecord(res.Path, m.files["0002-use-cockroachdb-for-orders.md"])
	oldRec, _ := frontmatter.ParseRecord("old.md", old)
	if proposal == nil || !frontmatter.SameFrontmatter(&adr.Frontmatter{Affects: proposal.Frontmatter.Affects}, &adr.Frontmatter{Affects: oldRec.Frontmatter.Affects}) ||
		!strings.Contains(m.files["0002-use-cockroachdb-for-orders.md"], "  # the orders service\n") {
		t.Fatalf("the proposal did not copy the affects:\n%s", m.files["0002-use-cockroachdb-for-orders.md"])
	}

	covers := func() CheckFile {
		t.Helper()
		var files []fakeFile
		for _, n := range sortedKeys(m.files) {
			files = append(files, regular(n, m.files[n]))
		}
		rep, err := New(corpusOf(files...), Options{}).Check(ctx, CheckInput{Files: []string{"services/orders/db.go"}, AsOf: "2026-03-01"})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Holds) != 0 {
			t.Errorf("holds: %+v", rep.Holds)
		}
		return rep.Files[0]
	}
	ids := func(es []ContextEntry) string {
		var out []string
		for _, e := range es {
			out = append(out, string(e.ID))
		}
		return strings.Join(out, ",")
	}
	if f := covers(); ids(f.Governing) != "0001" || ids(f.ActiveProposals) != "0002" || ids(f.History) != "" {
		t.Errorf("while proposed: governing %s, proposals %s, history %s", ids(f.Governing), ids(f.ActiveProposals), ids(f.History))
	}
	// The MCP tools say the same: the context's buckets, and the chain of
	// the old record current with the proposal named.
	var files []fakeFile
	for _, n := range sortedKeys(m.files) {
		files = append(files, regular(n, m.files[n]))
	}
	svc := New(corpusOf(files...), Options{Extended: true})
	for tool, want := range map[string]string{
		ToolGetDecisionContext:   `"governing":[{"id":"0001"`,
		ToolGetSupersessionChain: `"action":"proceed on 0001: it is accepted and nothing replaces it; 0002 would replace 0001 once accepted"`,
	} {
		args := `{"files":["services/orders/db.go"]}`
		if tool == ToolGetSupersessionChain {
			args = `{"ref":"0001"}`
		}
		res, err := svc.Call(ctx, tool, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(res.Structured)
		if !strings.Contains(string(body), want) || (tool == ToolGetDecisionContext && !strings.Contains(string(body), `"activeProposals":[{"id":"0002"`)) {
			t.Errorf("%s while proposed: %s", tool, body)
		}
	}

	_, err = SetStatus(ctx, m, StatusInput{ID: "0002", Status: adr.StatusAccepted})
	if !errors.Is(err, ErrEditInput) || !strings.Contains(err.Error(), "--deciders") {
		t.Errorf("accepting without deciders: %v", err)
	}
	st, err := SetStatus(ctx, m, StatusInput{ID: "0002", Status: adr.StatusAccepted, Deciders: []string{"@olaf", "team:data"}})
	if err != nil || len(st.Files) != 2 {
		t.Fatalf("%v %+v", err, st)
	}
	wantOld := strings.Replace(old, "status: accepted\n", "status: superseded\nsupersededBy: \"0002\"\n", 1)
	if m.files["0001-use-mysql-for-orders.md"] != wantOld {
		t.Errorf("the old record after accepting:\n%s", m.files["0001-use-mysql-for-orders.md"])
	}
	if !strings.Contains(m.files["0002-use-cockroachdb-for-orders.md"], "status: accepted\ndate: \"2026-02-01\"\ndeciders:\n- '@olaf'\n- team:data\n") {
		t.Errorf("the new record after accepting:\n%s", m.files["0002-use-cockroachdb-for-orders.md"])
	}
	if f := covers(); ids(f.Governing) != "0002" || ids(f.ActiveProposals) != "" || ids(f.History) != "0001" {
		t.Errorf("once accepted: governing %s, proposals %s, history %s", ids(f.Governing), ids(f.ActiveProposals), ids(f.History))
	}
}

// TestSupersedeRefusals: what cannot complete a replacement is refused
// with nothing written.
func TestSupersedeRefusals(t *testing.T) {
	rec := func(id, status, extra string) string {
		return "---\nid: \"" + id + "\"\ntitle: Record " + id + "\nstatus: " + status + "\ndate: 2026-01-01\ndeciders: [\"@a\"]\n" + extra + "---\nBody\n"
	}
	m := &memFolder{files: map[string]string{
		"0001-a.md": rec("0001", "superseded", "supersededBy: \"0003\"\n"),
		"0002-b.md": rec("0002", "proposed", "supersedes: [\"0001\"]\n"),
		"0003-c.md": rec("0003", "accepted", "supersedes: [\"0001\"]\n"),
		"0004-d.md": rec("0004", "proposed", "provenance:\n  authoredBy: agent\n"),
	}}
	before := map[string]string{}
	for k, v := range m.files {
		before[k] = v
	}
	_, err := SetStatus(context.Background(), m, StatusInput{ID: "0002", Status: adr.StatusAccepted})
	if !errors.Is(err, ErrEditConflict) || !strings.Contains(err.Error(), "already superseded by 0003") {
		t.Errorf("accepting a claim on a record another replaced: %v", err)
	}
	if _, err := NewRecord(context.Background(), m, NewInput{Title: "Never", Status: adr.StatusRejected, Supersedes: "0003", Date: "2026-01-01"}); !errors.Is(err, ErrNewInput) {
		t.Errorf("a rejected record with --supersedes: %v", err)
	}
	if _, err := SetStatus(context.Background(), m, StatusInput{ID: "0002", Status: adr.StatusAccepted, Deciders: []string{"olaf"}}); !errors.Is(err, ErrEditInput) {
		t.Errorf("a decider that is no identity: %v", err)
	}
	if _, err := SetStatus(context.Background(), m, StatusInput{ID: "0004", Status: adr.StatusAccepted}); !errors.Is(err, ErrEditInput) ||
		!strings.Contains(err.Error(), "add ratifiedBy") {
		t.Errorf("accepting what an agent wrote, unratified: %v", err)
	}
	if !reflect.DeepEqual(m.files, before) {
		t.Errorf("something was written: %v", sortedKeys(m.files))
	}
}
