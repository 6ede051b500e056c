package glob

import (
	"errors"
	"strings"
	"testing"
)

// The observed truth table of corpus.md §10.3. Candidates are already
// normalised the way the affects resolver normalises files, and the
// resolver's dot-segment guard is not applied here (it lives in affects),
// so rows the guard decides are listed with the glob's own answer.
var specTruthTable = []struct {
	pattern string
	yes     []string
	no      []string
}{
	{"src/**", []string{"src/a.ts", "src/a/b/c.ts", "src", "src/", "src/a.ts"}, []string{"srcx/a", "src/.env", "src/.github/x", "SRC/a.ts", "x/src/a.ts", "src/./a"}},
	{"src/*", []string{"src/a.ts"}, []string{"src/a/b.ts", "src/.a", "src/"}},
	{"**", []string{"a", "a/b"}, []string{".a", "a/.b/c"}},
	{"**/*", nil, []string{".github/x"}},
	{"*.md", []string{"a.md"}, []string{"d/a.md", ".md"}},
	{"**/*.md", []string{"d/e/a.md", "a.md"}, []string{"d/.e/a.md"}},
	{".github/**", []string{".github/workflows/ci.yml", ".github"}, []string{"x/.github/a"}},
	{"**/.env", []string{".env", "a/b/.env"}, nil},
	{".*", []string{".env", ".."}, []string{".", "a"}},
	{"src/{a,b}.ts", []string{"src/a.ts", "src/{a,b}.ts"}, []string{"src/c.ts"}},
	{"src/[!ab].ts", []string{"src/a.ts", "src/!.ts", "src/[!ab].ts"}, []string{"src/c.ts"}},
	{"src/[^ab].ts", []string{"src/c.ts"}, []string{"src/a.ts"}},
	{"src/?.ts", []string{"src/a.ts"}, []string{"src/ab.ts", "src/.ts", "src/😀.ts"}},
	{"src/??.ts", []string{"src/😀.ts", "src/ab.ts"}, nil},
	{"src/!(a).ts", []string{"src/b.ts"}, []string{"src/a.ts"}},
	{"!src/**", []string{"!src/a.ts"}, []string{"src/a.ts"}},
	{"src//a.ts", []string{"src//a.ts"}, []string{"src/a.ts"}},
	{"src/../a.ts", []string{"src/../a.ts"}, []string{"a.ts"}},
	{"src/*.TS", []string{"src/a.TS"}, []string{"src/a.ts"}},
	{"src/**/", []string{"src/a/"}, []string{"src/a"}},
	{"docs/**", []string{"docs", "docs/guide.md"}, nil},
	{"services/**/events/*.ts", []string{"services/orders/events/created.ts", "services/events/created.ts"}, nil},
	{"db/migrations/*.sql", []string{"db/migrations/0001_init.sql"}, []string{"db/migrations/sub/x.sql"}},
	{"agents/**/*.md", []string{"agents/planner/notes.md", "agents/x.md"}, nil},
	{"Makefile", []string{"Makefile"}, []string{"makefile"}},
	{"ci/**", []string{"ci/run.sh"}, []string{"CI/run.sh"}},
	// Trailing-slash tolerance.
	{"src/a*", []string{"src/ab/"}, nil},
	{"**/*.md", []string{"a.md/"}, nil},
	{"**", []string{"a/"}, nil},
	{"src/*", []string{"src/a/"}, nil},
	{"*.md", []string{"a.md/"}, nil},
	{"src/*.ts", nil, []string{"src/a.ts/"}},
	{"docs/**/*.md", nil, []string{"docs/a.md/"}},
	{"src/a", nil, []string{"src/a/"}},
	// Glued globstar is a star; a/**/b spans zero segments.
	{"a/**b", []string{"a/xb", "a/b"}, []string{"a/x/b"}},
	{"a/**/b", []string{"a/b", "a/x/y/b"}, []string{"a/.x/b"}},
	// Escapes, metacharacters, unbalanced openers.
	{`src/\*.ts`, []string{"src/*.ts"}, []string{"src/a.ts"}},
	{"a.b", []string{"a.b"}, []string{"axb"}},
	{"a+b", []string{"a+b"}, []string{"aab"}},
	{"$(x)", []string{"$(x)"}, []string{"x"}},
	{"a[*", []string{"a[b", "a["}, []string{"ab"}},
	{"src/{1..10}.ts", []string{"src/1.ts", "src/0.ts"}, []string{"src/5.ts", "src/10.ts"}},
	{"{a..c}", []string{"a", "b", "c"}, []string{"d"}},
	{"{a}", []string{"{a}"}, []string{"a"}},
	{"a{*", []string{"a{*"}, []string{"a{x", "a"}},
	{"a/[z-a]*", []string{"a/[z-a]*"}, []string{"a/z", "a/[z-a]x"}},
	{"./src/*.ts", []string{"src/a.ts"}, []string{"./src/a.ts"}},
	{`a\b`, []string{"a", `a\b`}, []string{"a/b", "ab"}},
}

