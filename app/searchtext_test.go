package app

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/adrkit/adrkit-go/domain/js/jsstring"
)

// slowContains is the definition normalizedContains must agree with.
func slowContains(s, needle string) bool {
	return strings.Contains(jsstring.Normalize(s), needle)
}

func TestNormalizedContainsCases(t *testing.T) {
	tests := []struct{ s, query string }{
		{"Adopt PostgreSQL", "postgresql"},
		{"Adopt PostgreSQL", "  POSTGRESQL "},
		{"Adopt PostgreSQL", "ＰＯＳＴＧＲＥＳＱＬ"},
		{"Adopt PostgreSQL", ""},
		{"   ", ""},
		{"", "a"},
		{"", ""},
		{"aaaaab", "aab"},
		{"AAAAAB", "aab"},
		{"aAaAaB", "aab"},
		{"xx", "xxx"},
		{"café", "cafe"},
		{"CAFÉ", "café"},
		{"cafe", "café"},
		{"ΟΔΟΣ ΣΑΣ", "οδος σας"},
		{"ﬁle", "file"},
		{"file", "ﬁle"},
		{"\u00a0pad\u00a0", "pad"},
		{"a\x1cb", "\x1cb"},
		{"tab\there", "b\th"},
		{"Z[\\]^_`a", "z[\\]^_`a"},
		{"@ABC", "@abc"},
		{"[abc", "[abc"},
		{"K", "k"},
		{"\u212a", "k"}, // KELVIN SIGN folds to k under NFKC
		{"İstanbul", "i̇stanbul"},
	}
	for _, tc := range tests {
		needle := jsstring.Normalize(tc.query)
		if got, want := normalizedContains(tc.s, needle), slowContains(tc.s, needle); got != want {
			t.Errorf("normalizedContains(%q, %q) = %v, want %v", tc.s, needle, got, want)
		}
	}
}

// TestNormalizedContainsRandom compares the fast path with the definition
// on random strings over an alphabet rich in case pairs, edge bytes
// around the letters, whitespace and a few non-ASCII characters.
func TestNormalizedContainsRandom(t *testing.T) {
	alphabet := []string{"a", "A", "b", "B", "z", "Z", "@", "[", "`", "{", " ", "\t", "\n", "\x00", "\x7f", "é", "É", "ﬁ", "\u00a0", "Σ", "ς"}
	rng := rand.New(rand.NewPCG(1, 2))
	str := func(max int) string {
		var b strings.Builder
		for range rng.IntN(max + 1) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 50000 {
		s := str(12)
		needle := jsstring.Normalize(str(4))
		if rng.IntN(3) == 0 && len(s) > 0 {
			// A needle cut from the haystack itself, so matches are common.
			a := rng.IntN(len(s))
			needle = jsstring.Normalize(s[a:min(len(s), a+1+rng.IntN(4))])
		}
		if got, want := normalizedContains(s, needle), slowContains(s, needle); got != want {
			t.Fatalf("normalizedContains(%q, %q) = %v, want %v", s, needle, got, want)
		}
	}
}

func FuzzNormalizedContains(f *testing.F) {
	f.Add("Adopt PostgreSQL", "postgres")
	f.Add("ΟΔΟΣ", "σ")
	f.Fuzz(func(t *testing.T, s, query string) {
		needle := jsstring.Normalize(query)
		if got, want := normalizedContains(s, needle), slowContains(s, needle); got != want {
			t.Fatalf("normalizedContains(%q, %q) = %v, want %v", s, needle, got, want)
		}
	})
}

func TestSnippet(t *testing.T) {
	body := "\n# Use PostgreSQL\n\n## Context\n\nOrders need transactions across several tables, and the team already runs **PostgreSQL** in production for billing.\n"
	for _, tc := range []struct {
		text, query string
		width       int
		want        string
	}{
		{body, "already runs", 200, "Orders need transactions across several tables, and the team already runs **PostgreSQL** in production for billing."},
		{body, "production", 40, "…in production for billing."},
		{body, "transactions", 30, "…need transactions across…"},
		{body, "ORDERS", 30, "Orders need transactions…"},
		{body, "use postgresql", 60, ""}, // only the heading holds it
		{body, "kubernetes", 60, ""},
		{body, "   ", 60, ""},
		{"Ｆｕｌｌ width line", "full", 60, "Ｆｕｌｌ width line"},
	} {
		if got := Snippet(tc.text, tc.query, tc.width); got != tc.want {
			t.Errorf("Snippet(%q, %d) = %q, want %q", tc.query, tc.width, got, tc.want)
		}
	}
}
