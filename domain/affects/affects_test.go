package affects

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/adr"
)

type fixtureRecord struct {
	ID         string `json:"id"`
	SourcePath string `json:"sourcePath"`
	Affects    []struct {
		Type    string `json:"type"`
		Pattern string `json:"pattern"`
		Repo    string `json:"repo"`
		Negate  bool   `json:"negate"`
		Note    string `json:"note"`
	} `json:"affects"`
}

// loadCorpus reads the affects matchers of the conformance "main" corpus
// (shared/conformance/corpora/main), in record order.
func loadCorpus(t *testing.T) []*adr.Record {
	t.Helper()
	b, err := os.ReadFile("testdata/main-corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx []fixtureRecord
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	var recs []*adr.Record
	for _, f := range fx {
		fm := &adr.Frontmatter{ID: f.ID}
		for _, a := range f.Affects {
			fm.Affects = append(fm.Affects, adr.Matcher{Type: adr.MatcherType(a.Type), Pattern: a.Pattern, Repo: a.Repo, Negate: a.Negate, Note: a.Note})
		}
		recs = append(recs, &adr.Record{SourcePath: f.SourcePath, Frontmatter: fm})
	}
	return recs
}

// corpusFindings is what every call on the main corpus derives, whatever
// the files: rule, severity, id, field, pattern (canonical order).
var corpusFindings = []string{
	"affects-bad-pattern warn 0015 affects.path /services/audit/**",
	"affects-bad-pattern warn 0015 affects.package kafkajs@not-a-range",
	"affects-unresolvable info 0002 affects.package pg@^8",
	"affects-unresolvable info 0005 affects.api orders.v1.OrderService/*",
	"affects-unresolvable info 0007 affects.resource aws_cloudwatch_event_rule",
	"affects-unresolvable info 0015 affects.data audit.events",
	"affects-unresolvable info 0015 affects.entity component:default/audit-log",
}

// The get_decision_context conformance cases (shared/conformance/cases/
// context-*.json) with the records the reference returned and their
// firedMatchers, in order.
var contextCases = []struct {
	name  string
	files []string
	want  []string // "<id> <fired pattern>, <fired pattern>..."
}{
	{"dotfiles and globs", []string{".github/workflows/ci.yml", "deploy/.env", "config/app.yml", "Makefile", "ci/run.sh"},
		[]string{"0012 .github/workflows/**, **/.env, **/*.yml, ci/**, Makefile"}},
	{"dot directory needs a dotted pattern", []string{".github/workflows/ci.yml"}, []string{"0012 .github/workflows/**"}},
	{"dotfile at the root", []string{".env"}, []string{"0012 **/.env"}},
	{"hidden directory", []string{"config/.hidden/app.yml"}, nil},
	{"leading ./ stripped", []string{"./docs/guide.md"}, []string{"0001 docs/**"}},
	{"globstar matches its base", []string{"docs"}, []string{"0001 docs/**"}},
	{"case-sensitive", []string{"makefile", "CI/run.sh"}, nil},
	{"globstar spans zero segments", []string{"agents/planner/notes.md", "agents/x.md"}, []string{"01J9Z3K4M5N6P7Q8R9S0T1V2W3 agents/**/*.md"}},
	{"bad and inert matchers beside a real one", []string{"services/audit/writer.ts"}, []string{"0015 services/audit/**"}},
	{"unicode and dot segments", []string{"src/i18n/straße.json", "a/./b", "."}, []string{"0013 src/i18n/**"}},
	{"negation suppresses its own record only", []string{"services/api/vendor/lib.go"},
		[]string{"0003 services/api/**", "0006 services/api/**", "0018 services/api/**"}},
	{"negation beats another file's match", []string{"services/api/main.go", "services/api/vendor/lib.go"},
		[]string{"0003 services/api/**", "0006 services/api/**", "0018 services/api/**"}},
	{"negation beats another matcher", []string{"db/migrations/1.sql", "services/api/vendor/lib.go"},
		[]string{"0003 services/api/**", "0006 services/api/**", "0018 services/api/**"}},
	{"no match", []string{"README.md"}, nil},
	{"every status", []string{"services/api/main.go"},
		[]string{"0002 services/api/**", "0003 services/api/**", "0006 services/api/**", "0018 services/api/**"}},
	{"two records", []string{"services/orders/events/created.ts", "proto/orders.proto"},
		[]string{"0004 services/**/events/*.ts", "0005 proto/**"}},
	{"globstar between literals spans zero", []string{"services/events/created.ts"}, []string{"0004 services/**/events/*.ts"}},
	{"duplicate ids both match", []string{"services/session/store.go"},
		[]string{"0010 services/session/**", "0010 services/session/**"}},
	{"star stays in its segment", []string{"db/migrations/0001_init.sql", "db/migrations/sub/x.sql"},
		[]string{"0002 db/migrations/*.sql"}},
	{"two buckets", []string{"ops/cron/nightly.sh", "docs/index.md"}, []string{"0001 docs/**", "0007 ops/cron/**"}},
}

func TestConformanceContext(t *testing.T) {
	recs := loadCorpus(t)
	for _, tc := range contextCases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			var findings []adr.Finding
			for _, r := range recs {
				res := resolve(r, tc.files)
				findings = append(findings, res.Findings...)
				if !res.Matched() {
					continue
				}
				var pats []string
				for _, f := range res.Fired {
					if f.Type != adr.MatcherPath {
						t.Errorf("%s fired a %s matcher", r.Frontmatter.ID, f.Type)
					}
					pats = append(pats, f.Pattern)
				}
				got = append(got, r.Frontmatter.ID+" "+strings.Join(pats, ", "))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("matches:\n got %q\nwant %q", got, tc.want)
			}
			adr.SortFindings(findings)
			var fs []string
			for _, f := range findings {
				fs = append(fs, strings.Join([]string{f.Rule, string(f.Severity), f.ID, f.Field, f.Pattern}, " "))
				if !strings.HasPrefix(f.Path, "docs/adr/"+f.ID[:min(4, len(f.ID))]) {
					t.Errorf("finding %v has path %q", fs[len(fs)-1], f.Path)
				}
				if f.Message == "" || strings.Contains(f.Message, "/work/") {
					t.Errorf("finding %v has message %q", fs[len(fs)-1], f.Message)
				}
			}
			if !slices.Equal(fs, corpusFindings) {
				t.Errorf("findings:\n got %q\nwant %q", fs, corpusFindings)
			}
		})
	}
}

