package render

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
)

func TestTableAlignsWideTextAndColour(t *testing.T) {
	st := NewStyle(true)
	tb := table{indent: "  ", header: header(Style{}, "ID", "TITLE", "PATH")}
	tb.add(paintedCell("0001", st.Bold), plainCell("日本語の決定"), plainCell("a.md"))
	tb.add(plainCell("0002"), plainCell("Plain\ntitle"), plainCell("b.md"))
	got := tb.String()
	// Strip colour: the columns must line up as if it were not there.
	plain := strings.NewReplacer("\x1b[1m", "", "\x1b[0m", "").Replace(got)
	want := "" +
		"  ID    TITLE         PATH\n" +
		"  0001  日本語の決定  a.md\n" +
		"  0002  Plain title   b.md\n"
	if plain != want {
		t.Errorf("table\n%s\nwant\n%s", plain, want)
	}
	if !strings.Contains(got, "\x1b[1m0001\x1b[0m  ") {
		t.Errorf("colour should wrap the text, not its padding: %q", got)
	}
	if (&table{}).String() != "" {
		t.Error("an empty table should render nothing")
	}
}

func TestUseColor(t *testing.T) {
	env := func(kv ...string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1], true
				}
			}
			return "", false
		}
	}
	cases := []struct {
		mode     ColorMode
		terminal bool
		getenv   func(string) (string, bool)
		want     bool
	}{
		{ColorAuto, true, env(), true},
		{ColorAuto, false, env(), false},
		{ColorAuto, true, env("NO_COLOR", "1"), false},
		{ColorAuto, true, env("NO_COLOR", ""), true}, // empty means unset (no-color.org)
		{ColorAuto, true, env("TERM", "dumb"), false},
		{ColorAlways, false, env("NO_COLOR", "1"), true},
		{ColorNever, true, env(), false},
	}
	for _, tc := range cases {
		if got := UseColor(tc.mode, tc.terminal, tc.getenv); got != tc.want {
			t.Errorf("%s terminal=%v: %v", tc.mode, tc.terminal, got)
		}
	}
	if _, err := ParseColorMode("yes"); err == nil {
		t.Error("--color yes accepted")
	}
	if IsTerminal(&strings.Builder{}) {
		t.Error("a buffer is not a terminal")
	}
	if (Style{}).Bold("x") != "x" || NewStyle(true).Bold("") != "" {
		t.Error("plain style must not colour, and nothing wraps empty text")
	}
}

func TestGitHubEscaping(t *testing.T) {
	if got := escapeGitHubData("50% done\r\nnext: a,b"); got != "50%25 done%0D%0Anext: a,b" {
		t.Errorf("data: %q", got)
	}
	if got := escapeGitHubProperty("docs/adr/a:b,c%.md"); got != "docs/adr/a%3Ab%2Cc%25.md" {
		t.Errorf("property: %q", got)
	}
	rep := &app.LintReport{AsOf: "2026-06-15", Findings: []adr.Finding{
		{Rule: "frontmatter-parse", Severity: adr.SeverityError, Message: "bad YAML:\nline 2", Path: "docs/adr/0001-a,b.md", Field: "frontmatter", Line: 2},
		{Rule: "import-incomplete", Severity: adr.SeverityInfo, Message: "no deciders", Path: "docs/adr/0002-x.md"},
	}}
	got := githubAnnotations(rep, LintOptions{Source: Source{Dir: "docs/adr"}})
	want := "::error file=docs/adr/0001-a%2Cb.md,line=2,title=adrkit frontmatter-parse::bad YAML:%0Aline 2 (field frontmatter)\n" +
		"::notice file=docs/adr/0002-x.md,title=adrkit import-incomplete::no deciders\n" +
		"adrkit lint: 2 findings (1 error, 1 info) in docs/adr (working tree)\n"
	if got != want {
		t.Errorf("annotations\n%s\nwant\n%s", got, want)
	}
}

func TestSARIFLocations(t *testing.T) {
	rep := &app.LintReport{Findings: []adr.Finding{
		{Rule: "review-overdue", Severity: adr.SeverityWarn, Message: "m", Path: "docs/adr/0001 a#b.md", ID: "0001", Field: "reviewBy", Line: 9},
		{Rule: "no-such-rule", Severity: adr.SeverityInfo, Message: "m"},
	}}
	log := sarifLog(rep, LintOptions{Tool: Tool{Name: "adrkit", Version: "1.0.0"}})
	res := log.Runs[0].Results
	loc := res[0].Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "docs/adr/0001%20a%23b.md" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartLine != 9 {
		t.Errorf("location %+v %+v", loc.ArtifactLocation, loc.Region)
	}
	if res[0].Level != "warning" || res[0].Properties == nil || res[0].Properties.ID != "0001" || res[0].Message.Text != "m (field reviewBy)" {
		t.Errorf("result %+v", res[0])
	}
	rules := log.Runs[0].Tool.Driver.Rules
	if i := *res[0].RuleIndex; rules[i].ID != "review-overdue" {
		t.Errorf("rule index %d names %s", i, rules[i].ID)
	}
	if res[1].RuleIndex != nil || res[1].Locations != nil || res[1].Level != "note" {
		t.Errorf("a finding without rule metadata or path: %+v", res[1])
	}
	if len(rules) != len(app.LintRules()) {
		t.Errorf("%d rules declared, lint knows %d", len(rules), len(app.LintRules()))
	}
}

