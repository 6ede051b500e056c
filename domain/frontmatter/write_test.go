package frontmatter

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

// TestMarshalExample pins what a typical imported record looks like.
func TestMarshalExample(t *testing.T) {
	fm := &adr.Frontmatter{
		ID: "0007", Title: "Use PostgreSQL: the one database", Status: adr.StatusSuperseded, Date: "2016-12-17",
		Deciders: []string{"@alice", "team:platform"}, SupersededBy: "0008", RelatesTo: []string{"0003"},
		Provenance: &adr.Provenance{ImportedFrom: &adr.ImportedFrom{
			SourceKind: "other", SourceRef: "nygard:doc/adr/0007-x.md", Fingerprint: "ab12",
		}},
	}
	got, err := Marshal(fm, "\n", "")
	if err != nil {
		t.Fatal(err)
	}
	want := "---\n" +
		"id: \"0007\"\n" +
		"title: 'Use PostgreSQL: the one database'\n" +
		"status: superseded\n" +
		"date: \"2016-12-17\"\n" +
		"deciders:\n- '@alice'\n- team:platform\n" +
		"supersededBy: \"0008\"\n" +
		"relatesTo:\n- \"0003\"\n" +
		"provenance:\n  importedFrom:\n    fingerprint: ab12\n    sourceKind: other\n    sourceRef: nygard:doc/adr/0007-x.md\n" +
		"---\n"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestMarshalRefuses covers what the writer will not write: invalid
// records, fields it does not write, strings that would not read back.
func TestMarshalRefuses(t *testing.T) {
	base := func() *adr.Frontmatter {
		return &adr.Frontmatter{ID: "0001", Title: "A title", Status: adr.StatusDraft, Date: "2026-01-01"}
	}
	for name, mutate := range map[string]func(*adr.Frontmatter){
		"bad id":             func(f *adr.Frontmatter) { f.ID = "12" },
		"short title":        func(f *adr.Frontmatter) { f.Title = "ab" },
		"bad date":           func(f *adr.Frontmatter) { f.Date = "2026-02-30" },
		"bad decider":        func(f *adr.Frontmatter) { f.Deciders = []string{"Jane Doe"} },
		"accepted no decide": func(f *adr.Frontmatter) { f.Status = adr.StatusAccepted },
		"superseded alone":   func(f *adr.Frontmatter) { f.Status = adr.StatusSuperseded },
		"affects":            func(f *adr.Frontmatter) { f.Affects = []adr.Matcher{{Type: adr.MatcherPath, Pattern: "x"}} },
		"line separator":     func(f *adr.Frontmatter) { f.Title = "one\u2028two" },
		"next line":          func(f *adr.Frontmatter) { f.Title = "one\u0085two" },
	} {
		fm := base()
		mutate(fm)
		if out, err := Marshal(fm, "\n", ""); !errors.Is(err, ErrUnwritable) {
			t.Errorf("%s: got %q, %v; want ErrUnwritable", name, out, err)
		}
	}
	if _, err := Marshal(base(), "\r", ""); err == nil {
		t.Error("a lone CR newline was accepted")
	}
	if _, err := Marshal(base(), "\n", "a\rb"); err == nil {
		t.Error("a comment with a CR was accepted")
	}
}

// TestMarshalRoundTrip is the writer's property: every block Marshal
// returns reads back through ParseRecord (the corpus reader's YAML 1.2
// path and schema) to exactly the record it was given, defaults filled in,
// and the body after it stays byte for byte. The records are random
// combinations of the fields adrkit writes, with strings drawn from the
// texts YAML treats specially.
func TestMarshalRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2026))
	for i := 0; i < 3000; i++ {
		fm := randomFrontmatter(rng)
		newline := "\n"
		if rng.IntN(4) == 0 {
			newline = "\r\n"
		}
		comment := ""
		if rng.IntN(3) == 0 {
			comment = "parent: Decisions\nnav_order: " + pick(rng, trickyStrings) + "\n---"
		}
		checkRoundTrip(t, fm, newline, comment)
	}
}

// FuzzMarshalRoundTrip is TestMarshalRoundTrip over fuzzed strings: a
// title, a decider-like string and a source ref. Marshal may refuse
// (ErrUnwritable), but what it returns must read back unchanged.
func FuzzMarshalRoundTrip(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s, "@alice", "madr:docs/decisions/0001-x.md")
	}
	f.Fuzz(func(t *testing.T, title, person, ref string) {
		fm := &adr.Frontmatter{
			ID: "0001", Title: title, Status: adr.StatusProposed, Date: "2024-02-29",
			Consulted: []string{person},
			Provenance: &adr.Provenance{ImportedFrom: &adr.ImportedFrom{
				SourceKind: "madr", SourceRef: ref, Fingerprint: person,
			}},
		}
		block, err := Marshal(fm, "\n", title)
		if err != nil {
			if !errors.Is(err, ErrUnwritable) {
				t.Fatalf("error not wrapping ErrUnwritable: %v", err)
			}
			return
		}
		readBack(t, block, fm, "\n# Body\n")
	})
}

