package app

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/lineage"
)

func governed(id, title string, st adr.Status, pattern, decision string) governEntry {
	return governEntry{
		ContextEntry: ContextEntry{
			ID: Text(id), Title: Text(title), Status: st,
			FiredMatchers: []FiredMatcher{{Type: adr.MatcherPath, Pattern: Text(pattern)}},
		},
		Decision: decision,
	}
}

func TestBlocksAndContext(t *testing.T) {
	by := "0001"
	sup := governed("0003", "Keep sessions in memory", adr.StatusSuperseded, "svc/**", "")
	sup.Relations.SupersededBy = &by
	proposal := governed("0004", "Encrypt", adr.StatusProposed, "svc/store.go", "")
	proposal.Relations.Supersedes = []string{"0001"}
	file := governedFile{
		Path:            "svc/store.go",
		Governing:       []governEntry{governed("0001", "Store sessions in PostgreSQL", adr.StatusAccepted, "svc/**", "We use PostgreSQL.")},
		History:         []governEntry{governed("0002", "Store sessions in Redis", adr.StatusRejected, "svc/**", ""), sup},
		ActiveProposals: []governEntry{proposal},
	}
	twin := file
	twin.Path = "svc/other.go"
	g := &governance{
		Files: []governedFile{file, {Path: "README.md"}, twin},
		Holds: []CheckHold{{Decision: Summary{ID: "0001"}, Reason: lineage.Ungoverned, Action: "wait", Files: []string{"svc/store.go"}}},
	}
	blocks := blocksOf(g)
	if len(blocks) != 2 || blocks[0].Path != "svc/store.go" || blocks[1].Path != "svc/other.go" {
		t.Fatalf("blocks = %+v", blocks)
	}
	if blocks[0].key() == blocks[1].key() {
		t.Fatal("two files share a key")
	}
	got := contextText("docs/adr", blocks, 2, 0, false)
	want := `Architecture decisions (adrkit, docs/adr) cover the files about to be written. Follow the accepted ones. Rejected and superseded decisions were decided against or replaced: do not propose them again.
The corpus has 2 errors (adrkit lint): this is read from its valid records only.
svc/store.go:
- governs: 0001 "Store sessions in PostgreSQL" (accepted; path svc/**): We use PostgreSQL.
- rejected: 0002 "Store sessions in Redis" (path svc/**)
- superseded: 0003 "Keep sessions in memory" (by 0001; path svc/**)
- not decided yet (proposed): 0004 "Encrypt" (path svc/store.go); would replace 0001 once accepted
- on hold: 0001's line of supersession is not settled (ungoverned): wait
svc/other.go:
- governs: 0001 "Store sessions in PostgreSQL" (accepted; path svc/**): We use PostgreSQL.
- rejected: 0002 "Store sessions in Redis" (path svc/**)
- superseded: 0003 "Keep sessions in memory" (by 0001; path svc/**)
- not decided yet (proposed): 0004 "Encrypt" (path svc/store.go); would replace 0001 once accepted`
	if got != want {
		t.Fatalf("contextText:\n%s\nwant:\n%s", got, want)
	}
	// A host whose edit event comes after the tool (Cursor, Gemini CLI)
	// is told the files were written.
	after := strings.Replace(want, "about to be written", "just written", 1)
	if got := contextText("docs/adr", blocks, 2, 0, true); got != after {
		t.Fatalf("contextText after the write:\n%s\nwant:\n%s", got, after)
	}
	if contextText("docs/adr", nil, 3, 0, false) != "" {
		t.Fatal("no blocks, yet some text")
	}
	// Files left out of an event are said, with or without blocks, and
	// the cap holds.
	skipped := "The edit names 4000 files: adrkit looked at the first 100 only and left 3900 out (adrkit explain FILE answers for any of them)."
	if got := contextText("docs/adr", nil, 3, 3900, false); got != skipped {
		t.Fatalf("no blocks, files left out:\n%s", got)
	}
	if got := contextText("docs/adr", blocks, 2, 3900, false); !strings.Contains(got, "\n"+skipped+"\nsvc/store.go:\n") {
		t.Fatalf("blocks, files left out:\n%s", got)
	}
}

