package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/extrap"
)

// kernelOf builds a one-parameter kernel of f at xs with the given
// relative perturbations as repetitions.
func kernelOf(region string, xs []float64, f func(float64) float64, reps ...float64) extrap.Kernel {
	k := extrap.Kernel{Region: region, Metric: "time"}
	for _, x := range xs {
		var v []float64
		for _, r := range reps {
			v = append(v, f(x)*(1+r))
		}
		k.Points, k.Values = append(k.Points, []float64{x}), append(k.Values, v)
	}
	return k
}

// TestModelDatasetExtrapEquivalents fits hand-made equivalents of the
// inputs whose models Extra-P's tests assert: tests/test_modeling.py on
// one_parameter_6 (p = 1000..16000: "met1" the constant 4.068, "met2" to
// "met4" a single term p^2) and the JSON input of test_load_json_file
// (x = 4..64, five equal repetitions of a linear law). The values here are
// ours, generated from those laws with small repetition noise.
func TestModelDatasetExtrapEquivalents(t *testing.T) {
	ps := []float64{1000, 2000, 4000, 8000, 16000}
	d := &extrap.Dataset{Params: []string{"p"}, Kernels: []extrap.Kernel{
		kernelOf("met1", ps, func(float64) float64 { return 4.068 }, 0),
		kernelOf("met2", ps, func(p float64) float64 { return 2e-6 * p * p }, -0.01, 0, 0.01),
		kernelOf("met3", ps, func(p float64) float64 { return 50 + 3e-5*p*p }, 0.002, -0.002, 0),
		kernelOf("met4", ps, func(p float64) float64 { return 1e-4 * p * p }, 0),
	}}
	res, err := ModelDataset(d, DatasetOptions{Source: "one_parameter_6-like"})
	if err != nil {
		t.Fatal(err)
	}
	mt := mustTable(t, res, "models")
	if mt.Text("model", 0) != "4.068" {
		t.Errorf("met1: %q, want the constant 4.068", mt.Text("model", 0))
	}
	for i := 1; i < 4; i++ {
		if mt.Num("exp1", i) != 2 || mt.Num("log1", i) != 0 || !math.IsNaN(mt.Num("exp2", i)) {
			t.Errorf("%s: %q, want a single term p^2", mt.Text("region", i), mt.Text("model", i))
		}
	}
	// met2's median is the law itself (repetitions −1%, 0, +1%): exact.
	relNear(t, "met2 coefficient", mt.Num("c1", 1), 2e-6, 1e-9)
	near(t, "met2 spread", mt.Num("rep_spread_percent", 1), 2)
	if !strings.Contains(mt.Text("reliability", 0), "one repetition") || findingWith(res, "single repetition") == "" {
		t.Errorf("one repetition not said: %q %q", mt.Text("reliability", 0), res.Findings)
	}
	near(t, "predicted at 2×", mt.Num("predicted", 3), 1e-4*32000*32000)

	lin := &extrap.Dataset{Params: []string{"x"}, Kernels: []extrap.Kernel{
		kernelOf("sweep", []float64{4, 8, 16, 32, 64}, func(x float64) float64 { return 2.5 + 0.25*x }, 0, 0, 0, 0, 0)}}
	res, err = ModelDataset(lin, DatasetOptions{Source: "json-like", Mean: true, Predict: 128})
	if err != nil {
		t.Fatal(err)
	}
	mt = mustTable(t, res, "models")
	if mt.Num("exp1", 0) != 1 || math.Abs(mt.Num("c0", 0)-2.5) > 1e-9 || math.Abs(mt.Num("c1", 0)-0.25) > 1e-12 || mt.Num("repetitions_min", 0) != 5 {
		t.Errorf("linear: %q", mt.Text("model", 0))
	}
	near(t, "linear prediction", mt.Num("predicted", 0), 2.5+0.25*128)
	if res.Params["repetitions"] != "mean" || res.Params["predict_x"] != "128" {
		t.Errorf("params %v", res.Params)
	}

	// Two parameters, as Extra-P's two-parameter text inputs (x = 20..60,
	// y = 1..5, 3 repetitions): 5 + 0.5*x*y exactly is recovered.
	two := &extrap.Dataset{Params: []string{"x", "y"}}
	k := extrap.Kernel{Region: "merge", Metric: "time"}
	for _, x := range []float64{20, 30, 40, 50, 60} {
		for _, y := range []float64{1, 2, 3, 4, 5} {
			v := 5 + 0.5*x*y
			k.Points, k.Values = append(k.Points, []float64{x, y}), append(k.Values, []float64{v, v, v})
		}
	}
	two.Kernels = []extrap.Kernel{k}
	res, err = ModelDataset(two, DatasetOptions{Source: "two.txt"})
	if err != nil {
		t.Fatal(err)
	}
	mt = mustTable(t, res, "models")
	if mt.Text("terms", 0) != "x * y" || mt.Num("points", 0) != 25 || mt.Num("repetitions_min", 0) != 3 {
		t.Errorf("two parameters: %q terms %q", mt.Text("model", 0), mt.Text("terms", 0))
	}
}
