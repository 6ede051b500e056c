package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"
)

func TestIsCandidateName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"0001-adopt-x.md", true},
		{"12345-long.md", true},
		{"0030-.hidden.md", true},
		{"0000-use-markdown-architectural-decision-records.md", true},
		{"0000-Template.md", true},
		{"0000-template.md.md", true},
		{"0001-.md.md", true},
		{"1234-5678-x.md", true},
		{"0001-a b\tc.md", true},
		{"0001-\u0085.md", true},
		{"0001-é😀.md", true},
		{"0000-template.md", false},
		{"001-short.md", false},
		{"0024-.md", false},
		{"0026_x.md", false},
		{"0022-x.MD", false},
		{"0027-x.markdown", false},
		{"0027-x.md ", false},
		{"0027-x.md.txt", false},
		{".0029-hidden.md", false},
		{"README.md", false},
		{"notes.md", false},
		{"sub/0028-nested.md", false},
		{"０００１-fullwidth-digits.md", false},
		{"0001-line\nbreak.md", false},
		{"0001-carriage\rreturn.md", false},
		{"0001-line\u2028sep.md", false},
		{"0001-para\u2029sep.md", false},
		{"0001-after-bad-byte\xff\u2028.md", false},
		{"0001-truncated-separator\xe2\x80.md", true},
		{"0001-u2027\u2027.md", true},
		{"0001", false},
		{"0001-", false},
		{"0001.md", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := IsCandidateName(tc.name); got != tc.want {
			t.Errorf("IsCandidateName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// recOpt adjusts a hand-built record.
type recOpt func(*adr.Frontmatter)

func status(s adr.Status) recOpt { return func(f *adr.Frontmatter) { f.Status = s } }
func supersedes(refs ...string) recOpt {
	return func(f *adr.Frontmatter) { f.Supersedes = refs }
}
func supersededBy(ref string) recOpt {
	return func(f *adr.Frontmatter) { f.SupersededBy = ref; f.Status = adr.StatusSuperseded }
}
func relatesTo(refs ...string) recOpt {
	return func(f *adr.Frontmatter) { f.RelatesTo = refs }
}
func conflictsWith(refs ...string) recOpt {
	return func(f *adr.Frontmatter) { f.ConflictsWith = refs }
}
func deciders(ds ...string) recOpt { return func(f *adr.Frontmatter) { f.Deciders = ds } }
func imported() recOpt {
	return func(f *adr.Frontmatter) {
		f.Provenance = &adr.Provenance{AuthoredBy: "human", ImportedFrom: &adr.ImportedFrom{SourceKind: "madr", SourceRef: "x", Fingerprint: "y"}}
	}
}

// rec builds a valid-looking record; the raw frontmatter mirrors the
// typed fields the invariants read so that fingerprints see them too.
func rec(path, id string, opts ...recOpt) *adr.Record {
	fm := &adr.Frontmatter{ID: id, Title: "Decision " + id, Status: adr.StatusProposed, Date: "2026-01-01", Deciders: []string{"@owner"}}
	for _, o := range opts {
		o(fm)
	}
	raw := jsvalue.NewObject(8)
	raw.Set("id", id)
	raw.Set("title", fm.Title)
	raw.Set("status", string(fm.Status))
	raw.Set("deciders", fm.Deciders)
	raw.Set("supersedes", fm.Supersedes)
	if fm.SupersededBy != "" {
		raw.Set("supersededBy", fm.SupersededBy)
	}
	raw.Set("relatesTo", fm.RelatesTo)
	raw.Set("conflictsWith", fm.ConflictsWith)
	setValue(fm, raw)
	return &adr.Record{SourcePath: path, Frontmatter: fm, Body: "\n# " + fm.Title + "\n"}
}

// setValue gives fm the validated value raw, as the pipeline keeps it
// for the fingerprint.
func setValue(fm *adr.Frontmatter, raw *jsvalue.Object) {
	fm.Canonical = string(jsvalue.AppendCanonical(nil, raw))
}

// valueOf is fm's validated value read back from its canonical text
// (JSON is YAML 1.2), members in key order.
func valueOf(t *testing.T, fm *adr.Frontmatter) *jsvalue.Object {
	t.Helper()
	v, err := yaml12.ParseValue(fm.Canonical)
	if err != nil {
		t.Fatal(err)
	}
	return v.(*jsvalue.Object)
}

// fakeCorpus stands in for the frontmatter pipeline: each path maps to a
// prepared record or to prepared findings, and the order of the calls is
// recorded.
type fakeCorpus struct {
	records  map[string]*adr.Record
	findings map[string][]adr.Finding
	calls    []string
}

func (fc *fakeCorpus) parse(path string, _ []byte) (*adr.Record, []adr.Finding) {
	fc.calls = append(fc.calls, path)
	return fc.records[path], fc.findings[path]
}

// build projects kept records plus invalid files (schema findings) and
// pre-read exclusions, handing the candidates over in the given order.
func build(recs []*adr.Record, invalid map[string][]adr.Finding, excluded []Candidate) (*Projection, *fakeCorpus) {
	fc := &fakeCorpus{records: map[string]*adr.Record{}, findings: invalid}
	var cands []Candidate
	for _, r := range recs {
		fc.records[r.SourcePath] = r
		cands = append(cands, Candidate{Path: r.SourcePath, Content: []byte(r.Body)})
	}
	for p := range invalid {
		cands = append(cands, Candidate{Path: p, Content: []byte("x")})
	}
	cands = append(cands, excluded...)
	return Build(cands, fc.parse), fc
}

// shape is a finding without its message, for comparing what the
// contract fixes.
type shape struct {
	Rule, Severity, Path, ID, Field string
}

func shapes(fs []adr.Finding) []shape {
	out := make([]shape, len(fs))
	for i, f := range fs {
		out[i] = shape{f.Rule, string(f.Severity), f.Path, f.ID, f.Field}
	}
	return out
}

func paths(rs []*adr.Record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.SourcePath
	}
	return out
}

func TestBuildInvariants(t *testing.T) {
	const d = "docs/adr/"
	tests := []struct {
		name string
		recs []*adr.Record
		bad  map[string][]adr.Finding
		want []shape
	}{
		{
			name: "no findings",
			recs: []*adr.Record{rec(d+"0001-a.md", "0001"), rec(d+"0002-b.md", "0002", relatesTo("0001"))},
		},
		{
			name: "unique-id, one per holder",
			recs: []*adr.Record{rec(d+"0010-b.md", "0010"), rec(d+"0010-a.md", "0010"), rec(d+"0011-c.md", "0011")},
			want: []shape{
				{"unique-id", "error", d + "0010-a.md", "0010", "id"},
				{"unique-id", "error", d + "0010-b.md", "0010", "id"},
			},
		},
		{
			name: "dangling-supersedes",
			recs: []*adr.Record{rec(d+"0002-b.md", "0002", supersedes("0001", "0099"))},
			bad:  map[string][]adr.Finding{d + "0001-bad.md": {{Rule: "invalid-size", Severity: adr.SeverityError, Message: "title is too short", Path: d + "0001-bad.md", ID: "0001", Field: "title"}}},
			want: []shape{
				{"dangling-supersedes", "error", d + "0002-b.md", "0002", "supersedes"},
				{"dangling-supersedes", "error", d + "0002-b.md", "0002", "supersedes"},
				{"invalid-size", "error", d + "0001-bad.md", "0001", "title"},
			},
		},
		{
			name: "dangling-supersededBy, log-qualified never resolves",
			recs: []*adr.Record{
				rec(d+"0012-x.md", "0012", supersededBy("0099")),
				rec(d+"0013-y.md", "0013", supersededBy("payments:0020")),
				rec(d+"0020-z.md", "0020"),
				rec(d+"0014-w.md", "0014", supersededBy("0020")),
			},
			want: []shape{
				{"dangling-supersededBy", "error", d + "0012-x.md", "0012", "supersededBy"},
				{"dangling-supersededBy", "error", d + "0013-y.md", "0013", "supersededBy"},
			},
		},
		{
			name: "dangling-relatesTo, self-reference resolves",
			recs: []*adr.Record{rec(d+"0003-c.md", "0003", relatesTo("0003", "0004", ":0003"))},
			want: []shape{
				{"dangling-relatesTo", "error", d + "0003-c.md", "0003", "relatesTo"},
				{"dangling-relatesTo", "error", d + "0003-c.md", "0003", "relatesTo"},
			},
		},
		{
			name: "dangling-conflictsWith is a warning and repeats",
			recs: []*adr.Record{rec(d+"0005-e.md", "0005", status(adr.StatusAccepted), conflictsWith("0077", "0077"))},
			want: []shape{
				{"dangling-conflictsWith", "warn", d + "0005-e.md", "0005", "conflictsWith"},
				{"dangling-conflictsWith", "warn", d + "0005-e.md", "0005", "conflictsWith"},
			},
		},
		{
			name: "accepted-conflictsWith only when resolved and accepted",
			recs: []*adr.Record{
				rec(d+"0006-f.md", "0006", status(adr.StatusAccepted), conflictsWith("0007", "0007", "0006")),
				rec(d+"0007-g.md", "0007", conflictsWith("0006")),
			},
			want: []shape{
				{"accepted-conflictsWith", "warn", d + "0006-f.md", "0006", "conflictsWith"},
				{"accepted-conflictsWith", "warn", d + "0006-f.md", "0006", "conflictsWith"},
				{"accepted-conflictsWith", "warn", d + "0006-f.md", "0006", "conflictsWith"},
			},
		},
		{
			name: "import-incomplete",
			recs: []*adr.Record{
				rec(d+"0008-h.md", "0008", status(adr.StatusAccepted), deciders(), imported()),
				rec(d+"0009-i.md", "0009", status(adr.StatusAccepted), imported()),
				rec(d+"0010-j.md", "0010", status(adr.StatusProposed), deciders(), imported()),
				rec(d+"0011-k.md", "0011", status(adr.StatusAccepted), deciders()),
			},
			want: []shape{
				{"import-incomplete", "info", d + "0008-h.md", "0008", "deciders"},
			},
		},
		{
			name: "duplicate holders both resolve refs",
			recs: []*adr.Record{
				rec(d+"0010-a.md", "0010"), rec(d+"0010-b.md", "0010"),
				rec(d+"0011-c.md", "0011", supersedes("0010")),
			},
			want: []shape{
				{"unique-id", "error", d + "0010-a.md", "0010", "id"},
				{"unique-id", "error", d + "0010-b.md", "0010", "id"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := build(tc.recs, tc.bad, nil)
			if got := shapes(p.Findings); !slices.Equal(got, tc.want) {
				t.Errorf("findings =\n%v\nwant\n%v", got, tc.want)
			}
			for _, f := range p.Findings {
				if f.Message == "" || strings.Contains(f.Message, "/abs") {
					t.Errorf("bad message %q", f.Message)
				}
			}
			if p.RecordCount != len(tc.recs) || p.ExcludedCount != len(tc.bad) {
				t.Errorf("counts = %d/%d", p.RecordCount, p.ExcludedCount)
			}
		})
	}
}

func TestUniqueIDMessages(t *testing.T) {
	const d = "docs/adr/"
	tests := []struct {
		holders int
		want    string // message of the first holder
	}{
		{2, `id "0010" is also used by docs/adr/0010-b.md; each record needs an id of its own`},
		{3, `id "0010" is also used by docs/adr/0010-b.md and docs/adr/0010-c.md; each record needs an id of its own`},
		{4, `id "0010" is also used by docs/adr/0010-b.md, docs/adr/0010-c.md and docs/adr/0010-d.md; each record needs an id of its own`},
		{5, `id "0010" is also used by docs/adr/0010-b.md, docs/adr/0010-c.md, docs/adr/0010-d.md and 1 more record; each record needs an id of its own`},
		{7, `id "0010" is also used by docs/adr/0010-b.md, docs/adr/0010-c.md, docs/adr/0010-d.md and 3 more records; each record needs an id of its own`},
	}
	for _, tc := range tests {
		var recs []*adr.Record
		for i := range tc.holders {
			recs = append(recs, rec(d+"0010-"+string(rune('a'+i))+".md", "0010"))
		}
		p, _ := build(recs, nil, nil)
		if len(p.Findings) != tc.holders {
			t.Fatalf("%d holders: %d findings", tc.holders, len(p.Findings))
		}
		if got := p.Findings[0].Message; got != tc.want {
			t.Errorf("%d holders: message\n%s\nwant\n%s", tc.holders, got, tc.want)
		}
		// The last holder names the others, never itself.
		last := p.Findings[tc.holders-1]
		if strings.Contains(last.Message, last.Path) || !strings.Contains(last.Message, d+"0010-a.md") {
			t.Errorf("last holder message %q", last.Message)
		}
	}
}

func TestBuildExclusions(t *testing.T) {
	const d = "docs/adr/"
	excluded := []Candidate{
		{Path: d + "0003-huge.md", Exclusion: ExcludedTooLarge},
		{Path: d + "0002-gone.md", Exclusion: ExcludedStatError},
		{Path: d + "0004-locked.md", Exclusion: ExcludedReadError, Cause: "permission denied"},
		{Path: d + "0005-raced.md", Exclusion: ExcludedStatError, Cause: "it is now a symbolic link"},
		{Path: d + "0006-unreadable.md", Exclusion: ExcludedReadError},
	}
	p, fc := build([]*adr.Record{rec(d+"0001-a.md", "0001")}, nil, excluded)
	want := []shape{
		{"file-read", "error", d + "0004-locked.md", "", ""},
		{"file-read", "error", d + "0006-unreadable.md", "", ""},
		{"record-stat-error", "error", d + "0002-gone.md", "", ""},
		{"record-stat-error", "error", d + "0005-raced.md", "", ""},
		{"record-too-large", "error", d + "0003-huge.md", "", ""},
	}
	if got := shapes(p.Findings); !slices.Equal(got, want) {
		t.Errorf("findings =\n%v\nwant\n%v", got, want)
	}
	if !slices.Equal(fc.calls, []string{d + "0001-a.md"}) {
		t.Errorf("parsed %v; excluded files must not be parsed", fc.calls)
	}
	if p.RecordCount != 1 || p.ExcludedCount != 5 {
		t.Errorf("counts = %d/%d, want 1/5", p.RecordCount, p.ExcludedCount)
	}
	for _, f := range p.Findings {
		if f.Path == d+"0004-locked.md" && !strings.Contains(f.Message, "permission denied") {
			t.Errorf("cause missing from %q", f.Message)
		}
		if f.Path == d+"0003-huge.md" && !strings.Contains(f.Message, "65536") {
			t.Errorf("limit missing from %q", f.Message)
		}
	}
}

func TestBuildOrdering(t *testing.T) {
	const d = "docs/adr/"
	const ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
	recs := []*adr.Record{
		rec(d+"9999-last-by-string.md", "9999"),
		rec(d+"0001-alpha.md", "0001"),
		rec(d+"12345-five.md", "12345"),
		rec(d+"0031-padded.md", "0031"),
		rec(d+"0001-Zeta.md", "0001"),
		rec(d+"0040-lower.md", strings.ToLower(ulid)),
		rec(d+"0041-upper.md", ulid),
	}
	p, fc := build(recs, nil, nil)
	wantCalls := []string{d + "0001-Zeta.md", d + "0001-alpha.md", d + "0031-padded.md", d + "0040-lower.md", d + "0041-upper.md", d + "12345-five.md", d + "9999-last-by-string.md"}
	if !slices.Equal(fc.calls, wantCalls) {
		t.Errorf("parse order =\n%v\nwant\n%v", fc.calls, wantCalls)
	}
	// "01ARZ…" sorts after "0031" and before "12345"; its upper-case
	// spelling sorts first.
	wantRecs := []string{d + "0001-Zeta.md", d + "0001-alpha.md", d + "0031-padded.md", d + "0041-upper.md", d + "0040-lower.md", d + "12345-five.md", d + "9999-last-by-string.md"}
	if got := paths(p.Records); !slices.Equal(got, wantRecs) {
		t.Errorf("records =\n%v\nwant\n%v", got, wantRecs)
	}
	if got := paths(p.ByID["0001"]); !slices.Equal(got, wantRecs[:2]) {
		t.Errorf("ByID[0001] = %v", got)
	}
	if len(p.ByID) != 6 || len(p.ByID[ulid]) != 1 || p.ByID[ulid][0].SourcePath != d+"0041-upper.md" {
		t.Errorf("ByID = %v", p.ByID)
	}
	// A bucket is a window onto Records that appending cannot overrun.
	b := p.ByID["0001"]
	_ = append(b, rec("x", "x"))
	if p.Records[2].SourcePath != d+"0031-padded.md" {
		t.Error("appending to a bucket clobbered Records")
	}
}

func TestBuildDoesNotModifyCandidates(t *testing.T) {
	cands := []Candidate{{Path: "b.md"}, {Path: "a.md"}}
	Build(cands, func(string, []byte) (*adr.Record, []adr.Finding) { return nil, nil })
	if cands[0].Path != "b.md" {
		t.Error("Build reordered its input")
	}
}

func TestBuildEmpty(t *testing.T) {
	// No candidate at all: nothing is parsed (the default parser is never
	// reached) and the projection is the reference's empty corpus.
	p := Build(nil, nil)
	if p.Fingerprint != "7cb8d007928a8c1081c21bff1197bc5a1d650604776bd986113daa610d407061" {
		t.Errorf("empty fingerprint = %s", p.Fingerprint)
	}
	if p.Records == nil || p.ByID == nil || len(p.Findings) != 0 {
		t.Errorf("empty projection = %+v", p)
	}
	// Only pre-read exclusions: still no parse.
	p = Build([]Candidate{{Path: "docs/adr/0001-x.md", Exclusion: ExcludedTooLarge}}, nil)
	if p.RecordCount != 0 || p.ExcludedCount != 1 || len(p.Findings) != 1 {
		t.Errorf("projection = %+v", p)
	}
}

func TestFingerprintSensitivity(t *testing.T) {
	const d = "docs/adr/"
	base := func() []*adr.Record {
		return []*adr.Record{rec(d+"0001-a.md", "0001"), rec(d+"0002-b.md", "0002")}
	}
	p0, _ := build(base(), nil, nil)
	again, _ := build(base(), nil, nil)
	if p0.Fingerprint != again.Fingerprint || len(p0.Fingerprint) != 64 {
		t.Fatalf("fingerprint not stable: %s vs %s", p0.Fingerprint, again.Fingerprint)
	}
	changes := map[string]func() *Projection{
		"body byte": func() *Projection {
			rs := base()
			rs[1].Body += " "
			p, _ := build(rs, nil, nil)
			return p
		},
		"path": func() *Projection {
			rs := base()
			rs[1].SourcePath = d + "0002-c.md"
			p, _ := build(rs, nil, nil)
			return p
		},
		"frontmatter value": func() *Projection {
			rs := base()
			raw := valueOf(t, rs[0].Frontmatter)
			raw.Set("tags", []string{"a", "b"})
			setValue(rs[0].Frontmatter, raw)
			p, _ := build(rs, nil, nil)
			return p
		},
		"frontmatter array order": func() *Projection {
			rs := base()
			raw := valueOf(t, rs[0].Frontmatter)
			raw.Set("deciders", []string{"@b", "@a"})
			setValue(rs[0].Frontmatter, raw)
			p, _ := build(rs, nil, nil)
			return p
		},
		"finding": func() *Projection {
			rs := base()
			rs[1] = rec(d+"0002-b.md", "0002", relatesTo("0404"))
			b := base()[1].Frontmatter
			rs[1].Frontmatter.Canonical = b.Canonical
			p, _ := build(rs, nil, nil)
			return p
		},
		"excluded count": func() *Projection {
			p, _ := build(base(), nil, []Candidate{{Path: d + "0003-big.md", Exclusion: ExcludedTooLarge}})
			return p
		},
	}
	for name, f := range changes {
		if p := f(); p.Fingerprint == p0.Fingerprint {
			t.Errorf("%s: fingerprint unchanged", name)
		}
	}
	// Key order inside the frontmatter is not hashed.
	rs := base()
	raw := jsvalue.NewObject(8)
	was := valueOf(t, rs[0].Frontmatter)
	keys := was.Keys()
	for i := len(keys) - 1; i >= 0; i-- {
		v, _ := was.Get(keys[i])
		raw.Set(keys[i], v)
	}
	setValue(rs[0].Frontmatter, raw)
	if p, _ := build(rs, nil, nil); p.Fingerprint != p0.Fingerprint {
		t.Error("frontmatter key order changed the fingerprint")
	}
	// Line is for humans only.
	f1 := []adr.Finding{{Rule: "r", Severity: adr.SeverityInfo, Message: "m", Line: 3}}
	f2 := []adr.Finding{{Rule: "r", Severity: adr.SeverityInfo, Message: "m", Line: 9}}
	if fingerprint(nil, f1, 0, 0) != fingerprint(nil, f2, 0, 0) {
		t.Error("Line changed the fingerprint")
	}
}