func rec(id string, ms ...adr.Matcher) *adr.Record {
	return &adr.Record{SourcePath: "docs/adr/" + id + "-x.md", Frontmatter: &adr.Frontmatter{ID: id, Affects: ms}}
}

func path(p string) adr.Matcher { return adr.Matcher{Type: adr.MatcherPath, Pattern: p} }

func negated(m adr.Matcher) adr.Matcher { m.Negate = true; return m }

func inRepo(m adr.Matcher, repo string) adr.Matcher { m.Repo = repo; return m }

func of(t adr.MatcherType, p string) adr.Matcher { return adr.Matcher{Type: t, Pattern: p} }

// summary renders a resolution as "fired: a, b | suppressed | rule field pattern; ...".
func summary(r Resolution) string {
	var parts []string
	var fired []string
	for _, f := range r.Fired {
		fired = append(fired, string(f.Type)+":"+f.Pattern)
	}
	parts = append(parts, "fired: "+strings.Join(fired, ", "))
	if r.Suppressed {
		parts = append(parts, "suppressed")
	}
	for _, f := range r.Findings {
		parts = append(parts, strings.Join([]string{f.Rule, string(f.Severity), f.Field, f.Pattern}, " "))
	}
	return strings.Join(parts, " | ")
}

func TestResolve(t *testing.T) {
	long := strings.Repeat("x", 70000)
	tests := []struct {
		name     string
		matchers []adr.Matcher
		files    []string
		want     string
	}{
		{"no matchers", nil, []string{"a"}, "fired: "},
		{"no files", []adr.Matcher{path("**")}, nil, "fired: "},
		{"repo-qualified matchers are skipped silently",
			[]adr.Matcher{inRepo(path("src/**"), "payments"), inRepo(of(adr.MatcherEntity, "x"), "payments"), inRepo(path("/abs"), "p")},
			[]string{"src/a"}, "fired: "},
		{"empty repo is unqualified", []adr.Matcher{inRepo(path("src/**"), "")}, []string{"src/a"}, "fired: path:src/**"},
		{"duplicates fire once", []adr.Matcher{path("src/**"), path("src/**"), path("*.md")}, []string{"src/a", "a.md"},
			"fired: path:*.md, path:src/**"},
		{"negation suppresses", []adr.Matcher{path("src/**"), negated(path("src/gen/**"))}, []string{"src/gen/a"},
			"fired: path:src/** | suppressed"},
		{"negation order does not matter", []adr.Matcher{negated(path("src/gen/**")), path("src/**")}, []string{"src/gen/a"},
			"fired: path:src/** | suppressed"},
		{"negation that does not match", []adr.Matcher{path("src/**"), negated(path("src/gen/**"))}, []string{"src/a"},
			"fired: path:src/**"},
		{"bad negated matcher never suppresses", []adr.Matcher{path("src/**"), negated(path("/src/**"))}, []string{"src/a"},
			"fired: path:src/** | affects-bad-pattern warn affects.path /src/**"},
		{"inert negated matcher never suppresses", []adr.Matcher{path("src/**"), negated(of(adr.MatcherPackage, "left-pad"))},
			[]string{"src/a"}, "fired: path:src/** | affects-unresolvable info affects.package left-pad"},
		{"leading slash", []adr.Matcher{path("/abs/**")}, []string{"abs/x", "/abs/x"},
			"fired:  | affects-bad-pattern warn affects.path /abs/**"},
		{"too long", []adr.Matcher{path(long)}, []string{long},
			"fired:  | affects-bad-pattern warn affects.path " + long},
		{"reference parser throws", []adr.Matcher{path("{1..*(a|}|)")}, []string{"{1..*(a|}|)"},
			"fired:  | affects-bad-pattern warn affects.path {1..*(a|}|)"},
		{"never-matching regex is not a finding", []adr.Matcher{path("a{*"), path("a/[z-a]*")}, []string{"a{x", "a/z"}, "fired: "},
		{"literal equality still matches it", []adr.Matcher{path("a{*")}, []string{"a{*"}, "fired: path:a{*"},
		{"duplicate bad matchers give duplicate findings", []adr.Matcher{path("/a"), path("/a")}, nil,
			"fired:  | affects-bad-pattern warn affects.path /a | affects-bad-pattern warn affects.path /a"},
		{"inert types", []adr.Matcher{of(adr.MatcherEntity, "component:x"), of(adr.MatcherResource, "r"), of(adr.MatcherAPI, "GET /x"), of(adr.MatcherData, "d")},
			[]string{"component:x", "r"}, "fired:  | affects-unresolvable info affects.entity component:x | affects-unresolvable info affects.resource r | affects-unresolvable info affects.api GET /x | affects-unresolvable info affects.data d"},
		{"unknown type", []adr.Matcher{of("widget", "w")}, nil, "fired:  | affects-unknown-type warn affects.widget w"},
		// Path normalisation and the dot-segment guard.
		{"backslashes", []adr.Matcher{path("src/**")}, []string{`src\a.ts`}, "fired: path:src/**"},
		{"one leading ./ only", []adr.Matcher{path("a/**")}, []string{"././a/b"}, "fired: "},
		{"dot file needs a dotted pattern", []adr.Matcher{path("**/*"), path("src/*")}, []string{".hidden/x.ts", "src/.x.ts"}, "fired: "},
		{"brace does not opt in to dot segments", []adr.Matcher{path("{.github,src}/**")}, []string{".github/x"}, "fired: "},
		{"dotted pattern opts in", []adr.Matcher{path(".github/**"), path("**/.env")}, []string{".github/x", "a/.env"},
			"fired: path:.github/**, path:**/.env"},
		{"dot and dot-dot segments are not dot segments", []adr.Matcher{path("a/**"), path("**")}, []string{"a/./b", "a/../b", "."}, "fired: "},
		{"literal dot-dot path", []adr.Matcher{path("src/../a.ts")}, []string{"src/../a.ts", "a.ts"}, "fired: path:src/../a.ts"},
		{"guard applies to literal equality too", []adr.Matcher{path("{.x,y}")}, []string{".x", "{.x,y}"}, "fired: path:{.x,y}"},
		{"empty file never matches", []adr.Matcher{path("**")}, []string{"", "./"}, "fired: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rec("0042", tc.matchers...)
			res := resolve(r, tc.files)
			if got := summary(res); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
			for _, f := range res.Findings {
				if f.ID != "0042" || f.Path != "docs/adr/0042-x.md" || f.Message == "" || f.Line != 0 {
					t.Errorf("finding %+v", f)
				}
				if len(f.Message) > 400 {
					t.Errorf("message is %d bytes long", len(f.Message))
				}
			}
			if res.Matched() != (len(res.Fired) > 0 && !res.Suppressed) {
				t.Error("Matched disagrees")
			}
		})
	}
}

