package glob

import (
	"slices"
	"strings"
	"testing"
)

// TestRequiredEndings pins what the analysis finds for the shapes
// corpora use, and that it finds nothing where nothing can be required.
func TestRequiredEndings(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string
	}{
		{"**/*.proto", []string{".proto", ".proto/"}},
		{"*.md", []string{".md", ".md/"}},
		{"web/src/a/**/*.{ts,tsx}", []string{".ts", ".tsx"}},
		{"deploy/x/**/*.y?(a)ml", []string{".yml", ".yaml"}},
		{"libs/api/**/*_test.go", []string{"_test.go"}},
		{"docs/runbooks/a.md", []string{"docs/runbooks/a.md"}},
		{"@(foo|bar)", []string{"foo", "bar"}},
		{"*.{js,ts,jsx,tsx,mjs,cjs,json,yaml,yml}", []string{".js", ".ts", ".jsx", ".tsx", ".mjs", ".cjs", ".json", ".yaml", ".yml"}},
		// Nothing literal at the end, or a negation: nothing required.
		{"**", nil},
		{"services/*/auth/**", nil},
		{"src/*", nil},
		{"!(*.md)", nil},
		// A literal longer than maxEnding is required by its last units.
		{"*" + strings.Repeat("ab", 40), []string{strings.Repeat("ab", 32)}},
	}
	for _, tc := range tests {
		g := MustCompile(tc.pattern)
		if g.prog == nil {
			t.Fatalf("%q: no program", tc.pattern)
		}
		got := slices.Clone(g.prog.endings)
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q (regex %s): endings %q, want %q", tc.pattern, g.Source(), got, want)
		}
	}
}

// TestEndingsNeverRejectAMatch: candidates built to match, through every
// kind of node the analysis walks, are still matched with the filter on.
func TestEndingsNeverRejectAMatch(t *testing.T) {
	cases := map[string][]string{
		"**/*.proto":                  {"a.proto", "a/b/c.proto", "x.proto/"},
		"deploy/x/**/*.y?(a)ml":       {"deploy/x/a.yml", "deploy/x/b/c.yaml"},
		"*.{ts,tsx}":                  {"a.ts", "b.tsx"},
		"+(ab|c)":                     {"ab", "c", "abcab", "cc"},
		"src/*.[jt]s":                 {"src/a.js", "src/b.ts"},
		"a/**/b/**":                   {"a/b/c", "a/x/b/y"},
		"*(a|b)c":                     {"c", "abc", "bbac"},
		"x{1..3}":                     {"x1", "x2", "x3"},
		"*" + strings.Repeat("z", 70): {strings.Repeat("z", 71), "q" + strings.Repeat("z", 70)},
	}
	for pattern, cands := range cases {
		g := MustCompile(pattern)
		for _, c := range cands {
			if !g.Match(c) {
				t.Errorf("%q (regex %s, endings %q) does not match %q", pattern, g.Source(), g.prog.endings, c)
			}
		}
	}
}

// FuzzEndings holds the filtered matcher to the unfiltered program, with
// no backtracker in the loop, so that far more patterns run per second
// than in FuzzMatch.
func FuzzEndings(f *testing.F) {
	for _, s := range [][2]string{
		{"**/*.proto", "a/b.proto"}, {"*.{ts,tsx}", "a.tsx"}, {"x/**/*.y?(a)ml", "x/a.yaml"},
		{"+(a|b)c", "abc"}, {"*(x)", ""}, {"[ab]", "a"}, {"a?(b)c", "ac"}, {"*.\\d", "a.d"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, candidate string) {
		g, err := Compile(pattern)
		if err != nil || g.prog == nil {
			return
		}
		for _, c := range append([]string{candidate}, spelledFrom(pattern, candidate)...) {
			if c != "" && g.prog.match(toUnits(c)) && !g.Match(c) {
				t.Fatalf("%q (regex %s, prefix %q, endings %q) rejects %q, which its program matches",
					pattern, g.Source(), g.prog.prefix, g.prog.endings, c)
			}
		}
	})
}
