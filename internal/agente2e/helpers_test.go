// Package agente2e drives the real Claude Code, Codex CLI and Gemini CLI,
// each against a scripted stand-in for its model API on loopback, in a
// repository wired by "adrkit init" (with --agents codex or gemini), and checks
// what the model would have been told by the hooks: the session's digest;
// the governing decision and the rejected alternative after the client
// wrote a governed file; nothing after it wrote a file nothing governs.
package agente2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

const accepted = `---
id: "0001"
title: Keep session state in PostgreSQL
status: accepted
date: 2026-01-10
deciders: ["@ana"]
affects:
  - type: path
    pattern: "services/session/**"
---

# Keep session state in PostgreSQL

## Decision

We store session state in the existing PostgreSQL cluster, in one table per service.
`

const rejected = `---
id: "0002"
title: Keep session state in Redis
status: rejected
date: 2026-01-09
deciders: ["@ana"]
affects:
  - type: path
    pattern: "services/session/**"
---

# Keep session state in Redis

## Decision

Rejected: a second store to run for data we already keep in PostgreSQL.
`

// What the hooks' answers say, as the model reads them: the digest at
// the start of a session, and the two decisions that govern
// services/session/.
var (
	digestText   = "This repository records its architecture decisions in docs/adr (adrkit): 2 valid records"
	governedText = []string{`0001 "Keep session state in PostgreSQL"`, `0002 "Keep session state in Redis"`}
)

// governed and ungoverned are the files the scripted model writes.
const (
	governed   = "services/session/store.go"
	ungoverned = "notes/scratch.txt"
)

// skipOnWindows: the hooks run through a POSIX shell here; Windows is
// covered by the unit tests.
func skipOnWindows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hooks run through a POSIX shell here; Windows is covered by the unit tests")
	}
}

// buildAdrkit builds the adrkit binary into a directory of its own, to be
// put first on PATH: the entries init writes name "adrkit".
func buildAdrkit(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	exe := filepath.Join(bin, "adrkit")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", exe, "github.com/adrkit/adrkit-go/cmd/adrkit").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// corpusRepo is a git repository with the two decisions and nothing else.
func corpusRepo(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	for p, content := range map[string]string{
		"docs/adr/0001-keep-session-state-in-postgresql.md": accepted,
		"docs/adr/0002-keep-session-state-in-redis.md":      rejected,
		"services/session/.keep":                            "",
	} {
		writeFile(t, filepath.Join(root, filepath.FromSlash(p)), content)
	}
	gittest.Init(t, root)
	return root
}

// wiredRepo is corpusRepo wired by the built adrkit's "init --agents
// agent".
func wiredRepo(t *testing.T, bin, agent string) string {
	t.Helper()
	root := corpusRepo(t)
	cmd := exec.Command(filepath.Join(bin, "adrkit"), "init", "--agents", agent)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("adrkit init --agents %s: %v\n%s", agent, err, out)
	}
	return root
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs a client to its end, bounded in time, and returns what it
// wrote on stdout and stderr.
func run(t *testing.T, dir string, env []string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish in time:\n%s", filepath.Base(argv[0]), tail(out.String()))
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(argv[0]), err, tail(out.String()))
	}
	return out.String()
}

// bodies keeps the request bodies a stand-in model API received.
type bodies struct {
	mu   sync.Mutex
	list [][]byte
}

func (b *bodies) add(body []byte) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.list = append(b.list, body)
	return len(b.list)
}

func (b *bodies) all() [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.list)
}

// decode is a request body as JSON values, for walking.
func decode(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("a request body is not JSON: %v\n%s", err, body)
	}
	return v
}

// texts is every string in a JSON value, one a line: what a request
// says, unescaped.
func texts(v any) string {
	var out strings.Builder
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			out.WriteString(x + "\n")
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(x[k])
			}
		}
	}
	walk(v)
	return out.String()
}

// checkSession holds what reached the model in a session of a wired
// repository: the digest (all is the text of every request), and no line
// of the hook's shown to the user (out, the client's output).
func checkSession(t *testing.T, all, out string) {
	t.Helper()
	if !strings.Contains(all, digestText) {
		t.Errorf("no request carried the session's digest %q", digestText)
	}
	if strings.Contains(out, "adrkit: hook") {
		t.Errorf("the client showed a line of the hook's:\n%s", tail(out))
	}
}

// checkGoverned holds what reached the model after a write of the
// governed file: the governing decision and the rejected alternative.
func checkGoverned(t *testing.T, after string) {
	t.Helper()
	for _, want := range governedText {
		if !strings.Contains(after, want) {
			t.Errorf("what followed the write of %s lacks %s:\n%s", governed, want, after)
		}
	}
}

// checkUngoverned holds what reached the model after a write of a file
// nothing governs: no decision.
func checkUngoverned(t *testing.T, after string) {
	t.Helper()
	if strings.Contains(after, "Keep session state") || strings.Contains(after, "Architecture decisions") {
		t.Errorf("what followed the write of %s names decisions:\n%s", ungoverned, after)
	}
}

func tail(s string) string {
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}
