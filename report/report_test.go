package report

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// evilNames are region names a user's program may hold.
var evilNames = []string{`<script>alert(1)</script>`, `say "hi" & 'bye'`, `a</script><script>alert(2)//`, "plain_work"}

// evilTrial builds a 4-thread trial whose regions carry evilNames, each
// imbalanced differently, under main.
func evilTrial(t testing.TB) *drg.Trial {
	t.Helper()
	return evilTrialN(t, 4, 1, `trial <i>"x"</i> & y`)
}

// evilTrialN is evilTrial with nt threads, every value times scale, named
// name.
func evilTrialN(t testing.TB, nt int, scale float64, name string) *drg.Trial {
	t.Helper()
	ids := make([]drg.ThreadID, nt)
	for i := range ids {
		ids[i] = drg.ThreadID{Node: i}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	main := b.Node("main")
	for th := 0; th < nt; th++ {
		var sum float64
		for r, name := range evilNames {
			v := scale * float64((r+1)*10+th*(r+1)*5+(th*th*(r+2))%7)
			sum += v
			for _, n := range []int{b.Node("main => " + name), b.Node(name)} {
				b.AddCalls(n, th, 1, 0)
				b.AddValues(n, th, m, v, v)
			}
		}
		b.AddCalls(main, th, 1, float64(len(evilNames)))
		b.AddValues(main, th, m, 5, sum+5)
	}
	b.TrialMetadata("Application", `<b>app</b> & "co"`)
	tr, err := b.Finish(name, drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func evilResults(t testing.TB) []*analysis.Result {
	t.Helper()
	tr := evilTrial(t)
	imb, err := analysis.Imbalance(tr, analysis.ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := analysis.Regions(tr, analysis.RegionsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := analysis.Summary(tr, analysis.SummaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return append([]*analysis.Result{imb, reg, sum, speedupResult(), clusterResult(), overheadResult()}, moreResults(t, tr)...)
}

// moreResults runs the remaining analyses on evil trials: ratio,
// correlate, compare, multiregion, multiset, improvement and scalability.
func moreResults(t testing.TB, tr *drg.Trial) []*analysis.Result {
	t.Helper()
	var out []*analysis.Result
	add := func(r *analysis.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	add(analysis.Ratio(tr, analysis.RatioOptions{Name: `<u>TWICE</u>`, Expr: "TIME * 2"}))
	add(analysis.Correlate(tr, analysis.CorrelateOptions{}))
	faster := evilTrialN(t, 4, 0.8, `B <script>alert(1)</script>`)
	add(analysis.Compare(tr, faster, analysis.CompareOptions{}))
	var setA, setB, all []analysis.Experiment
	for _, p := range []int{1, 2, 4} {
		a := analysis.Experiment{Trial: evilTrialN(t, p, 4/float64(p), "a"), Name: "a p=" + itoa(p) + ` <b>`, P: float64(p), Key: `set <A> & "1"`}
		b := analysis.Experiment{Trial: evilTrialN(t, p, 3/float64(p)+0.1, "b"), Name: "b p=" + itoa(p) + ` <b>`, P: float64(p), Key: `set <B>`}
		setA, setB = append(setA, a), append(setB, b)
		all = append(all, a, b)
	}
	add(analysis.MultiRegion(setA, "", analysis.MultiRegionOptions{}))
	add(analysis.MultiSet(all, "", analysis.MultiSetOptions{}))
	add(analysis.Improvement(setA, setB, analysis.SeriesOptions{}))
	add(analysis.Scalability(setA, analysis.ScalabilityOptions{}))
	var grid []*drg.Trial // two parameters: p and the metadata SIZE
	for _, p := range []int{1, 2, 4, 8} {
		for _, n := range []int{10, 20, 40, 80} {
			tr := evilTrialN(t, p, float64(n)/float64(p)+0.5, "grid")
			tr.Metadata["SIZE"] = itoa(n)
			tr.Name = "grid p=" + itoa(p) + " n=" + itoa(n)
			grid = append(grid, tr)
		}
	}
	add(analysis.ScalabilityMulti(grid, []string{"p", "meta:SIZE"}, analysis.ScalabilityOptions{}, analysis.ReduceMedian))
	return out
}

// chartsOf is the number of charts r gets: chartCounts, but one heat map
// for a multi-parameter scalability result.
func chartsOf(r *analysis.Result) int {
	if r.Table("program_surface") != nil {
		return 1
	}
	return chartCounts[r.Analysis]
}

// chartCounts is the number of charts each analysis gets from evilResults.
var chartCounts = map[string]int{"imbalance": 3, "regions": 2, "summary": 1, "speedup": 2, "cluster": 3, "overhead": 1,
	"ratio": 2, "correlate": 1, "compare": 2, "multiregion": 1, "multiset": 2, "improvement": 2, "scalability": 4}

// speedupResult is a hand-made speedup result with an undefined value.
func speedupResult() *analysis.Result {
	r := &analysis.Result{Analysis: "speedup", Trials: []string{"p1", "p2", "p4"}, Metric: "TIME", Params: map[string]string{"metric": "TIME"}}
	tb := analysis.Table{Name: "program"}
	tb.AddText("experiment", []string{"p1", "p2", "p4"})
	tb.AddNum("p", "", []float64{1, 2, 4})
	tb.AddNum("time", "us", []float64{100, 55, math.NaN()})
	tb.AddNum("speedup", "", []float64{1, 100.0 / 55, math.NaN()})
	tb.AddNum("ideal_speedup", "", []float64{1, 2, 4})
	tb.AddNum("efficiency", "", []float64{1, 100.0 / 110, math.NaN()})
	r.AddTable(tb)
	r.Findf("Speedup at p=2 is 1.82.")
	return r
}

func clusterResult() *analysis.Result {
	r := &analysis.Result{Analysis: "cluster", Trials: []string{"t"}, Metric: "TIME", Params: map[string]string{"k": "2"}}
	pca := analysis.Table{Name: "pca"}
	pca.AddText("trial", []string{"t", "t", "t"})
	pca.AddNum("node", "", []float64{0, 1, 2})
	pca.AddNum("context", "", []float64{0, 0, 0})
	pca.AddNum("thread", "", []float64{0, 0, 0})
	pca.AddNum("cluster", "", []float64{0, 1, 1})
	pca.AddNum("pc1", "", []float64{-1, 0.5, 0.6})
	pca.AddNum("pc2", "", []float64{0, 0.1, -0.1})
	r.AddTable(pca)
	sz := analysis.Table{Name: "sizes"}
	sz.AddNum("cluster", "", []float64{0, 1})
	sz.AddNum("size", "threads", []float64{1, 2})
	sz.AddNum("silhouette", "", []float64{math.NaN(), 0.8})
	r.AddTable(sz)
	avg := analysis.Table{Name: "averages"}
	avg.AddNum("cluster", "", []float64{0, 0, 1, 1})
	avg.AddText("region", []string{"<script>alert(1)</script>", "b & \"c\"", "<script>alert(1)</script>", "b & \"c\""})
	avg.AddNum("value", "us", []float64{10, 2, 1, 20})
	r.AddTable(avg)
	sep := analysis.Table{Name: "separating"}
	sep.AddText("region", []string{"b & \"c\"", "<script>alert(1)</script>"})
	sep.AddNum("eta_squared", "", []float64{0.9, 0.8})
	r.AddTable(sep)
	r.Findf("2 clusters.")
	return r
}

func overheadResult() *analysis.Result {
	r := &analysis.Result{Analysis: "overhead", Trials: []string{"a", "b"}, Metric: "TIME", Params: map[string]string{}}
	tb := analysis.Table{Name: "totals"}
	tb.AddText("experiment", []string{"p=2", "p=4"})
	tb.AddNum("p", "", []float64{2, 4})
	tb.AddNum("t_p", "us", []float64{60, 40})
	tb.AddNum("t_o", "us", []float64{10, 15})
	tb.AddNum("data_movement", "us", []float64{4, 6})
	tb.AddNum("synchronization", "us", []float64{3, 5})
	tb.AddNum("unidentified", "us", []float64{3, 4})
	tb.AddNum("overhead_percent", "%", []float64{16.7, 37.5})
	r.AddTable(tb)
	r.Findf("Overhead grows.")
	return r
}

func writeReport(t testing.TB) (string, []*analysis.Result) {
	t.Helper()
	res := evilResults(t)
	dir := t.TempDir()
	idx, err := Write(dir, res, Meta{Title: `Report <x> & "y"`, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Source: `sqlite:/tmp/<db>.db`})
	if err != nil {
		t.Fatal(err)
	}
	if idx != filepath.Join(dir, "index.html") {
		t.Fatalf("index path %s", idx)
	}
	return dir, res
}

func read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteFolder(t *testing.T) {
	dir, res := writeReport(t)
	for _, f := range []string{"index.html", "assets/echarts.min.js", "assets/LICENSE", "assets/NOTICE",
		"01-imbalance.html", "02-regions.html", "03-summary.html", "04-speedup.html", "05-cluster.html", "06-overhead.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	idx := read(t, filepath.Join(dir, "index.html"))
	for i, r := range res {
		if !strings.Contains(idx, `href="`+pageFile(i+1, r.Analysis, map[string]bool{})+`"`) {
			t.Errorf("index does not link result %d (%s)", i+1, r.Analysis)
		}
	}
	if !strings.Contains(idx, "2026-01-02T03:04:05Z") {
		t.Error("index lacks the creation time")
	}
	if !strings.Contains(idx, "Report &lt;x&gt; &amp; &#34;y&#34;") {
		t.Error("index title not escaped as expected")
	}
	// The imbalance finding names a region: it shows escaped.
	if !strings.Contains(idx, "could save") || strings.Contains(idx, "<script>alert") {
		t.Error("index: finding missing or unescaped")
	}
}

// TestChartsChosen checks each analysis gets its charts.
func TestChartsChosen(t *testing.T) {
	res := evilResults(t)
	if len(res) != len(chartCounts)+1 {
		t.Errorf("%d results, want one of each of %d analyses and a multi-parameter scalability", len(res), len(chartCounts))
	}
	for _, r := range res {
		want, ok := chartsOf(r), chartCounts[r.Analysis] > 0
		if !ok {
			t.Errorf("%s: no expected chart count", r.Analysis)
		}
		cs := Charts(r)
		if len(cs) != want {
			t.Errorf("%s: %d charts, want %d", r.Analysis, len(cs), want)
		}
		for _, c := range cs {
			if c.Table == nil || c.Table.NumRows() == 0 {
				t.Errorf("%s: chart %q has no numbers drawn", r.Analysis, c.Title)
			}
		}
	}
	// Tables lacking the columns a chart needs give no chart.
	if cs := Charts(&analysis.Result{Analysis: "speedup", Tables: []analysis.Table{{Name: "program"}}}); len(cs) != 0 {
		t.Errorf("speedup without columns: %d charts", len(cs))
	}
}

var scriptRe = regexp.MustCompile(`(?is)<script\b[^>]*>(.*?)</script>`)

// TestEscaping checks that hostile names never appear raw: not as HTML,
// not inside attributes, not breaking out of the chart script.
func TestEscaping(t *testing.T) {
	dir, _ := writeReport(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(files) != len(chartCounts)+2 { // one page per result (a second scalability) and the index
		t.Fatalf("%d html files", len(files))
	}
	for _, f := range files {
		s := read(t, f)
		for _, bad := range []string{"<script>alert", "</script><script>alert(2)", "<i>\"x\"</i>", "<b>app</b>", "<db>"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s holds raw %q", filepath.Base(f), bad)
			}
		}
		// Our inline scripts hold no "<" at all: user text inside them is
		// JSON with < escaped as \u003c, so it cannot close the element.
		for _, m := range scriptRe.FindAllStringSubmatch(s, -1) {
			if body := m[1]; strings.Contains(body, "<") {
				t.Errorf("%s: a script element holds a raw '<': %.200q", filepath.Base(f), body)
			}
		}
		if n := strings.Count(strings.ToLower(s), "<script"); n != strings.Count(strings.ToLower(s), "</script>") {
			t.Errorf("%s: unbalanced script tags", filepath.Base(f))
		}
	}
	imb := read(t, filepath.Join(dir, "01-imbalance.html"))
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "say &#34;hi&#34; &amp; &#39;bye&#39;",
		`\u003cscript\u003ealert(1)\u003c/script\u003e`, `trial &lt;i&gt;&#34;x&#34;&lt;/i&gt; &amp; y`} {
		if !strings.Contains(imb, want) {
			t.Errorf("imbalance page lacks %q", want)
		}
	}
	if want := 3; strings.Count(imb, `<script`) != want {
		t.Errorf("imbalance page has %d script elements, want %d", strings.Count(imb, `<script`), want)
	}
}

var remoteRef = regexp.MustCompile(`(?i)(src|href|action|poster|data)\s*=\s*["']?\s*(https?:)?//|url\(\s*["']?\s*(https?:)?//|@import|https?://[^"'\s]*(cdn|jsdelivr|unpkg|github\.io)`)

// TestOffline checks that no written file refers to the network: no
// remote src/href/url() in our pages, no CDN host anywhere (the ECharts
// code and licence mention apache.org and w3.org namespaces, which are
// not fetched).
func TestOffline(t *testing.T) {
	dir, _ := writeReport(t)
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		s := read(t, path)
		if m := remoteRef.FindString(s); m != "" {
			t.Errorf("%s refers to the network: %q", path, m)
		}
		if strings.HasSuffix(path, ".html") && (strings.Contains(s, "http://") || strings.Contains(s, "https://")) {
			t.Errorf("%s holds a URL", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	imb := read(t, filepath.Join(dir, "01-imbalance.html"))
	if !strings.Contains(imb, `<script src="assets/echarts.min.js"></script>`) {
		t.Error("page does not load the local echarts")
	}
	js := read(t, filepath.Join(dir, "assets", "echarts.min.js"))
	if len(js) < 500000 || !strings.Contains(js, "Apache License") {
		t.Errorf("echarts.min.js looks wrong (%d bytes)", len(js))
	}
}

// TestTables checks the sortable tables: one per table of the result plus
// one under each chart, with every row.
func TestTables(t *testing.T) {
	dir, res := writeReport(t)
	imb := read(t, filepath.Join(dir, "01-imbalance.html"))
	nTables := strings.Count(imb, `<table class="sortable"`)
	if want := len(res[0].Tables) + chartCounts["imbalance"]; nTables != want {
		t.Errorf("imbalance page: %d tables, want %d", nTables, want)
	}
	if !strings.Contains(imb, "aria-sort") || !strings.Contains(imb, "data-sort=") {
		t.Error("no sorting code or keys")
	}
	sp := read(t, filepath.Join(dir, "04-speedup.html"))
	if !strings.Contains(sp, `"ideal"`) || !strings.Contains(sp, "—") {
		t.Error("speedup page lacks the ideal line or the undefined marker")
	}
}

func TestPageFile(t *testing.T) {
	used := map[string]bool{}
	for _, c := range []struct{ name, want string }{
		{"imbalance", "01-imbalance.html"}, {"../../etc/passwd", "01-_etc_passwd.html"}, {"", "01-result.html"}, {"imbalance", "01-imbalance-2.html"},
	} {
		if got := pageFile(1, c.name, used); got != c.want {
			t.Errorf("pageFile(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestScalabilityCurveSegments: a series that changes regime gets the
// model chart with its interval and its two segments.
func TestScalabilityCurveSegments(t *testing.T) {
	var s []analysis.Experiment
	for p := 2; p <= 1024; p *= 2 {
		f := 2e4/float64(p) + 10
		if p > 64 {
			f += 300 * (1 + math.Log2(float64(p)/128))
		}
		s = append(s, analysis.Experiment{Trial: evilTrialN(t, p, f/100, "seg"), Name: "p=" + itoa(p), P: float64(p)})
	}
	res, err := analysis.Scalability(s, analysis.ScalabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range scalabilityCharts(res) {
		if strings.Contains(c.Title, "two segments") {
			found = true
		}
	}
	if !found {
		t.Errorf("no segment chart; models %v", res.Table("models").Text("segmented_model", 0))
	}
}