func TestResolveWithoutFrontmatter(t *testing.T) {
	if res := resolve(&adr.Record{}, []string{"a"}); res.Matched() || len(res.Findings) > 0 {
		t.Errorf("got %+v", res)
	}
	if res := resolve(nil, nil); res.Matched() {
		t.Errorf("got %+v", res)
	}
}

// The package table of corpus.md §10.4.
func TestPackagePatterns(t *testing.T) {
	valid := []string{"react", "@scope/pkg", "@", "react@^1", "react@>=19", "react@~1.2", "react@1.x", "react@*",
		"react@x", "react@1.2.3 - 2.0.0", "react@>=1 <2", "react@1 || 2", "react@v1.2.3", "react@=1.2.3",
		"react@ ^1 ", "react@^1.2.3-beta.1", "react@>= 1.2", "react@^1 ||", "react@||", "react@1.2.3+build",
		"react@<=1.0.0-rc", "react@~>1.2", "react@>1.2.x", "react@1.2.*", "@scope/pkg@^2", "a@b@^1"}
	invalid := []string{"react@", "react@latest", "react@not-a-range", "react@1.2.3.4", "react@01.2.3", "react@=>1",
		`react@""`, " @1", "react@ ", "\u00a0@^1"}
	for _, p := range valid {
		res := resolve(rec("0001", of(adr.MatcherPackage, p)), []string{p})
		if got := summary(res); got != "fired:  | affects-unresolvable info affects.package "+p {
			t.Errorf("%q: %s", p, got)
		}
	}
	for _, p := range invalid {
		res := resolve(rec("0001", of(adr.MatcherPackage, p)), []string{p})
		if got := summary(res); got != "fired:  | affects-bad-pattern warn affects.package "+p {
			t.Errorf("%q: %s", p, got)
		}
	}
}

