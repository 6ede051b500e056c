package semver

import (
	"strings"
	"testing"
)

// The table of corpus.md §10.4 (the range part of each package pattern,
// trimmed as the affects resolver trims it) plus the grammar's corners,
// each checked against node-semver 7.8.5 (see oracle_test.go).
var rangeCases = []struct {
	in    string
	valid bool
}{
	// §10.4, valid.
	{"^1", true}, {">=19", true}, {"~1.2", true}, {"1.x", true}, {"*", true}, {"x", true},
	{"1.2.3 - 2.0.0", true}, {">=1 <2", true}, {"1 || 2", true}, {"v1.2.3", true}, {"=1.2.3", true},
	{"^1", true}, {"^1.2.3-beta.1", true}, {">= 1.2", true}, {"^1 ||", true}, {"||", true},
	{"1.2.3+build", true}, {"<=1.0.0-rc", true}, {"~>1.2", true}, {">1.2.x", true}, {"1.2.*", true},
	{"^2", true},
	// §10.4, invalid.
	{"latest", false}, {"not-a-range", false}, {"1.2.3.4", false}, {"01.2.3", false}, {"=>1", false},
	{`""`, false},
	// Empty and blank ranges mean "any version" to node-semver (the
	// resolver rejects an empty range before asking).
	{"", true}, {"   ", true},
	// Hyphen ranges.
	{"1 - 2", true}, {"1.2 - 3.4.5", true}, {"x - 2", true}, {"1.2.3-pre - 2.3.4-pre", true},
	{"1.2.3 -2.0.0", false}, {"1.2.3- 2.0.0", false}, {"1 - 2 - 3", false}, {"=1.2.3 - 2", false},
	// Comparators and operators.
	{">1", true}, {"<1", true}, {"<=1.2.3", true}, {">=1.2.3-0", true}, {"= 1.2.3", true},
	{"> 1.2.3 < 2", true}, {"<>1", false}, {">>1", false}, {"!1", false},
	// A lone operator is not a comparator; "=" and "v" before a version are
	// eaten by the x-range rewrite, so "==1" and "vv1" pass.
	{">=", false}, {"<", false}, {"=", false}, {"==1", true}, {"vv1", true},
	// Tilde and caret.
	{"~", false}, {"^", false}, {"~>", false}, {"~ 1.2.3", true}, {"^ 1.2.3", true}, {"~1.2.3-beta", true},
	{"^0.0.1", true}, {"^0.1", true}, {"^0.x", true},
	// Wildcards before a number are accepted by tilde and caret (only
	// plain x-ranges check their order).
	{"~x.1", true}, {"^1.x.3", true},
	// X-ranges.
	{"X", true}, {"1.X.x", true}, {"1.2.X", true}, {"x.x.x", true}, {"*.*.*", true}, {"1.*.3", false},
	{">=1.x", true}, {"<=1.x", true}, {"<1.x", true}, {"=1.x", true}, {">x", true}, {"<*", true},
	// Versions.
	{"v1", true}, {"1.2.3-", false}, {"1.2.3-a..b", false}, {"1.2.3-01", false},
	{"1.2.3-0a", true}, {"1.2.3+", false}, {"1.2.3+a+b", true}, {"1.2.3-a+b.c", true},
	{"1.2", true}, {"1", true}, {"1.2.3.4.5", false}, {"1..2", false}, {"a.b.c", false},
	// Numbers at and beyond 2^53-1.
	{"9007199254740991.0.0", true}, {"9007199254740992.0.0", false}, {"~9007199254740991", false},
	{">9007199254740990", true}, {">9007199254740991", false}, {"1.9007199254740991.0", true},
	{"^0.9007199254740991", false}, {strings.Repeat("1", 300), false},
	// Whitespace of every JavaScript kind.
	{"\u00a0^1\u3000", true}, {"1\u2028||\t2", true}, {">=\u00a01.2.3", true},
	// Multiple sets.
	{"1 || 2 || x", true}, {"1 || nope", false}, {"||||", true}, {"1 ||| 2", false},
}

func TestValidRange(t *testing.T) {
	for _, tc := range rangeCases {
		if got := ValidRange(tc.in); got != tc.valid {
			t.Errorf("ValidRange(%q) = %v, want %v", tc.in, got, tc.valid)
		}
	}
}