func TestMermaidEscaping(t *testing.T) {
	if got := mermaidText(`Use "quotes" & <tags> #1`); got != "Use #quot;quotes#quot; & #lt;tags#gt; #35;1" {
		t.Errorf("%q", got)
	}
	if got := dotText("a \"b\" \\ c\nd"); got != `"a \"b\" \\ c\nd"` {
		t.Errorf("%q", got)
	}
	long := strings.Repeat("word ", 30)
	if s := shortTitle(long); s != strings.Repeat("word ", 10)+"word…" {
		t.Errorf("short title %q", s)
	}
	unbroken := strings.Repeat("x", 80)
	if s := shortTitle(unbroken); s != strings.Repeat("x", maxLabelTitle-1)+"…" {
		t.Errorf("short title %q", s)
	}
}

func TestSourceAndPaths(t *testing.T) {
	root := t.TempDir()
	cases := []struct {
		dir, rev, want string
	}{
		{"docs/adr", "", "docs/adr (working tree)"},
		{"./docs//adr/", "", "docs/adr (working tree)"},
		{"", "", "the repository root (working tree)"},
		{".", "v1.2.0", `the repository root at revision "v1.2.0"`},
		{filepath.Join(root, "decisions"), "", "decisions (working tree)"},
		{filepath.Join(filepath.Dir(root), "elsewhere"), "", "the ADR directory (working tree)"},
	}
	for _, tc := range cases {
		if got := NewSource(root, tc.dir, tc.rev).String(); got != tc.want {
			t.Errorf("%q %q: %q, want %q", tc.dir, tc.rev, got, tc.want)
		}
	}
	if got := RefusalDetail("get_decision", "Input validation error: Invalid arguments for tool get_decision: ref: bad"); got != "ref: bad" {
		t.Errorf("refusal detail %q", got)
	}
	if got := RefusalDetail("get_decision", "something else"); got != "something else" {
		t.Errorf("unknown refusal text %q", got)
	}
}

// TestTableFits: with a width, the columns with spaces wrap between words
// until the table fits, and no line is wider: past what wrapping gives,
// cells are cut with an ellipsis. Without a width nothing changes.
func TestTableFits(t *testing.T) {
	build := func(width int) string {
		tb := table{width: width, header: []cell{{text: "ID"}, {text: "TITLE"}, {text: "PATH"}}}
		tb.add(cell{text: "0001"}, cell{text: "Store orders in PostgreSQL across regions"}, cell{text: "docs/adr/0001-orders.md"})
		tb.note(cell{text: "the team already runs PostgreSQL in production for billing and reporting"})
		tb.add(cell{text: "0002"}, cell{text: "Cache"}, cell{text: "docs/adr/0002-cache.md"})
		return tb.String()
	}
	wide := "ID    TITLE                                      PATH\n" +
		"0001  Store orders in PostgreSQL across regions  docs/adr/0001-orders.md\n" +
		"  the team already runs PostgreSQL in production for billing and reporting\n" +
		"0002  Cache                                      docs/adr/0002-cache.md\n"
	for _, tc := range []struct {
		width int
		want  string
	}{
		{0, wide},
		{200, wide},
		{50, "ID    TITLE                PATH\n" +
			"0001  Store orders in      docs/adr/0001-orders.md\n" +
			"      PostgreSQL across\n" +
			"      regions\n" +
			"  the team already runs PostgreSQL in production…\n" +
			"0002  Cache                docs/adr/0002-cache.md\n"},
		// Narrower than the words: cut, never wider than the width.
		{10, "ID  T…  P…\n" +
			"0…  S…  d…\n" +
			"  the…\n" +
			"0…  C…  d…\n"},
	} {
		got := build(tc.width)
		if got != tc.want {
			t.Errorf("width %d:\n%s\nwant\n%s", tc.width, got, tc.want)
		}
		for _, line := range strings.Split(got, "\n") {
			if tc.width > 0 && displayWidth(line) > tc.width {
				t.Errorf("width %d: %q is wider", tc.width, line)
			}
		}
	}
}

