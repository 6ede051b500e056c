package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// adrkit site checks its command line itself and has adrkit-site build
// (ADR 0035). These tests hold what adrkit does: the usage errors before
// anything runs, the search for adrkit-site, its version, the options it
// is given, its streams and exit status passed on, and a signal that
// stops --serve. What adrkit-site builds is tested in cmd/adrkit-site.

// fakeSiteEnv makes this test binary act as adrkit-site (TestMain): its
// value is the version --version reports; any other run prints its
// working directory and arguments as JSON on stdout, "fake stderr" on
// stderr, and exits with the status in fakeSiteExitEnv.
const (
	fakeSiteEnv     = "ADRKIT_TEST_FAKE_SITE"
	fakeSiteExitEnv = "ADRKIT_TEST_FAKE_SITE_EXIT"
)

func TestMain(m *testing.M) {
	if v := os.Getenv(fakeSiteEnv); v != "" {
		os.Exit(fakeSite(v))
	}
	code := m.Run()
	for _, b := range builtSites {
		_ = os.RemoveAll(filepath.Dir(b.path))
	}
	os.Exit(code)
}

// fakeSiteCall is what the fake adrkit-site was run with.
type fakeSiteCall struct {
	WD   string
	Args []string
}

func fakeSite(v string) int {
	if slices.Equal(os.Args[1:], []string{"--version"}) {
		fmt.Printf("adrkit-site %s\n", v)
		return 0
	}
	wd, _ := os.Getwd()
	_ = json.NewEncoder(os.Stdout).Encode(fakeSiteCall{WD: wd, Args: os.Args[1:]})
	fmt.Fprintln(os.Stderr, "fake stderr")
	var code int
	_, _ = fmt.Sscan(os.Getenv(fakeSiteExitEnv), &code)
	return code
}

// fakeSiteRunner is a runner whose adrkit site runs this test binary as a
// fake adrkit-site of version v, exiting with status code.
func fakeSiteRunner(t *testing.T, v string, code int) *runner {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeSiteEnv, v)
	t.Setenv(fakeSiteExitEnv, fmt.Sprint(code))
	r := newRunner(t)
	r.env["ADRKIT_SITE"] = self
	return r
}

var (
	buildMu    sync.Mutex
	builtSites = map[string]*builtSite{}
)

type builtSite struct {
	path string
	err  error
}

