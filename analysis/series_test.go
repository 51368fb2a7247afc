package analysis

import (
	"fmt"
	"math"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// law is a region whose value follows a known function of p.
type law struct {
	name string
	f    func(p float64) float64
}

// progLaw is the generated program's time: T(p) = 100 + 900/p + 5*log2(p).
func progLaw(p float64) float64 { return 100 + 900/p + 5*math.Log2(p) }

// testLaws are the generated regions: constant, 1/p, log2(p), p and
// p^(1/2)*log2(p). Their sum stays below progLaw for p = 1..64, so the main
// region's exclusive value is never negative.
var testLaws = []law{
	{"const_region", func(float64) float64 { return 50 }},
	{"inv_region", func(p float64) float64 { return 800 / p }},
	{"log_region", func(p float64) float64 { return 5 * math.Log2(p) }},
	{"lin_region", func(p float64) float64 { return 0.25 * p }},
	{"sqrtlog_region", func(p float64) float64 { return 0.5 * math.Sqrt(p) * math.Log2(p) }},
}

// otherShare is the fraction of thread 0's value that every other thread
// holds in a generated trial: it varies with p so that the mean over
// threads is not a constant multiple of the max.
func otherShare(p float64) float64 { return 0.5 + 0.05*math.Log2(p) }

// lawTrial builds a trial of p processes (TAU node ranks) with tpp threads
// each. Thread 0.0.0 holds the values of the laws exactly (exclusive =
// inclusive = f(p)) and its main region "main" has inclusive prog(p) and
// exclusive prog(p) − Σ f(p); every other thread holds otherShare(p) times
// these. meta becomes trial-level metadata.
func lawTrial(tb testing.TB, name string, p, tpp int, prog func(float64) float64, laws []law, meta map[string]string) *drg.Trial {
	tb.Helper()
	var ids []drg.ThreadID
	for n := range p {
		for th := range tpp {
			ids = append(ids, drg.ThreadID{Node: n, Thread: th})
		}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		tb.Fatal(err)
	}
	m := b.Metric("TIME")
	x := float64(p)
	main := b.Node("main")
	nodes := make([]int, len(laws))
	for i, l := range laws {
		nodes[i] = b.Node(l.name)
	}
	for col := range b.NumThreads() {
		scale := 1.0
		if col > 0 {
			scale = otherShare(x)
		}
		sum := 0.0
		for i, l := range laws {
			v := l.f(x)
			sum += v
			b.AddCalls(nodes[i], col, 1, 0)
			b.AddValues(nodes[i], col, m, scale*v, scale*v)
		}
		b.AddCalls(main, col, 1, float64(len(laws)))
		b.AddValues(main, col, m, scale*(prog(x)-sum), scale*prog(x))
	}
	for k, v := range meta {
		b.TrialMetadata(k, v)
	}
	t, err := b.Finish(name, drg.Source{Format: "profile"})
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// lawSeries builds one lawTrial per p, named "p<P>", with P set.
func lawSeries(tb testing.TB, ps []int, tpp int, prog func(float64) float64, laws []law, meta func(p int) map[string]string) Series {
	tb.Helper()
	var s Series
	for _, p := range ps {
		var md map[string]string
		if meta != nil {
			md = meta(p)
		}
		name := fmt.Sprintf("p%d", p)
		s = append(s, Experiment{Trial: lawTrial(tb, name, p, tpp, prog, laws, md), Name: name, P: float64(p)})
	}
	return s
}

var powers = []int{1, 2, 4, 8, 16, 32, 64}

func TestProcessCount(t *testing.T) {
	s := spec{
		name:    "layout",
		threads: threads("0.0.0", "0.0.1", "1.0.0", "1.0.1", "2.0.0"),
		meta: map[int]map[string]string{
			0: {"Node Name": "hostA"},
			2: {"Node Name": "hostA"},
			4: {"Node Name": "hostB"},
		},
	}
	for th := range 5 {
		s.recs = append(s.recs, rec{node: "main", th: th, excl: 1, incl: 1, calls: 1})
	}
	tr := build(t, s)
	tr.Metadata["np"] = "3"
	tr.Metadata["MPI Processes"] = " 12 "
	tr.Metadata["label"] = "abc"
	tr.Metadata["zero"] = "0"
	for from, want := range map[string]float64{
		"": 3, "processes": 3, "nodes": 3, "NODES": 3, "threads": 5, "hosts": 2,
		"meta:np": 3, "meta:MPI Processes": 12, "meta:mpi processes": 12,
	} {
		got, err := ProcessCount(tr, from)
		if err != nil {
			t.Errorf("%q: %v", from, err)
			continue
		}
		if got != want {
			t.Errorf("ProcessCount(%q) = %v, want %v", from, got, want)
		}
	}
	_, err := ProcessCount(tr, "meta:label")
	wantErr(t, "non-numeric", err, "label", "not a number")
	_, err = ProcessCount(tr, "meta:missing")
	wantErr(t, "missing key", err, "no metadata", "missing")
	_, err = ProcessCount(tr, "meta:zero")
	wantErr(t, "zero", err, "> 0")
	_, err = ProcessCount(tr, "ranks?")
	wantErr(t, "unknown source", err, "threads", "meta:KEY")
	_, err = ProcessCount(nil, "")
	wantErr(t, "nil trial", err, "no trial")

	// No host metadata at all.
	plain := lawTrial(t, "plain", 2, 1, progLaw, nil, nil)
	_, err = ProcessCount(plain, "hosts")
	wantErr(t, "no hosts", err, "Node Name")
	// An OpenMP-only trial (1 process × 4 threads) is one process.
	omp := lawTrial(t, "omp", 1, 4, progLaw, nil, nil)
	if p, _ := ProcessCount(omp, ""); p != 1 {
		t.Errorf("OpenMP trial: %v processes, want 1", p)
	}
	if p, _ := ProcessCount(omp, "threads"); p != 4 {
		t.Errorf("OpenMP trial: %v threads, want 4", p)
	}
}

func TestByKey(t *testing.T) {
	s := spec{
		name:    "props",
		threads: threads("0.0.0", "1.0.0", "2.0.0"),
		meta: map[int]map[string]string{
			0: {"rank": "0", "size": "36", "power": "150 W", "network": "GM"},
			1: {"rank": "1", "size": "36", "power": "150 W", "network": "GM", "late": "7"},
			2: {"rank": "2", "size": "36", "power": "150 W", "network": "GM", "late": "7"},
		},
	}
	for th := range 3 {
		s.recs = append(s.recs, rec{node: "main", th: th, excl: 1, incl: 1, calls: 1})
	}
	tr := build(t, s)
	for _, c := range []struct {
		key, text, unit string
		num             float64
	}{
		{"size", "36", "", 36},
		{"SIZE", "36", "", 36},
		{"meta:size", "36", "", 36},
		{"power", "150 W", "W", 150},
		{"network", "GM", "", math.NaN()},
		{"late", "7", "", 7}, // per-thread only, but equal where present
	} {
		p, err := ByKey(tr, c.key)
		if err != nil {
			t.Errorf("%q: %v", c.key, err)
			continue
		}
		if p.Text != c.text || p.Unit != c.unit {
			t.Errorf("%q: %+v", c.key, p)
		}
		near(t, c.key, p.Num, c.num)
		if p.Numeric() == math.IsNaN(c.num) {
			t.Errorf("%q: Numeric() = %v", c.key, p.Numeric())
		}
	}
	_, err := ByKey(tr, "rank")
	wantErr(t, "per-thread key", err, "differs between threads", "rank")
	_, err = ByKey(tr, "nothing")
	wantErr(t, "absent key", err, "no metadata", "nothing")
	_, err = ByKey(tr, " ")
	wantErr(t, "empty key", err, "empty")
}

func TestNewSeriesAndHelpers(t *testing.T) {
	var trials []*drg.Trial
	for _, p := range []int{4, 1, 2} {
		trials = append(trials, lawTrial(t, fmt.Sprintf("t%d", p), p, 2, progLaw, testLaws, map[string]string{"network": "GM"}))
	}
	s, err := NewSeries(trials, "", "network")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(s.Ps(), s.Names()); got != "[4 1 2] [t4 t1 t2]" {
		t.Errorf("series %s", got)
	}
	if s[0].Key != "GM" {
		t.Errorf("key %q", s[0].Key)
	}
	if got := fmt.Sprint(s.Sorted().Ps(), s.Ps()); got != "[1 2 4] [4 1 2]" {
		t.Errorf("sorted %s (the original must stay)", got)
	}
	th, err := NewSeries(trials, "threads", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(th.Ps()); got != "[8 2 4]" {
		t.Errorf("threads %s", got)
	}
	_, err = NewSeries(trials, "", "missing")
	wantErr(t, "missing key", err, "missing")
	_, err = NewSeries([]*drg.Trial{nil}, "", "")
	wantErr(t, "nil trial", err, "no trial")
	if n := (Series{{Trial: &drg.Trial{}}}).Names(); n[0] != "trial 1" {
		t.Errorf("default name %q", n[0])
	}
}

func TestSeriesValidation(t *testing.T) {
	s := lawSeries(t, []int{1, 2}, 1, progLaw, testLaws, nil)
	dup := Series{s[0], s[1]}
	dup[1].Name = dup[0].Name
	_, err := Speedup(dup, SpeedupOptions{})
	wantErr(t, "duplicate names", err, "both named", "p1")
	bad := Series{s[0], s[1]}
	bad[1].P = 0
	_, err = Speedup(bad, SpeedupOptions{})
	wantErr(t, "p = 0", err, "p2", "> 0")
	bad[1].P = math.Inf(1)
	_, err = Speedup(bad, SpeedupOptions{})
	wantErr(t, "p = Inf", err, "finite")
	_, err = Speedup(Series{{Name: "x", P: 1}}, SpeedupOptions{})
	wantErr(t, "nil trial", err, "no trial")
	_, err = Speedup(nil, SpeedupOptions{})
	wantErr(t, "empty", err, "no experiment")
	_, err = Speedup(s, SpeedupOptions{SeriesOptions: SeriesOptions{Aggregate: "median"}})
	wantErr(t, "aggregate", err, "median", "max", "mean")
	_, err = Speedup(s, SpeedupOptions{SeriesOptions: SeriesOptions{Metric: "PAPI_FP_OPS"}})
	wantErr(t, "metric", err, "PAPI_FP_OPS", "TIME")
	_, err = Speedup(s, SpeedupOptions{Baseline: "p3"})
	wantErr(t, "baseline", err, "p3", "p1, p2")

	// A metric spelled differently in one trial ("Time" in TAU 2.18) is
	// matched ignoring case.
	other := lawTrial(t, "old", 4, 1, progLaw, testLaws, nil)
	other.Metrics[0].Name = "Time"
	res, err := Speedup(append(s, Experiment{Trial: other, P: 4}), SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metric != "TIME" || res.Trials[2] != "old" {
		t.Errorf("metric %q trials %v", res.Metric, res.Trials)
	}

	// Result.Trials names the trials; the experiments' own names (used in
	// the tables) are in Params.
	named := Series{s[1], s[0]}
	named[0].Name, named[1].Name = "two", "one"
	res, err = Speedup(named, SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.Trials) != "[p1 p2]" || res.Params["experiments"] != "one, two" || mustTable(t, res, "program").Text("experiment", 1) != "two" {
		t.Errorf("trials %v experiments %q", res.Trials, res.Params["experiments"])
	}
}

// TestShortNames aligns regions whose source locations moved, summing the
// regions of one trial that share a short name per thread.
func TestShortNames(t *testing.T) {
	laws1 := []law{{"f [{a.c} {1,1}-{9,1}]", func(float64) float64 { return 10 }}}
	laws2 := []law{
		{"f [{a.c} {3,1}-{11,1}]", func(float64) float64 { return 4 }},
		{"f [{b.c} {1,1}-{2,1}]", func(float64) float64 { return 1 }},
	}
	s := Series{
		{Trial: lawTrial(t, "one", 1, 1, progLaw, laws1, nil), P: 1},
		{Trial: lawTrial(t, "two", 2, 1, progLaw, laws2, nil), P: 2},
	}
	res, err := Speedup(s, SpeedupOptions{SeriesOptions: SeriesOptions{ShortNames: true}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["align"] != "short_name" {
		t.Errorf("align %q", res.Params["align"])
	}
	rt := mustTable(t, res, "regions")
	i := row(t, rt, "region", "f")
	near(t, "f at p=2", rt.Num("exclusive", i+1), 5)
	near(t, "f speedup", rt.Num("speedup_exclusive", i+1), 2)
	full, err := Speedup(s, SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := mustTable(t, full, "regions").NumRows(); n != 4*2 {
		t.Errorf("full names: %d rows, want 8 (main and three f regions, two experiments each)", n)
	}
}
