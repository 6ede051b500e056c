package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{"not a site", []string{"site", notSite}, 1, "was not built by adrkit site"},
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
