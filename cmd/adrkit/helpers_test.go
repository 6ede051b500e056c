package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/internal/gittest"
	"github.com/adrkit/adrkit-go/internal/linktest"
	"github.com/adrkit/adrkit-go/ports"
)

// fixedClock is the clock every test runs with: 15 June 2026, late in the
// UTC day, so that a local-time slip would show.
type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Date(2026, 6, 15, 23, 30, 0, 0, time.UTC) }

// fixedNow is the factory's clock constructor for the fixed clock.
func fixedNow() ports.Clock { return fixedClock{} }

// outcome is what one run printed and returned.
type outcome struct {
	code           int
	stdout, stderr string
}

// String is the golden form of an outcome.
func (o outcome) String() string {
	return "exit: " + strconv.Itoa(o.code) + "\n--- stdout\n" + o.stdout + "--- stderr\n" + o.stderr
}

// runner runs the command in-process with a controlled environment.
type runner struct {
	t        *testing.T
	env      map[string]string
	terminal bool
	stdin    string
	// hide are strings that must never reach the output (temporary
	// directories: every path shown must be repository-relative).
	hide []string
	// wd is the working directory the run sees; a directory outside any
	// repository unless a test sets it.
	wd string
	// probe starts the commands doctor checks (nil: real processes).
	probe ports.Processes
}

func newRunner(t *testing.T) *runner {
	return &runner{t: t, env: map[string]string{}, wd: t.TempDir()}
}

func (r *runner) run(args ...string) outcome {
	r.t.Helper()
	var stdout, stderr bytes.Buffer
	env := factory.Env{
		Stdin: strings.NewReader(r.stdin),
		Getenv: func(k string) (string, bool) {
			v, ok := r.env[k]
			return v, ok
		},
		Clock:    fixedNow,
		Terminal: func() bool { return r.terminal },
		Getwd:    func() (string, error) { return r.wd, nil },
		Probe:    r.probe,
	}
	code := run(context.Background(), append([]string{"adrkit"}, args...), &stdout, &stderr, env)
	o := outcome{code: code, stdout: stdout.String(), stderr: stderr.String()}
	for _, h := range r.hide {
		if strings.Contains(o.stdout, h) || strings.Contains(o.stderr, h) {
			r.t.Errorf("%q: output shows the absolute path %s:\n%s", args, h, o)
		}
	}
	// The version is the module's; goldens must not change with it.
	o.stdout = strings.ReplaceAll(o.stdout, factory.Version(), "VERSION")
	// Help names environment variables %NAME% on Windows, $NAME elsewhere.
	o.stdout = unixEnvNotation(o.stdout)
	return o
}

// newRepo copies a fixture corpus to a fresh repository root (with the
// .git entry the working-tree reader wants) and returns the root. The
// empty corpus is an empty docs/adr. The findings corpus also gets what cannot be committed portably: a symlink
// named like a record and a record over the size cap.
func newRepo(t *testing.T, corpus string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	// The empty corpus is no records at all: only docs/adr.
	gittest.MakeRoot(t, root, nil)
	if err := os.MkdirAll(filepath.Join(root, "docs", "adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	if corpus != "empty" {
		gittest.CopyDir(t, filepath.Join("testdata", "corpora", corpus), root)
	}
	if corpus == "findings" {
		adrDir := filepath.Join(root, "docs", "adr")
		// The goldens of this corpus show the link's finding: where this
		// account cannot make one, they are skipped.
		linktest.Make(t, "0001-overdue.md", filepath.Join(adrDir, "0017-link.md"))
		huge := "---\nid: \"0011\"\ntitle: A record far too large\nstatus: draft\ndate: 2026-01-01\n---\n\n" +
			strings.Repeat("All work and no play. ", 4000)
		if err := os.WriteFile(filepath.Join(adrDir, "0011-huge.md"), []byte(huge), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// repoRunner is a runner pointed at a fresh copy of corpus, which it
// returns too.
func repoRunner(t *testing.T, corpus string) (*runner, string) {
	r := newRunner(t)
	root := newRepo(t, corpus)
	r.hide = append(r.hide, filepath.Dir(root))
	return r, root
}
