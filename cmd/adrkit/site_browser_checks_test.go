package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

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
