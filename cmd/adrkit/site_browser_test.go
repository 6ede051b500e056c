package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/adrkit/adrkit-go/cmd/adrkit/internal/factory"
	"github.com/adrkit/adrkit-go/internal/sitetest"
)

// The browser tests drive headless Chromium over the site of the site
// fixture (adapters/site/testdata/corpus), opened from file:// and from
// site --serve: the filters narrow the list, a relation link lands on the
// right page, the path box answers as explain does, and axe-core finds no
// serious or critical violation on any kind of page, light or dark.
//
// They skip when Chromium (or axe-core) is not found, unless
// ADRKIT_BROWSER_TESTS=required, which .ci/run sets after installing
// both: Chromium from ADRKIT_CHROMIUM or the PATH (chromium,
// chromium-browser), axe-core from ADRKIT_AXE (axe.min.js) or
// ADRKIT_NPM_PREFIX/node_modules/axe-core. (The README's screenshots are
// scripts/site-screenshots.sh's.)

func browserRequired() bool { return os.Getenv("ADRKIT_BROWSER_TESTS") == "required" }

// needTool skips, or fails when the browser tests are required.
func needTool(t *testing.T, what string) {
	t.Helper()
	if browserRequired() {
		t.Fatalf("ADRKIT_BROWSER_TESTS=required, but %s", what)
	}
	t.Skip(what)
}

func chromiumPath(t *testing.T) string {
	if p := os.Getenv("ADRKIT_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			needTool(t, "ADRKIT_CHROMIUM names no file: "+err.Error())
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	needTool(t, "Chromium was not found (install Debian's chromium or set ADRKIT_CHROMIUM)")
	return ""
}

func axeSource(t *testing.T) string {
	p := os.Getenv("ADRKIT_AXE")
	if p == "" && os.Getenv("ADRKIT_NPM_PREFIX") != "" {
		p = filepath.Join(os.Getenv("ADRKIT_NPM_PREFIX"), "node_modules", "axe-core", "axe.min.js")
	}
	if p == "" {
		needTool(t, "axe-core was not found (set ADRKIT_AXE or ADRKIT_NPM_PREFIX)")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		needTool(t, "axe-core cannot be read: "+err.Error())
	}
	return string(data)
}

// siteRepo is a repository holding the site fixture corpus, with a
// history of two commits.
func siteRepo(t *testing.T) string {
	return sitetest.Repo(t, filepath.Join("..", "..", "adapters", "site", "testdata", "corpus"), true)
}

// governsTable are the paths the path box is asked about: every bucket,
// negation, braces, dot directories, backslashes and "./", and none.
var governsTable = []string{
	"services/catalogue/db.go",
	"services/catalogue/legacy/old.go",
	"services/catalogue/cache/lru.go",
	"./services/catalogue/api.go",
	`services\catalogue\cache\x.go`,
	"config/prod.redis.yaml",
	"config/prod.redis.json",
	".github/workflows/db-migrate.yml",
	".github/x/metrics/m.go",
	"deploy/main.tf",
	"deploy/eu/main.tf",
	"services/api/deploy/values.yaml",
	"pkg/metrics/export.go",
	"services/warehouse/soap.go",
	"README.md",
	"services/catalogue",
	"services/x/../catalogue/a.go",
	"services//catalogue/a.go",
	"services/catalogue/é/😀.go",
	"deploy/.terraform/x.tf",
}

type buckets struct {
	Governing       []string `json:"governing"`
	ActiveProposals []string `json:"activeProposals"`
	History         []string `json:"history"`
}

// explainBuckets is what adrkit explain --json answers for path.
func explainBuckets(t *testing.T, root, path string) buckets {
	t.Helper()
	o := newRunner(t).run("--cwd", root, "explain", path, "--json")
	stdout := []byte(o.stdout)
	var out struct {
		Result struct {
			Governing, ActiveProposals, History []struct{ ID string }
		}
	}
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("explain %q: %v\n%s", path, err, stdout)
	}
	ids := func(es []struct{ ID string }) []string {
		s := []string{}
		for _, e := range es {
			s = append(s, e.ID)
		}
		return s
	}
	return buckets{ids(out.Result.Governing), ids(out.Result.ActiveProposals), ids(out.Result.History)}
}

func newBrowser(t *testing.T) context.Context {
	t.Helper()
	bin := chromiumPath(t)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin), chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("allow-file-access-from-files", false), chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancel)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	t.Cleanup(cancelCtx)
	if _, err := chromedp.Run(ctx, chromedp.Title()); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	// Waits for an element that never comes end here rather than at the
	// go test timeout (a context that has run once may take a deadline).
	ctx, cancelAll := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancelAll)
	return ctx
}

