package frontmatter

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/js/jsvalue"
	"github.com/adrkit/adrkit-go/domain/js/yaml12"
)

// render is the golden form of a ParseRecord result.
func render(rec *adr.Record, findings []adr.Finding) string {
	var b strings.Builder
	if rec != nil {
		text, err := JSON(rec.Frontmatter)
		if err != nil {
			text = "(" + err.Error() + ")"
		}
		fmt.Fprintf(&b, "record %s\nfrontmatter %s\nbody %s\n", rec.SourcePath, text, jsvalue.AppendString(nil, rec.Body))
	}
	for _, f := range findings {
		fmt.Fprintf(&b, "%s %s path=%s id=%q field=%q line=%d\n    %s\n", f.Rule, f.Severity, f.Path, f.ID, f.Field, f.Line, f.Message)
	}
	return b.String()
}

// TestParseRecordGolden runs the pipeline over one small file per rule
// (testdata/records) and pins records and findings, lines included.
func TestParseRecordGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/records/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/records"), goldie.WithNameSuffix(".golden"))
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".md")
		t.Run(name, func(t *testing.T) {
			text := readFile(t, file)
			path := "docs/adr/" + filepath.Base(file)
			rec, findings := ParseRecord(path, text)
			checkOutcome(t, path, rec, findings)
			g.Assert(t, name, []byte(render(rec, findings)))
		})
	}
}

