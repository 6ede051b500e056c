package lineage

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// r describes one record: "id status [by=REF] [sup=REF,REF] [path=P]".
// Records without a path get docs/adr/<id>.md.
func parse(t *testing.T, specs ...string) ([]*adr.Record, map[string][]*adr.Record) {
	t.Helper()
	var recs []*adr.Record
	for _, spec := range specs {
		f := strings.Fields(spec)
		fm := &adr.Frontmatter{ID: f[0], Title: "Record " + f[0], Status: adr.Status(f[1]), Date: "2026-01-01"}
		path := "docs/adr/" + f[0] + ".md"
		for _, kv := range f[2:] {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "by":
				fm.SupersededBy = v
			case "sup":
				fm.Supersedes = strings.Split(v, ",")
			case "path":
				path = v
			default:
				t.Fatalf("bad spec %q", spec)
			}
		}
		recs = append(recs, &adr.Record{SourcePath: path, Frontmatter: fm})
	}
	slices.SortStableFunc(recs, adr.CompareRecords)
	byID := map[string][]*adr.Record{}
	for _, r := range recs {
		byID[r.Frontmatter.ID] = append(byID[r.Frontmatter.ID], r)
	}
	return recs, byID
}

// walk runs Walk from the record at path (or id) start.
func walk(t *testing.T, start string, specs ...string) Chain {
	t.Helper()
	recs, byID := parse(t, specs...)
	for _, r := range recs {
		if r.SourcePath == start || r.Frontmatter.ID == start {
			return Walk(NewIndex(recs, byID), r)
		}
	}
	t.Fatalf("no record %q", start)
	return Chain{}
}

// nodes renders the chain as "id@hop" in order.
func nodes(c Chain) string {
	parts := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		parts[i] = fmt.Sprintf("%s@%d", n.Record.Frontmatter.ID, n.Hop)
	}
	return strings.Join(parts, " ")
}

func gaps(c Chain) string {
	parts := make([]string, len(c.Gaps))
	for i, g := range c.Gaps {
		parts[i] = fmt.Sprintf("%s>%s:%s", g.At.Frontmatter.ID, g.Ref, g.Reason)
	}
	return strings.Join(parts, " ")
}

