package analysis

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// findingWith returns the first finding containing s, "" when none does.
func findingWith(res *Result, s string) string {
	for _, f := range res.Findings {
		if strings.Contains(f, s) {
			return f
		}
	}
	return ""
}

// TestScalabilityTurnAround: T(p) = 1000/p + 4p falls to its minimum near
// p = 16 and rises after; the findings say so, and neither Amdahl's law
// nor Karp-Flatt's fraction is printed outside [0, 1].
func TestScalabilityTurnAround(t *testing.T) {
	prog := func(p float64) float64 { return 1000/p + 4*p }
	s := lawSeries(t, powers, 1, prog, []law{{"grow", func(p float64) float64 { return 4 * p }}}, nil)
	res, err := Scalability(s, ScalabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Measured: p=16 gives 126.5, p=32 159.25, p=64 271.6 (+115%).
	f := findingWith(res, "turns around")
	if !strings.Contains(f, "at p = 16") || !strings.Contains(f, "at p = 64") || !strings.Contains(f, "+114.7%") {
		t.Errorf("turn-around finding %q in %q", f, res.Findings)
	}
	mt := mustTable(t, res, "models")
	g := row(t, mt, "region", "grow")
	// 4p: Amdahl's f = a/(a+b) of a + b/p fitted to 4p is negative.
	if !math.IsNaN(mt.Num("amdahl_serial_fraction", g)) || !strings.HasPrefix(mt.Text("amdahl", g), "does not fit Amdahl") {
		t.Errorf("grow: amdahl %v %q", mt.Num("amdahl_serial_fraction", g), mt.Text("amdahl", g))
	}
	checkFractions(t, res)
	// The region "grow" slows down with p: its Karp-Flatt fraction is
	// undefined (NaN), never printed above 1.
	rt := mustTable(t, res, "regions")
	for i := 0; i < rt.NumRows(); i++ {
		if kf := rt.Num("karp_flatt", i); kf < 0 || kf > 1 {
			t.Errorf("karp_flatt %v outside [0, 1] in row %d", kf, i)
		}
	}
}

// fractionRE finds a serial fraction printed as a number in a finding.
var fractionRE = regexp.MustCompile(`serial fraction (-?[0-9][0-9.e+-]*)`)

// checkFractions fails when a finding prints a serial fraction outside
// [0, 1].
func checkFractions(t *testing.T, res *Result) {
	t.Helper()
	for _, f := range res.Findings {
		for _, m := range fractionRE.FindAllStringSubmatch(f, -1) {
			v, err := strconv.ParseFloat(strings.TrimRight(m[1], "."), 64)
			if err != nil || v < 0 || v > 1 {
				t.Errorf("finding prints a serial fraction outside [0, 1]: %q", f)
			}
		}
	}
}

// TestScalabilitySlowdown: a program that gets slower with p has a
// Karp-Flatt fraction above 1 and an Amdahl f above 1; both are reported as
// undefined, never as fractions.
func TestScalabilitySlowdown(t *testing.T) {
	prog := func(p float64) float64 { return 1000 + 50*p }
	s := lawSeries(t, []int{1, 2, 4, 8}, 1, prog, testLaws[:1], nil)
	res, err := Scalability(s, ScalabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pt := mustTable(t, res, "program")
	if !math.IsNaN(pt.Num("karp_flatt", 3)) || pt.Text("karp_flatt_note", 3) != "undefined: slower than the baseline (speedup below 1)" {
		t.Errorf("program karp-flatt %v %q", pt.Num("karp_flatt", 3), pt.Text("karp_flatt_note", 3))
	}
	if f := findingWith(res, "Program: efficiency"); !strings.HasSuffix(f, "Karp-Flatt serial fraction undefined: slower than the baseline (speedup below 1).") {
		t.Errorf("efficiency finding %q", f)
	}
	checkFractions(t, res)
	if f := findingWith(res, "does not fit Amdahl's law: the time grows with p"); f == "" {
		t.Errorf("no Amdahl finding in %q", res.Findings)
	}
	if findingWith(res, "Amdahl fit of the program") != "" {
		t.Errorf("an Amdahl fit was reported: %q", res.Findings)
	}
}

// TestScalabilityUnreliableAndExtrapolated: a noisy program fitted poorly
// gets no prediction; a clean one predicted 8× beyond its largest p gets
// the extrapolation warning and a 95% interval.
func TestScalabilityUnreliableAndExtrapolated(t *testing.T) {
	zig := func(p float64) float64 { // alternates by a factor 5: no model follows
		if int(math.Log2(p))%2 == 0 {
			return 100
		}
		return 500
	}
	res, err := Scalability(lawSeries(t, powers, 1, zig, nil, nil), ScalabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := findingWith(res, "Program model")
	if !strings.Contains(f, "fits poorly") || strings.Contains(f, "predicting") {
		t.Errorf("poor fit finding %q", f)
	}
	mt := mustTable(t, res, "models")
	if !strings.Contains(mt.Text("reliability", 0), "unreliable fit") {
		t.Errorf("reliability %q", mt.Text("reliability", 0))
	}
	res, err = Scalability(lawSeries(t, powers, 1, progLaw, testLaws, nil), ScalabilityOptions{Predict: 512})
	if err != nil {
		t.Fatal(err)
	}
	if f := findingWith(res, "extrapolates 8×"); !strings.Contains(f, "largest measured p = 64") {
		t.Errorf("extrapolation finding %q in %q", f, res.Findings)
	}
	if f := findingWith(res, "Program model"); !strings.Contains(f, "95% prediction interval") {
		t.Errorf("model finding %q", f)
	}
}

// TestPredictionInterval checks Model.PredictionInterval against the
// textbook interval of weighted least squares with weights w = 1/y² and
// noise proportional to the value, computed here with gonum's inverse:
// ŷ ± t_{n−k} s sqrt(ŷ(p)² + x0ᵀ (XᵀWX)⁻¹ x0), s² = Σ w r²/(n − k).
func TestPredictionInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	p := []float64{2, 4, 8, 16, 32, 64, 128}
	y := make([]float64, len(p))
	for i, v := range p {
		y[i] = (50 + 3000/v) * (1 + 0.03*rng.NormFloat64())
	}
	m, err := FitModel(p, y)
	if err != nil {
		t.Fatal(err)
	}
	n, k := len(p), len(m.cols)
	x := mat.NewDense(n, k, nil)
	xtw := mat.NewDense(k, n, nil)
	for i, v := range p {
		for c, term := range m.cols {
			x.Set(i, c, term.Eval(v))
			xtw.Set(c, i, term.Eval(v)/(y[i]*y[i]))
		}
	}
	var xtwx, inv mat.Dense
	xtwx.Mul(xtw, x)
	if err := inv.Inverse(&xtwx); err != nil {
		t.Fatal(err)
	}
	var beta mat.VecDense
	var xtwy mat.VecDense
	xtwy.MulVec(xtw, mat.NewVecDense(n, y))
	beta.MulVec(&inv, &xtwy)
	var s2 float64
	for i, v := range p {
		var yhat float64
		for c, term := range m.cols {
			yhat += beta.AtVec(c) * term.Eval(v)
		}
		s2 += (y[i] - yhat) * (y[i] - yhat) / (y[i] * y[i])
	}
	s2 /= float64(n - k)
	x0 := mat.NewVecDense(k, nil)
	for c, term := range m.cols {
		x0.SetVec(c, term.Eval(512))
	}
	var tmp mat.VecDense
	tmp.MulVec(&inv, x0)
	yhat := mat.Dot(x0, mat.NewVecDense(k, beta.RawVector().Data))
	relNear(t, "prediction", m.Eval(512), yhat, 1e-8)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - k)}.Quantile(0.975)
	half := q * math.Sqrt(s2*(yhat*yhat+mat.Dot(x0, &tmp)))
	lo, hi := m.PredictionInterval(512, 0.95)
	if math.Abs(lo-(yhat-half)) > 1e-6*half || math.Abs(hi-(yhat+half)) > 1e-6*half {
		t.Errorf("model %s: interval [%v, %v], want %v ± %v", m, lo, hi, yhat, half)
	}
	// The constant model: c = Σ(1/y)/Σ(1/y²), Var(c) = s²/Σ(1/y²):
	// c ± t_{n−1} s sqrt(c² + 1/Σ(1/y²)).
	ys := []float64{10, 12, 11}
	cm, _ := FitModel([]float64{1, 2, 4}, ys)
	var sw, sw2, rs float64
	for _, v := range ys {
		sw, sw2 = sw+1/v, sw2+1/(v*v)
	}
	c0 := sw / sw2
	for _, v := range ys {
		rs += (v - c0) * (v - c0) / (v * v)
	}
	lo, hi = cm.PredictionInterval(8, 0.9)
	want := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 2}.Quantile(0.95) * math.Sqrt(rs/2*(c0*c0+1/sw2))
	if math.Abs((hi-lo)/2-want) > 1e-9*want || math.Abs((hi+lo)/2-c0) > 1e-12 {
		t.Errorf("constant interval [%v, %v], want %v ± %v", lo, hi, c0, want)
	}
}

