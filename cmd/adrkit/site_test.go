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
	o := r.run("--cwd", t.TempDir(), out)
	if o.code != 1 || !strings.Contains(o.stderr, "not a Git worktree") {
		t.Fatalf("got %s", o)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output directory was made (%v)", err)
	}
}

// TestSiteServe: --serve answers from memory on loopback, follows a
// changed record (it says when it has rebuilt, so the test waits on
// that, not on time) and ends with status 0 when stopped. The browser
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
