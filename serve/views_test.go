package serve

import (
	"encoding/json"
	"math"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

var cellRe = regexp.MustCompile(`<td class="num">([^<]*)`)

// rowOf returns the numbers of the table row whose link text is name.
func rowOf(t *testing.T, body, name string) []string {
	t.Helper()
	i := strings.Index(body, ">"+name+"</a>")
	if i < 0 {
		t.Fatalf("no row %q in\n%s", name, body)
	}
	end := strings.Index(body[i:], "</tr>")
	var out []string
	for _, m := range cellRe.FindAllStringSubmatch(body[i:i+end], -1) {
		out = append(out, strings.TrimSpace(m[1]))
	}
	return out
}

// TestRegionsPage checks the regions table against the hand trial's
// statistics (see handTrial).
func TestRegionsPage(t *testing.T) {
	ts := newFixture(t).server(t, Options{})
	code, body := get(t, ts, "/trial/1")
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	// threads, mean, min, max, stddev, total
	if got, want := strings.Join(rowOf(t, body, "work"), " "), "4 65 50 80 "+formatNum(math.Sqrt(125))+" 260"; got != want {
		t.Errorf("work: %s, want %s", got, want)
	}
	esc := "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;"
	if got := strings.Join(rowOf(t, body, esc), " "); got != "2 10 5 15 5 20" {
		t.Errorf("hostile region: %s, want 2 10 5 15 5 20", got)
	}
	if strings.Contains(body, hostileRegion) || strings.Contains(body, "<img src=\"/x-injected\"") {
		t.Error("a hostile name became markup")
	}
	// Inclusive main: 100 everywhere.
	_, body = get(t, ts, "/trial/1?value=incl&sort=name")
	if got := strings.Join(rowOf(t, body, "main"), " "); got != "4 100 100 100 0 400" {
		t.Errorf("inclusive main: %s", got)
	}
	// A derived metric: TIME * 2 doubles every statistic.
	_, body = get(t, ts, "/trial/1?expr=TIME+*+2")
	if got := strings.Join(rowOf(t, body, "work"), " "); got != "4 130 100 160 "+formatNum(2*math.Sqrt(125))+" 520" {
		t.Errorf("derived TIME*2 work: %s", got)
	}
	code, body = get(t, ts, "/trial/1?expr=NOPE+%2F+TIME")
	if code != 400 || !strings.Contains(body, "NOPE") {
		t.Errorf("unknown metric in an expression: %d %s", code, body)
	}
}

// TestRegionAndThreadPages follows trial → region → thread.
func TestRegionAndThreadPages(t *testing.T) {
	ts := newFixture(t).server(t, Options{})
	_, body := get(t, ts, "/trial/1")
	link := regexp.MustCompile(`href="(/trial/1/region/\d+[^"]*)">work<`).FindStringSubmatch(body)
	if link == nil {
		t.Fatal("no link to work's page")
	}
	_, body = get(t, ts, strings.ReplaceAll(link[1], "&amp;", "&"))
	for _, want := range []string{">0,0,0</a>", ">3,0,0</a>", "80 on <a", "50 on <a"} {
		if !strings.Contains(body, want) {
			t.Errorf("work's page lacks %q", want)
		}
	}
	// The threads table: largest first.
	if i, j := strings.Index(body, ">0,0,0</a></td><td class=\"num\">80"), strings.Index(body, ">3,0,0</a></td><td class=\"num\">50"); i < 0 || j < i {
		t.Errorf("threads not in value order: %d %d", i, j)
	}
	_, body = get(t, ts, "/trial/1/thread/1")
	if got := strings.Join(rowOf(t, body, "work"), " "); got != "70 3" {
		t.Errorf("thread 1 work: %s, want 70 3", got)
	}
	if !strings.Contains(body, "sum over the regions: 100") {
		t.Error("thread 1's exclusive values should add up to main's inclusive 100")
	}
	if code, _ := get(t, ts, "/trial/1/thread/4"); code != 404 {
		t.Errorf("thread 4 of 4: status %d", code)
	}
	if code, _ := get(t, ts, "/trial/99"); code != 404 {
		t.Errorf("trial 99: status %d", code)
	}
}

// TestThreadBins checks the per-thread chart of a region of many threads:
// 4,096 threads whose value is the thread's index, in MaxBars bins of 8
// consecutive threads: bin k holds 8k..8k+7, min 8k, max 8k+7, mean 8k+3.5.
func TestThreadBins(t *testing.T) {
	const nt = 4096
	tr := &cachedTrial{id: 7, trial: bigTrial(t, nt), columns: map[columnKey]*column{}}
	col, err := tr.column(columnKey{Metric: "TIME"})
	if err != nil {
		t.Fatal(err)
	}
	b := threadBars(tr, col, 0, viewParams{Metric: "TIME"})
	if len(b.Labels) != MaxBars || len(b.Series) != 3 {
		t.Fatalf("%d bars, %d series", len(b.Labels), len(b.Series))
	}
	for k := 0; k < MaxBars; k++ {
		lo := float64(8 * k)
		if b.Series[0].Values[k] != num(lo) || b.Series[1].Values[k] != num(lo+3.5) || b.Series[2].Values[k] != num(lo+7) {
			t.Fatalf("bin %d: %v %v %v", k, b.Series[0].Values[k], b.Series[1].Values[k], b.Series[2].Values[k])
		}
	}
	if want := "/trial/7/thread/15?metric=TIME"; b.Links[1] != want {
		t.Errorf("bin 1 links to %s, want its largest thread %s", b.Links[1], want)
	}
	js, _ := json.Marshal(b)
	if len(js) > 64<<10 {
		t.Errorf("the chart of %d threads is %d bytes", nt, len(js))
	}
}

// bigTrial has one region whose value on thread i is i.
func bigTrial(t *testing.T, nt int) *drg.Trial {
	t.Helper()
	var ids []drg.ThreadID
	for n := 0; n < nt; n++ {
		ids = append(ids, drg.ThreadID{Node: n})
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	for th := 0; th < nt; th++ {
		add(b, "main", th, m, float64(th), float64(th), 1)
	}
	tr, err := b.Finish("big", drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestCompare checks the comparison of the hand trial and its copy with
// "work" twice as long: 65 → 130 (means over 4 threads).
func TestCompare(t *testing.T) {
	ts := newFixture(t).server(t, Options{})
	code, body := get(t, ts, "/compare?trials=1&trials=2")
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	i := strings.Index(body, `<td class="name">work</td>`)
	if i < 0 {
		t.Fatal("no row of work")
	}
	row := body[i : i+strings.Index(body[i:], "</tr>")]
	var cells []string
	for _, m := range cellRe.FindAllStringSubmatch(row, -1) {
		cells = append(cells, m[1])
	}
	if got := strings.Join(cells, " "); got != "65 130 65 100.0" || !strings.Contains(row, "slower") {
		t.Errorf("work: %s (%s), want 65 130 65 100.0 slower", got, row)
	}
	if code, _ := get(t, ts, "/compare?trials=1"); code != 400 {
		t.Errorf("one trial: status %d", code)
	}
	// Inclusive main: 100 in both, the same.
	_, body = get(t, ts, "/compare?trials=1,2&value=incl")
	i = strings.Index(body, `<td class="name">main</td>`)
	if i < 0 || !strings.HasPrefix(body[i:], `<td class="name">main</td><td class="num">100</td><td class="num">100</td><td class="num">0</td><td class="num">0.0</td><td class="verdict">same</td>`) {
		t.Errorf("inclusive main: %.200s", body[max(i, 0):])
	}
	if code, _ := get(t, ts, "/compare?trials=1,2&metric=NOPE"); code != 400 {
		t.Errorf("unknown metric: status %d", code)
	}
}

// TestThreadsOverview: each thread's stacked exclusive parts add up to its
// main region's inclusive value, 100 on every thread of the hand trial,
// and work's part is its value on the thread.
func TestThreadsOverview(t *testing.T) {
	ts := newFixture(t).server(t, Options{})
	var b struct {
		Labels []string `json:"labels"`
		Series []struct {
			Name   string    `json:"name"`
			Values []float64 `json:"values"`
		} `json:"series"`
	}
	getJSON(t, ts, ts.URL, "/api/trial/1/threads", &b)
	if len(b.Labels) != 4 || len(b.Series) != 4 || b.Series[0].Name != "work" || b.Series[3].Name != "other regions" {
		t.Fatalf("overview: %+v", b)
	}
	for th := 0; th < 4; th++ {
		sum := 0.0
		for _, s := range b.Series {
			sum += s.Values[th]
		}
		if sum != 100 {
			t.Errorf("thread %d: parts add up to %g, want 100", th, sum)
		}
		if want := []float64{80, 70, 60, 50}[th]; b.Series[0].Values[th] != want {
			t.Errorf("thread %d: work %g, want %g", th, b.Series[0].Values[th], want)
		}
	}
}

// TestTrialsFilter: the where expression selects trials; a bad one says
// what is wrong.
func TestTrialsFilter(t *testing.T) {
	ts := newFixture(t).server(t, Options{})
	code, body := get(t, ts, `/?where=`+url.QueryEscape(`name == "slow" || threads > 20`))
	if code != 200 || strings.Count(body, `class="trial"`) != 2 || !strings.Contains(body, ">slow</a>") || !strings.Contains(body, ">synth32</a>") {
		t.Errorf("filter: %d, %d trials", code, strings.Count(body, `class="trial"`))
	}
	code, body = get(t, ts, `/?where=`+url.QueryEscape(`threads >`))
	if code != 400 || !strings.Contains(body, `id="error"`) {
		t.Errorf("bad filter: %d", code)
	}
	if _, body = get(t, ts, "/"); strings.Count(body, `class="trial"`) != 4 || !strings.Contains(body, "Application") {
		t.Error("the unfiltered list lacks trials or their metadata")
	}
}

// TestStatDense: the dense path gives what the general one gives, NaN
// cells left out in both.
func TestStatDense(t *testing.T) {
	xs := []float64{3, 1, math.NaN(), 4, 1, 5, 9, 2, 6}
	all := func(int) bool { return true }
	if a, b := statOf(xs, all), statDense(xs); a != b {
		t.Errorf("statOf %+v, statDense %+v", a, b)
	}
	// By hand over the 8 numbers: Σ = 31, mean 3.875, min 1 (index 1), max 9 (index 6).
	if s := statDense(xs); s.Count != 8 || s.Total != 31 || s.Mean != 3.875 || s.MinThread != 1 || s.MaxThread != 6 || s.MeanAll != 31.0/9 {
		t.Errorf("%+v", s)
	}
}