func TestVerdicts(t *testing.T) {
	cases := []struct {
		name   string
		start  string
		specs  []string
		chain  string
		reason Reason // "" for current
		at     string
		refs   []string
		action string
	}{
		{
			name: "accepted alone is current", start: "0001",
			specs: []string{"0001 accepted"},
			chain: "0001@0", at: "0001",
			action: "proceed on 0001: it is accepted and nothing replaces it",
		},
		{
			name: "both declarations agree", start: "0001",
			specs: []string{"0001 superseded by=0002", "0002 accepted sup=0001"},
			chain: "0001@0 0002@1", at: "0002",
			action: "proceed on 0002 instead of 0001: 0002 replaced it and is accepted",
		},
		{
			name: "supersededBy alone is an edge", start: "0001",
			specs: []string{"0001 superseded by=0002", "0002 accepted"},
			chain: "0001@0 0002@1", at: "0002",
			action: "proceed on 0002 instead of 0001: 0002 replaced it and is accepted",
		},
		{
			name: "supersedes alone is an edge", start: "0001",
			specs: []string{"0001 accepted", "0002 accepted sup=0001"},
			chain: "0001@0 0002@1", at: "0002",
			action: "proceed on 0002 instead of 0001: 0002 replaced it and is accepted",
		},
		{
			name: "ungoverned: replaced by a proposal", start: "0003",
			specs: []string{"0003 superseded by=0007", "0007 proposed"},
			chain: "0003@0 0007@1", reason: Ungoverned, at: "0007",
			action: "do not proceed on 0003: replaced by 0007, which is still proposed",
		},
		{
			name: "a draft's claim is pending: the accepted record still governs", start: "0003",
			specs: []string{"0003 accepted", "0007 draft sup=0003"},
			chain: "0003@0", at: "0003",
			action: "proceed on 0003: it is accepted and nothing replaces it; 0007 would replace 0003 once accepted",
		},
		{
			name: "two pending proposals", start: "0001",
			specs: []string{"0001 superseded by=0003", "0003 accepted sup=0001", "0007 proposed sup=0003", "0008 draft sup=0003"},
			chain: "0001@0 0003@1", at: "0003",
			action: "proceed on 0003 instead of 0001: 0003 replaced it and is accepted; 0007 and 0008 would each replace 0003 once accepted",
		},
		{
			name: "a pending claim does not make an accepted one ambiguous", start: "0003",
			specs: []string{"0003 superseded by=0007", "0007 accepted sup=0003", "0009 proposed sup=0003"},
			chain: "0003@0 0007@1", at: "0007",
			action: "proceed on 0007 instead of 0003: 0007 replaced it and is accepted",
		},
		{
			name: "a pending claim on a deprecated record", start: "0003",
			specs: []string{"0003 deprecated", "0007 proposed sup=0003"},
			chain: "0003@0", reason: Deprecated, at: "0003",
			action: "do not proceed on 0003: it is deprecated and nothing replaces it; 0007 would replace 0003 once accepted",
		},
		{
			name: "the proposal's own line shows what it would replace", start: "0007",
			specs: []string{"0003 accepted", "0007 proposed sup=0003"},
			chain: "0003@-1 0007@0", reason: Ungoverned, at: "0007",
			action: "do not proceed on 0007: it is still proposed and nothing accepted replaces it",
		},
		{
			name: "ungoverned: the record itself is proposed", start: "0007",
			specs: []string{"0007 proposed"},
			chain: "0007@0", reason: Ungoverned, at: "0007",
			action: "do not proceed on 0007: it is still proposed and nothing accepted replaces it",
		},
		{
			name: "rejected head", start: "0003",
			specs: []string{"0003 superseded by=0007", "0007 rejected"},
			chain: "0003@0 0007@1", reason: Rejected, at: "0007",
			action: "do not proceed on 0003: replaced by 0007, which was rejected",
		},
		{
			name: "rejected requested record", start: "0007",
			specs: []string{"0007 rejected"},
			chain: "0007@0", reason: Rejected, at: "0007",
			action: "do not proceed on 0007: it was rejected",
		},
		{
			name: "a rejected record's supersedes declares nothing", start: "0003",
			specs: []string{"0003 accepted", "0007 rejected sup=0003"},
			chain: "0003@0", at: "0003",
			action: "proceed on 0003: it is accepted and nothing replaces it",
		},
		{
			name: "deprecated head", start: "0003",
			specs: []string{"0003 superseded by=0007", "0007 deprecated sup=0003"},
			chain: "0003@0 0007@1", reason: Deprecated, at: "0007",
			action: "do not proceed on 0003: replaced by 0007, which is deprecated",
		},
		{
			name: "deprecated requested record", start: "0003",
			specs: []string{"0003 deprecated"},
			chain: "0003@0", reason: Deprecated, at: "0003",
			action: "do not proceed on 0003: it is deprecated and nothing replaces it",
		},
		{
			name: "dangling replacement", start: "0003",
			specs: []string{"0003 superseded by=0099"},
			chain: "0003@0", reason: Dangling, at: "0003", refs: []string{"0099"},
			action: "do not proceed on 0003: replaced by 0099, which no record in this corpus holds",
		},
		{
			name: "dangling further along", start: "0003",
			specs: []string{"0003 superseded by=0007", "0007 superseded by=0099"},
			chain: "0003@0 0007@1", reason: Dangling, at: "0007", refs: []string{"0099"},
			action: "do not proceed on 0003: 0007 is replaced by 0099, which no record in this corpus holds",
		},
		{
			name: "superseded without a replacement (no schema)", start: "0003",
			specs: []string{"0003 superseded"},
			chain: "0003@0", reason: Dangling, at: "0003",
			action: "do not proceed on 0003: marked superseded but names no replacement",
		},
		{
			name: "ambiguous replacement ref", start: "0003",
			specs: []string{"0003 superseded by=0007", "0007 accepted path=a.md", "0007 accepted path=b.md"},
			chain: "0003@0", reason: Ambiguous, at: "0003", refs: []string{"0007"},
			action: "do not proceed on 0003: replaced by 0007, which 2 records hold; call get_decision with ref 0007 to list them",
		},
		{
			name: "declarations disagree", start: "0003",
			specs: []string{"0003 superseded by=0007", "0007 accepted", "0009 accepted sup=0003"},
			chain: "0003@0", reason: Ambiguous, at: "0003", refs: []string{"0007", "0009"},
			action: "do not proceed on 0003: 0007 and 0009 both claim to replace it",
		},
		{
			name: "three claims", start: "0003",
			specs: []string{"0003 accepted", "0007 accepted sup=0003", "0008 deprecated sup=0003", "0009 accepted sup=0003"},
			chain: "0003@0", reason: Ambiguous, at: "0003", refs: []string{"0007", "0008", "0009"},
			action: "do not proceed on 0003: 0007, 0008 and 0009 all claim to replace it",
		},
		{
			name: "a claim on a shared id cannot be attributed", start: "docs/adr/a.md",
			specs: []string{"0003 accepted path=docs/adr/a.md", "0003 accepted path=docs/adr/b.md", "0007 accepted sup=0003"},
			chain: "0003@0", reason: Ambiguous, at: "0003", refs: []string{"0003"},
			action: "do not proceed on 0003: 0007 claims to replace 0003, but 2 records hold that id",
		},
		{
			name: "not observed", start: "0003",
			specs: []string{"0003 superseded by=payments:0009"},
			chain: "0003@0", reason: NotObserved, at: "0003", refs: []string{"payments:0009"},
			action: "do not proceed on 0003: replaced by payments:0009 in the payments decision log, which this server cannot see",
		},
		{
			name: "cycle", start: "0001",
			specs: []string{"0001 superseded by=0002", "0002 superseded by=0003", "0003 superseded by=0001"},
			chain: "0001@0 0002@1 0003@2", reason: Cycle, at: "0003", refs: []string{"0001"},
			action: "do not proceed on 0001: its replacements loop back to 0001",
		},
		{
			name: "a record that replaces itself", start: "0001",
			specs: []string{"0001 accepted sup=0001"},
			chain: "0001@0", reason: Cycle, at: "0001", refs: []string{"0001"},
			action: "do not proceed on 0001: its replacements loop back to 0001",
		},
		{
			name: "a draft in the middle does not stop the line", start: "0001",
			specs: []string{"0001 superseded by=0002", "0002 draft", "0003 accepted sup=0002"},
			chain: "0001@0 0002@1 0003@2", at: "0003",
			action: "proceed on 0003 instead of 0001: 0003 replaced it and is accepted",
		},
		{
			name: "first problem wins: dangling before a rejected head", start: "0001",
			specs: []string{"0001 superseded by=0099", "0002 rejected sup=0001"},
			chain: "0001@0", reason: Dangling, at: "0001", refs: []string{"0099"},
			action: "do not proceed on 0001: replaced by 0099, which no record in this corpus holds",
		},
		{
			name: "first problem wins: not-observed before a disagreeing claim", start: "0001",
			specs: []string{"0001 superseded by=x:0002", "0003 accepted sup=0001"},
			chain: "0001@0", reason: NotObserved, at: "0001", refs: []string{"x:0002"},
			action: "do not proceed on 0001: replaced by x:0002 in the x decision log, which this server cannot see",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := walk(t, tc.start, tc.specs...)
			if got := nodes(c); got != tc.chain {
				t.Errorf("chain %s, want %s", got, tc.chain)
			}
			wantVerdict := Hold
			if tc.reason == "" {
				wantVerdict = Current
			}
			if c.Verdict != wantVerdict || c.Reason != tc.reason {
				t.Errorf("verdict %s/%s, want %s/%s", c.Verdict, c.Reason, wantVerdict, tc.reason)
			}
			if c.At.Frontmatter.ID != tc.at {
				t.Errorf("at %s, want %s", c.At.Frontmatter.ID, tc.at)
			}
			if tc.refs == nil {
				tc.refs = []string{}
			}
			if !slices.Equal(c.Refs, tc.refs) || c.Refs == nil {
				t.Errorf("refs %q, want %q", c.Refs, tc.refs)
			}
			if c.Action != tc.action {
				t.Errorf("action\n got %q\nwant %q", c.Action, tc.action)
			}
		})
	}
}

