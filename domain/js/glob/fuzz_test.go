package glob

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
)

// FuzzMatch checks properties that hold for every pattern and candidate:
//
//   - nothing panics, and compiling and matching are deterministic;
//   - Compile fails only for the empty pattern, for patterns longer than
//     65536 UTF-16 units, and for the one construction that makes the
//     reference's parser throw (a brace range closing inside a repeated
//     extglob, which needs "{", "..", "}" and "(");
//   - a candidate equal to the pattern always matches;
//   - the memoised matcher agrees with the specification-style
//     backtracker whenever the latter finishes within its budget;
//   - dot safety: a pattern written only with letters, digits, "_", "-",
//     "/", "*", "?" and "." where no segment starts with "." never matches
//     a candidate that has a segment starting with "." — in particular a
//     ".." segment.
//
// The more general property "a pattern without a `..` segment never
// matches a candidate with a `..` segment" is NOT true of the dialect:
// `.*` matches "..", as do `[.][.]`, `{.,x}{.,x}` and `@(.)@(.)`, because
// classes, braces and extglobs may produce a leading dot and `.*` spells
// one (TestDotDotCounterexamples pins these). The dot-safety property
// above is the one the dialect does guarantee, and it is what makes the
// affects resolver's textual dot-segment guard sound for ordinary
// patterns.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"src/**", "src/a.ts"}, {"**/*.md", "a/.b/c.md"}, {".*", ".."}, {"src/{a,b}.ts", "src/b.ts"},
		{"*(a|aa)*(a|aa)b", strings.Repeat("a", 200)}, {"*(a|(a|aa)*aa)0", strings.Repeat("a", 300)}, {"a/**/b", "a/../b"}, {"[!ab]", "!"},
		{"{1..*(a|}|)", "x"}, {"!(a)", "b"}, {`{a,b}\1`, "aa"}, {"?😀", "x😀"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, candidate string) {
		g, err := Compile(pattern)
		n := len(utf16.Encode([]rune(pattern)))
		switch {
		case n == 0:
			if !errors.Is(err, ErrEmpty) {
				t.Fatalf("empty pattern: %v", err)
			}
			return
		case n > MaxPatternLength:
			if !errors.Is(err, ErrTooLong) {
				t.Fatalf("long pattern: %v", err)
			}
			return
		case err != nil:
			if !errors.Is(err, ErrInvalid) || !strings.Contains(pattern, "..") ||
				!strings.Contains(pattern, "{") || !strings.Contains(pattern, "}") || !strings.Contains(pattern, "(") {
				t.Fatalf("Compile(%q): %v", pattern, err)
			}
			return
		}
		again := MustCompile(pattern)
		if g.Source() != again.Source() {
			t.Fatalf("Compile(%q) not deterministic", pattern)
		}
		got := g.Match(candidate)
		if got != again.Match(candidate) || got != g.Match(candidate) {
			t.Fatalf("Match(%q, %q) not deterministic", pattern, candidate)
		}
		if !g.Match(pattern) {
			t.Fatalf("%q does not match itself", pattern)
		}
		if g.prog != nil && candidate != "" && candidate != pattern {
			re, err := parseRegex(sourceUnits(g))
			if err != nil {
				t.Fatal(err)
			}
			if bt := re.backtrackMatch(toUnits(candidate)); bt != got && !budgetExceeded(re, candidate) {
				t.Fatalf("%q (regex %s) vs %q: memo %v, backtrack %v", pattern, g.Source(), candidate, got, bt)
			}
		}
		// The pre-filters (prefix, required endings) never reject what
		// the program itself matches, on the candidate and on candidates
		// spelled from the pattern, which match far more often.
		if g.prog != nil {
			for _, c := range append([]string{candidate}, spelledFrom(pattern, candidate)...) {
				if c != "" && g.prog.match(toUnits(c)) && !g.Match(c) {
					t.Fatalf("%q (regex %s, prefix %q, endings %q) rejects %q, which its program matches",
						pattern, g.Source(), g.prog.prefix, g.prog.endings, c)
				}
			}
		}
		safe := dotSafe(pattern)
		sg := MustCompile(safe)
		for _, c := range []string{candidate, ".." + "/" + candidate, candidate + "/..", "a/../" + candidate, "." + candidate} {
			if hasDotStartSegment(c) && sg.Match(c) {
				t.Fatalf("dot-safe %q (regex %s) matches %q", safe, sg.Source(), c)
			}
		}
	})
}

