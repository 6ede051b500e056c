package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The recorded conformance conversations (../shared/conformance/cases,
// beside the repository, as .ci/run finds them) replayed against the
// binary twice: over stdio, and over streamable HTTP through the relay
// (internal/httpload/relay: the same harness, mcpcall.py, writes the same
// lines; each becomes a POST to adrkit-mcp --http, with the headers of its
// era). Every answer must be the same, compared as parsed JSON, and so
// must the frames that answer no request, except where stdioOnly says
// why not.
//
// Exit status and stderr are the process's, not answers: over stdio a
// transport diagnostic makes the exit status 1, over HTTP the process
// exits 0 on SIGTERM and logs JSON. They are not compared.

// stdioOnly lists the cases whose stdio answers differ from the HTTP ones
// by nature, with the reason. The listed answers must differ (an entry
// that no longer applies fails), and every other one must be equal.
var stdioOnly = map[string]struct {
	// ids are the requests whose answers differ; unmatched says the
	// frames that answer no request differ.
	ids       []int
	unmatched bool
	reason    string
}{
	"p25-garbage-lines": {unmatched: true, reason: "malformed lines: stdio skips a line that is not JSON and reports JSON that " +
		"is not a JSON-RPC request on stderr, answering neither; over HTTP each is a POST of its own, answered with 400 and an " +
		"error that has no id"},
	"p25-methods": {ids: []int{8}, reason: "initialize pinned the stdio connection to the 2025 era, where server/discover is " +
		"refused; over HTTP nothing is pinned, and a discover with its envelope is served"},
	"p26-discover-then-initialize": {ids: []int{4}, reason: "the same: after the fallback initialize the stdio connection " +
		"speaks 2025 and refuses server/discover; over HTTP it is served"},
	"p26-pinned-rejections": {ids: []int{2, 3, 8}, reason: "the first request pinned the stdio connection to 2026-07-28, " +
		"which refuses requests without an envelope and a late initialize; over HTTP each of them is a 2025-era request of " +
		"its own, and served"},
}

func TestConformanceOverHTTP(t *testing.T) {
	suite, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(suite, "mcpcall.py")); err != nil {
		t.Skipf("the recorded conversations are not beside the repository (%s): nothing to replay", suite)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 runs the conformance harness: ", err)
	}
	corpora := t.TempDir()
	if out, err := exec.Command(filepath.Join(suite, "corpora", "make-repos.sh"), corpora).CombinedOutput(); err != nil {
		t.Fatalf("make-repos.sh: %v\n%s", err, out)
	}
	bin := binary(t)
	relay := filepath.Join(t.TempDir(), "relay")
	if out, err := exec.Command("go", "build", "-o", relay, "github.com/adrkit/adrkit-go/internal/httpload/relay").CombinedOutput(); err != nil {
		t.Fatalf("building the relay: %v\n%s", err, out)
	}
	cases, err := filepath.Glob(filepath.Join(suite, "cases", "*.json"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases in %s: %v", suite, err)
	}
	for name := range stdioOnly {
		if !slices.Contains(cases, filepath.Join(suite, "cases", name+".json")) {
			t.Errorf("stdioOnly names %s, which is not a case", name)
		}
	}
	replay := func(t *testing.T, file string, server ...string) transcript {
		t.Helper()
		args := append([]string{filepath.Join(suite, "mcpcall.py"), "--corpora", corpora, "--case", file, "--"}, server...)
		cmd := exec.Command(python, args...)
		cmd.Env = cleanEnv()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("mcpcall.py %s: %v", strings.Join(server, " "), err)
		}
		var tr transcript
		if err := json.Unmarshal(out, &tr); err != nil {
			t.Fatalf("mcpcall.py output: %v\n%s", err, out)
		}
		return tr
	}
	for _, file := range cases {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			viaStdio := replay(t, file, bin)
			viaHTTP := replay(t, file, relay, bin)
			only := stdioOnly[name]
			if len(viaStdio.Responses) != len(viaHTTP.Responses) {
				t.Fatalf("%d answers over stdio, %d over HTTP", len(viaStdio.Responses), len(viaHTTP.Responses))
			}
			for i, s := range viaStdio.Responses {
				h := viaHTTP.Responses[i]
				id := fmt.Sprint(s["id"])
				if _, timedOut := s["$harness"]; timedOut {
					t.Errorf("request %s was not answered over stdio", id)
				}
				listed := slices.ContainsFunc(only.ids, func(n int) bool { return fmt.Sprint(n) == id })
				switch same := reflect.DeepEqual(s, h); {
				case listed && same:
					t.Errorf("id %s is listed as stdio-only (%s), but HTTP answers it as stdio does", id, only.reason)
				case !listed && !same:
					t.Errorf("id %s: stdio and HTTP answer differently\n stdio %s\n http  %s", id, compact(s), compact(h))
				}
			}
			switch same := reflect.DeepEqual(viaStdio.Unmatched, viaHTTP.Unmatched); {
			case only.unmatched && same:
				t.Errorf("listed as stdio-only for its unanswered frames (%s), but they are the same", only.reason)
			case !only.unmatched && !same:
				t.Errorf("frames that answer no request differ\n stdio %s\n http  %s", compact(viaStdio.Unmatched), compact(viaHTTP.Unmatched))
			}
			if len(viaHTTP.StdoutNoise) > 0 {
				t.Errorf("the relay wrote lines that are not JSON: %q", viaHTTP.StdoutNoise)
			}
		})
	}
}

// transcript is what mcpcall.py reports of one replay.
type transcript struct {
	Responses   []map[string]any `json:"responses"`
	Unmatched   []any            `json:"unmatched"`
	StdoutNoise []string         `json:"stdoutNoise"`
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