// siteBinary builds the real adrkit-site once per test binary and
// version (this adrkit's when v is ""), with go build.
func siteBinary(t *testing.T, v string) string {
	t.Helper()
	if v == "" {
		v = version()
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	b, ok := builtSites[v]
	if !ok {
		b = &builtSite{}
		builtSites[v] = b
		goTool, err := exec.LookPath("go")
		if err != nil {
			t.Fatalf("building adrkit-site needs the go command: %v", err)
		}
		dir, err := os.MkdirTemp("", "adrkit-site-test-")
		if err != nil {
			t.Fatal(err)
		}
		b.path = filepath.Join(dir, siteProgram())
		out, err := exec.Command(goTool, "build", "-o", b.path,
			"-ldflags=-X "+modulePath+"/internal/version.stamp="+v, "../adrkit-site").CombinedOutput()
		if err != nil {
			b.err = errors.New(string(out))
		}
	}
	if b.err != nil {
		t.Fatalf("building adrkit-site: %v", b.err)
	}
	return b.path
}

// siteRunner is a runner on a copy of corpus whose adrkit site runs the
// real adrkit-site, named by ADRKIT_SITE.
func siteRunner(t *testing.T, corpus string) (*runner, string) {
	r, root := repoRunner(t, corpus)
	r.env["ADRKIT_SITE"] = siteBinary(t, "")
	return r, root
}

// TestSiteCommand: adrkit site's mistakes are usage errors (status 2),
// caught before adrkit-site is looked for; a directory it did not build
// is refused untouched (status 1, adrkit-site's words passed on), and a
// build writes the site, again into its own earlier output.
func TestSiteCommand(t *testing.T) {
	r, root := siteRunner(t, "chains")
	notSite := t.TempDir()
	if err := os.WriteFile(filepath.Join(notSite, "thesis.tex"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	cases := []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"no outdir", []string{"site"}, 2, "site needs exactly one OUTDIR"},
		{"two outdirs", []string{"site", "a", "b"}, 2, "site needs exactly one OUTDIR"},
		{"empty outdir", []string{"site", ""}, 2, "OUTDIR must not be empty"},
		{"serve and outdir", []string{"site", "--serve", "127.0.0.1:0", "out"}, 2, "give it no OUTDIR"},
		{"serve on a network", []string{"site", "--serve", "0.0.0.0:0"}, 2, "must be a loopback address"},
		{"serve on a name", []string{"site", "--serve", "example.org:80"}, 2, "must be a loopback address"},
		{"serve without port", []string{"site", "--serve", "127.0.0.1"}, 2, "--serve must be host:port"},
		{"base url not absolute", []string{"site", "out", "--base-url", "/adr/"}, 2, "--base-url must be an absolute http or https URL"},
		{"base url of another scheme", []string{"site", "out", "--base-url", "ftp://example.org/"}, 2, "--base-url must be an absolute"},
		{"bad as-of", []string{"site", "out", "--as-of", "2026-13-01"}, 2, "--as-of"},
		{"bad color", []string{"--color", "purple", "site", "out"}, 2, "--color"},
		{"not a site", []string{"site", notSite}, 1, "was not built by adrkit site"},
		{"named directory missing", []string{"--dir", "nowhere", "site", out}, 2, "nowhere"},
		{"build", []string{"site", out, "--title", "Chains", "--base-url", "https://example.org/adr/"}, 0, ""},
		{"build again", []string{"site", out}, 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := r.run(append([]string{"--cwd", root}, tc.args...)...)
			if o.code != tc.code || !strings.Contains(o.stderr, tc.want) {
				t.Fatalf("got %s\nwant status %d and %q", o, tc.code, tc.want)
			}
		})
	}
	entries, _ := os.ReadDir(notSite)
	if len(entries) != 1 {
		t.Errorf("the refused directory has %d entries", len(entries))
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), "Architecture decisions") {
		t.Error("the second build (no --title) does not have the default title")
	}
	// The second build had no --base-url: its sitemap is gone.
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); !os.IsNotExist(err) {
		t.Errorf("the stale sitemap.xml is still there (%v)", err)
	}
}

