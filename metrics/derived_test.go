package metrics

import (
	"math"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// TestAddDerivedStatistics appends FLOP rate = PAPI_FP_OPS / TIME to the
// small trial and checks drg.Statistics on it against hand computation.
//
// Inclusive rates: main 10, 15, 6 (three threads); compute 10, 50/3 and an
// absent cell. Exclusive rates: main 10, 10, 10; compute 10, undefined
// (25/0) and an absent cell.
func TestAddDerivedStatistics(t *testing.T) {
	tr := smallTrial(t, "TIME")
	e, err := Compile("PAPI_FP_OPS / TIME", Names(tr))
	if err != nil {
		t.Fatal(err)
	}
	m, err := AddDerived(tr, "MFLOPS", e)
	if err != nil {
		t.Fatal(err)
	}
	if m != 2 || tr.Metrics[m] != (drg.Metric{Name: "MFLOPS", Derived: true}) || len(tr.Values) != 3 {
		t.Fatalf("metric %d: %+v", m, tr.Metrics)
	}
	st := tr.Statistics()
	if st.Count[0] != 3 || st.Count[1] != 2 {
		t.Errorf("counts %v", st.Count)
	}
	type want struct{ mean, total, stddev, min, max, meanAll, stddevAll float64 }
	checkNode := func(what string, c drg.Column, n int, w want) {
		t.Helper()
		for _, x := range []struct {
			name      string
			got, want float64
		}{
			{"MEAN", c.Mean[n], w.mean}, {"TOTAL", c.Total[n], w.total}, {"STDDEV", c.StdDev[n], w.stddev},
			{"MIN", c.Min[n], w.min}, {"MAX", c.Max[n], w.max},
			{"MEAN (nulls as 0)", c.MeanAll[n], w.meanAll}, {"STDDEV (nulls as 0)", c.StdDevAll[n], w.stddevAll},
		} {
			if !same(x.got, x.want) {
				t.Errorf("%s %s = %v, want %v", what, x.name, x.got, x.want)
			}
		}
	}
	// main inclusive: 10, 15, 6: total 31, mean 31/3; deviations -1/3, 14/3,
	// -13/3, squares (1 + 196 + 169)/9 = 366/9, over 3 threads.
	mainIncl := want{31.0 / 3, 31, math.Sqrt(366.0 / 27), 6, 15, 31.0 / 3, math.Sqrt(366.0 / 27)}
	checkNode("main incl", st.Inclusive[m], 0, mainIncl)
	checkNode("main excl", st.Exclusive[m], 0, want{10, 30, 0, 10, 10, 10, 0})
	// compute inclusive: 10 and 50/3 over k = 2; total 80/3, mean 40/3,
	// deviations ±10/3. Over N = 3 (the absent cell as 0): mean 80/9,
	// deviations 10/9, 70/9, -80/9, squares 11400/81.
	checkNode("compute incl", st.Inclusive[m], 1, want{40.0 / 3, 80.0 / 3, 10.0 / 3, 10, 50.0 / 3, 80.0 / 9, math.Sqrt(11400.0 / 81 / 3)})
	// compute exclusive: an undefined cell makes every statistic undefined.
	checkNode("compute excl", st.Exclusive[m], 1, want{undef, undef, undef, undef, undef, undef, undef})
	// The base metrics' statistics are unchanged.
	if !same(st.Inclusive[0].Total[0], 450) || !same(st.Exclusive[1].Total[1], 625) {
		t.Errorf("base statistics: %v %v", st.Inclusive[0].Total[0], st.Exclusive[1].Total[1])
	}
	// A second derived metric may use the first.
	e2, err := Compile("MFLOPS * 1000", Names(tr))
	if err != nil {
		t.Fatal(err)
	}
	if m2, err := AddDerived(tr, "KFLOPS_PER_MS", e2); err != nil || m2 != 3 || !same(tr.Values[m2].Inclusive[1], 15000) {
		t.Errorf("derived of derived: %d %v", m2, err)
	}
}

func TestAddDerivedErrors(t *testing.T) {
	tr := smallTrial(t, "TIME")
	e, err := Compile("PAPI_FP_OPS / TIME", Names(tr))
	if err != nil {
		t.Fatal(err)
	}
	for name, msg := range map[string]string{
		"TIME":  `trial "small" already has a metric named "TIME"`,
		" ":     "a derived metric needs a name",
		"CALLS": "CALLS is a pseudo-metric; choose another name for the derived metric",
	} {
		if _, err := AddDerived(tr, name, e); err == nil || err.Error() != msg {
			t.Errorf("AddDerived(%q): %v", name, err)
		}
	}
	other, err := Compile("PAPI_L2_TCM", []string{"PAPI_L2_TCM"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AddDerived(tr, "X", other); err == nil {
		t.Error("missing metric accepted")
	}
	if len(tr.Metrics) != 2 || len(tr.Values) != 2 {
		t.Errorf("failed calls changed the trial: %+v", tr.Metrics)
	}
}