func TestSpecTruthTable(t *testing.T) {
	for _, tc := range specTruthTable {
		g, err := Compile(tc.pattern)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tc.pattern, err)
		}
		for _, c := range tc.yes {
			if !g.Match(c) {
				t.Errorf("%q should match %q (regex %s)", tc.pattern, c, g.Source())
			}
		}
		for _, c := range tc.no {
			if g.Match(c) {
				t.Errorf("%q should not match %q (regex %s)", tc.pattern, c, g.Source())
			}
		}
	}
}

// The reference regex sources of corpus.md §10.3.
var specSources = []struct{ pattern, source string }{
	{"src/**", `^(?:src(?:\/(?!\.)(?:(?:(?!(?:^|\/)\.).)*?)|$))$`},
	{"src/*", `^(?:src\/(?!\.)(?=.)[^/]*?\/?)$`},
	{"**", `^(?:(?!\.)(?:(?:(?!(?:^|\/)\.).)*?)\/?)$`},
	{"**/*.md", `^(?:(?:(?!\.)(?:(?:(?!(?:^|\/)\.).)*?)\/)?(?!\.)(?=.)[^/]*?\.md\/?)$`},
	{"docs/**/*.md", `^(?:docs(?:\/(?!\.)(?:(?:(?!(?:^|\/)\.).)*?)\/|\/|$)(?!\.)(?=.)[^/]*?\.md)$`},
	{"src/{a,b}.ts", `^(?:src\/(a|b)\.ts)$`},
	{"src/[!ab].ts", `^(?:src\/(?:\[!ab\]|[!ab])\.ts)$`},
	{"src/!(a).ts", `^(?:src\/(?:(?!(?:a))[^/]*?)\.ts)$`},
	{"src/?.ts", `^(?:src\/[^.\/]\.ts)$`},
	{"src/{1..10}.ts", `^(?:src\/[1-10]\.ts)$`},
	{`a\b`, `^(?:^(?:a\b)$)$`},
	{"**/.env", `^(?:(?:^|\/|(?:(?:(?!(?:^|\/)\.).)*?)\/)\.env)$`},
	// Sources the reference replaces by its never-matching regex.
	{"a{*", `$^`},
	{"a/[z-a]*", `$^`},
}

func TestSpecSources(t *testing.T) {
	for _, tc := range specSources {
		if got := MustCompile(tc.pattern).Source(); got != tc.source {
			t.Errorf("%q:\n got %s\nwant %s", tc.pattern, got, tc.source)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		err     error
	}{
		{"empty", "", ErrEmpty},
		{"70000 x", strings.Repeat("x", 70000), ErrTooLong},
		{"one over the limit", strings.Repeat("x", MaxPatternLength+1), ErrTooLong},
		{"limit counts UTF-16 units", strings.Repeat("😀", MaxPatternLength/2+1), ErrTooLong},
		{"at the limit", strings.Repeat("x", MaxPatternLength), nil},
		{"astral at the limit", strings.Repeat("😀", MaxPatternLength/2), nil},
		{"fast-path shape over the limit", "*" + strings.Repeat(".md", MaxPatternLength/3+1), ErrTooLong},
		{"fast-path shape at the limit", "*" + strings.Repeat(".md", MaxPatternLength/3), nil},
		// The reference's parser throws a TypeError here: the brace range
		// pops the tokens of the enclosing extglob, which it then edits.
		{"reference parser throws", "{1..*(a|}|)", ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(tc.pattern)
			if !errors.Is(err, tc.err) {
				t.Errorf("Compile: got %v, want %v", err, tc.err)
			}
		})
	}
}

func TestEmptyCandidateNeverMatches(t *testing.T) {
	for _, p := range []string{"**", "*", "x", "{,}", "?(a)"} {
		if MustCompile(p).Match("") {
			t.Errorf("%q matched the empty string", p)
		}
	}
}

func TestLiteralEqualityAlwaysMatches(t *testing.T) {
	for _, p := range []string{"src/{a,b}.ts", "a{*", "a/[z-a]*", "(", "a\\", "!x", "[abc]", "a/../b", ".git/**", "x**y"} {
		if !MustCompile(p).Match(p) {
			t.Errorf("%q does not match itself", p)
		}
	}
}