// TestSiteWords: what adrkit site prints is what it printed when it built
// the site itself, word for word: a usage error of its own, a usage error
// and a failure of adrkit-site's, and the report of a build.
func TestSiteWords(t *testing.T) {
	r, root := siteRunner(t, "chains")
	r.wd = root
	noRepo := t.TempDir()
	cases := []struct {
		name   string
		args   []string
		want   outcome
		outDir string
	}{
		{"usage", []string{"site"}, outcome{code: 2, stderr: "adrkit: site needs exactly one OUTDIR (or --serve ADDR), e.g. adrkit site public/adr\n" +
			"Run 'adrkit site --help' for usage.\n"}, ""},
		{"named directory missing", []string{"--dir", "nowhere", "site", "out"}, outcome{code: 2, stderr: "adrkit: Configured ADR directory was not found. " +
			"There is no directory \"nowhere\" in the repository; create it, or name the ADR directory with --dir (or ADRKIT_DIR).\n" +
			"Run 'adrkit site --help' for usage.\n"}, ""},
		{"no repository", []string{"--cwd", noRepo, "site", "out"}, outcome{code: 1}, ""},
		{"build", []string{"site", "public/adr"}, outcome{code: 0, stdout: "Wrote 20 files to public/adr (open index.html).\n"}, "public/adr"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := r.run(tc.args...)
			if tc.name == "no repository" {
				// The words are entry.Corpus.Describe's, tested there.
				if o.code != 1 || o.stdout != "" || !strings.HasPrefix(o.stderr, "adrkit: ") || !strings.Contains(o.stderr, "not a Git worktree") ||
					strings.Count(o.stderr, "\n") != 1 {
					t.Fatalf("got %s", o)
				}
				return
			}
			if o.code != tc.want.code || o.stderr != tc.want.stderr || (tc.want.stdout != "" && o.stdout != tc.want.stdout) {
				t.Fatalf("got %s\nwant %s", o, tc.want)
			}
			if tc.outDir != "" {
				// OUTDIR is relative to where adrkit was started.
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(tc.outDir), "index.html")); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestSiteUnusableCorpus: a root that is not a repository is the usual
// status-1 diagnostic, and nothing is written.
func TestSiteUnusableCorpus(t *testing.T) {
	r := newRunner(t)
	r.env["ADRKIT_SITE"] = siteBinary(t, "")
	out := filepath.Join(t.TempDir(), "out")
	o := r.run("--cwd", t.TempDir(), "site", out)
	if o.code != 1 || !strings.Contains(o.stderr, "not a Git worktree") {
		t.Fatalf("got %s", o)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output directory was made (%v)", err)
	}
}

// TestSitePassesOptions: adrkit-site is run where adrkit was started,
// with the corpus options adrkit was given (by flag or variable) spelled
// out, --cwd absolute, the site's options as given and OUTDIR after
// "--"; its stdout and stderr are passed on and its status returned.
func TestSitePassesOptions(t *testing.T) {
	wd := t.TempDir()
	abs := filepath.Join(wd, "repo")
	cases := []struct {
		name string
		env  map[string]string
		args []string
		want []string
	}{
		{"nothing named", nil, []string{"site", "out"}, []string{"--", "out"}},
		{"relative cwd", nil, []string{"--cwd", "repo", "--dir", "", "--rev", "HEAD~1", "site", "--title", "-t", "--", "-x"},
			[]string{"--cwd=" + abs, "--dir=", "--rev=HEAD~1", "--title=-t", "--", "-x"}},
		{"absolute cwd, empty cwd", nil, []string{"--cwd", "", "site", "out"}, []string{"--cwd=", "--", "out"}},
		{"from the environment", map[string]string{"ADRKIT_CWD": abs, "ADRKIT_DIR": "decisions"},
			[]string{"site", "--serve", "[::1]:0", "--as-of", "2026-01-02", "--base-url", "https://example.org/"},
			[]string{"--cwd=" + abs, "--dir=decisions", "--base-url=https://example.org/", "--as-of=2026-01-02", "--serve=[::1]:0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, code := range []int{0, 1, 2, 3} {
				r := fakeSiteRunner(t, version(), code)
				r.wd = wd
				for k, v := range tc.env {
					r.env[k] = v
				}
				// The variables adrkit read are options now: adrkit-site
				// must not read them again.
				t.Setenv("ADRKIT_DIR", "elsewhere")
				o := r.run(tc.args...)
				if o.code != code || o.stderr != "fake stderr\n" {
					t.Fatalf("status %d: got %s", code, o)
				}
				var call fakeSiteCall
				if err := json.Unmarshal([]byte(o.stdout), &call); err != nil {
					t.Fatalf("%v: %s", err, o)
				}
				if call.WD != wd || !slices.Equal(call.Args, tc.want) {
					t.Errorf("adrkit-site ran in %s with %q; want %s and %q", call.WD, call.Args, wd, tc.want)
				}
			}
		})
	}
}

// TestSiteVersionMismatch: an adrkit-site of another version is refused,
// both versions named, before it builds anything.
func TestSiteVersionMismatch(t *testing.T) {
	r := fakeSiteRunner(t, "9.9.9", 0)
	o := r.run("--cwd", t.TempDir(), "site", "out")
	if o.code != 1 || o.stdout != "" || !strings.Contains(o.stderr, "is version 9.9.9, but this adrkit is version "+version()) ||
		strings.Count(o.stderr, "\n") != 1 {
		t.Fatalf("got %s", o)
	}
	// The real program, built at another version, says so too.
	r = newRunner(t)
	r.env["ADRKIT_SITE"] = siteBinary(t, "9.9.8")
	o = r.run("--cwd", t.TempDir(), "site", "out")
	if o.code != 1 || !strings.Contains(o.stderr, "is version 9.9.8, but this adrkit is version "+version()) {
		t.Fatalf("got %s", o)
	}
}

// TestSiteFinding: adrkit-site is looked for in ADRKIT_SITE, beside
// adrkit, on the PATH, then built from this source checkout when go is
// on the PATH; found nowhere, adrkit says where it looked and how to
// install it.
func TestSiteFinding(t *testing.T) {
	real := siteBinary(t, "")
	t.Run("ADRKIT_SITE names nothing", func(t *testing.T) {
		r := newRunner(t)
		r.env["ADRKIT_SITE"] = filepath.Join(t.TempDir(), "missing")
		o := r.run("site", "out")
		if o.code != 1 || !strings.Contains(o.stderr, "ADRKIT_SITE names") || strings.Count(o.stderr, "\n") != 1 {
			t.Fatalf("got %s", o)
		}
	})
	t.Run("on the PATH", func(t *testing.T) {
		r, root := repoRunner(t, "chains")
		r.env["PATH"] = filepath.Dir(real)
		out := filepath.Join(t.TempDir(), "site")
		if o := r.run("--cwd", root, "site", out); o.code != 0 {
			t.Fatalf("got %s", o)
		}
	})
	t.Run("nowhere", func(t *testing.T) {
		r := newRunner(t)
		r.env["PATH"] = t.TempDir() // neither adrkit-site nor go
		o := r.run("site", "out")
		self, _ := os.Executable()
		self, _ = filepath.EvalSymlinks(self)
		for _, want := range []string{
			"adrkit site needs the program adrkit-site, which was not found beside adrkit (" + filepath.Join(filepath.Dir(self), siteProgram()) + ") or on the PATH",
			"go install github.com/adrkit/adrkit-go/cmd/adrkit-site@",
			"go install ./cmd/adrkit-site",
		} {
			if !strings.Contains(o.stderr, want) {
				t.Errorf("the message does not say %q", want)
			}
		}
		if o.code != 1 || strings.Count(o.stderr, "\n") != 1 {
			t.Fatalf("got %s", o)
		}
	})
	t.Run("built from the checkout", func(t *testing.T) {
		goTool, err := exec.LookPath("go")
		if err != nil {
			t.Fatalf("this test needs the go command: %v", err)
		}
		if sourceCheckout() == "" {
			t.Skip("this test binary was built with -trimpath: it cannot know its source checkout, as a release cannot")
		}
		r, root := repoRunner(t, "chains")
		r.env["PATH"] = filepath.Dir(goTool) // go, and no adrkit-site
		out := filepath.Join(t.TempDir(), "site")
		if o := r.run("--cwd", root, "site", out); o.code != 0 || !strings.HasPrefix(o.stdout, "Wrote ") {
			t.Fatalf("got %s", o)
		}
	})
}

// TestSiteServe: a signal to adrkit (its context ends) stops the
// adrkit-site it runs with SIGTERM, and --serve ends with status 0.
func TestSiteServe(t *testing.T) {
	r, root := siteRunner(t, "chains")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		env := environment{
			Getenv: func(k string) (string, bool) { v, ok := r.env[k]; return v, ok },
			Clock:  fixedClock{},
			Getwd:  func() (string, error) { return root, nil },
		}
		done <- run(ctx, []string{"adrkit", "--cwd", root, "site", "--serve", "127.0.0.1:0"}, pw, io.Discard, env)
		_ = pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		t.Fatalf("site --serve printed nothing (status %d)", <-done)
	}
	first := lines.Text()
	go func() {
		for lines.Scan() { // keep the pipe flowing
		}
	}()
	i := strings.Index(first, "http://")
	if i < 0 {
		t.Fatalf("site --serve said %q", first)
	}
	resp, err := http.Get(strings.Fields(first[i:])[0] + "index.html")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET index.html: %d", resp.StatusCode)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("site --serve ended with status %d", code)
	}
}
