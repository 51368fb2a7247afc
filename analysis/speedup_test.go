package analysis

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

func TestSpeedupGenerated(t *testing.T) {
	s := lawSeries(t, powers, 2, progLaw, testLaws, nil)
	// Give the series out of order: the analysis sorts by P.
	s[0], s[3] = s[3], s[0]
	res, err := Speedup(s, SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Validate(); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"metric": "TIME", "aggregate": "max", "align": "name", "baseline": "p1",
		"baseline_p": "1", "scaling": "strong", "p": "1,2,4,8,16,32,64"} {
		if res.Params[k] != v {
			t.Errorf("param %s = %q, want %q", k, res.Params[k], v)
		}
	}
	pt := mustTable(t, res, "program")
	if pt.NumRows() != len(powers) {
		t.Fatalf("%d program rows", pt.NumRows())
	}
	t1 := progLaw(1)
	for i, p := range powers {
		x := float64(p)
		if pt.Text("experiment", i) != res.Trials[i] || pt.Num("p", i) != x {
			t.Errorf("row %d: %s p=%v", i, pt.Text("experiment", i), pt.Num("p", i))
		}
		tp := progLaw(x)
		near(t, "time", pt.Num("time", i), tp)
		near(t, "speedup", pt.Num("speedup", i), t1/tp)
		near(t, "efficiency", pt.Num("efficiency", i), t1/(tp*x))
		near(t, "ideal", pt.Num("ideal_speedup", i), x)
		near(t, "relative p", pt.Num("relative_p", i), x)
	}
	// The baseline's speedup and efficiency are exactly 1.
	if pt.Num("speedup", 0) != 1 || pt.Num("efficiency", 0) != 1 {
		t.Errorf("baseline speedup %v efficiency %v, want exactly 1", pt.Num("speedup", 0), pt.Num("efficiency", 0))
	}
	// By hand: speedup at 64 = 1000/(100 + 900/64 + 30) = 1000/144.0625.
	near(t, "speedup 64", pt.Num("speedup", 6), 1000/144.0625)

	rt := mustTable(t, res, "regions")
	check := func(region string, f func(p float64) float64) {
		t.Helper()
		i := row(t, rt, "region", region)
		for k, p := range powers {
			x := float64(p)
			if rt.Text("experiment", i+k) != res.Trials[k] {
				t.Fatalf("%s row %d is %s", region, i+k, rt.Text("experiment", i+k))
			}
			near(t, region+" exclusive", rt.Num("exclusive", i+k), f(x))
			near(t, region+" inclusive", rt.Num("inclusive", i+k), f(x))
			sp, ef := f(1)/f(x), f(1)/(f(x)*x)
			if f(1) == 0 {
				sp, ef = math.NaN(), math.NaN()
			}
			near(t, region+" speedup", rt.Num("speedup_exclusive", i+k), sp)
			near(t, region+" efficiency", rt.Num("efficiency_exclusive", i+k), ef)
			near(t, region+" speedup incl", rt.Num("speedup_inclusive", i+k), sp)
		}
		if f(1) != 0 && (rt.Num("speedup_exclusive", i) != 1 || rt.Num("efficiency_inclusive", i) != 1) {
			t.Errorf("%s: baseline not exactly 1", region)
		}
	}
	for _, l := range testLaws {
		check(l.name, l.f)
	}
	// The inverse region scales perfectly, the constant one not at all.
	i := row(t, rt, "region", "inv_region")
	near(t, "inv speedup 64", rt.Num("speedup_exclusive", i+6), 64)
	near(t, "inv efficiency 64", rt.Num("efficiency_exclusive", i+6), 1)
	i = row(t, rt, "region", "const_region")
	near(t, "const efficiency 64", rt.Num("efficiency_exclusive", i+6), 1.0/64)
	if len(res.Findings) == 0 {
		t.Error("no findings")
	}
}

