//go:build oracle

package semver

// Differential tests against node-semver 7.8.5 itself:
//
//	npm install --prefix /tmp/oracle semver@7.8.5
//	NODE_PATH=/tmp/oracle/node_modules go test -tags oracle ./domain/semver/

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

type oracle struct {
	in  *json.Encoder
	out *bufio.Scanner
}

func startOracle(t *testing.T) *oracle {
	t.Helper()
	if os.Getenv("NODE_PATH") == "" {
		t.Skip("NODE_PATH not set")
	}
	cmd := exec.Command("node", "testdata/oracle/oracle.js")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	return &oracle{in: json.NewEncoder(stdin), out: sc}
}

func (o *oracle) valid(t *testing.T, r string) bool {
	t.Helper()
	if err := o.in.Encode(map[string]string{"range": r}); err != nil {
		t.Fatal(err)
	}
	if !o.out.Scan() {
		t.Fatal("oracle died")
	}
	var a struct{ V bool }
	if err := json.Unmarshal(o.out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	return a.V
}

func TestOracleTable(t *testing.T) {
	o := startOracle(t)
	for _, tc := range rangeCases {
		if want := o.valid(t, tc.in); want != tc.valid {
			t.Errorf("table says %q is %v; node-semver says %v", tc.in, tc.valid, want)
		}
	}
}

func TestOracleRandom(t *testing.T) {
	o := startOracle(t)
	pieces := []string{"1", "2", "0", "01", "10", "9007199254740991", "9007199254740992", ".", ".", ".", "x", "X", "*",
		"^", "~", "~>", ">", "<", "=", ">=", "<=", " ", " ", "-", " - ", "||", "v", "a", "beta", "rc", "+", "build",
		"-0", "\t", "\u00a0", "=>", "latest", "1.2.3", "x.x", "1.x", "^1", "~1.2", "1.2.3-a.b", "+b.1",
		"0.0", "99999999999999999999", "\u2028", "\ufeff", "|", "-a", "-1"}
	seed := uint64(3)
	if s := os.Getenv("ORACLE_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	r := rand.New(rand.NewPCG(seed, 4))
	failures := 0
	for i := 0; i < 100000 && failures < 30; i++ {
		var b strings.Builder
		for n := 1 + r.IntN(8); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := ValidRange(s), o.valid(t, s); got != want {
			t.Errorf("ValidRange(%q) = %v, node-semver says %v", s, got, want)
			failures++
		}
	}
}
