package analysis

import (
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// capTrial builds a one-process, two-thread trial of a power-cap study:
// "compute" takes 30000/capWatts ms·1000 µs on thread 0 (half on thread
// 1), MPI_Barrier 50 µs on both, main 10 µs of its own.
func capTrial(t *testing.T, name, capText, experiment string, capWatts float64) *drg.Trial {
	t.Helper()
	b, err := drg.NewBuilder([]drg.ThreadID{{}, {Thread: 1}})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	b.TrialMetadata("Power Cap", capText)
	b.TrialMetadata("Experiment", experiment)
	compute := 30000 / capWatts
	for th, share := range []float64{1, 0.5} {
		main, c, bar := b.Node("main"), b.Node("main => compute"), b.Node("main => MPI_Barrier()")
		fc, fb := b.Node("compute"), b.Node("MPI_Barrier()")
		b.AddValues(main, th, m, 10, 10+share*compute+50)
		for _, n := range []int{c, fc} {
			b.AddValues(n, th, m, share*compute, share*compute)
		}
		for _, n := range []int{bar, fb} {
			b.AddValues(n, th, m, 50, 50)
		}
		for _, n := range []int{main, c, bar, fc, fb} {
			b.AddCalls(n, th, 1, 0)
		}
	}
	tr, err := b.Finish(name, drg.Source{Format: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestMultiRegionBy places a power-cap study (p = 1 everywhere) along the
// cap: by "meta:Power Cap" the experiments come in cap order with x the
// cap in watts and compute's exclusive time (max over threads) 300, 200,
// 150 µs at 100, 150, 200 W; MPI_Barrier is found constant "as Power Cap
// grows". By "experiment" (text) x is the rank of the experiment's name.
func TestMultiRegionBy(t *testing.T) {
	s := Series{
		{Trial: capTrial(t, "cap200", "200 W", "c-high", 200), P: 1},
		{Trial: capTrial(t, "cap100", "100 W", "a-low", 100), P: 1},
		{Trial: capTrial(t, "cap150", "150 W", "b-mid", 150), P: 1},
	}
	res, err := MultiRegion(s, "compute|Barrier", MultiRegionOptions{By: "meta:Power Cap"})
	if err != nil {
		t.Fatal(err)
	}
	tb := mustTable(t, res, "regions")
	if tb.Col("p") != nil || tb.Col("x") == nil || res.Params["by"] != "meta:Power Cap" {
		t.Fatalf("columns %v params %v: want x and x_value instead of p", tb.Columns, res.Params)
	}
	want := map[string][]float64{"compute": {300, 200, 150}, "MPI_Barrier()": {50, 50, 50}}
	wantX := []float64{100, 150, 200}
	for i := 0; i < tb.NumRows(); i++ {
		r, k := tb.Text("region", i), i%3
		if tb.Num("x", i) != wantX[k] || tb.Text("x_value", i) != []string{"100 W", "150 W", "200 W"}[k] {
			t.Errorf("row %d: x %v %q, want %v", i, tb.Num("x", i), tb.Text("x_value", i), wantX[k])
		}
		if got := tb.Num("exclusive", i); got != want[r][k] {
			t.Errorf("%s at %v W: %v µs, want %v", r, wantX[k], got, want[r][k])
		}
	}
	all := strings.Join(res.Findings, "\n")
	if !strings.Contains(all, "MPI_Barrier() stays almost constant as Power Cap grows") || !strings.Contains(all, "at Power Cap = 100 W") {
		t.Errorf("findings do not speak of the cap:\n%s", all)
	}
	if strings.Contains(all, " p ") || strings.Contains(all, " p = ") || strings.Contains(all, "(p = ") {
		t.Errorf("findings speak of p in a power-cap study:\n%s", all)
	}
	res, err = MultiRegion(s, "compute", MultiRegionOptions{By: "experiment"})
	if err != nil {
		t.Fatal(err)
	}
	tb = mustTable(t, res, "regions")
	for i, want := range []string{"a-low", "b-mid", "c-high"} {
		if tb.Text("x_value", i) != want || tb.Num("x", i) != float64(i+1) {
			t.Errorf("by experiment, row %d: %q at x %v; want %q at rank %d", i, tb.Text("x_value", i), tb.Num("x", i), want, i+1)
		}
	}
	if _, err := MultiRegion(s, "", MultiRegionOptions{By: "meta:Node Count"}); err == nil || !strings.Contains(err.Error(), "Node Count") {
		t.Errorf("a key no trial has: %v", err)
	}
}
