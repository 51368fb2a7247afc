package analysis

import (
	"math"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// handTrialB is a 2-thread version of handTrial: main inclusive 80, work 10,
// MPI_Recv() 25, a new region "newfunc" 5 on both threads (main exclusive
// 40); no parallel region and no fwrite().
func handTrialB(t *testing.T) *drg.Trial {
	t.Helper()
	s := spec{name: "handB", threads: threads("0.0.0", "1.0.0")}
	for th := 0; th < 2; th++ {
		s.recs = append(s.recs,
			rec{node: hMain, th: th, excl: 40, incl: 80, calls: 1},
			rec{node: hMain + " => " + hWork, th: th, excl: 10, incl: 10, calls: 2, alsoFlatOfLeaf: true},
			rec{node: hMain + " => " + hRecv, th: th, excl: 25, incl: 25, calls: 5, groups: "MPI", alsoFlatOfLeaf: true},
			rec{node: hMain + " => newfunc", th: th, excl: 5, incl: 5, calls: 1, alsoFlatOfLeaf: true},
		)
	}
	return build(t, s)
}

func TestCompareByHand(t *testing.T) {
	a, b := handTrial(t), handTrialB(t)
	res, err := Compare(a, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Analysis != "compare" || len(res.Trials) != 2 || res.Trials[0] != "hand" || res.Trials[1] != "handB" || res.Metric != "TIME" {
		t.Errorf("header %+v", res)
	}
	for k, v := range map[string]string{"metric": "TIME", "value": "exclusive", "tolerance": "0.05", "align": "name"} {
		if res.Params[k] != v {
			t.Errorf("param %s = %q, want %q", k, res.Params[k], v)
		}
	}
	rt := mustTable(t, res, "regions")
	nan := math.NaN()
	want := []struct {
		name, status string
		a, b, ratio  float64
		verdict      string
	}{
		{hWork, "both", 25, 10, 0.4, "faster"},
		{hParallel, "only in A", 7.5, 0, 0, "only in A"},
		{"newfunc", "only in B", 0, 5, nan, "only in B"},
		{hWrite, "only in A", 1.25, 0, 0, "only in A"},
		{hMain, "both", 41.25, 40, 40 / 41.25, "same"}, // -3% is within 5%
		{hRecv, "both", 25, 25, 1, "same"},
	}
	if rt.NumRows() != len(want) {
		t.Fatalf("%d rows", rt.NumRows())
	}
	for i, w := range want {
		if rt.Text("region", i) != w.name {
			t.Errorf("row %d %q, want %q", i, rt.Text("region", i), w.name)
			continue
		}
		if rt.Text("status", i) != w.status || rt.Text("b_vs_a", i) != w.verdict {
			t.Errorf("%s: status %q verdict %q", w.name, rt.Text("status", i), rt.Text("b_vs_a", i))
		}
		near(t, w.name+" a", rt.Num("a", i), w.a)
		near(t, w.name+" b", rt.Num("b", i), w.b)
		near(t, w.name+" diff", rt.Num("diff", i), w.b-w.a)
		near(t, w.name+" ratio", rt.Num("ratio", i), w.ratio)
		if w.a != 0 {
			near(t, w.name+" change", rt.Num("change_percent", i), 100*(w.b-w.a)/w.a)
		} else {
			near(t, w.name+" change", rt.Num("change_percent", i), nan)
		}
	}
	mt := mustTable(t, res, "main")
	near(t, "main a", mt.Num("a", 0), 100)
	near(t, "main b", mt.Num("b", 0), 80)
	near(t, "main ratio", mt.Num("ratio", 0), 0.8)
	if mt.Text("b_vs_a", 0) != "faster" || mt.Text("region", 0) != hMain {
		t.Errorf("main verdict %q region %q", mt.Text("b_vs_a", 0), mt.Text("region", 0))
	}

	// Exact comparison: main's -3% is now "faster".
	res, err = Compare(a, b, CompareOptions{Tolerance: -1})
	if err != nil {
		t.Fatal(err)
	}
	rt = mustTable(t, res, "regions")
	if v := rt.Text("b_vs_a", row(t, rt, "region", hMain)); v != "faster" || res.Params["tolerance"] != "0" {
		t.Errorf("exact: main %q, tolerance %q", v, res.Params["tolerance"])
	}
	if v := rt.Text("b_vs_a", row(t, rt, "region", hRecv)); v != "same" {
		t.Errorf("exact: equal values %q", v)
	}
	// B relative to A the other way round: slower.
	res, err = Compare(b, a, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rt = mustTable(t, res, "regions")
	if v := rt.Text("b_vs_a", row(t, rt, "region", hWork)); v != "slower" {
		t.Errorf("reverse: work %q", v)
	}
	if s := rt.Text("status", row(t, rt, "region", "newfunc")); s != "only in A" {
		t.Errorf("reverse: newfunc %q", s)
	}
}

func TestCompareShortNamesAndMetrics(t *testing.T) {
	mk := func(name, region string, v float64, metric string) *drg.Trial {
		return build(t, spec{name: name, threads: threads("0.0.0"), metrics: []string{metric},
			recs: []rec{{node: region, excl: v, incl: v, calls: 1}}})
	}
	a := mk("a", "solve [{s.c} {10,1}-{20,1}]", 10, "TIME")
	b := mk("b", "solve [{s.c} {12,1}-{22,1}]", 20, "TIME")
	res, err := Compare(a, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rt := mustTable(t, res, "regions"); rt.NumRows() != 2 {
		t.Errorf("by full name: %d rows, want only-in-A and only-in-B", rt.NumRows())
	}
	res, err = Compare(a, b, CompareOptions{ShortNames: true})
	if err != nil {
		t.Fatal(err)
	}
	rt := mustTable(t, res, "regions")
	if rt.NumRows() != 1 || rt.Text("region", 0) != "solve" || rt.Text("b_vs_a", 0) != "slower" || res.Params["align"] != "short_name" {
		t.Fatalf("by short name: %d rows", rt.NumRows())
	}
	near(t, "short ratio", rt.Num("ratio", 0), 2)

	// A counter metric: lower/higher.
	pa := mk("pa", "f", 100, "PAPI_FP_OPS")
	pb := mk("pb", "f", 50, "PAPI_FP_OPS")
	res, err = Compare(pa, pb, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v := mustTable(t, res, "regions").Text("b_vs_a", 0); v != "lower" {
		t.Errorf("counter verdict %q", v)
	}
	if Verdict(1, 2, 0, false) != "higher" || Verdict(2, 1, 0, true) != "faster" || Verdict(100, 104, 0.05, true) != "same" {
		t.Error("Verdict")
	}
	// The metric must exist in both trials.
	_, err = Compare(a, pb, CompareOptions{})
	wantErr(t, "metric missing in B", err, `"TIME"`, `"PAPI_FP_OPS"`, "pb")
	_, err = Compare(a, b, CompareOptions{Metric: "PAPI_FP_OPS"})
	wantErr(t, "metric missing in A", err, "PAPI_FP_OPS", "trial A")
}

// TestCompareReal: the taucmdr matmult at np = 1 against np = 8; the main
// region (".TAU application", 4.45 s at np=1 and 9.53 s max at np=8) is
// slower at np=8, and a trial compared with itself is the same everywhere.
func TestCompareReal(t *testing.T) {
	a, b := readReal(t, mm0), readReal(t, mm7)
	res, err := Compare(a, b, CompareOptions{Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	mt := mustTable(t, res, "main")
	m := a.TimeMetric()
	near(t, "main a", mt.Num("a", 0), meanOf(a.MainInclusive(m)))
	near(t, "main b", mt.Num("b", 0), meanOf(b.MainInclusive(m)))
	if mt.Text("b_vs_a", 0) != "slower" {
		t.Errorf("np=8 vs np=1: %q", mt.Text("b_vs_a", 0))
	}
	res, err = Compare(b, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rt := mustTable(t, res, "regions")
	for i := 0; i < rt.NumRows(); i++ {
		if rt.Text("b_vs_a", i) != "same" || rt.Num("diff", i) != 0 {
			t.Errorf("self compare %s: %q diff %v", rt.Text("region", i), rt.Text("b_vs_a", i), rt.Num("diff", i))
		}
		if a := rt.Num("a", i); a != 0 {
			near(t, "self ratio", rt.Num("ratio", i), 1)
		}
	}
}

// TestCompareOneSidedLargestChange: B waits 1.65 s in an MPI_Wait that A
// never called, while solve changes by 1.4 ms: the largest slower change is
// MPI_Wait, and the largest faster one is the region only A had.
func TestCompareOneSidedLargestChange(t *testing.T) {
	a := build(t, spec{name: "a", threads: threads("0.0.0"), recs: []rec{
		{node: "main", excl: 100, incl: 2e6 + 3100, calls: 1},
		{node: "solve", excl: 2e6, incl: 2e6, calls: 1},
		{node: "old_setup", excl: 3000, incl: 3000, calls: 1},
	}})
	b := build(t, spec{name: "b", threads: threads("0.0.0"), recs: []rec{
		{node: "main", excl: 100, incl: 2e6 + 1400 + 1.65e6 + 100, calls: 1},
		{node: "solve", excl: 2e6 + 1400, incl: 2e6 + 1400, calls: 1},
		{node: "MPI_Wait()", excl: 1.65e6, incl: 1.65e6, calls: 9, groups: "MPI"},
	}})
	res, err := Compare(a, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f := findingWith(res, "Largest change, slower in B"); f != "Largest change, slower in B: MPI_Wait(), 1.65 s only in B." {
		t.Errorf("slower finding %q in %q", f, res.Findings)
	}
	if f := findingWith(res, "Largest change, faster in B"); f != "Largest change, faster in B: old_setup, 3 ms only in A." {
		t.Errorf("faster finding %q in %q", f, res.Findings)
	}
}
