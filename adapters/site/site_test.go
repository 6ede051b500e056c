package site_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
	"golang.org/x/net/html"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/adapters/gitrev"
	"github.com/adrkit/adrkit-go/adapters/site"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/internal/sitetest"
)

// repo copies a fixture corpus (testdata/corpus, with a history of two
// commits for the changes page, or testdata/broken) to a fresh root.
func repo(t *testing.T, fixture string) string {
	if fixture == "own" {
		return sitetest.Decisions(t, filepath.Join("..", "..", "docs", "adr"))
	}
	return sitetest.Repo(t, filepath.Join("testdata", fixture), fixture == "corpus")
}

// build builds the site of the fixture as adrkit site does.
func build(t *testing.T, fixture string, o site.Options) (site.Files, *app.Site) {
	t.Helper()
	root := repo(t, fixture)
	svc := app.New(filesystem.New(root, "docs/adr"), app.Options{}).WithHistory(gitrev.NewHistory(root, "docs/adr", ""))
	data, err := svc.Site(context.Background(), app.SiteInput{AsOf: "2026-06-15", Changes: true})
	if err != nil {
		t.Fatal(err)
	}
	if o.Source == "" {
		o.Source = "docs/adr (working tree)"
	}
	files, err := site.Build(data, o)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if bytes.Contains(b, []byte(filepath.Dir(root))) || bytes.Contains(b, []byte(filepath.ToSlash(filepath.Dir(root)))) {
			t.Errorf("%s shows the absolute path of the repository", name)
		}
	}
	return files, data
}

// TestGolden pins every file of the site of a small corpus (every status,
// relations each way, a chain, tricky globs, GFM, links to records and to
// other files, raw HTML). Regenerate with go test ./adapters/site -update
// and review the diff like code.
func TestGolden(t *testing.T) {
	files, _ := build(t, "corpus", site.Options{Title: "Catalogue decisions", BaseURL: "https://example.org/adr/"})
	var b bytes.Buffer
	for _, n := range files.Names() {
		b.WriteString("-- " + n + " --\n")
		b.Write(files[n])
		if !bytes.HasSuffix(files[n], []byte("\n")) {
			b.WriteString("\n")
		}
	}
	goldie.New(t, goldie.WithFixtureDir("testdata/golden")).Assert(t, "corpus-site", b.Bytes())
}

// TestDeterministic builds the same corpus from two copies: the bytes are
// the same.
func TestDeterministic(t *testing.T) {
	a, _ := build(t, "corpus", site.Options{})
	b, _ := build(t, "corpus", site.Options{})
	if !slices.Equal(a.Names(), b.Names()) {
		t.Fatalf("the builds have different files:\n%q\n%q", a.Names(), b.Names())
	}
	for _, n := range a.Names() {
		if !bytes.Equal(a[n], b[n]) {
			t.Errorf("%s differs between two builds of the same corpus", n)
		}
	}
}

// TestLinks checks every link and resource of every page of both
// fixtures and of this repository's own decisions: a relative one names
// a file of the site, and nothing is loaded from another host.
func TestLinks(t *testing.T) {
	for _, fixture := range []string{"corpus", "broken", "own"} {
		t.Run(fixture, func(t *testing.T) {
			files, _ := build(t, fixture, site.Options{BaseURL: "https://example.org/adr/"})
			checked := 0
			for _, page := range files.Names() {
				if !strings.HasSuffix(page, ".html") {
					continue
				}
				for _, ref := range references(t, files[page]) {
					checked++
					u, err := url.Parse(ref.url)
					if err != nil {
						t.Errorf("%s: %s %q is not a URL", page, ref.attr, ref.url)
						continue
					}
					if u.Scheme != "" || u.Host != "" {
						if ref.attr != "href" || ref.tag == "link" && ref.rel != "canonical" {
							t.Errorf("%s: <%s %s=%q> loads from another host", page, ref.tag, ref.attr, ref.url)
						}
						continue
					}
					if u.Path == "" {
						continue // #fragment on the same page
					}
					target := path.Join(path.Dir(page), u.Path)
					if _, ok := files[target]; !ok {
						t.Errorf("%s: %s=%q names %s, which the site does not have", page, ref.attr, ref.url, target)
					}
				}
			}
			if checked < 20 {
				t.Fatalf("only %d links checked: the check is not looking", checked)
			}
		})
	}
}