// Readable cases for each construct (checked against the reference with
// the oracle tests; testdata/reference.json holds many more).
var constructCases = []struct {
	name, pattern string
	yes, no       []string
}{
	{"star stays in a segment", "a/*.ts", []string{"a/x.ts", "a/x.y.ts"}, []string{"a/b/x.ts", "a/.x.ts"}},
	{"star needs a character", "a/*", []string{"a/x"}, []string{"a/", "a"}},
	{"three stars are one", "a/***", []string{"a/x"}, []string{"a/x/y"}},
	{"globstar in the middle", "a/**/z", []string{"a/z", "a/b/c/z"}, []string{"a/.b/z", "az"}},
	{"leading globstar", "**/z", []string{"z", "a/z", "a/b/z"}, []string{".a/z", "az"}},
	{"trailing slash globstar", "a/**/", []string{"a/b/", "a/"}, []string{"a/b", "a"}},
	{"qmark at segment start", "a/?b", []string{"a/xb"}, []string{"a/.b", "a/b"}},
	{"qmark mid segment may be a dot", "a/b?", []string{"a/b.", "a/bx"}, []string{"a/b", "a/bxy"}},
	{"class range", "[a-c]x", []string{"ax", "cx"}, []string{"dx", "bxx"}},
	{"plain class also matches its text", "[ab]x", []string{"ax", "[ab]x"}, []string{"cx"}},
	{"negated class never matches a slash", "a[^b]c", []string{"axc"}, []string{"abc", "a/c"}},
	{"posix alpha", "[[:alpha:]]1", []string{"a1", "Z1"}, []string{"11", "é1"}},
	{"posix digit with more", "v[[:digit:]x]", []string{"v7", "vx"}, []string{"vy"}},
	{"class keeps a dot", "[.]env", []string{".env"}, []string{"xenv"}},
	{"brace alternation", "{src,lib}/*.js", []string{"src/a.js", "lib/b.js"}, []string{"test/a.js"}},
	{"nested braces", "a{b,{c,d}}", []string{"ab", "ac", "ad"}, []string{"a{b,{c,d}}x"}},
	{"empty alternative", "a{,.md}", []string{"a", "a.md"}, []string{"a.txt"}},
	{"letter range", "x{a..c}", []string{"xa", "xb", "xc"}, []string{"xd"}},
	{"number range", "v{1..3}", []string{"v1", "v2", "v3"}, []string{"v4", "v12"}},
	{"brace with dot segment does not opt in", "{.github,src}/**", []string{"src/a", ".github/x"}, []string{"lib/a"}},
	{"at extglob", "@(a|b).md", []string{"a.md", "b.md"}, []string{"ab.md", ".md"}},
	{"qmark extglob", "x?(y).md", []string{"x.md", "xy.md"}, []string{"xyy.md"}},
	{"star extglob", "x*(y).md", []string{"x.md", "xyyy.md"}, []string{"xz.md"}},
	{"plus extglob", "x+(y).md", []string{"xy.md", "xyy.md"}, []string{"x.md"}},
	{"negated extglob", "!(*.d).ts", []string{"a.ts"}, []string{"a.d.ts"}},
	{"negated extglob mid path", "src/!(vendor)/**", []string{"src/app/x"}, []string{"src/vendor/x"}},
	{"risky repetition becomes literal", "*(a|aa)b", []string{"*(a|aa)b"}, []string{"aab", "b"}},
	{"repetition of single characters flattens", "+(*(a)|*(b))", []string{"abba", "a"}, []string{"c"}},
	{"escaped star", `a\*b`, []string{"a*b"}, []string{"axb"}},
	{"escaped brace", `a\{b,c}`, []string{"a{b,c}"}, []string{"ab"}},
	{"quoted text is literal", `"a*"/x`, []string{"a*/x"}, []string{"ab/x"}},
	{"leading bang is literal", "!a/b", []string{"!a/b"}, []string{"a/b"}},
	{"regex group passes through", "x/(a|b)", []string{"x/a", "x/b"}, []string{"x/(a|b)x"}},
	{"unbalanced paren", "a/(b", []string{"a/(b"}, []string{"a/b"}},
	{"unbalanced bracket", "a/[b", []string{"a/[b"}, []string{"a/b"}},
	{"case-sensitive", "README.md", []string{"README.md"}, []string{"readme.md"}},
	{"astral characters are two units", "?", []string{"a"}, []string{"😀"}},
	{"non-ASCII literal", "straße/*", []string{"straße/x"}, []string{"strasse/x"}},
}

func TestConstructs(t *testing.T) {
	for _, tc := range constructCases {
		t.Run(tc.name, func(t *testing.T) {
			g := MustCompile(tc.pattern)
			for _, c := range tc.yes {
				if !g.Match(c) {
					t.Errorf("%q should match %q (regex %s)", tc.pattern, c, g.Source())
				}
			}
			for _, c := range tc.no {
				if g.Match(c) {
					t.Errorf("%q should not match %q (regex %s)", tc.pattern, c, g.Source())
				}
			}
		})
	}
}

// Patterns on which the reference never finishes compiling; we stop at
// the end of the pattern instead.
func TestReferenceLoops(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		loops   bool
	}{
		{`a/\\\\`, true},
		{`a/b\\\\\\\\`, true},
		{`[][[:alpha:`, true},
		{`a/\\\\x`, false},
		{`a/\\`, false},
		{`src/**`, false},
	} {
		if got := referenceLoops(toUnits(tc.pattern)); got != tc.loops {
			t.Errorf("referenceLoops(%q) = %v", tc.pattern, got)
		}
		if _, err := Compile(tc.pattern); err != nil {
			t.Errorf("Compile(%q): %v", tc.pattern, err)
		}
	}
}
