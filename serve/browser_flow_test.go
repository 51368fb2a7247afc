package serve

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

type (
	css  = chromedp.CSS
	step = chromedp.Action[chromedp.Void]
)

// TestBrowser drives headless Chromium through the application: trials →
// trial → region → thread, the call tree with a filter, a comparison, an
// analysis run from its form and its stored page. It checks that hostile
// names stay text in every view, that no console message appears and that
// no request leaves the server, and keeps a screenshot of each view.
func TestBrowser(t *testing.T) {
	ctx, pl := browser(t)
	f := newFixture(t)
	ts := f.server(t, Options{AllowAnalyses: true, Runner: &testRunner{db: f.db}})
	dir := shots(t)
	u := ts.URL
	// The first run starts the browser's tab for ctx's whole life: the
	// steps below run under shorter contexts.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	run := func(name string, steps ...step) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, steps...); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			t.Fatalf("%s (at %s): %v", name, loc, err)
		}
	}
	run("trials → trial → region → thread", clickThrough(t, u, dir)...)
	run("hostile names", hostileViews(t, u)...)
	run("call tree and filter", treeSteps(t, u, dir)...)
	run("compare", compareSteps(t, u, dir)...)
	run("analysis", analysisSteps(t, u, dir)...)
	pl.check(t, u)
	t.Logf("screenshots in %s", dir)
}

// clickThrough opens the trials, clicks the generated trial, its first
// region and that region's first thread, waiting for each chart.
func clickThrough(t *testing.T, u, dir string) []step {
	return []step{
		chromedp.Navigate(u + "/"),
		chromedp.WaitVisible(css("#trials")),
		shot(t, dir, "trials"),
		chromedp.Click(css(`a.trial[href="/trial/3"]`)),
		chromedp.WaitVisible(css("#regions")),
		chromedp.WaitVisible(css("#chart[data-drawn] canvas")),
		chromedp.WaitVisible(css("#threads-chart[data-drawn] canvas")),
		shot(t, dir, "regions"),
		chromedp.ScrollIntoView(css("#threads-chart")),
		shot(t, dir, "threads"),
		chromedp.ScrollIntoView(css("nav")),
		chromedp.Click(css("#regions tbody tr:nth-child(2) a.region")),
		chromedp.WaitVisible(css("#threads")),
		chromedp.WaitVisible(css("#chart[data-drawn] canvas")),
		expectAttr(t, "#chart", "data-drawn", "16"),
		shot(t, dir, "region"),
		chromedp.Click(css("#threads a.thread")),
		chromedp.WaitVisible(css("#thread-regions")),
		chromedp.WaitVisible(css("#chart[data-drawn] canvas")),
		shot(t, dir, "thread"),
	}
}

// hostileViews opens every view of the hand trial, whose name and one of
// whose regions are hostile.
func hostileViews(t *testing.T, u string) []step {
	return []step{
		chromedp.Navigate(u + "/"),
		chromedp.WaitVisible(css("#trials")),
		noMarkup(t, "trials", hostileTrial),
		chromedp.Navigate(u + "/trial/1"),
		chromedp.WaitVisible(css("#chart[data-drawn] canvas")),
		chromedp.WaitVisible(css("#threads-chart[data-drawn] canvas")),
		noMarkup(t, "regions", hostileTrial, hostileRegion),
		// The hostile region's own page, then its largest thread's.
		chromedp.Evaluate[chromedp.Void](`Array.from(document.querySelectorAll("#regions a.region")).find(a => a.textContent.includes("alert(1)")).click()`),
		chromedp.WaitVisible(css("#threads")),
		chromedp.WaitVisible(css("#chart[data-drawn] canvas")),
		noMarkup(t, "region", hostileTrial, hostileRegion),
		chromedp.Click(css("#threads a.thread")),
		chromedp.WaitVisible(css("#thread-regions")),
		noMarkup(t, "thread", hostileTrial, hostileRegion),
		chromedp.Navigate(u + "/trial/1/tree"),
		chromedp.WaitVisible(css("#tree[data-loaded] button.toggle")),
		chromedp.Click(css("#tree button.toggle")),
		chromedp.WaitVisible(css(`#tree tr[data-depth="1"]`)),
		chromedp.WaitVisible(css("#icicle[data-drawn] a.box")),
		noMarkup(t, "tree", hostileTrial, hostileRegion),
		chromedp.Navigate(u + "/compare?trials=1&trials=2"),
		chromedp.WaitVisible(css("#chart[data-drawn] canvas")),
		noMarkup(t, "compare", hostileTrial, hostileRegion),
	}
}

