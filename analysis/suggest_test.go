package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestSuggestMeasurements checks every suggestion's interval after one
// more measurement against the weighted normal equations recomputed with
// gonum's inverse (the new row at c with weight 1/ŷ(c)²), the ranking, and
// the cost p·ŷ(p).
func TestSuggestMeasurements(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	ps := []float64{2, 4, 8, 16, 32, 64}
	y := make([]float64, len(ps))
	for i, p := range ps {
		y[i] = (20 + 5000/p + 3*math.Log2(p)) * (1 + 0.03*r.NormFloat64())
	}
	m, err := FitModel(ps, y)
	if err != nil {
		t.Fatal(err)
	}
	target := 1024.0
	sug, err := SuggestMeasurements(m, ps, target, 10)
	if err != nil || len(sug) != 4 { // 128, 256, 512 and the target
		t.Fatalf("%v %v", sug, err)
	}
	k := len(m.cols)
	row := func(p float64) []float64 {
		x := make([]float64, k)
		for c, term := range m.cols {
			x[c] = term.Eval(p)
		}
		return x
	}
	xtwx := mat.NewDense(k, k, nil)
	addRow := func(x []float64, w float64) {
		for a := range k {
			for b := range k {
				xtwx.Set(a, b, xtwx.At(a, b)+w*x[a]*x[b])
			}
		}
	}
	for i, p := range ps {
		addRow(row(p), 1/(y[i]*y[i]))
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(ps) - k)}.Quantile(0.975)
	xt := mat.NewVecDense(k, row(target))
	for i, s := range sug {
		var with, inv mat.Dense
		with.CloneFrom(xtwx)
		x := row(s.P)
		for a := range k {
			for b := range k {
				with.Set(a, b, with.At(a, b)+x[a]*x[b]/(s.Time*s.Time))
			}
		}
		if err := inv.Inverse(&with); err != nil {
			t.Fatal(err)
		}
		var v mat.VecDense
		v.MulVec(&inv, xt)
		want := q * math.Sqrt(m.s2*mat.Dot(xt, &v))
		relNear(t, "half-width after", s.HalfAfter, want, 1e-6)
		relNear(t, "cost", s.Cost, s.P*m.Eval(s.P), 1e-12)
		if i > 0 && s.Reduction > sug[i-1].Reduction+1e-12 {
			t.Errorf("not ranked: %+v after %+v", s, sug[i-1])
		}
		if !(s.Reduction > 0 && s.Reduction < 1) {
			t.Errorf("reduction %v", s.Reduction)
		}
	}
	if sug[0].P != target {
		t.Errorf("best %v, want the target itself", sug[0].P)
	}
	if _, err := SuggestMeasurements(m, ps, -1, 2); err == nil {
		t.Error("negative target")
	}
}

// TestScalabilitySuggest: --suggest adds the ranked table and a finding;
// an exact fit has no interval to narrow, and the finding says so.
func TestScalabilitySuggest(t *testing.T) {
	exact, err := Scalability(lawSeries(t, powers, 1, progLaw, testLaws, nil), ScalabilityOptions{Predict: 1024, Suggest: 3})
	if err != nil || findingWith(exact, "no interval to narrow") == "" {
		t.Errorf("exact fit: %v %q", err, exact.Findings)
	}
	noisy := func(p float64) float64 { return progLaw(p) * (1 + 0.02*math.Sin(3*p)) }
	res, err := Scalability(lawSeries(t, powers, 1, noisy, testLaws, nil), ScalabilityOptions{Predict: 1024, Suggest: 3})
	if err != nil {
		t.Fatal(err)
	}
	st := mustTable(t, res, "suggestions")
	if st.NumRows() != 3 || findingWith(res, "measure next at p =") == "" {
		t.Errorf("%d suggestions, findings %q", st.NumRows(), res.Findings)
	}
	for i := range st.NumRows() {
		if st.Num("p", i) <= 64 || st.Num("process_time", i) != st.Num("p", i)*st.Num("run_time", i) {
			t.Errorf("row %d: p %v, time %v, cost %v", i, st.Num("p", i), st.Num("run_time", i), st.Num("process_time", i))
		}
	}
}
