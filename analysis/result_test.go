package analysis

import (
	"encoding/json"
	"math"
	"testing"
)

// sampleResult is a small result of every column kind.
func sampleResult() *Result {
	r := &Result{Analysis: "demo", Trial: "t", Metric: "TIME", Params: map[string]string{"metric": "TIME", "top": "10"}, Findings: []string{"x"}}
	tb := Table{Name: "rows", Title: "demo"}
	tb.AddText("region", []string{"main => f", "g<&>"})
	tb.AddNum("value", "us", []float64{1.5, math.NaN()})
	tb.AddNum("calls", "calls", []float64{3, 0})
	r.AddTable(tb)
	return r
}

func TestResultValidateAndKey(t *testing.T) {
	r := sampleResult()
	r.Tables[0].Columns[1].Num = r.Tables[0].Columns[1].Num[:1]
	if err := r.Validate(); err == nil {
		t.Error("ragged table accepted")
	}
	if _, err := json.Marshal(r); err == nil {
		t.Error("ragged table marshalled")
	}
	r = sampleResult()
	r.AddTable(Table{Name: "rows"})
	if err := r.Validate(); err == nil {
		t.Error("repeated table accepted")
	}
	a, b := sampleResult(), sampleResult()
	b.Params["top"] = "5"
	if a.Key() == b.Key() {
		t.Error("different params, same key")
	}

	// Every analysis records different parameters under different keys.
	tr := handTrial(t)
	keys := map[string]string{}
	add := func(what string, res *Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := res.Validate(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if prev, dup := keys[res.Key()]; dup {
			t.Errorf("%s and %s share key %s", what, prev, res.Key())
		}
		keys[res.Key()] = what
		if len(res.Findings) == 0 {
			t.Errorf("%s: no findings", what)
		}
	}
	res, err := Imbalance(tr, ImbalanceOptions{})
	add("imbalance", res, err)
	res, err = Imbalance(tr, ImbalanceOptions{Inclusive: true})
	add("imbalance incl", res, err)
	res, err = Imbalance(tr, ImbalanceOptions{Callpath: true})
	add("imbalance callpath", res, err)
	res, err = Regions(tr, RegionsOptions{})
	add("regions", res, err)
	res, err = Regions(tr, RegionsOptions{Top: 3})
	add("regions top 3", res, err)
	res, err = Regions(tr, RegionsOptions{Of: "max"})
	add("regions max", res, err)
	res, err = Regions(tr, RegionsOptions{Children: hMain + " => " + hWork})
	add("regions children", res, err)
	res, err = Summary(tr, SummaryOptions{})
	add("summary", res, err)
	res, err = Summary(tr, SummaryOptions{By: "thread"})
	add("summary thread", res, err)
	res, err = Summary(tr, SummaryOptions{Node: "hostA"})
	add("summary hostA", res, err)
	res, err = Correlate(tr, CorrelateOptions{})
	add("correlate", res, err)
	res, err = Correlate(tr, CorrelateOptions{Top: 2})
	add("correlate top", res, err)
	res, err = Compare(tr, handTrialB(t), CompareOptions{})
	add("compare", res, err)
	res, err = Compare(tr, handTrialB(t), CompareOptions{Tolerance: 0.1})
	add("compare tol", res, err)
	// Explicit defaults give the same key as the zero options.
	r1, _ := Regions(tr, RegionsOptions{})
	r2, _ := Regions(tr, RegionsOptions{Top: DefaultTop, Of: "mean", Children: hMain, Metric: "TIME"})
	if r1.Key() != r2.Key() {
		t.Errorf("explicit defaults: %q vs %q", r1.Key(), r2.Key())
	}
}

func TestFormatValue(t *testing.T) {
	tr := handTrial(t)
	for v, want := range map[float64]string{1.2e6: "1.2 s", 34500: "34.5 ms", 512: "512 µs"} {
		if got := formatValue(tr, 0, v); got != want {
			t.Errorf("formatValue(%v) = %q, want %q", v, got, want)
		}
	}
}