// pageKinds are one page of each kind.
var pageKinds = []string{
	"index.html",
	"decisions/0003-use-cockroach.html",
	"graph.html",
	"paths.html?path=services/catalogue/cache/lru.go",
	"health.html",
	"changes.html",
}

// TestSiteInBrowser builds the site of the fixture and drives it from
// file:// (every check, axe included) and from site --serve (filters,
// a link, the path box, and a rebuild after a record changes).
func TestSiteInBrowser(t *testing.T) {
	axe := axeSource(t)
	ctx := newBrowser(t)
	root := siteRepo(t)
	out := filepath.Join(t.TempDir(), "site")
	r := newRunner(t)
	if o := r.run("--cwd", root, "site", out); o.code != 0 {
		t.Fatalf("site: %s", o)
	}
	fileBase := "file://" + filepath.ToSlash(out) + "/"
	if !strings.HasPrefix(filepath.ToSlash(out), "/") {
		fileBase = "file:///" + filepath.ToSlash(out) + "/"
	}

	t.Run("file", func(t *testing.T) {
		checkWithoutScript(t, ctx, fileBase)
		checkFilters(t, ctx, fileBase)
		checkSearch(t, ctx, fileBase, root, []string{"redis", "catalogue", "0003", "storage", "Draft."})
		checkRelationLink(t, ctx, fileBase)
		checkPaths(t, ctx, fileBase, root, governsTable)
		checkKeyboard(t, ctx, fileBase)
		checkAxe(t, ctx, fileBase, axe)
	})

	// This repository's own decisions: a corpus the checks were not
	// written for (long bodies, tables, many relations).
	t.Run("own", func(t *testing.T) {
		own := sitetest.Decisions(t, filepath.Join("..", "..", "docs", "adr"))
		ownOut := filepath.Join(t.TempDir(), "site")
		if o := newRunner(t).run("--cwd", own, "site", ownOut); o.code != 0 {
			t.Fatalf("site: %s", o)
		}
		base := "file://" + filepath.ToSlash(ownOut) + "/"
		if !strings.HasPrefix(filepath.ToSlash(ownOut), "/") {
			base = "file:///" + filepath.ToSlash(ownOut) + "/"
		}
		checkGraphFits(t, ctx, base)
		// Issue 36: the box found 2 of the 9 decisions adrkit search finds.
		checkSearch(t, ctx, base, own, []string{"cursor", "CURSOR", "go-git", "ＧＯ", "Supersession chain", "no such words anywhere"})
		for _, scheme := range []string{"light", "dark"} {
			for _, page := range []string{"index.html", "decisions/0006-extended-tools.html", "graph.html", "health.html"} {
				axeCheck(t, ctx, base, page, scheme, axe)
			}
		}
	})

	t.Run("serve", func(t *testing.T) {
		base, notes, stop := startSiteServer(t, root)
		defer stop()
		checkFilters(t, ctx, base)
		checkRelationLink(t, ctx, base)
		checkPaths(t, ctx, base, root, governsTable[:3])

		// A record changes: the served site follows.
		rec := filepath.Join(root, "docs", "adr", "0005-draft-metrics.md")
		data, err := os.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		changed := strings.Replace(string(data), "title: Export metrics with OpenTelemetry", "title: Export metrics with Prometheus", 1)
		if err := os.WriteFile(rec, []byte(changed), 0o644); err != nil {
			t.Fatal(err)
		}
		// The server says when it has rebuilt; no sleeping.
		select {
		case note := <-notes:
			if !strings.HasPrefix(note, "Rebuilt") {
				t.Fatalf("site --serve said %q", note)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("site --serve did not rebuild after a record changed")
		}
		resp, err := http.Get(base + "index.html")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if !strings.Contains(string(body), "Export metrics with Prometheus") {
			t.Error("the rebuilt index does not show the changed title")
		}
	})
}

// startSiteServer starts adrkit site --serve 127.0.0.1:0 on root (in-process) and returns
// its base URL, the lines it prints next and how to stop it.
func startSiteServer(t *testing.T, root string) (string, <-chan string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		env := factory.Env{Clock: fixedNow, Getwd: func() (string, error) { return root, nil }}
		done <- run(ctx, []string{"adrkit", "--cwd", root, "site", "--serve", "127.0.0.1:0"}, pw, io.Discard, env)
		_ = pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		cancel()
		t.Fatalf("site --serve printed nothing (status %d)", <-done)
	}
	first := lines.Text()
	notes := make(chan string, 16)
	go func() {
		for lines.Scan() {
			select {
			case notes <- lines.Text():
			default: // nobody listens: drop it
			}
		}
	}()
	i := strings.Index(first, "http://")
	if i < 0 {
		cancel()
		t.Fatalf("site --serve said %q", first)
	}
	base := strings.Fields(first[i:])[0]
	return base, notes, func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("site --serve ended with status %d", code)
		}
	}
}