// spelledFrom writes candidates from a pattern's own text: its wildcards
// and groups replaced by plain text, with fill (the fuzzed candidate)
// standing in for a star once.
func spelledFrom(pattern, fill string) []string {
	strip := strings.NewReplacer("!", "", "@", "", "+", "", "(", "", ")", "", "|", "", "[", "", "]", "", "{", "", "}", "", ",", "", "\\", "")
	out := []string{
		strings.NewReplacer("**", "a/b", "*", "x", "?", "y").Replace(pattern),
		strings.NewReplacer("**", "", "*", "", "?", "z").Replace(pattern),
		strip.Replace(strings.NewReplacer("**", "q", "*", "", "?", "").Replace(pattern)),
		strings.Replace(strings.ReplaceAll(pattern, "?", "w"), "*", fill, 1),
	}
	for _, c := range out[:3] {
		out = append(out, c+"/", c+"/x", "x/"+c)
	}
	return out
}

// budgetExceeded reports whether the backtracker gives up on candidate.
func budgetExceeded(re *regex, candidate string) bool {
	b := &backtracker{s: toUnits(candidate)}
	caps := make([]int, 2*(re.captures+1))
	for i := range caps {
		caps[i] = -1
	}
	for start := 0; start <= len(b.s) && !b.aborted; start++ {
		if b.m(re.root, false, start, caps, func(int, []int) bool { return true }) {
			return false
		}
	}
	return b.aborted
}

// dotSafe maps pattern into the dot-safe alphabet: other characters become
// letters, and a "." that would start a segment becomes "d".
func dotSafe(pattern string) string {
	var b strings.Builder
	atStart := true
	for _, r := range pattern {
		switch {
		case r == '/':
			b.WriteRune(r)
			atStart = true
			continue
		case r == '.' && atStart:
			b.WriteByte('d')
		case r == '.' || r == '*' || r == '?' || r == '-' || r == '_' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'):
			b.WriteRune(r)
		default:
			b.WriteByte('x')
		}
		atStart = false
	}
	if b.Len() == 0 {
		return "x"
	}
	return b.String()
}

func hasDotStartSegment(c string) bool {
	for _, seg := range strings.Split(c, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

func TestDotDotCounterexamples(t *testing.T) {
	for _, p := range []string{".*", "[.][.]", "{.,x}{.,x}", "@(.)@(.)", "x/[.][.]"} {
		c := ".."
		if strings.HasPrefix(p, "x/") {
			c = "x/.."
		}
		if !MustCompile(p).Match(c) {
			t.Errorf("%q no longer matches %q: update FuzzMatch's documentation", p, c)
		}
	}
	// Only the whole-pattern shape ".*" reaches "..": after a leading dot
	// inside a longer pattern a star refuses "." and "..".
	if MustCompile("a/.*").Match("a/..") {
		t.Error(`"a/.*" matches "a/.."`)
	}
}

func TestDotSafeExamples(t *testing.T) {
	for _, tc := range []struct{ pattern, candidate string }{
		{"**", "a/../b"}, {"*", ".."}, {"?*", ".."}, {"**/*", "../a"}, {"a/**/b", "a/../b"},
		{"a*/**", "ab/.x"}, {"*.*", ".a.b"}, {"**?", ".."}, {"a/*?", "a/.b"},
	} {
		if MustCompile(tc.pattern).Match(tc.candidate) {
			t.Errorf("%q matches %q", tc.pattern, tc.candidate)
		}
	}
}