// TestNearTies: on noisy series every listed near tie has a criterion within
// ModelNearTie of the chosen model, worse or equal, closest first; over
// 40 series some are found, and the findings report them.
func TestNearTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	p := []float64{2, 4, 8, 16, 32, 64}
	found := 0
	for range 40 {
		y := make([]float64, len(p))
		for i, v := range p {
			y[i] = (40 + 600/v + 8*math.Log2(v)) * (1 + 0.05*rng.NormFloat64())
		}
		m, err := FitModel(p, y)
		if err != nil {
			t.Fatal(err)
		}
		for j, tie := range m.NearTies {
			if d := tie.Criterion - m.Criterion; d < -1e-9 || d >= ModelNearTie {
				t.Errorf("near tie %s: ΔAICc %v", tie, d)
			}
			if j > 0 && tie.Criterion < m.NearTies[j-1].Criterion {
				t.Error("near ties not closest first")
			}
			if tie.String() == m.String() {
				t.Error("the chosen model listed as its own tie")
			}
		}
		found += len(m.NearTies)
	}
	if found == 0 {
		t.Error("no near tie on 40 noisy series")
	}
}

// TestModelTermBound: short series restrict the model's terms, and the
// reliability column and the findings say so.
func TestModelTermBound(t *testing.T) {
	for _, c := range []struct {
		ps       []int
		want     string
		maxTerms int
	}{
		{[]int{1, 2, 4}, "3 distinct p: constant only (a term needs 4)", 0},
		{[]int{1, 2, 4, 8}, "4 distinct p: at most one term (two terms need 5)", 2},
		{[]int{1, 2, 4, 8, 16}, "", 2},
	} {
		res, err := Scalability(lawSeries(t, c.ps, 1, progLaw, testLaws, nil), ScalabilityOptions{})
		if err != nil {
			t.Fatal(err)
		}
		mt := mustTable(t, res, "models")
		for i := range mt.NumRows() {
			rel := mt.Text("reliability", i)
			if (c.want == "") == strings.Contains(rel, "distinct p") || !strings.Contains(rel, c.want) {
				t.Errorf("%v points, %s: reliability %q, want %q", len(c.ps), mt.Text("region", i), rel, c.want)
			}
			terms := 0
			for _, col := range []string{"c0", "c1", "c2"} {
				if v := mt.Num(col, i); !math.IsNaN(v) && v != 0 {
					terms++
				}
			}
			if terms-1 > c.maxTerms {
				t.Errorf("%v points: model %q has more coefficients than the points support", len(c.ps), mt.Text("model", i))
			}
		}
		if f := findingWith(res, "bounded by its points"); (c.want == "") != (f == "") || !strings.Contains(f, c.want) {
			t.Errorf("%v points: finding %q", len(c.ps), f)
		}
	}
}