func TestSortFired(t *testing.T) {
	tests := [][]string{
		// corpus.md §10.5.
		{"_x/**", "src/*.ts", "src/**", "Src/**", "src/**/*.md"},
		{"docs/**", "packages/core/**", "src/_x/**", "src/-x/**", "src/?/**", "src/.github/**", "src/[ab]/**",
			"src/{a,b}/**", "src/*.ts", "src/**", "Src/**", "src/**/*.md", "src/1/**", "src/a/**", "src/A/**",
			"src/ä/**", "src/b/**"},
		// The conformance README.
		{".github/workflows/**", "**/.env", "**/*.yml", "ci/**", "Makefile"},
	}
	for _, want := range tests {
		// Every rotation and the reverse sort to the same order.
		for shift := range want {
			in := make([]adr.FiredMatcher, len(want))
			for i := range want {
				in[i] = adr.FiredMatcher{Type: adr.MatcherPath, Pattern: want[(i+shift)%len(want)]}
			}
			if shift%2 == 1 {
				slices.Reverse(in)
			}
			SortFired(in)
			var got []string
			for _, f := range in {
				got = append(got, f.Pattern)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("\n got %q\nwant %q", got, want)
			}
		}
	}
	// Type first.
	in := []adr.FiredMatcher{{Type: adr.MatcherPath, Pattern: "a"}, {Type: adr.MatcherEntity, Pattern: "z"}}
	SortFired(in)
	if in[0].Type != adr.MatcherEntity {
		t.Errorf("got %v", in)
	}
}