// TestTableYields: a search listing in 80 and 40 columns. The path gives
// way first, cut at its start and then dropped, before the title wraps to
// fewer than sixteen columns; no line is wider than the terminal. Before
// the yielding columns, the title wrapped to sixteen columns while the
// path ran the lines past the width.
func TestTableYields(t *testing.T) {
	build := func(width int) string {
		tb := table{width: width, yield: []int{4, 3}, header: []cell{{text: "ID"}, {text: "STATUS"}, {text: "TITLE"}, {text: "MATCHED IN"}, {text: "PATH"}}}
		tb.add(cell{text: "0002"}, cell{text: "accepted"}, cell{text: "Use PostgreSQL for the orders service"}, cell{text: "title,body"},
			cell{text: "services/orders/docs/architecture/decisions/0002-use-postgresql-for-the-orders-service.md"})
		tb.add(cell{text: "0007"}, cell{text: "superseded"}, cell{text: "Keep orders in MySQL"}, cell{text: "body"},
			cell{text: "services/orders/docs/architecture/decisions/0007-keep-orders-in-mysql.md"})
		return tb.String()
	}
	for _, tc := range []struct {
		width int
		want  string
	}{
		{80, "ID    STATUS      TITLE                     MATCHED IN  PATH\n" +
			"0002  accepted    Use PostgreSQL for the    title,body  …r-the-orders-service.md\n" +
			"                  orders service\n" +
			"0007  superseded  Keep orders in MySQL      body        …keep-orders-in-mysql.md\n"},
		{40, "ID    STATUS      TITLE\n" +
			"0002  accepted    Use PostgreSQL for the\n" +
			"                  orders service\n" +
			"0007  superseded  Keep orders in MySQL\n"},
	} {
		got := build(tc.width)
		if got != tc.want {
			t.Errorf("width %d:\n%s\nwant\n%s", tc.width, got, tc.want)
		}
		for _, line := range strings.Split(got, "\n") {
			if displayWidth(line) > tc.width {
				t.Errorf("width %d: %q is wider", tc.width, line)
			}
		}
	}
}

// TestWriteStatuses: adrkit status alone lists the records by status, in
// the schema's order; at 40 columns no line is wider and the path gives
// way first.
func TestWriteStatuses(t *testing.T) {
	recs := []app.Summary{
		{ID: "0001", Title: "Record architecture decisions", Status: adr.StatusAccepted, SourcePath: "docs/adr/0001-record-architecture-decisions.md"},
		{ID: "0002", Title: "Use CockroachDB for orders", Status: adr.StatusProposed, SourcePath: "docs/adr/0002-use-cockroachdb-for-orders.md"},
		{ID: "0003", Title: "Keep orders in MySQL", Status: adr.StatusAccepted, SourcePath: "docs/adr/0003-keep-orders-in-mysql.md"},
	}
	var b strings.Builder
	if err := WriteStatuses(&b, recs, Style{}.WithWidth(40)); err != nil {
		t.Fatal(err)
	}
	want := "proposed (1)\n" +
		"  0002  Use CockroachDB for orders\n" +
		"\n" +
		"accepted (2)\n" +
		"  0001  Record architecture decisions\n" +
		"  0003  Keep orders in MySQL\n" +
		"\n" +
		"3 decisions.\n" +
		"Change one: adrkit status ID STATUS\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	recs[0].Title = "Record every architecture decision in the repository, as Markdown with frontmatter"
	if err := WriteStatuses(&b, recs, Style{}.WithWidth(40)); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if displayWidth(line) > 40 {
			t.Errorf("%q is wider than 40 columns", line)
		}
	}
}

// TestExplainPendingProposal: explain shows the record in force as
// governing and the proposal as the one that would replace it once
// accepted, not as having replaced it (ADR 0045).
func TestExplainPendingProposal(t *testing.T) {
	m := app.Matches{
		Governing: []app.ContextEntry{{ID: "0001", Title: "Use MySQL", Status: adr.StatusAccepted,
			FiredMatchers: []app.FiredMatcher{{Type: adr.MatcherPath, Pattern: "svc/**"}}}},
		ActiveProposals: []app.ContextEntry{{ID: "0002", Title: "Use CockroachDB", Status: adr.StatusProposed,
			FiredMatchers: []app.FiredMatcher{{Type: adr.MatcherPath, Pattern: "svc/**"}}, Relations: app.Relations{Supersedes: []string{"0001"}}}},
	}
	var b strings.Builder
	if err := WriteExplain(&b, m, []string{"svc/db.go"}, nil, Style{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "0002  proposed  Use CockroachDB  path svc/**  would supersede 0001 once accepted\n") ||
		!strings.Contains(b.String(), "Governing (accepted)\n  ID    STATUS    TITLE      MATCHED BY\n  0001  accepted  Use MySQL  path svc/**\n") {
		t.Errorf("explain:\n%s", b.String())
	}
}
