package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestRatioByHand: FLOP per µs on a 2-thread trial where thread 1's work
// region took 0 µs (undefined ratio there).
func TestRatioByHand(t *testing.T) {
	b, err := drg.NewBuilder([]drg.ThreadID{{Node: 0}, {Node: 1}})
	if err != nil {
		t.Fatal(err)
	}
	tm, fp := b.Metric("TIME"), b.Metric("PAPI_FP_OPS")
	main, work := b.Node("main"), b.Node("work")
	for th, v := range []struct{ mt, mf, wt, wf float64 }{{100, 1000, 40, 800}, {200, 1000, 0, 600}} {
		b.AddCalls(main, th, 1, 1)
		b.AddValues(main, th, tm, v.mt-v.wt, v.mt)
		b.AddValues(main, th, fp, v.mf-v.wf, v.mf)
		b.AddCalls(work, th, 1, 0)
		b.AddValues(work, th, tm, v.wt, v.wt)
		b.AddValues(work, th, fp, v.wf, v.wf)
	}
	tr, err := b.Finish("hand", drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Ratio(tr, RatioOptions{Name: "FLOPS", Expr: "PAPI_FP_OPS / TIME"})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Table("regions")
	w := r.Find("region", "work")
	// work: thread 0 800/40 = 20; thread 1 600/0 undefined.
	if r.Num("n", w) != 1 || r.Num("undefined", w) != 1 || r.Num("exclusive_mean", w) != 20 {
		t.Errorf("work: n %v undefined %v mean %v", r.Num("n", w), r.Num("undefined", w), r.Num("exclusive_mean", w))
	}
	m := r.Find("region", "main")
	// main exclusive: 200/60 and 400/200 = 10/3 and 2; inclusive 10 and 5.
	if got := r.Num("exclusive_mean", m); math.Abs(got-(10.0/3+2)/2) > 1e-12 {
		t.Errorf("main exclusive mean %v", got)
	}
	if r.Num("inclusive_min", m) != 5 || r.Num("inclusive_max", m) != 10 {
		t.Errorf("main inclusive min/max %v %v", r.Num("inclusive_min", m), r.Num("inclusive_max", m))
	}
	th := res.Table("threads")
	if th.Num("main_inclusive", 0) != 10 || th.Num("main_inclusive", 1) != 5 {
		t.Errorf("threads %+v", th)
	}
	if res.Params["expr"] != "PAPI_FP_OPS / TIME" {
		t.Errorf("params %v", res.Params)
	}
	if _, err := Ratio(tr, RatioOptions{Name: "X", Expr: "PAPI_FP_OPS / "}); err == nil || !strings.Contains(err.Error(), "1:") {
		t.Errorf("bad expression: %v", err)
	}
	if _, err := Ratio(tr, RatioOptions{Name: "X", Expr: "NOPE / TIME"}); err == nil || !strings.Contains(err.Error(), `unknown metric "NOPE"`) {
		t.Errorf("unknown metric: %v", err)
	}
}

// TestRatioIPCOnRealCounters: IPC on the XGC trial equals PAPI_TOT_INS /
// PAPI_TOT_CYC of the main region on every thread.
func TestRatioIPCOnRealCounters(t *testing.T) {
	tr, err := reader.Read(realdata.Real(t, "UO-OACISS-tau2/perfexplorer/HardwareCounterBasicAnalysis/xgc-nosamples.ppk"), "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Ratio(tr, RatioOptions{Name: "IPC", Expr: "PAPI_TOT_INS / PAPI_TOT_CYC"})
	if err != nil {
		t.Fatal(err)
	}
	ins, cyc := tr.MetricIndex("PAPI_TOT_INS"), tr.MetricIndex("PAPI_TOT_CYC")
	th := res.Table("threads")
	if th.NumRows() != len(tr.Threads) {
		t.Fatalf("%d thread rows", th.NumRows())
	}
	m := tr.TimeMetric() // no time metric: the first metric ranks the nodes
	nt := len(tr.Threads)
	for i := 0; i < nt; i++ {
		best, bestV := -1, -1.0
		for n := range tr.Nodes {
			if c := n*nt + i; tr.Present.Get(c) && tr.Values[m].Inclusive[c] > bestV {
				best, bestV = n, tr.Values[m].Inclusive[c]
			}
		}
		c := best*nt + i
		want := tr.Values[ins].Inclusive[c] / tr.Values[cyc].Inclusive[c]
		if got := th.Num("main_inclusive", i); math.Abs(got-want) > 1e-12*want {
			t.Errorf("thread %d: IPC %v, want %v", i, got, want)
		}
	}
}
