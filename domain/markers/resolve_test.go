package markers

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

func rec(id string, st adr.Status, supersededBy string) *adr.Record {
	return &adr.Record{
		SourcePath:  "docs/adr/" + id + "-x.md",
		Frontmatter: &adr.Frontmatter{ID: id, Title: "Decision " + id, Status: st, SupersededBy: supersededBy},
	}
}

func index(rs ...*adr.Record) ([]*adr.Record, map[string][]*adr.Record) {
	by := map[string][]*adr.Record{}
	for _, r := range rs {
		by[r.Frontmatter.ID] = append(by[r.Frontmatter.ID], r)
	}
	return rs, by
}

func decl(ref, path string, line int) Declaration {
	r := adr.ParseRef(ref)
	return Declaration{Path: path, Ref: ref, Log: r.Log, ID: r.ID, Line: line}
}

// matchesOf renders a resolution's matches as "id: path:line(ref) ...".
func matchesOf(res Resolution) []string {
	var out []string
	for _, m := range res.Matches {
		s := m.Record.Frontmatter.ID + " " + m.Record.SourcePath + ":"
		for _, d := range m.DeclaredBy {
			s += " " + d.Path + ":" + itoa(d.Line) + "(" + d.Ref + ")"
		}
		out = append(out, s)
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func rulesOf(res Resolution) []string {
	var out []string
	for _, f := range res.Findings {
		out = append(out, f.Rule+"/"+string(f.Severity)+"/"+f.Path+"/"+f.Field+"/"+f.Pattern+"/"+itoa(f.Line))
	}
	return out
}

func TestResolve(t *testing.T) {
	superseded := rec("0007", adr.StatusSuperseded, "0008")
	replacement := rec("0008", adr.StatusAccepted, "")
	records, byID := index(
		rec("0011", adr.StatusAccepted, ""),
		rec("0012", adr.StatusAccepted, ""),
		rec("0013", adr.StatusDraft, ""),
		superseded, replacement,
	)
	// Canonical order of the test corpus.
	slices.SortFunc(records, func(a, b *adr.Record) int { return strings.Compare(a.Frontmatter.ID, b.Frontmatter.ID) })

	cases := []struct {
		name     string
		decls    []Declaration
		matches  []string
		findings []string
	}{
		{"binds to the record it names",
			[]Declaration{decl("0012", "src/sync.ts", 3)},
			[]string{"0012 docs/adr/0012-x.md: src/sync.ts:3(0012)"}, nil},
		{"an unknown id is dangling, not a match",
			[]Declaration{decl("0099", "src/sync.ts", 4)},
			nil, []string{"dangling-marker/warn/src/sync.ts/marker/0099/4"}},
		{"a federated ref is unresolvable, even with a local id held here",
			[]Declaration{decl("payments:0012", "src/sync.ts", 2)},
			nil, []string{"marker-unresolvable/info/src/sync.ts/marker/payments:0012/2"}},
		{"every declaring file under one record, sorted, repeats once",
			[]Declaration{decl("0012", "src/z.ts", 2), decl("0011", "src/a.ts", 1), decl("0012", "src/a.ts", 9), decl("0012", "src/a.ts", 9)},
			[]string{"0011 docs/adr/0011-x.md: src/a.ts:1(0011)", "0012 docs/adr/0012-x.md: src/a.ts:9(0012) src/z.ts:2(0012)"}, nil},
		{"a draft binds (its bucket is the caller's business)",
			[]Declaration{decl("0013", "src/sync.ts", 1)},
			[]string{"0013 docs/adr/0013-x.md: src/sync.ts:1(0013)"}, nil},
		{"history binds and is stale",
			[]Declaration{decl("0007", "src/sync.ts", 1)},
			[]string{"0007 docs/adr/0007-x.md: src/sync.ts:1(0007)"}, []string{"stale-marker/warn/src/sync.ts/marker/0007/1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := Resolve(records, byID, tc.decls)
			if got := matchesOf(res); !slices.Equal(got, tc.matches) {
				t.Errorf("matches %q, want %q", got, tc.matches)
			}
			if got := rulesOf(res); !slices.Equal(got, tc.findings) {
				t.Errorf("findings %q, want %q", got, tc.findings)
			}
		})
	}
}

func TestResolveSharedID(t *testing.T) {
	a := rec("0005", adr.StatusAccepted, "")
	b := rec("0005", adr.StatusProposed, "")
	b.SourcePath = "docs/adr/0005-y.md"
	records, byID := index(a, b)
	res := Resolve(records, byID, []Declaration{decl("0005", "src/a.go", 1)})
	if len(res.Matches) != 2 || res.Matches[0].Record != a || res.Matches[1].Record != b {
		t.Errorf("a shared id binds to every holder: %q", matchesOf(res))
	}
}

func TestStaleMessages(t *testing.T) {
	cases := []struct {
		name    string
		records []*adr.Record
		ref     string
		want    string // in the message
	}{
		{"superseded by an accepted record",
			[]*adr.Record{rec("0001", adr.StatusSuperseded, "0002"), rec("0002", adr.StatusAccepted, "")}, "0001", "point it at 0002, or re-affirm 0001"},
		{"the successor is followed to the live end",
			[]*adr.Record{rec("0001", adr.StatusSuperseded, "0002"), rec("0002", adr.StatusSuperseded, "0003"), rec("0003", adr.StatusProposed, "")}, "0001", "point it at 0003"},
		{"a rejected successor leaves no live end",
			[]*adr.Record{rec("0001", adr.StatusSuperseded, "0002"), rec("0002", adr.StatusRejected, "")}, "0001", "which is superseded; update the marker"},
		{"a loop leaves no live end",
			[]*adr.Record{rec("0001", adr.StatusSuperseded, "0002"), rec("0002", adr.StatusSuperseded, "0001")}, "0001", "update the marker"},
		{"a dangling successor leaves no live end",
			[]*adr.Record{rec("0001", adr.StatusSuperseded, "0009")}, "0001", "update the marker"},
		{"a federated successor leaves no live end",
			[]*adr.Record{rec("0001", adr.StatusSuperseded, "ops:0002")}, "0001", "update the marker"},
		{"rejected", []*adr.Record{rec("0001", adr.StatusRejected, "")}, "0001", "which is rejected; update the marker, or re-affirm 0001"},
		{"deprecated", []*adr.Record{rec("0001", adr.StatusDeprecated, "")}, "0001", "which is deprecated"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			records, byID := index(tc.records...)
			res := Resolve(records, byID, []Declaration{decl(tc.ref, "src/a.go", 7)})
			if len(res.Findings) != 1 || res.Findings[0].Rule != RuleStale || !strings.Contains(res.Findings[0].Message, tc.want) {
				t.Fatalf("%+v, want a stale finding saying %q", res.Findings, tc.want)
			}
			if !strings.Contains(res.Findings[0].Message, "src/a.go:7") {
				t.Errorf("the message does not say where: %s", res.Findings[0].Message)
			}
		})
	}
}

func TestSelectAndCap(t *testing.T) {
	read, skipped := Select([]string{"./src/b.ts", "./src/a.ts", "src/a.ts", "././src/b.ts", "src/ä.ts", "src/z.ts"})
	if want := []string{"src/a.ts", "src/b.ts", "src/z.ts", "src/ä.ts"}; !slices.Equal(read, want) || skipped != nil {
		t.Errorf("read %q skipped %q", read, skipped)
	}
	many := make([]string, BatchFileCap+2)
	for i := range many {
		many[i] = "f/" + strings.Repeat("a", i%7) + itoa(i) + "-" + string(rune('a'+i%26)) + strings.Repeat("z", i/100)
	}
	read, skipped = Select(many)
	if len(read)+len(skipped) != len(slices.Compact(slices.Sorted(slices.Values(many)))) || len(read) > BatchFileCap {
		t.Errorf("%d read, %d skipped", len(read), len(skipped))
	}

	scans := make([]FileScan, 200)
	for i := range scans {
		scans[i].Declarations = make([]Declaration, FileCap)
	}
	if dropped := CapBatch(scans); dropped != 200*FileCap-BatchCap {
		t.Errorf("dropped %d", dropped)
	}
	if n := len(Declarations(scans)); n != BatchCap {
		t.Errorf("kept %d", n)
	}
	if len(scans[156].Declarations) != BatchCap-156*FileCap || len(scans[157].Declarations) != 0 {
		t.Errorf("the cap is not in path order: %d, %d", len(scans[156].Declarations), len(scans[157].Declarations))
	}
}
