package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/internal/gittest"
)

// fixedClock is the clock every test runs with: 15 June 2026, late in the
// UTC day, as adrkit's tests.
type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Date(2026, 6, 15, 23, 30, 0, 0, time.UTC) }

// outcome is what one run printed and returned.
type outcome struct {
	code           int
	stdout, stderr string
}

func (o outcome) String() string {
	return "exit: " + strconv.Itoa(o.code) + "\n--- stdout\n" + o.stdout + "--- stderr\n" + o.stderr
}

// runner runs adrkit-site in-process with a controlled environment.
type runner struct {
	t   *testing.T
	env map[string]string
	// hide are strings that must never reach the output (temporary
	// directories).
	hide []string
	// wd is the working directory the run sees.
	wd string
}

func newRunner(t *testing.T) *runner {
	return &runner{t: t, env: map[string]string{}, wd: t.TempDir()}
}

// run runs adrkit-site with args: the command line `adrkit site` takes,
// with the corpus options first and without the word "site".
func (r *runner) run(args ...string) outcome {
	r.t.Helper()
	var stdout, stderr bytes.Buffer
	env := environment{
		Getenv: func(k string) (string, bool) {
			v, ok := r.env[k]
			return v, ok
		},
		Clock: fixedClock{},
		Getwd: func() (string, error) { return r.wd, nil },
	}
	code := run(context.Background(), append([]string{"adrkit-site"}, args...), &stdout, &stderr, env)
	o := outcome{code: code, stdout: stdout.String(), stderr: stderr.String()}
	for _, h := range r.hide {
		if strings.Contains(o.stdout, h) || strings.Contains(o.stderr, h) {
			r.t.Errorf("%q: output shows the absolute path %s:\n%s", args, h, o)
		}
	}
	return o
}

// repoRunner is a runner pointed at a fresh repository holding a copy of
// one of adrkit's fixture corpora (cmd/adrkit/testdata/corpora), whose
// root it returns too.
func repoRunner(t *testing.T, corpus string) (*runner, string) {
	r := newRunner(t)
	root := filepath.Join(t.TempDir(), "repo")
	gittest.MakeRoot(t, root, nil)
	gittest.CopyDir(t, filepath.Join("..", "adrkit", "testdata", "corpora", corpus), root)
	r.hide = append(r.hide, filepath.Dir(root))
	return r, root
}

var (
	adrkitOnce sync.Once
	adrkitBin  string
	adrkitErr  error
)

// adrkit builds the adrkit command once per test binary, for the tests
// that hold the site to adrkit's own answers (explain).
func adrkit(t *testing.T) string {
	t.Helper()
	adrkitOnce.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			adrkitErr = err
			return
		}
		dir, err := os.MkdirTemp("", "adrkit-site-test-")
		if err != nil {
			adrkitErr = err
			return
		}
		adrkitBin = filepath.Join(dir, "adrkit")
		out, err := exec.Command(goTool, "build", "-o", adrkitBin, "../adrkit").CombinedOutput()
		if err != nil {
			adrkitErr = errors.New(string(out))
		}
	})
	if adrkitErr != nil {
		t.Fatalf("building adrkit: %v", adrkitErr)
	}
	return adrkitBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if adrkitBin != "" {
		_ = os.RemoveAll(filepath.Dir(adrkitBin))
	}
	os.Exit(code)
}