// line builds n records 0001..n, each replaced by the next, the last one
// accepted.
func line(n int) []string {
	var specs []string
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("%04d", i)
		switch {
		case i == n && i == 1:
			specs = append(specs, id+" accepted")
		case i == n:
			specs = append(specs, fmt.Sprintf("%s accepted sup=%04d", id, i-1))
		case i == 1:
			specs = append(specs, fmt.Sprintf("%s superseded by=%04d", id, i+1))
		default:
			specs = append(specs, fmt.Sprintf("%s superseded by=%04d sup=%04d", id, i+1, i-1))
		}
	}
	return specs
}

func TestHopBound(t *testing.T) {
	// Twelve hops are fine in either direction.
	c := walk(t, "0001", line(13)...)
	if c.Verdict != Current || len(c.Nodes) != 13 || c.At.Frontmatter.ID != "0013" {
		t.Errorf("13 records from the oldest: %s %s, %s", c.Verdict, c.Reason, nodes(c))
	}
	c = walk(t, "0013", line(13)...)
	if c.Verdict != Current || len(c.Nodes) != 13 || len(c.Gaps) != 0 {
		t.Errorf("13 records from the newest: %s, %s, gaps %s", c.Verdict, nodes(c), gaps(c))
	}

	// A 13-hop line (14 records) from its oldest record: truncated.
	c = walk(t, "0001", line(14)...)
	if c.Verdict != Hold || c.Reason != Truncated {
		t.Fatalf("verdict %s/%s, want hold/truncated", c.Verdict, c.Reason)
	}
	if c.At.Frontmatter.ID != "0013" || !slices.Equal(c.Refs, []string{"0014"}) || len(c.Nodes) != 13 {
		t.Errorf("at %s refs %q nodes %s", c.At.Frontmatter.ID, c.Refs, nodes(c))
	}
	if want := "do not proceed on 0001: its replacements go on for more than 12 steps; look up the chain of 0013 to see the rest"; c.Action != want {
		t.Errorf("action %q", c.Action)
	}

	// From its newest record: current, with the oldest record left out
	// behind a truncated gap.
	c = walk(t, "0014", line(14)...)
	if c.Verdict != Current {
		t.Errorf("verdict %s/%s, want current", c.Verdict, c.Reason)
	}
	if got, want := nodes(c), "0002@-12 0003@-11 0004@-10 0005@-9 0006@-8 0007@-7 0008@-6 0009@-5 0010@-4 0011@-3 0012@-2 0013@-1 0014@0"; got != want {
		t.Errorf("chain %s", got)
	}
	if got := gaps(c); got != "0002>0001:truncated" {
		t.Errorf("gaps %s", got)
	}

	// From the middle, both ways stay within the bound.
	c = walk(t, "0007", line(14)...)
	if c.Verdict != Current || len(c.Nodes) != 14 || c.Nodes[0].Hop != -6 || c.Nodes[13].Hop != 7 {
		t.Errorf("middle: %s, %s", c.Verdict, nodes(c))
	}
}