func TestNormalizePath(t *testing.T) {
	for in, want := range map[string]string{
		"a/b": "a/b", `a\b`: "a/b", "./a": "a", "././a": "./a", `.\a`: "a", "": "", ".": ".", "./": "",
	} {
		if got := NormalizePath(in); got != want {
			t.Errorf("NormalizePath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCompileOfInertMatchers: a matcher that cannot fire gets its
// finding from Compile, for every type, whatever the files.
func TestCompileOfInertMatchers(t *testing.T) {
	cases := []adr.Matcher{
		{Type: adr.MatcherPackage, Pattern: "lodash@^4.17.21"},
		{Type: adr.MatcherPackage, Pattern: "@acme/x@"},
		{Type: adr.MatcherPackage, Pattern: "@"},
		{Type: adr.MatcherPackage, Pattern: "left-pad@not a range"},
		{Type: adr.MatcherEntity, Pattern: "component:x"},
		{Type: adr.MatcherResource, Pattern: "arn:aws:s3:::b"},
		{Type: adr.MatcherAPI, Pattern: "GET /v1"},
		{Type: adr.MatcherData, Pattern: "pii.email"},
		{Type: "novel", Pattern: "x"},
		{Type: adr.MatcherEntity, Pattern: strings.Repeat("long", 100)},
	}
	for _, m := range cases {
		got := Compile(m.Type, m.Pattern)
		if got.glob != nil || got.finding != inertFinding(m.Type, m.Pattern) {
			t.Errorf("%+v: compiled %+v", m, got)
		}
		if got.finding.rule == "" || got.finding.message == "" {
			t.Errorf("%+v: empty finding %+v", m, got.finding)
		}
	}
}

// TestResolverWithRememberedCompiles: a Resolver answers the same whether
// it compiles every pattern afresh or is handed remembered results (as
// the app's per-Service memo does), however many calls share them.
func TestResolverWithRememberedCompiles(t *testing.T) {
	recs := loadCorpus(t)
	memo := map[adr.Matcher]Compiled{}
	remembered := func(typ adr.MatcherType, pattern string) Compiled {
		k := adr.Matcher{Type: typ, Pattern: pattern}
		c, ok := memo[k]
		if !ok {
			c = Compile(typ, pattern)
			memo[k] = c
		}
		return c
	}
	for _, files := range [][]string{{"services/api/x.go", ".github/workflows/w.yml"}, {"README.md"}, nil} {
		fresh, kept := NewResolver(files, nil), NewResolver(files, remembered)
		for _, r := range recs {
			if a, b := fresh.Resolve(r), kept.Resolve(r); !reflect.DeepEqual(a, b) {
				t.Fatalf("%s with %q: fresh %+v, remembered %+v", r.SourcePath, files, a, b)
			}
		}
	}
	if len(memo) == 0 {
		t.Fatal("the corpus has no matchers to remember")
	}
}

func BenchmarkResolveMainCorpus(b *testing.B) {
	recs := loadCorpus(&testing.T{})
	shapes := []string{"services/api/pkg/x/file.go", ".github/workflows/w.yml", "docs/a/b/c.md", "src/i18n/x.json", "README.md", "agents/x/y/z.md"}
	var files []string
	for i := range 256 {
		files = append(files, shapes[i%len(shapes)]+strings.Repeat("x", i%7))
	}
	b.ResetTimer()
	for b.Loop() {
		for _, r := range recs {
			resolve(r, files)
		}
	}
}

// Resolve is called from concurrent tool calls; its caches and pools must
// give every goroutine the sequential answer.
func TestResolveConcurrent(t *testing.T) {
	recs := loadCorpus(t)
	want := make([]string, len(contextCases))
	for i, tc := range contextCases {
		for _, r := range recs {
			want[i] += summary(resolve(r, tc.files)) + "\n"
		}
	}
	done := make(chan string, 8*len(contextCases))
	for range 8 {
		go func() {
			for i, tc := range contextCases {
				got := ""
				for _, r := range recs {
					got += summary(resolve(r, tc.files)) + "\n"
				}
				if got != want[i] {
					done <- tc.name
					continue
				}
				done <- ""
			}
		}()
	}
	for range 8 * len(contextCases) {
		if name := <-done; name != "" {
			t.Errorf("%s: concurrent answer differs", name)
		}
	}
}

// TestCompiledForBrowsers: what the decision browser's path box is given
// for a pattern: the regex source of a glob that can match, or why not.
func TestCompiledForBrowsers(t *testing.T) {
	c := Compile(adr.MatcherPath, ".github/**")
	if src, ok := c.Source(); !ok || src == "" || !c.AllowsDot() || c.Problem() != "" {
		t.Errorf(".github/**: source %q %v, allowsDot %v, problem %q", src, ok, c.AllowsDot(), c.Problem())
	}
	c = Compile(adr.MatcherPath, "src/**")
	if _, ok := c.Source(); !ok || c.AllowsDot() {
		t.Errorf("src/**: source %v, allowsDot %v", ok, c.AllowsDot())
	}
	c = Compile(adr.MatcherPath, "/abs/**")
	if src, ok := c.Source(); ok || src != "" || c.Problem() == "" {
		t.Errorf("/abs/**: source %q %v, problem %q", src, ok, c.Problem())
	}
}

// resolve evaluates rec's matchers against files, as one call of
// get_decision_context does.
func resolve(rec *adr.Record, files []string) Resolution {
	return NewResolver(files, nil).Resolve(rec)
}