// Files with the same lines are named together, once.
func TestContextMergesTwins(t *testing.T) {
	b := []block{{Path: "a.go", Lines: []string{"governs: x"}}, {Path: "b.go", Lines: []string{"governs: x"}}}
	got := contextText(".", b, 0, 0, false)
	if !strings.Contains(got, "a.go, b.go:\n- governs: x") || strings.Count(got, "governs: x") != 1 {
		t.Fatalf("twins not merged:\n%s", got)
	}
	if !strings.Contains(got, "(adrkit, the repository root)") {
		t.Fatalf("root directory not named:\n%s", got)
	}
	// A patch of many such files: the first few are named, the rest
	// counted, and the lines are shown.
	b = nil
	for i := range 100 {
		b = append(b, block{Path: fmt.Sprintf("services/payments/api/gen_%04d.go", i), Lines: []string{"governs: x"}})
	}
	got = contextText(".", b, 0, 0, false)
	if !strings.Contains(got, "services/payments/api/gen_0007.go, and 92 more files:\n- governs: x") {
		t.Fatalf("many twins:\n%s", got)
	}
}

// Past the budget, the lines left out are counted and the way to see
// them named; the text never exceeds contextMax.
func TestContextCap(t *testing.T) {
	var f governedFile
	f.Path = "svc/a.go"
	for i := range 80 {
		f.Governing = append(f.Governing, governed(fmt.Sprintf("%04d", i), "Decision number "+fmt.Sprint(i), adr.StatusAccepted, "svc/**",
			"A sentence that states it, long enough to matter."))
	}
	got := contextText("docs/adr", blocksOf(&governance{Files: []governedFile{f}}), 0, 0, false)
	if n := utf8.RuneCountInString(got); n > contextMax {
		t.Fatalf("context of %d characters, cap %d", n, contextMax)
	}
	shown := strings.Count(got, "\n- governs: ")
	wantTail := fmt.Sprintf("and %d more: adrkit explain svc/a.go", 80-shown)
	if !strings.HasSuffix(got, wantTail) || shown == 0 || shown == 80 {
		t.Fatalf("%d shown; tail wrong:\n%s", shown, got[len(got)-200:])
	}
}

func TestDigestText(t *testing.T) {
	d := &digest{
		Records: 4, Errors: 1,
		Counts:   []statusCount{{Status: adr.StatusAccepted, Count: 2}, {Status: adr.StatusRejected, Count: 2}},
		Rejected: []indexRecord{{ID: "0002", Title: "Redis"}, {ID: "0005", Title: "Mainframe"}},
	}
	got := digestText("docs/adr", d)
	for _, want := range []string{
		"in docs/adr (adrkit): 4 valid records (2 accepted, 2 rejected).",
		"The corpus has 1 error",
		`Rejected, do not propose again: 0002 "Redis"; 0005 "Mainframe".`,
		"get_decision_context",
		"adrkit explain FILE",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("digest lacks %q:\n%s", want, got)
		}
	}
	if digestText("docs/adr", &digest{}) != "" {
		t.Error("an empty corpus has a digest")
	}

	// Many rejected decisions: the list is cut, the budget kept.
	d.Rejected = nil
	for i := range 200 {
		d.Rejected = append(d.Rejected, indexRecord{ID: fmt.Sprintf("%04d", i), Title: "A rejected idea with a title"})
	}
	got = digestText("docs/adr", d)
	if n := utf8.RuneCountInString(got); n > digestMax {
		t.Fatalf("digest of %d characters, cap %d", n, digestMax)
	}
	if !strings.Contains(got, " more (adrkit search --status rejected).") {
		t.Fatalf("no count of the rejected left out:\n%s", got)
	}
}

// A patch of many files still keeps the budget: the last line names
// only the first of them.
func TestContextCapManyFiles(t *testing.T) {
	var g governance
	for i := range 120 {
		g.Files = append(g.Files, governedFile{
			Path:      fmt.Sprintf("services/component-%03d/internal/handler.go", i),
			Governing: []governEntry{governed(fmt.Sprintf("%04d", i), "Decision", adr.StatusAccepted, fmt.Sprintf("services/component-%03d/**", i), "")},
		})
	}
	got := contextText("docs/adr", blocksOf(&g), 0, 0, false)
	if n := utf8.RuneCountInString(got); n > contextMax {
		t.Fatalf("context of %d characters, cap %d", n, contextMax)
	}
	last := got[strings.LastIndexByte(got, '\n')+1:]
	if !strings.HasPrefix(last, "and ") || !strings.HasSuffix(last, "…") || utf8.RuneCountInString(last) > tailPathsMax+60 {
		t.Fatalf("last line %q", last)
	}
}