// TestSpeedupMainRegion checks the main region's row separately: its
// exclusive value is T − Σ regions, its inclusive value T.
func TestSpeedupMainRegion(t *testing.T) {
	s := lawSeries(t, []int{1, 4}, 1, progLaw, testLaws, nil)
	res, err := Speedup(s, SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rt := mustTable(t, res, "regions")
	i := row(t, rt, "region", "main")
	sum := func(p float64) float64 {
		var v float64
		for _, l := range testLaws {
			v += l.f(p)
		}
		return v
	}
	near(t, "main excl 4", rt.Num("exclusive", i+1), progLaw(4)-sum(4))
	near(t, "main incl 4", rt.Num("inclusive", i+1), progLaw(4))
	near(t, "main incl speedup", rt.Num("speedup_inclusive", i+1), progLaw(1)/progLaw(4))
}

func TestSpeedupMeanAggregate(t *testing.T) {
	const tpp = 3
	s := lawSeries(t, []int{1, 2, 8}, tpp, progLaw, testLaws, nil)
	res, err := Speedup(s, SpeedupOptions{SeriesOptions: SeriesOptions{Aggregate: "Mean"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["aggregate"] != "mean" {
		t.Errorf("aggregate %q", res.Params["aggregate"])
	}
	// p processes × tpp threads: thread 0.0.0 holds v, the others
	// otherShare(p)*v.
	mean := func(v, p float64) float64 {
		n := p * tpp
		return v * (1 + (n-1)*otherShare(p)) / n
	}
	pt := mustTable(t, res, "program")
	t1 := mean(progLaw(1), 1)
	for i, p := range []float64{1, 2, 8} {
		tp := mean(progLaw(p), p)
		near(t, "mean time", pt.Num("time", i), tp)
		near(t, "mean speedup", pt.Num("speedup", i), t1/tp)
		near(t, "mean efficiency", pt.Num("efficiency", i), t1/(tp*p))
	}
	rt := mustTable(t, res, "regions")
	i := row(t, rt, "region", "inv_region")
	near(t, "inv mean at 8", rt.Num("exclusive", i+2), mean(100, 8))
	near(t, "inv mean speedup at 8", rt.Num("speedup_exclusive", i+2), mean(800, 1)/mean(100, 8))
}

func TestSpeedupBaselineAndWeak(t *testing.T) {
	s := lawSeries(t, []int{1, 2, 4, 8}, 1, progLaw, testLaws, nil)
	res, err := Speedup(s, SpeedupOptions{Baseline: "p4"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["baseline"] != "p4" || res.Params["baseline_p"] != "4" {
		t.Errorf("params %v", res.Params)
	}
	pt := mustTable(t, res, "program")
	t4 := progLaw(4)
	for i, p := range []float64{1, 2, 4, 8} {
		tp := progLaw(p)
		near(t, "speedup vs 4", pt.Num("speedup", i), t4/tp)
		near(t, "efficiency vs 4", pt.Num("efficiency", i), t4*4/(tp*p))
		near(t, "ideal vs 4", pt.Num("ideal_speedup", i), p/4)
	}
	if pt.Num("speedup", 2) != 1 || pt.Num("efficiency", 2) != 1 {
		t.Error("baseline p4 not exactly 1")
	}

	// Weak scaling: the work grows with p; T(p) = 100 + 5*log2(p).
	weakLaw := func(p float64) float64 { return 100 + 5*math.Log2(p) }
	ws := lawSeries(t, []int{1, 2, 4, 8}, 1, weakLaw, nil, nil)
	res, err = Speedup(ws, SpeedupOptions{Weak: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["scaling"] != "weak" {
		t.Errorf("scaling %q", res.Params["scaling"])
	}
	pt = mustTable(t, res, "program")
	for i, p := range []float64{1, 2, 4, 8} {
		eff := 100 / weakLaw(p)
		near(t, "weak efficiency", pt.Num("efficiency", i), eff)
		near(t, "weak speedup", pt.Num("speedup", i), p*eff)
	}
	if pt.Num("speedup", 0) != 1 || pt.Num("efficiency", 0) != 1 {
		t.Error("weak baseline not exactly 1")
	}
}

func TestScalingFormulas(t *testing.T) {
	sp, ideal, eff := Scaling(100, 2, 40, 8, false)
	near(t, "strong speedup", sp, 2.5)
	near(t, "strong ideal", ideal, 4)
	near(t, "strong efficiency", eff, 200.0/320)
	sp, ideal, eff = Scaling(100, 2, 125, 8, true)
	near(t, "weak efficiency", eff, 0.8)
	near(t, "weak speedup", sp, 3.2)
	near(t, "weak ideal", ideal, 4)
	sp, _, eff = Scaling(0, 1, 5, 2, false)
	if !math.IsNaN(sp) || !math.IsNaN(eff) {
		t.Errorf("zero baseline: %v %v", sp, eff)
	}
	sp, _, _ = Scaling(5, 1, math.NaN(), 2, false)
	if !math.IsNaN(sp) {
		t.Errorf("absent value: %v", sp)
	}
}

func TestImprovement(t *testing.T) {
	a := lawSeries(t, []int{1, 2, 4, 8}, 2, progLaw, testLaws, nil)
	lawsB := []law{
		testLaws[0],
		{"inv_region", func(p float64) float64 { return 400 / p }},
		{"new_region", func(float64) float64 { return 3 }},
	}
	progB := func(p float64) float64 { return 0.8 * progLaw(p) }
	b := lawSeries(t, []int{2, 4, 8, 16}, 2, progB, lawsB, nil)
	for i := range b {
		b[i].Name = "b" + b[i].Name
	}
	res, err := Improvement(a, b, SeriesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Validate(); err != nil {
		t.Fatal(err)
	}
	if res.Analysis != "improvement" || len(res.Trials) != 8 || res.Params["a"] != "p1, p2, p4, p8" || res.Params["p_b"] != "2,4,8,16" {
		t.Errorf("header %+v", res)
	}
	pt := mustTable(t, res, "program")
	if pt.NumRows() != 3 {
		t.Fatalf("%d common p, want 3 (2, 4, 8)", pt.NumRows())
	}
	for i, p := range []float64{2, 4, 8} {
		if pt.Num("p", i) != p || pt.Text("b", i) != "bp"+pt.Text("a", i)[1:] {
			t.Errorf("row %d: p %v a %s b %s", i, pt.Num("p", i), pt.Text("a", i), pt.Text("b", i))
		}
		near(t, "improvement", pt.Num("improvement", i), 1.25)
		near(t, "change", pt.Num("change_percent", i), -20)
		if pt.Text("b_vs_a", i) != "faster" {
			t.Errorf("verdict %q", pt.Text("b_vs_a", i))
		}
	}
	rt := mustTable(t, res, "regions")
	i := row(t, rt, "region", "inv_region")
	near(t, "inv improvement", rt.Num("improvement_exclusive", i), 2)
	near(t, "inv change", rt.Num("change_exclusive_percent", i), -50)
	i = row(t, rt, "region", "const_region")
	near(t, "const improvement", rt.Num("improvement_inclusive", i), 1)
	i = row(t, rt, "region", "new_region")
	if !math.IsNaN(rt.Num("exclusive_a", i)) || rt.Num("exclusive_b", i) != 3 || !math.IsNaN(rt.Num("improvement_exclusive", i)) {
		t.Errorf("new region row: a %v b %v", rt.Num("exclusive_a", i), rt.Num("exclusive_b", i))
	}
	i = row(t, rt, "region", "log_region") // only in A
	if !math.IsNaN(rt.Num("exclusive_b", i+1)) || !math.IsNaN(rt.Num("change_exclusive_percent", i+1)) {
		t.Errorf("log region in B: %v", rt.Num("exclusive_b", i+1))
	}
	near(t, "log region gone: change", rt.Num("change_exclusive_percent", i+1), math.NaN())
	if len(res.Findings) != 3 {
		t.Errorf("findings %q", res.Findings)
	}

	// Errors: two experiments at one p; no common p.
	dup := append(Series{}, a...)
	dup[1].P = 1
	_, err = Improvement(dup, b, SeriesOptions{})
	wantErr(t, "duplicate p", err, "two experiments at p = 1")
	_, err = Improvement(a[:1], b, SeriesOptions{})
	wantErr(t, "no common p", err, "share no process count")
	_, err = Improvement(a, nil, SeriesOptions{})
	wantErr(t, "empty B", err, "version B")
}

// mmMainInclusive reads the ".TAU application" inclusive time of every
// profile.N.0.0 file of an east02-mm-profile trial straight from the text
// (the flat line `".TAU application" calls subrs excl incl ...`) and
// returns the largest, with the number of files.
func mmMainInclusive(t *testing.T, dir string) (float64, int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "profile.*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no profile files (%v)", dir, err)
	}
	var mx float64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, line := range strings.Split(string(data), "\n") {
			rest, ok := strings.CutPrefix(line, `".TAU application" `)
			if !ok {
				continue
			}
			fields := strings.Fields(rest)
			v, err := strconv.ParseFloat(fields[3], 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", f, line, err)
			}
			mx = max(mx, v)
			found = true
		}
		if !found {
			t.Fatalf("%s: no .TAU application line", f)
		}
	}
	return mx, len(files)
}

// TestSpeedupRealMM: the taucmdr matmult series np = 1..8, whose run time
// grows with np. Speedup and efficiency equal the values computed here from
// the profile files' text.
func TestSpeedupRealMM(t *testing.T) {
	var s Series
	var times, nps []float64
	for k := range 8 {
		rel := fmt.Sprintf("ParaToolsInc-taucmdr/jupyter/east02-mm-profile/%d", k)
		dir := realdata.Real(t, rel)
		tr, err := reader.Read(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		p, err := ProcessCount(tr, "")
		if err != nil {
			t.Fatal(err)
		}
		tm, files := mmMainInclusive(t, dir)
		if p != float64(k+1) || files != k+1 {
			t.Fatalf("%s: %v processes, %d files, want %d", rel, p, files, k+1)
		}
		s = append(s, Experiment{Trial: tr, Name: fmt.Sprintf("np%d", k+1), P: p})
		times, nps = append(times, tm), append(nps, p)
	}
	res, err := Speedup(s, SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pt := mustTable(t, res, "program")
	t.Logf("%-5s %4s %12s %9s %10s", "exp", "p", "time (us)", "speedup", "efficiency")
	for i := range nps {
		sp := times[0] / times[i]
		ef := times[0] * nps[0] / (times[i] * nps[i])
		near(t, "mm time", pt.Num("time", i), times[i])
		near(t, "mm speedup", pt.Num("speedup", i), sp)
		near(t, "mm efficiency", pt.Num("efficiency", i), ef)
		// The run time grows from np = 3 on (np = 2 is 0.4% faster than
		// np = 1: 4,434,760 against 4,453,569 us).
		if i >= 2 && !(pt.Num("speedup", i) < 1) {
			t.Errorf("np=%v: speedup %v, want below 1 (the run time grows)", nps[i], pt.Num("speedup", i))
		}
		t.Logf("%-5s %4v %12.0f %9.4f %10.4f", pt.Text("experiment", i), nps[i], pt.Num("time", i), pt.Num("speedup", i), pt.Num("efficiency", i))
	}
	if pt.Num("speedup", 0) != 1 || pt.Num("efficiency", 0) != 1 {
		t.Error("baseline not exactly 1")
	}
	// SOURCES.md: max inclusive 4.45 s at np = 1, 9.53 s at np = 8.
	if math.Round(pt.Num("time", 0)/1e4) != 445 || math.Round(pt.Num("time", 7)/1e4) != 953 {
		t.Errorf("mm times %v, %v; SOURCES.md says 4.45 s and 9.53 s", pt.Num("time", 0), pt.Num("time", 7))
	}
	if !strings.Contains(strings.Join(res.Findings, "\n"), "runs slower with more processes") {
		t.Errorf("findings %q", res.Findings)
	}
}

// TestSpeedupRealRing: the ppk ring series 2, 4, 6, 8 ranks (metric "Time",
// TAU 2.18). The expected values come from the trial's value columns read
// here: the inclusive value of the main region "int main(...)" on every
// thread, maximum over threads.
func TestSpeedupRealRing(t *testing.T) {
	const mainName = "int main(int, char **) C [{ring.c} {46,1}-{56,1}]"
	var s Series
	var times, nps []float64
	for _, n := range []int{2, 4, 6, 8} {
		tr := readReal(t, fmt.Sprintf("UO-OACISS-tau2/perfexplorer/StackedBarChart/%d.ppk", n))
		p, err := ProcessCount(tr, "")
		if err != nil {
			t.Fatal(err)
		}
		if p != float64(n) {
			t.Fatalf("%d.ppk: %v processes", n, p)
		}
		m := tr.MetricIndex("Time")
		r := tr.RegionIndex(mainName)
		if m < 0 || r < 0 {
			t.Fatalf("%d.ppk: metric %d region %d", n, m, r)
		}
		nt := len(tr.Threads)
		f := tr.Regions[r].Flat
		var mx float64
		for th := range nt {
			mx = max(mx, tr.Values[m].Inclusive[f*nt+th])
		}
		s = append(s, Experiment{Trial: tr, Name: fmt.Sprintf("%d.ppk", n), P: p})
		times, nps = append(times, mx), append(nps, p)
	}
	res, err := Speedup(s, SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metric != "Time" || res.Params["baseline_p"] != "2" {
		t.Errorf("metric %q baseline %q", res.Metric, res.Params["baseline_p"])
	}
	pt := mustTable(t, res, "program")
	t.Logf("%-6s %4s %12s %9s %10s", "exp", "p", "time (us)", "speedup", "efficiency")
	for i := range nps {
		near(t, "ring time", pt.Num("time", i), times[i])
		near(t, "ring speedup", pt.Num("speedup", i), times[0]/times[i])
		near(t, "ring efficiency", pt.Num("efficiency", i), times[0]*nps[0]/(times[i]*nps[i]))
		near(t, "ring ideal", pt.Num("ideal_speedup", i), nps[i]/2)
		t.Logf("%-6s %4v %12.0f %9.4f %10.4f", pt.Text("experiment", i), nps[i], pt.Num("time", i), pt.Num("speedup", i), pt.Num("efficiency", i))
	}
	if pt.Num("speedup", 0) != 1 || pt.Num("efficiency", 0) != 1 {
		t.Error("baseline not exactly 1")
	}
	// Per region: MPI_Init's exclusive speedup from the columns too.
	rt := mustTable(t, res, "regions")
	i := row(t, rt, "region", "MPI_Init()")
	var init []float64
	for _, e := range s {
		tr := e.Trial
		f := tr.Regions[tr.RegionIndex("MPI_Init()")].Flat
		nt := len(tr.Threads)
		var mx float64
		for th := range nt {
			mx = max(mx, tr.Values[0].Exclusive[f*nt+th])
		}
		init = append(init, mx)
	}
	for k := range s {
		near(t, "MPI_Init speedup", rt.Num("speedup_exclusive", i+k), init[0]/init[k])
	}
}