type reference struct{ tag, attr, url, rel string }

// references lists the href and src attributes of a page.
func references(t *testing.T, page []byte) []reference {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []reference
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		var rel string
		for _, a := range n.Attr {
			if a.Key == "rel" {
				rel = a.Val
			}
		}
		for _, a := range n.Attr {
			if a.Key == "href" || a.Key == "src" {
				out = append(out, reference{tag: n.Data, attr: a.Key, url: a.Val, rel: rel})
			}
		}
	}
	return out
}

// TestBroken: a corpus with errors shows them, keeps its path box empty
// as explain does, and draws refs to records it does not hold.
func TestBroken(t *testing.T) {
	files, data := build(t, "broken", site.Options{})
	if !data.Withheld {
		t.Error("a corpus with an error finding is not withheld")
	}
	health := string(files["health.html"])
	for _, want := range []string{"dangling-relatesTo", "payments:0012", "0002-broken.md"} {
		if !strings.Contains(health, want) {
			t.Errorf("health.html does not mention %q", want)
		}
	}
	if !strings.Contains(string(files["paths.html"]), "shows no decision for any path") {
		t.Error("paths.html does not say why it shows no decision")
	}
	// The path box gets the patterns that can match, never one that
	// cannot (lint reports it).
	governs := string(files["assets/governs-data.js"])
	if !strings.Contains(governs, `"docs/**"`) || strings.Contains(governs, `/abs/**`) {
		t.Errorf("governs-data.js: %s", governs)
	}
	graph := string(files["graph.html"])
	if !strings.Contains(graph, "payments:0012 · unknown") || !strings.Contains(graph, "0009 · unknown") {
		t.Error("graph.html does not draw the refs to records the corpus does not hold")
	}
	if !strings.Contains(string(files["changes.html"]), "no-repository") && !strings.Contains(string(files["changes.html"]), "history") {
		t.Error("changes.html does not say why there is no history")
	}
}

func TestWriteDir(t *testing.T) {
	files, _ := build(t, "corpus", site.Options{})
	dir := filepath.Join(t.TempDir(), "out")
	if err := site.WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	for _, n := range files.Names() {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n)))
		if err != nil || !bytes.Equal(got, files[n]) {
			t.Errorf("%s was not written as built (%v)", n, err)
		}
	}
	// A later build without a page removes it, and only what the first
	// build wrote.
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	fewer := site.Files{}
	for n, b := range files {
		if n != "decisions/0006-rejected-soap.html" {
			fewer[n] = b
		}
	}
	if err := site.WriteDir(dir, fewer); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "decisions", "0006-rejected-soap.html")); !os.IsNotExist(err) {
		t.Errorf("the stale page is still there (%v)", err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a file the site did not write was removed: %v", err)
	}

	// A directory with files but no manifest is refused, untouched.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "thesis.tex"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := site.WriteDir(other, files); err == nil {
		t.Fatal("a directory that is not a site was written into")
	}
	entries, _ := os.ReadDir(other)
	if len(entries) != 1 {
		t.Errorf("the refused directory now has %d entries", len(entries))
	}
}

func TestHandler(t *testing.T) {
	var h site.Handler
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("before a build: %d", rec.Code)
	}
	h.Set(site.Files{"index.html": []byte("<p>hi"), "assets/site.css": []byte("a{}")})
	for _, tc := range []struct {
		method, path string
		code         int
		ctype        string
	}{
		{http.MethodGet, "/", 200, "text/html; charset=utf-8"},
		{http.MethodGet, "/index.html", 200, "text/html; charset=utf-8"},
		{http.MethodHead, "/assets/site.css", 200, "text/css; charset=utf-8"},
		{http.MethodGet, "/../index.html", 200, "text/html; charset=utf-8"},
		{http.MethodGet, "/missing.html", 404, ""},
		{http.MethodPost, "/", 405, ""},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.code || (tc.ctype != "" && rec.Header().Get("Content-Type") != tc.ctype) {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, rec.Code, rec.Header().Get("Content-Type"), tc.code, tc.ctype)
		}
	}
}
