// Package oracletest runs the JavaScript oracle of the differential tests
// (build tag "oracle"): oracle.js answers glob, regex and semver range
// questions with the reference's own libraries, one JSON line for each
// JSON line asked. It needs Node.js, and picomatch 4.0.5 and semver 7.8.5
// on NODE_PATH:
//
//	npm install --prefix /tmp/oracle picomatch@4.0.5 semver@7.8.5
//	NODE_PATH=/tmp/oracle/node_modules go test -tags oracle ./domain/js/glob/ ./domain/js/semver/
//
// The normal run never starts it: the tables and testdata of the packages
// hold what its runs established.
package oracletest

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

//go:embed oracle.js
var script []byte

// Oracle is a running oracle.js.
type Oracle struct {
	in  *json.Encoder
	out *bufio.Scanner
}

// Start starts the oracle for the test, which is skipped when NODE_PATH
// is not set; the process ends with the test.
func Start(t testing.TB) *Oracle {
	t.Helper()
	if os.Getenv("NODE_PATH") == "" {
		t.Skip("NODE_PATH not set")
	}
	path := filepath.Join(t.TempDir(), "oracle.js")
	if err := os.WriteFile(path, script, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", path)
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
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	return &Oracle{in: json.NewEncoder(stdin), out: sc}
}

// Answer is the oracle's reply; each question fills its own fields.
type Answer struct {
	// Src is the regex source a glob translates to; Valid is false when
	// the reference fell back to its never-matching regex.
	Src   string `json:"src"`
	Valid bool   `json:"valid"`
	// M holds one answer per candidate of a glob or regex question.
	M []bool `json:"m"`
	// Err is the exception a glob or regex question raised.
	Err string `json:"err"`
	// V is node-semver's verdict on a range.
	V bool `json:"v"`
}

// Ask sends one question: {"glob": p, "c": candidates}, {"re": source,
// "c": candidates} or {"range": r}.
func (o *Oracle) Ask(t testing.TB, q map[string]any) Answer {
	t.Helper()
	if err := o.in.Encode(q); err != nil {
		t.Fatal(err)
	}
	if !o.out.Scan() {
		t.Fatalf("oracle died: %v", o.out.Err())
	}
	var a Answer
	if err := json.Unmarshal(o.out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// Seed is ORACLE_SEED when set, else def: a failing random run is
// repeated, or a new one tried, by seed.
func Seed(def uint64) uint64 {
	if s, err := strconv.ParseUint(os.Getenv("ORACLE_SEED"), 10, 64); err == nil {
		return s
	}
	return def
}

// N is ORACLE_N when set, else def: how many random questions to ask.
func N(def int) int {
	if n, err := strconv.Atoi(os.Getenv("ORACLE_N")); err == nil {
		return n
	}
	return def
}

// RandomFrom joins between 1 and maxLen pieces drawn from pieces.
func RandomFrom(r *rand.Rand, pieces []string, maxLen int) string {
	var b strings.Builder
	for n := 1 + r.IntN(maxLen); n > 0; n-- {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}
