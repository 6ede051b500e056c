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
	"github.com/adrkit/adrkit-go/internal/linktest"
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

// TestWriteDirLinks: the attacks of issue 35 on a committed site. A
// symbolic link inside OUTDIR (to a file or a directory outside it) is
// refused, naming the link, before anything is written or removed, and a
// manifest's names never choose what is removed: nothing outside OUTDIR
// changes.
func TestWriteDirLinks(t *testing.T) {
	files, _ := build(t, "corpus", site.Options{})
	cases := []struct {
		name string
		// plant makes the trap in out, an earlier site, with outside a
		// directory beside it holding the victim files; it returns the
		// link the error must name ("" when the build must succeed).
		plant func(t *testing.T, out, outside string) string
	}{
		{"index.html to an outside file", func(t *testing.T, out, outside string) string {
			link := filepath.Join(out, "index.html")
			replaceWithLink(t, filepath.Join(outside, "bashrc"), link)
			return link
		}},
		{"a decision page to an outside file", func(t *testing.T, out, outside string) string {
			link := filepath.Join(out, "decisions", "0001-use-postgres.html")
			replaceWithLink(t, filepath.Join(outside, "authorized_keys"), link)
			return link
		}},
		{"decisions to an outside directory, the manifest naming a file there", func(t *testing.T, out, outside string) string {
			link := filepath.Join(out, "decisions")
			if err := os.RemoveAll(link); err != nil {
				t.Fatal(err)
			}
			linktest.Make(t, outside, link)
			appendManifest(t, out, "decisions/id_ed25519")
			return link
		}},
		{"the manifest naming a file outside", func(t *testing.T, out, outside string) string {
			appendManifest(t, out, "../outside/id_ed25519")
			return ""
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			linktest.Require(t)
			base := t.TempDir()
			out, outside := filepath.Join(base, "out"), filepath.Join(base, "outside")
			victims := map[string]string{"bashrc": "export PATH\n", "authorized_keys": "ssh-ed25519 AAAA me\n", "id_ed25519": "PRIVATE KEY\n"}
			if err := os.MkdirAll(outside, 0o700); err != nil {
				t.Fatal(err)
			}
			for n, content := range victims {
				if err := os.WriteFile(filepath.Join(outside, n), []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := site.WriteDir(out, files); err != nil {
				t.Fatal(err)
			}
			link := tc.plant(t, out, outside)
			err := site.WriteDir(out, files)
			switch {
			case link == "" && err != nil:
				t.Fatalf("the build failed: %v", err)
			case link != "" && (err == nil || !strings.Contains(err.Error(), link+" is a symbolic link")):
				t.Fatalf("got %v, want an error naming %s", err, link)
			}
			entries, _ := os.ReadDir(outside)
			if len(entries) != len(victims) {
				t.Errorf("the directory outside holds %d files, want %d", len(entries), len(victims))
			}
			for n, content := range victims {
				if got, err := os.ReadFile(filepath.Join(outside, n)); err != nil || string(got) != content {
					t.Errorf("%s outside OUTDIR changed: %q (%v)", n, got, err)
				}
			}
		})
	}
}

// replaceWithLink replaces the file at link with a symbolic link to target.
func replaceWithLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	linktest.Make(t, target, link)
}

// appendManifest adds name to the manifest of the site in out.
func appendManifest(t *testing.T, out, name string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(out, ".adrkit-site"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(name + "\n"); err != nil {
		t.Fatal(err)
	}
}

func TestHandler(t *testing.T) {
	var h site.Handler
	request := func(method, path, host string) *http.Request {
		r := httptest.NewRequest(method, path, nil)
		r.Host = host
		return r
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, request(http.MethodGet, "/", "127.0.0.1:8000"))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("before a build: %d", rec.Code)
	}
	h.Set(site.Files{"index.html": []byte("<p>the decisions"), "assets/site.css": []byte("a{}")})
	for _, tc := range []struct {
		method, path, host string
		code               int
		ctype              string
	}{
		{http.MethodGet, "/", "127.0.0.1:8000", 200, "text/html; charset=utf-8"},
		{http.MethodGet, "/index.html", "localhost:8000", 200, "text/html; charset=utf-8"},
		{http.MethodHead, "/assets/site.css", "[::1]:8000", 200, "text/css; charset=utf-8"},
		{http.MethodGet, "/../index.html", "127.0.0.1:8000", 200, "text/html; charset=utf-8"},
		{http.MethodGet, "/missing.html", "127.0.0.1:8000", 404, ""},
		{http.MethodPost, "/", "127.0.0.1:8000", 405, ""},
		// DNS rebinding: a page whose name resolves to 127.0.0.1 sends
		// its own name.
		{http.MethodGet, "/", "evil.example:8000", 421, ""},
		{http.MethodGet, "/index.html", "evil.example", 421, ""},
		{http.MethodGet, "/", "", 421, ""},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, request(tc.method, tc.path, tc.host))
		if rec.Code != tc.code || (tc.ctype != "" && rec.Header().Get("Content-Type") != tc.ctype) {
			t.Errorf("%s %s (Host %q): %d %q, want %d %q", tc.method, tc.path, tc.host, rec.Code, rec.Header().Get("Content-Type"), tc.code, tc.ctype)
		}
		if tc.code == 421 && strings.Contains(rec.Body.String(), "the decisions") {
			t.Errorf("Host %q: the page was served", tc.host)
		}
	}
}
