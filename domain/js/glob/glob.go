// Package glob implements the path-matcher glob dialect of the reference
// (picomatch 4.0.5 with dot:false, nonegate, case-sensitive, "/"-separated).
//
// A pattern is translated to the JavaScript regular expression the
// reference would build, and that regex is run by a matcher of our own
// over UTF-16 code units, so `?` and classes see one code unit and an
// emoji needs `??`. Highlights of the dialect (corpus.md §10.3 has the
// rules, testdata/reference.json the reference's answers for ~700
// patterns):
//
//   - `*` matches within a segment and never starts a segment with ".";
//     `**` as a whole segment spans any number of segments, none starting
//     with "."; glued to other text it acts like `*`.
//   - Classes, POSIX classes, braces with ranges, extglobs and backslash
//     escapes work as in the reference, quirks included: `[!ab]` is not a
//     negation (nonegate), `{1..10}` is the class `[1-10]`, and a class
//     without regex-special characters also matches its own text.
//   - A pattern whose regex JavaScript would reject (an unbalanced group,
//     a reversed range) never matches, except a candidate equal to the
//     pattern, which always matches. Compiling it is not an error.
//
// Matching never backtracks exponentially: regexes without
// backreferences run in time proportional to program size × input length.
// That bound, which no timeout may replace, is why the engine is our own
// (ADR 0029 compares it with regexp2 and RE2).
//
// Deliberate departures, all on patterns no one writes:
//   - The reference loops forever on a few malformed patterns (a run of
//     backslashes at the very end, "[][[:alpha:"); we stop at the end of
//     the pattern instead.
//   - Regexes with backreferences (`{a,b}\1`) are matched by a bounded
//     backtracker that reports no match after about a million steps, and
//     regexes that expand to more than a million instructions never match.
//   - Limits of the JavaScript engine are not reproduced: the reference
//     overflows its stack on several thousand unclosed "(" (reporting the
//     pattern invalid) and rejects regexes with tens of thousands of
//     groups; we accept both.
//
// Like the reference, compiling takes time quadratic in the nesting depth
// of literal braces (`{{{...}}}`).
package glob

import (
	"errors"
	"strings"
)

// Errors returned by Compile. Only ErrTooLong is reachable for a
// schema-valid pattern in practice; all of them mean "invalid glob".
var (
	ErrTooLong = errors.New("glob: pattern is longer than 65536 UTF-16 code units")
	ErrEmpty   = errors.New("glob: empty pattern")
	ErrInvalid = errors.New("glob: pattern cannot be compiled")
)

// Glob is a compiled pattern.
type Glob struct {
	pattern string
	prog    *program // nil when the regex never matches or needs backtracking
	re      *regex   // set when the regex has backreferences
}

// Compile compiles pattern. It fails only for patterns the reference
// cannot compile either (invalid-glob: in practice, over-long patterns).
func Compile(pattern string) (*Glob, error) {
	units := toUnits(pattern)
	if len(units) == 0 {
		return nil, ErrEmpty
	}
	src, err := translate(units)
	switch {
	case errors.Is(err, ErrTooLong):
		return nil, ErrTooLong
	case err != nil:
		return nil, ErrInvalid
	}
	g := &Glob{pattern: pattern}
	re, err := parseRegex(src)
	if err != nil {
		// The reference substitutes a regex that never matches.
		return g, nil
	}
	if re.hasBackrefs {
		g.re = re
		return g, nil
	}
	if prog, err := compileProgram(re); err == nil {
		g.prog = prog
	}
	return g, nil
}

// Match reports whether candidate (already normalised by the caller)
// matches.
func (g *Glob) Match(candidate string) bool {
	if candidate == "" {
		return false
	}
	if candidate == g.pattern {
		return true
	}
	switch {
	case g.prog != nil:
		if !strings.HasPrefix(candidate, g.prog.prefix) ||
			(len(g.prog.endings) > 0 && !endsWithAny(candidate, g.prog.endings)) {
			return false
		}
		return g.prog.match(toUnits(candidate))
	case g.re != nil:
		return g.re.backtrackMatch(toUnits(candidate))
	}
	return false
}

// Source returns the JavaScript regex source the pattern translates to,
// as the reference would build it ("$^" when the reference would fall
// back to its never-matching regex), so that a browser can evaluate the
// pattern as Match does (adrkit site). It translates the pattern again:
// nothing on the matching path needs the source kept.
func (g *Glob) Source() string {
	src, err := translate(toUnits(g.pattern))
	if err != nil {
		return "$^"
	}
	if _, err := parseRegex(src); err != nil {
		return "$^"
	}
	return unitsString(src)
}