func TestBackward(t *testing.T) {
	cases := []struct {
		name   string
		start  string
		specs  []string
		chain  string
		gaps   string
		reason Reason
	}{
		{
			name: "both declarations, walked from the newest", start: "0003",
			specs: []string{"0001 superseded by=0002", "0002 superseded by=0003 sup=0001", "0003 accepted sup=0002"},
			chain: "0001@-2 0002@-1 0003@0",
		},
		{
			name: "only supersededBy, walked backwards", start: "0003",
			specs: []string{"0001 superseded by=0002", "0002 superseded by=0003", "0003 accepted"},
			chain: "0001@-2 0002@-1 0003@0",
		},
		{
			name: "a merge: one record replaces two lines", start: "0010",
			specs: []string{"0001 superseded by=0002", "0002 superseded by=0010", "0005 superseded by=0010", "0010 accepted sup=0002,0005"},
			chain: "0001@-2 0002@-1 0005@-1 0010@0",
		},
		{
			name: "a diamond keeps every record after what it replaced", start: "0004",
			// 0009 replaced 0002 and 0003; 0004 replaced 0009 and 0003.
			// 0003 is one hop from 0004 and two hops along the other
			// path; it must come before 0009 all the same.
			specs: []string{"0002 accepted", "0003 accepted", "0009 accepted sup=0003,0002", "0004 accepted sup=0009,0003"},
			chain: "0003@-1 0002@-2 0009@-1 0004@0",
		},
		{
			name: "gaps: dangling, federated and ambiguous predecessors", start: "0005",
			specs: []string{"0005 accepted sup=0099,pay:0001,0002", "0002 accepted path=a.md", "0002 accepted path=b.md"},
			chain: "0005@0", gaps: "0005>0002:ambiguous 0005>0099:dangling 0005>pay:0001:not-observed",
		},
		{
			name: "a loop among older records is a gap, not a hold", start: "0009",
			specs: []string{"0001 superseded by=0002 sup=0002", "0002 superseded by=0009 sup=0001", "0009 accepted"},
			chain: "0001@-2 0002@-1 0009@0", gaps: "0001>0002:cycle",
		},
		{
			name: "a rejected record's supersedes is not followed backwards", start: "0007",
			specs: []string{"0003 accepted", "0007 rejected sup=0003"},
			chain: "0007@0", reason: Rejected,
		},
		{
			name: "an inverse declaration naming a shared id", start: "a.md",
			specs: []string{"0003 accepted path=a.md", "0003 accepted path=b.md", "0001 superseded by=0003"},
			chain: "0003@0", gaps: "0003>0003:ambiguous",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := walk(t, tc.start, tc.specs...)
			if got := nodes(c); got != tc.chain {
				t.Errorf("chain %s, want %s", got, tc.chain)
			}
			if got := gaps(c); got != tc.gaps {
				t.Errorf("gaps %s, want %s", got, tc.gaps)
			}
			if c.Reason != tc.reason {
				t.Errorf("reason %s, want %s", c.Reason, tc.reason)
			}
		})
	}
}

// Walking the same corpus from every record is deterministic whatever
// order the records were given in.
func TestDeterministic(t *testing.T) {
	specs := []string{"0001 superseded by=0002", "0002 superseded by=0004 sup=0001", "0003 superseded by=0004",
		"0004 accepted sup=0002,0003,0099", "0005 proposed sup=0004"}
	want := map[string]string{}
	for _, s := range specs {
		id := strings.Fields(s)[0]
		c := walk(t, id, specs...)
		want[id] = nodes(c) + "|" + gaps(c) + "|" + c.Action
	}
	rev := slices.Clone(specs)
	slices.Reverse(rev)
	for id, w := range want {
		c := walk(t, id, rev...)
		if got := nodes(c) + "|" + gaps(c) + "|" + c.Action; got != w {
			t.Errorf("%s: %s, want %s", id, got, w)
		}
	}
	if got := want["0001"]; got != "0001@0 0002@1 0004@2||proceed on 0004 instead of 0001: 0004 replaced it and is accepted; 0005 would replace 0004 once accepted" {
		t.Errorf("0001: %s", got)
	}
}
