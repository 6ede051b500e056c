package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

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

func visibleRows(t *testing.T, ctx context.Context) []string {
	t.Helper()
	ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#decisions tbody tr")).filter(r => !r.hidden).map(r => r.cells[0].textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// checkFilters: each filter narrows the index.
func checkFilters(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"index.html"), chromedp.WaitVisible(chromedp.ID("filters"))); err != nil {
		t.Fatal(err)
	}
	if got := visibleRows(t, ctx); len(got) != 6 {
		t.Fatalf("the index shows %q before any filter", got)
	}
	// Typing goes through the keyboard; the selects are set as a person's
	// choice sets them, with a change event.
	choose := func(id, v string) chromedp.Action[chromedp.Void] {
		return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const e = document.getElementById(%s); e.value = %s;
			e.dispatchEvent(new Event("change", {bubbles: true})); })()`, jsString(id), jsString(v)))
	}
	steps := []struct {
		action chromedp.Action[chromedp.Void]
		want   []string
	}{
		{choose("f-status", "accepted"), []string{"0002", "0003"}},
		{choose("f-status", ""), nil},
		// 0001's body links to the Redis decision's file: search_decisions
		// matches bodies, and so does the box.
		{chromedp.SendKeys(chromedp.ID("f-text"), "redis"), []string{"0001", "0002"}},
		{choose("f-text", ""), nil},
		{choose("f-tag", "database"), []string{"0001", "0003"}},
		{choose("f-status", "superseded"), []string{"0001"}},
	}
	for i, s := range steps {
		if err := chromedp.Do(ctx, s.action); err != nil {
			t.Fatal(err)
		}
		if s.want == nil {
			continue
		}
		if got := visibleRows(t, ctx); !slices.Equal(got, s.want) {
			t.Errorf("filter step %d: the index shows %q, want %q", i, got, s.want)
		}
	}
	count, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("count")))
	if err != nil {
		t.Fatal(err)
	}
	if count != "1 of 6 decisions shown." {
		t.Errorf("the count says %q", count)
	}
}

// checkSearch: index.html?q=QUERY shows the decisions adrkit search
// QUERY lists (the same fields, body included, and the same rule), for
// each query.
func checkSearch(t *testing.T, ctx context.Context, base, root string, queries []string) {
	t.Helper()
	for _, q := range queries {
		o := newRunner(t).run("--cwd", root, "search", q, "--json", "--limit", "100")
		var out struct {
			Result struct{ Items []struct{ ID string } }
		}
		if err := json.Unmarshal([]byte(o.stdout), &out); err != nil {
			t.Fatalf("search %q: %v\n%s", q, err, o)
		}
		want := []string{}
		for _, it := range out.Result.Items {
			want = append(want, it.ID)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"index.html?q="+url.QueryEscape(q)), chromedp.WaitVisible(chromedp.ID("filters"))); err != nil {
			t.Fatal(err)
		}
		if got := visibleRows(t, ctx); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("index.html?q=%s shows %d decisions %q; adrkit search %s lists %d %q", q, len(got), got, q, len(want), want)
		}
	}
}

// checkGraphFits: in a 1,280-px window the graph page does not scroll
// sideways and the drawing is scaled into its frame; "Full size" shows it
// at its own size in a frame that scrolls (pans) instead.
func checkGraphFits(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"graph.html"), chromedp.WaitVisible(chromedp.ID("g-zoom"))); err != nil {
		t.Fatal(err)
	}
	measure := `(() => { const f = document.getElementById("graph"), s = f.querySelector("svg");
		return [document.documentElement.scrollWidth - document.documentElement.clientWidth,
			Math.round(s.getBoundingClientRect().width - f.clientWidth), f.scrollWidth - f.clientWidth,
			s.viewBox.baseVal.width].join(" "); })()`
	fit, err := chromedp.Run(ctx, chromedp.Evaluate[string](measure))
	if err != nil {
		t.Fatal(err)
	}
	var pageOver, svgOver, frameOver, natural int
	if _, err := fmt.Sscan(fit, &pageOver, &svgOver, &frameOver, &natural); err != nil {
		t.Fatal(err)
	}
	if pageOver > 0 || svgOver > 0 || frameOver > 0 {
		t.Errorf("the graph does not fit 1,280 px (page, drawing, frame overflow: %s)", fit)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("g-zoom"))); err != nil {
		t.Fatal(err)
	}
	full, err := chromedp.Run(ctx, chromedp.Evaluate[string](measure))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscan(full, &pageOver, &svgOver, &frameOver, &natural); err != nil {
		t.Fatal(err)
	}
	if natural > 1280 && (frameOver <= 0 || pageOver > 0) {
		t.Errorf("at full size the frame should scroll, not the page (page, drawing, frame overflow: %s)", full)
	}
}

// checkWithoutScript: with JavaScript off the index is the complete,
// linked list, and the filters it cannot run stay hidden.
func checkWithoutScript(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	off := func(v bool) {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: v}); err != nil {
			t.Fatal(err)
		}
	}
	off(true)
	defer off(false)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"index.html"), chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
		t.Fatal(err)
	}
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[document.querySelectorAll("#decisions tbody tr a[href]").length,
		Array.from(document.querySelectorAll("#decisions tbody tr")).filter(r => r.offsetParent !== null).length,
		getComputedStyle(document.getElementById("filters")).display].join(" ")`))
	if err != nil {
		t.Fatal(err)
	}
	if state != "6 6 none" {
		t.Errorf("without JavaScript the index shows (links, rows, filters' display) %q, want 6 6 none", state)
	}
}

