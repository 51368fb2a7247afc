package analysis

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// pairRow returns the row of the correlations table for (x, y).
func pairRow(t *testing.T, tb *Table, x, y string) int {
	t.Helper()
	for i := 0; i < tb.NumRows(); i++ {
		if tb.Text("x", i) == x && tb.Text("y", i) == y {
			return i
		}
	}
	t.Fatalf("no correlation row for (%q, %q)", x, y)
	return -1
}

func TestCorrelateByHand(t *testing.T) {
	tr := handTrial(t)
	res, err := Correlate(tr, CorrelateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"metric": "TIME", "value": "exclusive", "top": "20", "max_regions": "100", "min_threads": "3"} {
		if res.Params[k] != v {
			t.Errorf("param %s = %q, want %q", k, res.Params[k], v)
		}
	}
	ct := mustTable(t, res, "correlations")
	// Regions on >= 3 threads: main, work, MPI_Recv() (3 pairs); numeric
	// per-thread metadata: only "size" ("partial" is on 2 threads, "const"
	// is the same everywhere, "Node Name" is text): 3 more pairs.
	if ct.NumRows() != 6 {
		t.Fatalf("%d pairs, want 6", ct.NumRows())
	}
	// MPI_Recv() = 50 - work exactly: r = -1, slope -1, intercept 50.
	i := pairRow(t, ct, hWork, hRecv)
	near(t, "work~recv r", ct.Num("r", i), -1)
	near(t, "work~recv slope", ct.Num("slope", i), -1)
	near(t, "work~recv intercept", ct.Num("intercept", i), 50)
	near(t, "work~recv n", ct.Num("n", i), 4)
	if ct.Text("kind", i) != "region" {
		t.Errorf("kind %q", ct.Text("kind", i))
	}
	// work = 20 + 2*size exactly.
	i = pairRow(t, ct, "size", hWork)
	near(t, "size~work r", ct.Num("r", i), 1)
	near(t, "size~work r2", ct.Num("r_squared", i), 1)
	near(t, "size~work slope", ct.Num("slope", i), 2)
	near(t, "size~work intercept", ct.Num("intercept", i), 20)
	if ct.Text("kind", i) != "metadata" {
		t.Errorf("kind %q", ct.Text("kind", i))
	}
	i = pairRow(t, ct, "size", hRecv)
	near(t, "size~recv slope", ct.Num("slope", i), -2)
	near(t, "size~recv intercept", ct.Num("intercept", i), 30)
	// main (30, 40, 50, 45) against work (40, 20, 30, 10), by hand:
	// means 41.25 and 25; dx = -11.25, -1.25, 8.75, 3.75 and dy = 15, -5,
	// 5, -15: Σdxdy = -175, Σdx² = 218.75, Σdy² = 500; slope -0.8,
	// intercept 25 + 0.8*41.25 = 58.
	i = pairRow(t, ct, hMain, hWork)
	near(t, "main~work r", ct.Num("r", i), -175/math.Sqrt(218.75*500))
	near(t, "main~work slope", ct.Num("slope", i), -0.8)
	near(t, "main~work intercept", ct.Num("intercept", i), 58)
	// Strongest first.
	for i := 1; i < ct.NumRows(); i++ {
		if math.Abs(ct.Num("r", i)) > math.Abs(ct.Num("r", i-1))+1e-12 {
			t.Errorf("row %d stronger than row %d", i, i-1)
		}
	}
	near(t, "last |r|", math.Abs(ct.Num("r", 5)), 175/math.Sqrt(218.75*500))

	// Inclusive: main is 100 on every thread, r undefined: skipped.
	res, err = Correlate(tr, CorrelateOptions{Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	ct = mustTable(t, res, "correlations")
	for i := 0; i < ct.NumRows(); i++ {
		if ct.Text("x", i) == hMain || ct.Text("y", i) == hMain {
			t.Errorf("constant main correlated: row %d", i)
		}
	}
	if ct.NumRows() != 3 || !strings.Contains(strings.Join(res.Findings, "\n"), "1 regions have the same value") {
		t.Errorf("inclusive: %d rows, findings %q", ct.NumRows(), res.Findings)
	}

	// Only the region with the largest mean (main) and the top pair.
	res, err = Correlate(tr, CorrelateOptions{MaxRegions: 1, Top: 1})
	if err != nil {
		t.Fatal(err)
	}
	ct = mustTable(t, res, "correlations")
	if ct.NumRows() != 1 || ct.Text("x", 0) != "size" || ct.Text("y", 0) != hMain || res.Params["max_regions"] != "1" {
		t.Errorf("max regions 1: %d rows, params %v", ct.NumRows(), res.Params)
	}
}

// TestCorrelateReal recomputes every listed coefficient of the workflow
// trial (8 ranks) with the textbook formula.
func TestCorrelateReal(t *testing.T) {
	tr := readReal(t, workflow)
	res, err := Correlate(tr, CorrelateOptions{Top: All})
	if err != nil {
		t.Fatal(err)
	}
	ct := mustTable(t, res, "correlations")
	if ct.NumRows() < 20 {
		t.Fatalf("only %d pairs", ct.NumRows())
	}
	m := tr.TimeMetric()
	nt := len(tr.Threads)
	for i := 0; i < ct.NumRows(); i++ {
		if ct.Text("kind", i) != "region" {
			continue
		}
		a, b := tr.NodeIndex(ct.Text("x", i)), tr.NodeIndex(ct.Text("y", i))
		var x, y []float64
		for th := 0; th < nt; th++ {
			if tr.Has(a, th) && tr.Has(b, th) {
				x = append(x, tr.Values[m].Exclusive[a*nt+th])
				y = append(y, tr.Values[m].Exclusive[b*nt+th])
			}
		}
		mx, my := meanOf(x), meanOf(y)
		var sxy, sxx, syy float64
		for k := range x {
			sxy += (x[k] - mx) * (y[k] - my)
			sxx += (x[k] - mx) * (x[k] - mx)
			syy += (y[k] - my) * (y[k] - my)
		}
		what := ct.Text("x", i) + " ~ " + ct.Text("y", i)
		if r := ct.Num("r", i); math.Abs(r-sxy/math.Sqrt(sxx*syy)) > 1e-9 {
			t.Errorf("%s: r %v, want %v", what, r, sxy/math.Sqrt(sxx*syy))
		}
		near(t, what+" slope", ct.Num("slope", i), sxy/sxx)
		near(t, what+" n", ct.Num("n", i), float64(len(x)))
	}
	res, err = Correlate(tr, CorrelateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := mustTable(t, res, "correlations").NumRows(); n != DefaultCorrelations {
		t.Errorf("default top: %d rows", n)
	}
	_, err = Correlate(tr, CorrelateOptions{Metric: "PAPI_L2_TCM"})
	wantErr(t, "unknown metric", err, "PAPI_L2_TCM", "TIME")
}

// TestCorrelateLeavesOutIdentifiers: a per-thread time stamp and pid that
// grow with the rank correlate perfectly with anything that does; they are
// left out unless IncludeIDs, and a finding names them.
func TestCorrelateLeavesOutIdentifiers(t *testing.T) {
	for key, id := range map[string]bool{"Starting Timestamp": true, "pid": true, "MPI rank": true, "Local Time": true,
		"tid": true, "nCells": false, "size": false, "CPU MHz": false, "Timer Resolution": false} {
		if IsIdentifier(key) != id {
			t.Errorf("IsIdentifier(%q) = %v", key, !id)
		}
	}
	tr := handTrial(t)
	for th := range tr.Threads {
		tr.Threads[th].Metadata["Starting Timestamp"] = fmt.Sprint(1700000000000 + 37*th)
		tr.Threads[th].Metadata["pid"] = fmt.Sprint(4242 + th)
	}
	res, err := Correlate(tr, CorrelateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ct := mustTable(t, res, "correlations")
	if ct.NumRows() != 6 || ct.Find("x", "pid") >= 0 || ct.Find("x", "Starting Timestamp") >= 0 {
		t.Errorf("%d pairs with the identifiers left out, want the 6 of TestCorrelateByHand", ct.NumRows())
	}
	if f := findingWith(res, "left out as identifiers or time stamps"); !strings.HasSuffix(f, "Starting Timestamp, pid.") {
		t.Errorf("finding %q", f)
	}
	res, err = Correlate(tr, CorrelateOptions{IncludeIDs: true})
	if err != nil {
		t.Fatal(err)
	}
	// 3 region pairs + 3 metadata keys × 3 regions.
	if ct := mustTable(t, res, "correlations"); ct.NumRows() != 12 || ct.Find("x", "pid") < 0 {
		t.Errorf("IncludeIDs: %d pairs, want 12", ct.NumRows())
	}
}
