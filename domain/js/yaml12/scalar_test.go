package yaml12

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestCoreFormsMatchTheirExpressions checks each hand-written Core-schema
// form against the regular expression its comment gives, on every short
// string over the characters the forms care about and on random longer
// ones.
func TestCoreFormsMatchTheirExpressions(t *testing.T) {
	forms := []struct {
		re string
		fn func(string) bool
	}{
		{`^(?:~|[Nn]ull|NULL)?$`, isNull},
		{`^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$`, isBool},
		{`^0o[0-7]+$`, isOctInt},
		{`^[-+]?[0-9]+$`, isDecInt},
		{`^0x[0-9a-fA-F]+$`, isHexInt},
		{`^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$`, isInfNaN},
		{`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$`, isExpFloat},
		{`^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$`, isFloat},
	}
	const alphabet = "09.+-eExoaF~n"
	var inputs []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		inputs = append(inputs, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+string(c), n-1)
		}
	}
	gen("", 4)
	words := []string{"null", "Null", "NULL", "nULL", "true", "True", "TRUE", "tRue", "false", "FALSE", "~", ".inf", "-.Inf",
		"+.INF", ".nan", ".NaN", ".NAN", "-.nan", "0o17", "0x1F", "0X1F", "1e3", "1.e-2", ".5E+7", "2026-01-01", "0.1.0", "12:30"}
	inputs = append(inputs, words...)
	r := rand.New(rand.NewPCG(5, 6))
	for range 50000 {
		var b strings.Builder
		for range 1 + r.IntN(10) {
			if r.IntN(4) == 0 {
				b.WriteString(words[r.IntN(len(words))])
			} else {
				b.WriteByte("0123456789.+-eEoxabfINnl~ "[r.IntN(26)])
			}
		}
		inputs = append(inputs, b.String())
	}
	for _, f := range forms {
		re := regexp.MustCompile(f.re)
		for _, s := range inputs {
			if got, want := f.fn(s), re.MatchString(s); got != want {
				t.Errorf("%s on %q: %v, want %v", f.re, s, got, want)
			}
		}
	}
}
