package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSiteCommand: adrkit site's mistakes are usage errors (status 2), a
// directory it did not build is refused untouched (status 1), and a build
// writes the site, again into its own earlier output.
func TestSiteCommand(t *testing.T) {
	r, root := repoRunner(t, "chains")
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
		{"no outdir", []string{}, 2, "site needs exactly one OUTDIR"},
		{"two outdirs", []string{"a", "b"}, 2, "site needs exactly one OUTDIR"},
		{"empty outdir", []string{""}, 2, "OUTDIR must not be empty"},
		{"serve and outdir", []string{"--serve", "127.0.0.1:0", "out"}, 2, "give it no OUTDIR"},
		{"serve on a network", []string{"--serve", "0.0.0.0:0"}, 2, "must be a loopback address"},
		{"serve on a name", []string{"--serve", "example.org:80"}, 2, "must be a loopback address"},
		{"serve without port", []string{"--serve", "127.0.0.1"}, 2, "--serve must be host:port"},
		{"base url not absolute", []string{"out", "--base-url", "/adr/"}, 2, "--base-url must be an absolute http or https URL"},
		{"base url of another scheme", []string{"out", "--base-url", "ftp://example.org/"}, 2, "--base-url must be an absolute"},
		{"bad as-of", []string{"out", "--as-of", "2026-13-01"}, 2, "--as-of"},
		{"not a site", []string{notSite}, 1, "was not built by adrkit site"},
		{"build", []string{out, "--title", "Chains", "--base-url", "https://example.org/adr/"}, 0, ""},
		{"build again", []string{out}, 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := r.run(append([]string{"--cwd", root, "site"}, tc.args...)...)
			if o.code != tc.code || !strings.Contains(o.stderr, tc.want) {
				t.Fatalf("got %s\nwant status %d and %q", o, tc.code, tc.want)
			}
		})
	}
	entries, _ := os.ReadDir(notSite)
	if len(entries) != 1 {
		t.Errorf("the refused directory has %d entries", len(entries))
	}
	for _, f := range []string{"index.html", "graph.html", "paths.html", "health.html", "changes.html",
		"assets/site.css", "assets/site.js", "assets/governs.js", "assets/governs-data.js", "decisions/0003-workflow-engine.html"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(f))); err != nil {
			t.Errorf("the site has no %s: %v", f, err)
		}
	}
	// The second build had no --base-url: its sitemap is gone.
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); !os.IsNotExist(err) {
		t.Errorf("the stale sitemap.xml is still there (%v)", err)
	}
	// A shared id (0009) has no single chain; the page says so.
	page, err := os.ReadFile(filepath.Join(out, "decisions", "0009-tracing-a.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "Another record holds the same id") {
		t.Error("the page of a shared id does not say why it has no chain")
	}
}

// TestSiteUnusableCorpus: a root that is not a repository is the usual
// status-1 diagnostic, and nothing is written.
func TestSiteUnusableCorpus(t *testing.T) {
	r := newRunner(t)
	out := filepath.Join(t.TempDir(), "out")
	o := r.run("--cwd", t.TempDir(), "site", out)
	if o.code != 1 || !strings.Contains(o.stderr, "not a Git worktree") {
		t.Fatalf("got %s", o)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output directory was made (%v)", err)
	}
}

// TestSiteWords: what adrkit site prints, word for word: a usage error
// of its own, the corpus's usage error and failure, and the report of a
// build, whose OUTDIR is relative to where adrkit was started.
func TestSiteWords(t *testing.T) {
	r, root := repoRunner(t, "chains")
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
		{"bad colour", []string{"--color", "pink", "site", "out"}, outcome{code: 2}, ""},
		{"no repository", []string{"--cwd", noRepo, "site", "out"}, outcome{code: 1}, ""},
		{"build", []string{"site", "public/adr"}, outcome{code: 0, stdout: "Wrote 21 files to public/adr (open index.html).\n"}, "public/adr"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := r.run(tc.args...)
			switch tc.name {
			case "no repository":
				// The words are entry.Location.Describe's, tested there.
				if o.code != 1 || o.stdout != "" || !strings.HasPrefix(o.stderr, "adrkit: ") || !strings.Contains(o.stderr, "not a Git worktree") ||
					strings.Count(o.stderr, "\n") != 1 {
					t.Fatalf("got %s", o)
				}
				return
			case "bad colour":
				if o.code != 2 || !strings.Contains(o.stderr, "Run 'adrkit site --help'") {
					t.Fatalf("got %s", o)
				}
				return
			}
			if o.code != tc.want.code || o.stderr != tc.want.stderr || (tc.want.stdout != "" && o.stdout != tc.want.stdout) {
				t.Fatalf("got %s\nwant %s", o, tc.want)
			}
			if tc.outDir != "" {
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(tc.outDir), "index.html")); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestSiteServe: --serve answers from memory on loopback, follows a
// changed record (it says when it has rebuilt, so the test waits on
// that, not on time) and ends with status 0 when stopped (its context
// ends, as on SIGINT or SIGTERM). The browser
// tests drive the same server; this one needs no browser.
func TestSiteServe(t *testing.T) {
	root := siteRepo(t)
	base, notes, stop := startSiteServer(t, root)
	defer stop()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := get(""); code != 200 || !strings.Contains(body, "Export metrics with OpenTelemetry") {
		t.Fatalf("GET /: %d\n%s", code, body)
	}
	if code, _ := get("decisions/0003-use-cockroach.html"); code != 200 {
		t.Errorf("a decision page: %d", code)
	}
	if code, _ := get("nothing.html"); code != 404 {
		t.Errorf("a page the site does not have: %d", code)
	}
	// DNS rebinding: a request sent under another name is refused.
	req, err := http.NewRequest(http.MethodGet, base+"index.html", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "evil.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest || strings.Contains(string(body), "OpenTelemetry") {
		t.Errorf("Host evil.example: %d\n%s", resp.StatusCode, body)
	}
	rec := filepath.Join(root, "docs", "adr", "0005-draft-metrics.md")
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rec, []byte(strings.Replace(string(data), "OpenTelemetry", "Prometheus", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case note := <-notes:
		if !strings.HasPrefix(note, "Rebuilt: 6 records") {
			t.Fatalf("site --serve said %q", note)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("site --serve did not rebuild after a record changed")
	}
	if _, body := get("index.html"); !strings.Contains(body, "Export metrics with Prometheus") {
		t.Error("the rebuilt index does not show the changed title")
	}
}
