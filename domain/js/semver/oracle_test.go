//go:build oracle

package semver

// Differential tests against node-semver 7.8.5 itself, run by
// internal/oracletest (its doc says how).

import (
	"math/rand/v2"
	"testing"

	"github.com/adrkit/adrkit-go/internal/oracletest"
)

func TestOracleTable(t *testing.T) {
	o := oracletest.Start(t)
	for _, tc := range rangeCases {
		if want := o.Ask(t, map[string]any{"range": tc.in}).V; want != tc.valid {
			t.Errorf("table says %q is %v; node-semver says %v", tc.in, tc.valid, want)
		}
	}
}

func TestOracleRandom(t *testing.T) {
	o := oracletest.Start(t)
	pieces := []string{"1", "2", "0", "01", "10", "9007199254740991", "9007199254740992", ".", ".", ".", "x", "X", "*",
		"^", "~", "~>", ">", "<", "=", ">=", "<=", " ", " ", "-", " - ", "||", "v", "a", "beta", "rc", "+", "build",
		"-0", "\t", "\u00a0", "=>", "latest", "1.2.3", "x.x", "1.x", "^1", "~1.2", "1.2.3-a.b", "+b.1",
		"0.0", "99999999999999999999", "\u2028", "\ufeff", "|", "-a", "-1"}
	seed := oracletest.Seed(3)
	r := rand.New(rand.NewPCG(seed, 4))
	failures := 0
	for i := 0; i < 100000 && failures < 30; i++ {
		s := oracletest.RandomFrom(r, pieces, 8)
		if got, want := ValidRange(s), o.Ask(t, map[string]any{"range": s}).V; got != want {
			t.Errorf("ValidRange(%q) = %v, node-semver says %v", s, got, want)
			failures++
		}
	}
}