// checkOutcome asserts the ParseRecord contract: a record or findings,
// never both, never neither, each finding well formed.
func checkOutcome(t testing.TB, path string, rec *adr.Record, findings []adr.Finding) {
	t.Helper()
	if (rec == nil) == (len(findings) == 0) {
		t.Fatalf("record %v with %d findings", rec != nil, len(findings))
	}
	if rec != nil {
		if rec.SourcePath != path || rec.Frontmatter == nil || rec.Frontmatter.YAML == "" {
			t.Fatalf("incomplete record %+v", rec)
		}
	}
	for _, f := range findings {
		if f.Path != path || f.Severity != adr.SeverityError || f.Message == "" || f.Line < 0 {
			t.Errorf("malformed finding %+v", f)
		}
		switch f.Rule {
		case RuleFence, RuleParse:
			if f.Field != fieldFrontmatter || f.ID != "" {
				t.Errorf("%s finding with field %q id %q", f.Rule, f.Field, f.ID)
			}
		case RuleRead:
			if f.Field != "" || f.ID != "" {
				t.Errorf("file-read finding with field %q id %q", f.Field, f.ID)
			}
		}
	}
}

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestYAMLFinding pins how YAML errors become findings: syntax problems
// are frontmatter-parse on the field "frontmatter", resolve failures are
// file-read without a field, lines shift past the opening fence.
func TestYAMLFinding(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want adr.Finding
	}{
		{"one problem", &yaml12.SyntaxError{Problems: []yaml12.Problem{{Message: "a flow list is not closed", Line: 2}}},
			adr.Finding{Rule: RuleParse, Field: "frontmatter", Line: 3, Message: "the frontmatter is not valid YAML: a flow list is not closed"}},
		{"two problems", &yaml12.SyntaxError{Problems: []yaml12.Problem{{Message: "p1", Line: 0}, {Message: "p2", Line: 4}}},
			adr.Finding{Rule: RuleParse, Field: "frontmatter", Line: 0, Message: "the frontmatter is not valid YAML: p1; p2"}},
		{"no problems", &yaml12.SyntaxError{},
			adr.Finding{Rule: RuleParse, Field: "frontmatter", Message: "the frontmatter is not valid YAML"}},
		{"resolve", &yaml12.ResolveError{Message: "alias *x has no anchor", Line: 5},
			adr.Finding{Rule: RuleRead, Line: 6, Message: "the frontmatter YAML cannot be turned into a value: alias *x has no anchor"}},
		{"wrapped resolve", fmt.Errorf("wrapped: %w", &yaml12.ResolveError{Message: "m"}),
			adr.Finding{Rule: RuleRead, Message: "the frontmatter YAML cannot be turned into a value: m"}},
		{"other", errors.New("boom"),
			adr.Finding{Rule: RuleRead, Message: "the frontmatter YAML cannot be read: boom"}},
	}
	for _, tt := range tests {
		tt.want.Severity, tt.want.Path = adr.SeverityError, "docs/adr/x.md"
		if got := yamlFinding("docs/adr/x.md", tt.err); got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

// TestFenceFinding pins the two fence findings and the hints for an
// empty file and a byte-order mark.
func TestFenceFinding(t *testing.T) {
	tests := []struct {
		text string
		err  error
		want string
	}{
		{"# x", &FenceError{}, `the file must begin with a "---" line that opens the YAML frontmatter`},
		{"", &FenceError{}, `the file is empty; the file must begin with a "---" line that opens the YAML frontmatter`},
		{"\uFEFF---\n", &FenceError{}, `the file must begin with a "---" line that opens the YAML frontmatter; this one starts with a byte-order mark before it`},
		{"---\n", &FenceError{Unterminated: true}, `the frontmatter opened by the first "---" line is never closed by another "---" line`},
	}
	for _, tt := range tests {
		got := fenceFinding("p.md", tt.text, tt.err)
		want := adr.Finding{Rule: RuleFence, Severity: adr.SeverityError, Message: tt.want, Path: "p.md", Field: "frontmatter", Line: 1}
		if got != want {
			t.Errorf("fenceFinding(%q):\n got %+v\nwant %+v", tt.text, got, want)
		}
	}
}

// TestLineOf maps issue paths to file lines through the nearest ancestor
// the YAML recorded.
func TestLineOf(t *testing.T) {
	lines := map[string]int{"": 1, "affects": 5, "affects.0": 6, "affects.0.pattern": 7, "a.b": 9, "zero": 0}
	tests := []struct {
		path []string
		want int
	}{
		{nil, 2},
		{[]string{"affects", "0", "pattern"}, 8},
		{[]string{"affects", "1", "pattern"}, 6},
		{[]string{"affects", "0", "type"}, 7},
		{[]string{"supersededBy"}, 2},
		{[]string{"a.b"}, 10},
		{[]string{"zero"}, 2},
	}
	for _, tt := range tests {
		if got := lineOf(lines, tt.path); got != tt.want {
			t.Errorf("lineOf(%q) = %d, want %d", tt.path, got, tt.want)
		}
	}
	if got := lineOf(map[string]int{}, []string{"x"}); got != 0 {
		t.Errorf("lineOf with no lines = %d, want 0", got)
	}
}

// FuzzParseRecord: never panics; a record or at least one finding, never
// both or neither; deterministic; and a record's parsed frontmatter
// validates again to the same value.
func FuzzParseRecord(f *testing.F) {
	files, _ := filepath.Glob("testdata/records/*.md")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		const path = "docs/adr/0001-fuzz.md"
		rec, findings := ParseRecord(path, text)
		checkOutcome(t, path, rec, findings)
		rec2, findings2 := ParseRecord(path, text)
		if a, b := render(rec, findings), render(rec2, findings2); a != b {
			t.Fatalf("not deterministic:\n%s\n%s", a, b)
		}
		if rec != nil {
			v, err := yaml12.ParseValue(mustJSON(t, rec.Frontmatter)) // JSON is YAML 1.2
			if err != nil {
				t.Fatalf("the frontmatter JSON does not read back: %v", err)
			}
			raw, issues := validate(v)
			if len(issues) > 0 {
				t.Fatalf("parsed frontmatter does not validate: %v", summary(issues))
			}
			a, b := []byte(mustJSON(t, rec.Frontmatter)), jsvalue.AppendJSON(nil, raw)
			if string(a) != string(b) {
				t.Fatalf("revalidation changed the value:\n%s\n%s", a, b)
			}
		}
	})
}

// mustJSON is frontmatter.JSON of a parsed record's frontmatter, which
// must not fail.
func mustJSON(t testing.TB, fm *adr.Frontmatter) string {
	t.Helper()
	text, err := JSON(fm)
	if err != nil {
		t.Fatalf("JSON of a parsed record: %v", err)
	}
	return text
}