func checkRoundTrip(t *testing.T, fm *adr.Frontmatter, newline, comment string) {
	t.Helper()
	block, err := Marshal(fm, newline, comment)
	if err != nil {
		t.Fatalf("Marshal(%+v): %v", fm, err)
	}
	readBack(t, block, fm, newline+"# Body"+newline+"---"+newline+"status: not frontmatter"+newline)
}

func readBack(t *testing.T, block []byte, fm *adr.Frontmatter, body string) {
	t.Helper()
	rec, findings := ParseRecord("docs/adr/0001-x.md", string(block)+body)
	if rec == nil {
		t.Fatalf("block refused: %+v\n%s", findings, block)
	}
	if !SameFrontmatter(Defaulted(fm), rec.Frontmatter) {
		t.Fatalf("read back differently:\nwrote %+v\nread  %+v\n%s", Defaulted(fm), rec.Frontmatter, block)
	}
	if rec.Body != body {
		t.Fatalf("body changed: %q, want %q", rec.Body, body)
	}
}

// trickyStrings are texts a YAML emitter must quote, or escape, for a
// YAML 1.2 reader to read them back as the same strings.
var trickyStrings = []string{
	"Use Postgres", "0o17", "0x1F", "017", "+12", "1.", ".5", "1e5", ".inf", "-.Inf", ".NaN", "null", "Null", "~",
	"true", "False", "yes", "no", "on", "off", "y", "n", "2026-01-01", "2026-01-01T00:00:00Z", "1_000", "12:30",
	"@handle", "team:x", "a: b", "a #b", "#c", "- item", "? key", "[x]", "{x}", "*alias", "&anchor", "!tag", "|", ">",
	"'single'", "\"double\"", "back\\slash", "tab\there", " leading", "trailing ", "é😀", "\u00a0nbsp", "%YAML",
	"---", "...", "a\u00a0b", "<<", "=", "`tick`", "x\ty", "long " + strings.Repeat("word ", 40),
}

func pick(rng *rand.Rand, from []string) string { return from[rng.IntN(len(from))] }

// randomFrontmatter builds a valid record from the fields Marshal writes.
func randomFrontmatter(rng *rand.Rand) *adr.Frontmatter {
	ids := []string{"0001", "0042", "12345", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "2020092501"}
	people := []string{"@alice", "@Bob-2", "team:platform", "a.b@example.com", "x_y@z.io"}
	refs := []string{"0002", "0003", "payments:0020", "01ARZ3NDEKTSV4RRFFQ69G5FAW"}
	subset := func(from []string) []string {
		var out []string
		for _, s := range from {
			if rng.IntN(3) == 0 {
				out = append(out, s)
			}
		}
		return out
	}
	title := pick(rng, trickyStrings)
	for len([]rune(title)) < 3 {
		title += pick(rng, trickyStrings)
	}
	if len(title) > 120 {
		title = title[:100]
	}
	fm := &adr.Frontmatter{
		ID: pick(rng, ids), Title: title, Date: pick(rng, []string{"2026-01-01", "2024-02-29", "0000-01-01"}),
		Deciders: subset(people), Consulted: subset(people), Informed: subset(people),
		Tags: subset([]string{"db", "null", "true", "0012", "a-b"}), RelatesTo: subset(refs),
	}
	statuses := []adr.Status{adr.StatusDraft, adr.StatusProposed, adr.StatusAccepted, adr.StatusRejected, adr.StatusSuperseded, adr.StatusDeprecated}
	fm.Status = statuses[rng.IntN(len(statuses))]
	if fm.Status == adr.StatusSuperseded {
		fm.SupersededBy = pick(rng, refs)
	}
	if rng.IntN(2) == 0 {
		fm.Supersedes = subset(refs)
	}
	if rng.IntN(2) == 0 {
		fm.Provenance = &adr.Provenance{ImportedFrom: &adr.ImportedFrom{
			SourceKind: pick(rng, []string{"madr", "other"}), SourceRef: "log4brains:" + pick(rng, trickyStrings),
			Fingerprint: pick(rng, trickyStrings),
		}}
	}
	if fm.Status == adr.StatusAccepted && len(fm.Deciders) == 0 && fm.Provenance == nil {
		fm.Deciders = []string{"@alice"}
	}
	if rng.IntN(5) == 0 {
		fm.Scope = adr.ScopeOrg
		fm.Reversibility = "two-way-door"
		fm.BlastRadius = "team"
		fm.SchemaVersion = "0.1.0"
	}
	return fm
}