// checkRelationLink: 0002 relates to 0001; its link opens 0001's page.
func checkRelationLink(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"decisions/0002-cache-with-redis.html"),
		chromedp.Click(chromedp.CSS(`ul.relations a[href$="0001-use-postgres.html"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`h1`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	h1, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("h1")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(loc, "/decisions/0001-use-postgres.html") || !strings.HasPrefix(h1, "0001 ") {
		t.Errorf("the relation link landed on %s (%q)", loc, h1)
	}
	// And back the other way: 0001 is superseded by 0003.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`ol.chain a[href$="0003-use-cockroach.html"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`h1`)))
	if err != nil {
		t.Fatal(err)
	}
	if h1, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS("h1"))); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h1, "0003 ") {
		t.Errorf("the chain link landed on %q", h1)
	}
}

// checkPaths: the path box answers as explain does for every path of
// the table.
func checkPaths(t *testing.T, ctx context.Context, base, root string, paths []string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"paths.html"), chromedp.WaitVisible(chromedp.ID("governs"))); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		want := explainBuckets(t, root, p)
		js := fmt.Sprintf(`(() => { const i = document.getElementById("path"); i.value = %s;
			document.getElementById("governs").requestSubmit();
			const ids = b => Array.from(document.querySelectorAll('#answer [data-bucket="' + b + '"] li')).map(li => li.dataset.id);
			return {governing: ids("governing"), activeProposals: ids("activeProposals"), history: ids("history")}; })()`, jsString(p))
		got, err := chromedp.Run(ctx, chromedp.Evaluate[buckets](js))
		if err != nil {
			t.Fatal(err)
		}
		norm := func(s []string) []string {
			if s == nil {
				return []string{}
			}
			return s
		}
		got = buckets{norm(got.Governing), norm(got.ActiveProposals), norm(got.History)}
		if !slices.Equal(got.Governing, want.Governing) || !slices.Equal(got.ActiveProposals, want.ActiveProposals) || !slices.Equal(got.History, want.History) {
			t.Errorf("path box for %q: %+v; explain: %+v", p, got, want)
		}
	}
}

// checkKeyboard: with the keyboard alone, the first Tab reaches the skip
// link, and a path typed into the box and Enter give the answer.
func checkKeyboard(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Navigate(base+"paths.html"), chromedp.WaitVisible(chromedp.ID("governs")),
		chromedp.KeyEvent(kb.Tab))
	if err != nil {
		t.Fatal(err)
	}
	first, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if first != "Skip to the content" {
		t.Errorf("the first Tab reaches %q", first)
	}
	err = chromedp.Do(ctx, chromedp.Focus(chromedp.ID("path")), chromedp.KeyEvent("deploy/main.tf"+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`#answer li[data-id="0004"]`)))
	if err != nil {
		t.Errorf("typing a path and Enter: %v", err)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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

// axeCheck opens page in the color scheme already emulated (scheme
// names it in messages), injects axe-core and fails on every serious or
// critical violation.
func axeCheck(t *testing.T, ctx context.Context, base, page, scheme, axe string) {
	t.Helper()
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	})
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Navigate(base+page), chromedp.WaitReady(chromedp.CSS("footer")),
		chromedp.Evaluate[chromedp.Void](axe+";undefined"))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
			.filter(v => v.impact === "serious" || v.impact === "critical")
			.map(v => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join("; ")))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range bad {
		t.Errorf("axe on %s (%s): %s", page, scheme, v)
	}
}

// checkAxe runs axe-core on every kind of page, light and dark, and on a
// phone's width checks that the page does not scroll sideways.
func checkAxe(t *testing.T, ctx context.Context, base, axe string) {
	t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		for _, page := range pageKinds {
			axeCheck(t, ctx, base, page, scheme, axe)
		}
	}
	// A phone, light: nothing but a table's own scroller is wider than
	// the screen.
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = chromedp.Do(ctx, chromedp.EmulateReset()) }()
	for _, page := range pageKinds {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+page), chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
			t.Fatal(err)
		}
		wide, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth + 1`))
		if err != nil {
			t.Fatal(err)
		}
		if wide {
			t.Errorf("%s scrolls sideways on a phone", page)
		}
	}
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