// query picks the callpath nodes of the regions whose name starts with
// "void region_2": region_2 and region_20 … region_29.
const query = `MATCH (".", p) WHERE p."name" STARTS WITH "void region_2"`

// treeSteps expands the generated trial's tree, filters it by a part of a
// name, then by a call-path query.
func treeSteps(t *testing.T, u, dir string) []step {
	return []step{
		chromedp.Navigate(u + "/trial/3/tree"),
		chromedp.WaitVisible(css("#tree[data-loaded] button.toggle")),
		chromedp.Click(css("#tree button.toggle")),
		chromedp.WaitVisible(css(`#tree tr[data-depth="1"]`)),
		expectCount(t, `#tree tr[data-depth="1"]`, 30),
		chromedp.WaitVisible(css("#icicle[data-drawn] a.box")),
		shot(t, dir, "tree"),
		chromedp.SetValue(css("#query"), "region_2"),
		chromedp.Click(css("#run-query")),
		chromedp.WaitVisible(css(`#tree[data-query="region_2"][data-loaded]`)),
		// region_2 and region_20 … region_29: 11 regions, each flat and
		// under main.
		expectCount(t, "#tree tbody tr", 22),
		// The icicle graph marks the 11 matched nodes under main.
		chromedp.WaitVisible(css("#icicle.filtered[data-drawn] a.box.hit")),
		expectCount(t, "#icicle a.box.hit", 11),
		// A call-path query: the same 11 callpath nodes (the regions'
		// flat nodes are not in the call graph, being in callpaths).
		chromedp.SetValue(css("#query"), query),
		chromedp.Click(css("#run-query")),
		chromedp.WaitVisible(css(`#tree[data-query^="MATCH"][data-loaded]`)),
		expectCount(t, "#tree tbody tr", 11),
		chromedp.WaitVisible(css("#icicle.filtered[data-drawn] a.box.hit")),
		expectCount(t, "#icicle a.box.hit", 11),
		shot(t, dir, "tree-query"),
	}
}

// compareSteps checks two trials on the trials page and compares them.
func compareSteps(t *testing.T, u, dir string) []step {
	return []step{
		chromedp.Navigate(u + "/"),
		chromedp.WaitVisible(css("#trials")),
		chromedp.Click(css(`input[name="trials"][value="3"]`)),
		chromedp.Click(css(`input[name="trials"][value="4"]`)),
		chromedp.Click(css("#compare")),
		chromedp.WaitVisible(css("table#compare")),
		chromedp.WaitVisible(css("#chart[data-drawn] canvas")),
		expectCount(t, "table#compare tbody tr", 31), // main and 30 regions
		shot(t, dir, "compare"),
	}
}

// analysisSteps runs the regions analysis on the hand trial from its form
// and waits for the stored result's report page.
func analysisSteps(t *testing.T, u, dir string) []step {
	return []step{
		chromedp.Navigate(u + "/analyses"),
		chromedp.Click(css(`a.analysis[href="/analyses/regions"]`)),
		chromedp.WaitVisible(css("#analysis-form")),
		chromedp.Click(css(`input[name="trials"][value="1"]`)),
		shot(t, dir, "analysis"),
		chromedp.Click(css("#run")),
		chromedp.WaitVisible(css("div.chart canvas")),
		noMarkup(t, "result page", hostileTrial, hostileRegion),
		chromedp.Navigate(u + "/results"),
		chromedp.WaitVisible(css("#results a.result")),
		noMarkup(t, "results", hostileTrial),
	}
}

// expectCount fails when sel does not match n elements.
func expectCount(t *testing.T, sel string, n int) step {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		got, err := chromedp.Evaluate[int](`document.querySelectorAll(`+quoteJS(sel)+`).length`)(ctx, tg)
		if err == nil && got != n {
			t.Errorf("%s: %d elements, want %d", sel, got, n)
		}
		return err
	})
}

// expectAttr fails when sel's attribute name is not want.
func expectAttr(t *testing.T, sel, name, want string) step {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		got, err := chromedp.Evaluate[string](`document.querySelector(`+quoteJS(sel)+`).getAttribute(`+quoteJS(name)+`)`)(ctx, tg)
		if err == nil && got != want {
			t.Errorf("%s[%s] = %q, want %q", sel, name, got, want)
		}
		return err
	})
}

func quoteJS(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
