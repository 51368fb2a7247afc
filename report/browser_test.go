package report

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromiumPath is Debian's Chromium.
const chromiumPath = "/usr/bin/chromium"

// chromium returns the browser's path, skipping the test when it is absent
// unless TAUDB_REQUIRE_BROWSER is set (then the test fails).
func chromium(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("TAUDB_REQUIRE_BROWSER") != "" {
			t.Fatalf("TAUDB_REQUIRE_BROWSER is set but %s is missing: %v", chromiumPath, err)
		}
		t.Skipf("no headless browser at %s (apt install chromium); set TAUDB_REQUIRE_BROWSER=1 to make this a failure", chromiumPath)
	}
	return chromiumPath
}

// runChromium runs headless Chromium on page with extra arguments, every
// remote host unresolvable (so any network request fails), and returns its
// standard output.
func runChromium(t *testing.T, page string, extra ...string) string {
	t.Helper()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
		"--user-data-dir=" + t.TempDir(), `--host-resolver-rules=MAP * ~NOTFOUND`,
		"--virtual-time-budget=5000", "--window-size=1280,900", "--enable-logging=stderr", "--v=0"}
	args = append(append(args, extra...), "file://"+page)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium(t), args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", filepath.Base(page), err, stderr.String())
	}
	// Every console message of the page (console.error, an uncaught
	// exception, a failed load) is logged as CONSOLE: the pages log none.
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			t.Errorf("%s: console message: %s", filepath.Base(page), l)
		}
	}
	return string(out)
}

var (
	chartDivRe = regexp.MustCompile(`<div class="chart" id="(chart-\d+)"[^>]*>`)
	tableRe    = regexp.MustCompile(`(?s)<table class="sortable" id="([^"]+)">.*?<tbody>(.*?)</tbody>`)
)

// TestBrowser opens the pages in headless Chromium with the network cut
// off and checks the rendered DOM: every chart div was initialised by
// ECharts and holds a canvas, the tables have every row, and the hostile
// region name shows as text. A screenshot of the imbalance page is kept.
func TestBrowser(t *testing.T) {
	chromium(t)
	dir, res := writeReport(t)
	used := map[string]bool{}
	for i, r := range res {
		file := pageFile(i+1, r.Analysis, used)
		nCharts := chartsOf(r)
		if nCharts == 0 {
			t.Errorf("%s: no charts expected", file)
		}
		dom := runChromium(t, filepath.Join(dir, file), "--dump-dom")
		divs := chartDivRe.FindAllStringSubmatchIndex(dom, -1)
		if len(divs) != nCharts {
			t.Errorf("%s: %d chart divs, want %d", file, len(divs), nCharts)
		}
		for _, m := range divs {
			tag := dom[m[0]:m[1]]
			rest := dom[m[1]:]
			if end := strings.Index(rest, `<div class="chart"`); end >= 0 {
				rest = rest[:end]
			}
			if !strings.Contains(tag, "_echarts_instance_") || !strings.Contains(rest, "<canvas") {
				t.Errorf("%s: chart %s was not rendered (no ECharts instance or canvas): %.300s", file, dom[m[2]:m[3]], tag)
			}
		}
		if strings.Contains(dom, `">The chart library`) {
			t.Errorf("%s: the chart library did not load", file)
		}
		// Every chart has its numbers drawn, then come the result's tables.
		if got, want := len(tableRe.FindAllStringSubmatch(dom, -1)), nCharts+len(r.Tables); got != want {
			t.Errorf("%s: %d sortable tables, want %d", file, got, want)
		}
		for _, bad := range []string{"<script>alert(1)</script>", "<b>app</b>", "<u>TWICE</u>", "<A>"} {
			if strings.Contains(dom, bad) {
				t.Errorf("%s: %q became markup", file, bad)
			}
		}
		if strings.Contains(dom, "alert(") && !strings.Contains(dom, "&lt;script&gt;alert(") {
			t.Errorf("%s: a hostile name is shown but not as escaped text", file)
		}
	}

	dom := runChromium(t, filepath.Join(dir, "01-imbalance.html"), "--dump-dom")
	imb := res[0].Table("imbalance")
	found := false
	for _, m := range tableRe.FindAllStringSubmatch(dom, -1) {
		if m[1] == "table-"+itoa(chartCounts["imbalance"]+1) { // the first of "All tables": imbalance
			found = true
			if got := strings.Count(m[2], "<tr>"); got != imb.NumRows() {
				t.Errorf("imbalance table: %d rows in the DOM, want %d", got, imb.NumRows())
			}
		}
	}
	if !found {
		t.Error("the imbalance table is not in the DOM")
	}
	if !strings.Contains(dom, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the hostile region name does not show as text")
	}
	if strings.Contains(dom, "<script>alert(1)</script>") {
		t.Error("the hostile region name became an element")
	}

	shots := os.Getenv("TAUDB_REPORT_ARTEFACTS")
	if shots == "" {
		var err error
		if shots, err = os.MkdirTemp("", "taudb-report-shot-"); err != nil {
			t.Fatal(err)
		}
	}
	// A screenshot of every page, kept as a test artefact.
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(pages) != len(res)+1 {
		t.Fatalf("pages %v %v", pages, err)
	}
	for _, page := range pages {
		png := filepath.Join(shots, strings.TrimSuffix(filepath.Base(page), ".html")+".png")
		runChromium(t, page, "--screenshot="+png, "--window-size=1280,2400")
		if st, err := os.Stat(png); err != nil || st.Size() < 10000 {
			t.Errorf("screenshot %s missing or too small: %v", png, err)
		}
	}
	t.Logf("screenshots of the %d pages: %s", len(pages), shots)
}
