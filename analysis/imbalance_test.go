package analysis

import (
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

func TestImbalanceByHand(t *testing.T) {
	tr := handTrial(t)
	res, err := Imbalance(tr, ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Analysis != "imbalance" || res.Trial != "hand" || res.Metric != "TIME" {
		t.Errorf("header %+v", res)
	}
	for k, v := range map[string]string{"metric": "TIME", "value": "exclusive", "view": "flat"} {
		if res.Params[k] != v {
			t.Errorf("param %s = %q, want %q", k, res.Params[k], v)
		}
	}
	ib := mustTable(t, res, "imbalance")
	// Sorted by max-mean: MPI_Recv() and work tie at 15 (name order), then
	// main 8.75, parallel 5, fwrite 0.
	wantOrder := []string{hRecv, hWork, hMain, hParallel, hWrite}
	if ib.NumRows() != len(wantOrder) {
		t.Fatalf("%d rows, want %d", ib.NumRows(), len(wantOrder))
	}
	for i, n := range wantOrder {
		if got := ib.Text("region", i); got != n {
			t.Errorf("row %d = %q, want %q", i, got, n)
		}
	}

	// work: 40, 20, 30, 10 on 0.0.0, 0.0.1, 1.0.0, 1.0.1.
	w := row(t, ib, "region", hWork)
	near(t, "work n", ib.Num("n_present", w), 4)
	near(t, "work mean", ib.Num("mean", w), 25)
	near(t, "work min", ib.Num("min", w), 10)
	near(t, "work max", ib.Num("max", w), 40)
	near(t, "work stddev", ib.Num("stddev", w), math.Sqrt((15*15+5*5+5*5+15*15)/4.0))
	near(t, "work balance", ib.Num("balance", w), 25.0/40)
	near(t, "work imbalance", ib.Num("imbalance", w), 40.0/25)
	near(t, "work severity", ib.Num("severity", w), (1-25.0/40)/(1-1.0/4)) // 0.5
	near(t, "work severity value", ib.Num("severity", w), 0.5)
	near(t, "work max-mean", ib.Num("max_minus_mean", w), 15)
	near(t, "work saving %", ib.Num("saving_percent", w), 15) // of main mean 100
	near(t, "work cv", ib.Num("cv", w), math.Sqrt(125)/25)
	if ib.Text("min_thread", w) != "1.0.1" || ib.Text("max_thread", w) != "0.0.0" {
		t.Errorf("work threads min %s max %s", ib.Text("min_thread", w), ib.Text("max_thread", w))
	}
	if ib.Text("class", w) != classify.ClassComputation {
		t.Errorf("work class %q", ib.Text("class", w))
	}

	// parallel: only 2 threads (20, 10): n = 2 in the severity.
	p := row(t, ib, "region", hParallel)
	near(t, "parallel n", ib.Num("n_present", p), 2)
	near(t, "parallel mean", ib.Num("mean", p), 15)
	near(t, "parallel balance", ib.Num("balance", p), 0.75)
	near(t, "parallel severity", ib.Num("severity", p), (1-0.75)/(1-0.5))
	near(t, "parallel stddev", ib.Num("stddev", p), 5)
	near(t, "parallel cv", ib.Num("cv", p), 5.0/15)
	if ib.Text("min_thread", p) != "0.0.1" || ib.Text("class", p) != classify.ClassOpenMP {
		t.Errorf("parallel min thread %s class %s", ib.Text("min_thread", p), ib.Text("class", p))
	}

	// fwrite: one thread: balanced by definition, severity 0 (n = 1).
	f := row(t, ib, "region", hWrite)
	near(t, "fwrite severity", ib.Num("severity", f), 0)
	near(t, "fwrite balance", ib.Num("balance", f), 1)
	near(t, "fwrite stddev", ib.Num("stddev", f), 0)

	// main: 30, 40, 50, 45; the first of equal maxima is reported.
	m := row(t, ib, "region", hMain)
	near(t, "main mean", ib.Num("mean", m), 41.25)
	if ib.Text("max_thread", m) != "1.0.0" || ib.Text("min_thread", m) != "0.0.0" {
		t.Errorf("main threads %s %s", ib.Text("min_thread", m), ib.Text("max_thread", m))
	}
	r := row(t, ib, "region", hRecv)
	if ib.Text("class", r) != classify.ClassMPI || ib.Text("max_thread", r) != "1.0.1" {
		t.Errorf("recv class %s max %s", ib.Text("class", r), ib.Text("max_thread", r))
	}

	// Split per thread: computation = main excl + work, MPI, OpenMP, I/O
	// (fwrite, 5 on 1.0.1: counted as computation before the one classifier
	// of package classify made I/O a class of every split, as summary has
	// it); main inclusive 100 everywhere, so percentages equal values.
	sp := mustTable(t, res, "split")
	want := map[string][4]float64{
		"0.0.0": {70, 10, 20, 0},
		"0.0.1": {60, 30, 10, 0},
		"1.0.0": {80, 20, 0, 0},
		"1.0.1": {55, 40, 0, 5},
	}
	for th, v := range want {
		i := row(t, sp, "thread", th)
		near(t, th+" computation", sp.Num("computation", i), v[0])
		near(t, th+" mpi", sp.Num("mpi", i), v[1])
		near(t, th+" openmp", sp.Num("openmp", i), v[2])
		near(t, th+" io", sp.Num("io", i), v[3])
		near(t, th+" other", sp.Num("other", i), 0)
		near(t, th+" mpi %", sp.Num("mpi_percent", i), v[1])
		near(t, th+" main", sp.Num("main_inclusive", i), 100)
		near(t, th+" remainder", sp.Num("remainder", i), 0)
	}
	if len(res.Findings) == 0 {
		t.Error("no findings")
	}
}

func TestImbalanceFormulas(t *testing.T) {
	near(t, "balance", Balance(25, 40), 0.625)
	near(t, "balance max 0", Balance(0, 0), 1)
	// One of n threads does all the work: mean = max/n, severity 1.
	for _, n := range []int{2, 3, 8, 1024} {
		near(t, "worst severity", Severity(100/float64(n), 100, n), 1)
		near(t, "balanced severity", Severity(100, 100, n), 0)
	}
	near(t, "severity n=3", Severity(20, 30, 3), (1-20.0/30)/(1-1.0/3))
	near(t, "severity n=1", Severity(10, 10, 1), 0)
	near(t, "severity max 0", Severity(0, 0, 4), 0)
}

func TestImbalanceCallpathByHand(t *testing.T) {
	tr := handTrial(t)
	res, err := Imbalance(tr, ImbalanceOptions{Callpath: true, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["view"] != "callpath" || res.Params["value"] != "inclusive" {
		t.Errorf("params %v", res.Params)
	}
	ib := mustTable(t, res, "imbalance")
	if ib.NumRows() != 5 { // main and its 4 children
		t.Fatalf("%d rows", ib.NumRows())
	}
	m := row(t, ib, "node", hMain)
	near(t, "main depth", ib.Num("depth", m), 0)
	near(t, "main incl max-mean", ib.Num("max_minus_mean", m), 0)
	w := row(t, ib, "node", hMain+" => "+hWork)
	near(t, "work depth", ib.Num("depth", w), 1)
	near(t, "work incl mean", ib.Num("mean", w), 25)
}

// TestImbalanceMPIInitCPI checks Hatchet's oracle: the minimum over ranks of
// MPI_Init() inclusive time on tau-cpi-mpi is 17983 µs, on rank 0.
func TestImbalanceMPIInitCPI(t *testing.T) {
	tr := readReal(t, cpiMPI)
	res, err := Imbalance(tr, ImbalanceOptions{Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	ib := mustTable(t, res, "imbalance")
	i := row(t, ib, "region", "MPI_Init()")
	near(t, "MPI_Init min", ib.Num("min", i), 17983)
	if got := ib.Text("min_thread", i); got != "0.0.0" {
		t.Errorf("MPI_Init min on %s, want 0.0.0", got)
	}
	near(t, "MPI_Init n", ib.Num("n_present", i), 4)
	// The same in the tree view, on node ".TAU application => MPI_Init()".
	res, err = Imbalance(tr, ImbalanceOptions{Inclusive: true, Callpath: true})
	if err != nil {
		t.Fatal(err)
	}
	ib = mustTable(t, res, "imbalance")
	i = row(t, ib, "node", ".TAU application => MPI_Init()")
	near(t, "callpath MPI_Init min", ib.Num("min", i), 17983)
	if ib.NumRows() != 12 { // Hatchet: the tree has 12 nodes
		t.Errorf("tree rows %d, want 12", ib.NumRows())
	}
}

// TestImbalanceMatchesStatistics: every row's mean, min, max and stddev
// equal drg's Statistics() of the same node, on real trials, both values and
// both views.
func TestImbalanceMatchesStatistics(t *testing.T) {
	for _, rel := range []string{cpiMPI, mm7, ompPPK, workflow} {
		tr := readReal(t, rel)
		st := tr.Statistics()
		m := tr.TimeMetric()
		for _, incl := range []bool{false, true} {
			for _, cp := range []bool{false, true} {
				res, err := Imbalance(tr, ImbalanceOptions{Inclusive: incl, Callpath: cp})
				if cp && tr.Tree().Kind == drg.NoCallpaths {
					wantErr(t, rel+" callpath", err, "no callpath")
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", rel, err)
				}
				col := st.Exclusive[m]
				if incl {
					col = st.Inclusive[m]
				}
				ib := mustTable(t, res, "imbalance")
				label := "region"
				if cp {
					label = "node"
				}
				if ib.NumRows() == 0 {
					t.Fatalf("%s: no rows", rel)
				}
				for i := 0; i < ib.NumRows(); i++ {
					n := tr.NodeIndex(ib.Text(label, i))
					if n < 0 {
						t.Fatalf("%s: row %q is no node", rel, ib.Text(label, i))
					}
					what := rel + " " + ib.Text(label, i)
					near(t, what+" mean", ib.Num("mean", i), col.Mean[n])
					near(t, what+" min", ib.Num("min", i), col.Min[n])
					near(t, what+" max", ib.Num("max", i), col.Max[n])
					near(t, what+" stddev", ib.Num("stddev", i), col.StdDev[n])
					near(t, what+" n", ib.Num("n_present", i), float64(st.Count[n]))
					if s := ib.Num("severity", i); s < 0 || s > 1+1e-12 {
						t.Errorf("%s severity %v outside [0, 1]", what, s)
					}
					if i > 0 && ib.Num("max_minus_mean", i) > ib.Num("max_minus_mean", i-1) {
						t.Errorf("%s: not sorted by max-mean at row %d", rel, i)
					}
				}
			}
		}
	}
}

// TestImbalanceSplitMM7: on the taucmdr mm trial with 8 ranks, computation +
// MPI + OpenMP per thread is the sum of the thread's flat exclusive values
// (no sampled regions there), and the remainder against the main region is 0.
func TestImbalanceSplitMM7(t *testing.T) {
	tr := readReal(t, mm7)
	res, err := Imbalance(tr, ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sp := mustTable(t, res, "split")
	nt := len(tr.Threads)
	if sp.NumRows() != nt || nt != 8 {
		t.Fatalf("split rows %d, threads %d", sp.NumRows(), nt)
	}
	m := tr.TimeMetric()
	for th := 0; th < nt; th++ {
		var sum float64
		for _, f := range tr.Flat() {
			if tr.Has(f, th) {
				sum += tr.Values[m].Exclusive[f*nt+th]
			}
		}
		got := sp.Num("computation", th) + sp.Num("mpi", th) + sp.Num("openmp", th)
		near(t, sp.Text("thread", th)+" split sum", got, sum)
		near(t, sp.Text("thread", th)+" remainder", sp.Num("remainder", th), 0)
		near(t, sp.Text("thread", th)+" percent sum",
			sp.Num("computation_percent", th)+sp.Num("mpi_percent", th)+sp.Num("openmp_percent", th), 100)
		if sp.Num("mpi", th) <= 0 || sp.Num("openmp", th) != 0 {
			t.Errorf("%s: mpi %v openmp %v", sp.Text("thread", th), sp.Num("mpi", th), sp.Num("openmp", th))
		}
	}
}

// TestImbalanceSampledSkipped: on the sampled OpenMP trial, the split leaves
// the [SAMPLE]/[CONTEXT] regions out, so computation + MPI + OpenMP stays at
// the main region's inclusive time instead of doubling it.
func TestImbalanceSampledSkipped(t *testing.T) {
	tr := readReal(t, ompPPK)
	res, err := Imbalance(tr, ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sp := mustTable(t, res, "split")
	for th := 0; th < sp.NumRows(); th++ {
		sum := sp.Num("computation", th) + sp.Num("mpi", th) + sp.Num("openmp", th)
		if main := sp.Num("main_inclusive", th); sum > main*1.0001 {
			t.Errorf("%s: split %v exceeds main %v", sp.Text("thread", th), sum, main)
		}
	}
}

func TestImbalanceBadOptions(t *testing.T) {
	tr := handTrial(t)
	_, err := Imbalance(tr, ImbalanceOptions{Metric: "PAPI_FP_OPS"})
	wantErr(t, "unknown metric", err, "PAPI_FP_OPS", `"TIME"`)
	flat := build(t, spec{name: "flat", threads: threads("0.0.0"), recs: []rec{{node: "f", excl: 1, incl: 1, calls: 1}}})
	_, err = Imbalance(flat, ImbalanceOptions{Callpath: true})
	wantErr(t, "callpath without callpaths", err, "no callpath")
}

func TestImbalanceHeatmapByHand(t *testing.T) {
	tr := handTrial(t)
	for _, inclusive := range []bool{false, true} {
		res, err := Imbalance(tr, ImbalanceOptions{Inclusive: inclusive})
		if err != nil {
			t.Fatal(err)
		}
		ib := mustTable(t, res, "imbalance")
		hm := mustTable(t, res, "heatmap")
		if hm.NumRows() != 4*ib.NumRows() {
			t.Fatalf("heatmap: %d rows, want %d", hm.NumRows(), 4*ib.NumRows())
		}
		if _, ok := res.Params["heatmap_regions"]; ok {
			t.Errorf("heatmap_regions set without a cut: %v", res.Params)
		}
		if _, ok := res.Params["heatmap_threads"]; ok {
			t.Errorf("heatmap_threads set without a cut: %v", res.Params)
		}
		if !strings.Contains(hm.Title, "all 5 regions") || !strings.Contains(hm.Title, "all 4 threads") {
			t.Errorf("heatmap title %q", hm.Title)
		}
		if hm.Col("value").Unit != ib.Col("mean").Unit {
			t.Errorf("heatmap unit %q", hm.Col("value").Unit)
		}
		// Threads in trial order, regions in the imbalance table's order.
		ths := []string{"0.0.0", "0.0.1", "1.0.0", "1.0.1"}
		for i := 0; i < hm.NumRows(); i++ {
			if hm.Text("thread", i) != ths[i/ib.NumRows()] || hm.Text("region", i) != ib.Text("region", i%ib.NumRows()) {
				t.Fatalf("heatmap row %d: %s %s", i, hm.Text("thread", i), hm.Text("region", i))
			}
		}
		val := func(th, region string) float64 {
			for i := 0; i < hm.NumRows(); i++ {
				if hm.Text("thread", i) == th && hm.Text("region", i) == region {
					return hm.Num("value", i)
				}
			}
			t.Fatalf("heatmap: no row %s %s", th, region)
			return 0
		}
		near(t, "work 0.0.0", val("0.0.0", hWork), 40)
		near(t, "work 1.0.1", val("1.0.1", hWork), 10)
		near(t, "recv 0.0.1", val("0.0.1", hRecv), 30)
		near(t, "parallel 1.0.0", val("1.0.0", hParallel), math.NaN())
		near(t, "fwrite 0.0.0", val("0.0.0", hWrite), math.NaN())
		near(t, "fwrite 1.0.1", val("1.0.1", hWrite), 5)
		mainWant := []float64{30, 40, 50, 45}
		if inclusive {
			mainWant = []float64{100, 100, 100, 100}
		}
		for k, th := range ths {
			near(t, "main "+th, val(th, hMain), mainWant[k])
		}
	}

	res, err := Imbalance(tr, ImbalanceOptions{Callpath: true})
	if err != nil {
		t.Fatal(err)
	}
	hm := mustTable(t, res, "heatmap")
	ib := mustTable(t, res, "imbalance")
	for i := 0; i < ib.NumRows(); i++ {
		if hm.Text("region", i) != ib.Text("node", i) {
			t.Errorf("callpath heatmap row %d: %q, want %q", i, hm.Text("region", i), ib.Text("node", i))
		}
	}
	if !strings.Contains(hm.Title, "call-graph node") {
		t.Errorf("callpath heatmap title %q", hm.Title)
	}
}

func TestImbalanceHeatmapLimits(t *testing.T) {
	nt := HeatmapThreads + 3
	ids := make([]drg.ThreadID, nt)
	for i := range ids {
		ids[i] = drg.ThreadID{Node: i}
	}
	s := spec{name: "wide", threads: ids}
	for th := 0; th < nt; th++ {
		s.recs = append(s.recs, rec{node: "main", th: th, excl: 1, incl: 1000, calls: 1})
		if th < 2 {
			for r := 0; r < HeatmapRegions+5; r++ {
				v := float64(r + 1 + th*100)
				s.recs = append(s.recs, rec{node: fmt.Sprintf("r%02d", r), th: th, excl: v, incl: v, calls: 1})
			}
		}
	}
	res, err := Imbalance(build(t, s), ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ib := mustTable(t, res, "imbalance")
	hm := mustTable(t, res, "heatmap")
	if hm.NumRows() != HeatmapThreads*HeatmapRegions {
		t.Fatalf("heatmap: %d rows, want %d", hm.NumRows(), HeatmapThreads*HeatmapRegions)
	}
	if res.Params["heatmap_regions"] != "25" || res.Params["heatmap_threads"] != "1024" {
		t.Errorf("params %v", res.Params)
	}
	if !strings.Contains(hm.Title, "top 25 of 31") || !strings.Contains(hm.Title, "first 1024 of 1027 threads") {
		t.Errorf("title %q", hm.Title)
	}
	for i := 0; i < HeatmapRegions; i++ {
		if hm.Text("region", i) != ib.Text("region", i) {
			t.Errorf("row %d region %q, want %q", i, hm.Text("region", i), ib.Text("region", i))
		}
	}
	if last := hm.Text("thread", hm.NumRows()-1); last != "1023.0.0" {
		t.Errorf("last thread %q", last)
	}
}
