package analysis

import (
	"math"
	"strings"
	"testing"
)

// relNear fails when got and want differ by more than tol relative to
// max(1, |want|).
func relNear(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

// wantModel checks a fitted model's terms and coefficients.
func wantModel(t *testing.T, what string, m Model, c0 float64, terms []Term, coefs []float64, tol float64) {
	t.Helper()
	if len(m.Terms) != len(terms) {
		t.Errorf("%s: model %s, want terms %v", what, m, terms)
		return
	}
	for k := range terms {
		if m.Terms[k] != terms[k] {
			t.Errorf("%s: model %s, term %d is %v, want %v", what, m, k, m.Terms[k], terms[k])
			return
		}
		relNear(t, what+" coefficient "+terms[k].String(), m.Coefs[k], coefs[k], tol)
	}
	relNear(t, what+" constant", m.Constant, c0, tol)
}

func TestModelSearchSpace(t *testing.T) {
	terms := ModelTerms()
	// 19 negative exponents × {0, −1, −2} + {−1, −1/2} × {1, 2} +
	// log2(p)^{−2, −1, 1, 2} + 19 positive exponents × {0, 1, 2}.
	if want := 19*3 + 2*2 + 4 + 19*3; len(terms) != want {
		t.Fatalf("%d terms, want %d", len(terms), want)
	}
	if len(legacyTerms()) != 62 || len(pairTerms()) != 64 {
		t.Errorf("legacy %d terms, pairs %d terms", len(legacyTerms()), len(pairTerms()))
	}
	if terms[0] != (Term{Exp: -3, Log: -2}) || terms[len(terms)-1] != (Term{Exp: 3, Log: 2}) {
		t.Errorf("order: first %v last %v", terms[0], terms[len(terms)-1])
	}
	for i := 1; i < len(terms); i++ {
		a, b := terms[i-1], terms[i]
		if a.Exp > b.Exp || (a.Exp == b.Exp && a.Log >= b.Log) {
			t.Errorf("terms %v, %v out of order", a, b)
		}
	}
	for term, want := range map[Term]string{
		{Exp: -1}:              "p^-1",
		{Exp: -0.5}:            "p^(-1/2)",
		{Exp: 1}:               "p",
		{Exp: 2}:               "p^2",
		{Exp: 1.0 / 3}:         "p^(1/3)",
		{Exp: 11.0 / 4}:        "p^(11/4)",
		{Log: 1}:               "log2(p)",
		{Log: 2}:               "log2(p)^2",
		{Log: -1}:              "log2(p)^-1",
		{Exp: -3}:              "p^-3",
		{Exp: 0.8}:             "p^(4/5)",
		{Exp: -2, Log: -1}:     "p^-2 * log2(p)^-1",
		{Exp: 0.5, Log: 1}:     "p^(1/2) * log2(p)",
		{Exp: 7.0 / 3, Log: 2}: "p^(7/3) * log2(p)^2",
		{}:                     "1",
	} {
		if got := term.String(); got != want {
			t.Errorf("%#v: %q, want %q", term, got, want)
		}
	}
	near(t, "term eval", Term{Exp: 0.5, Log: 2}.Eval(16), 4*16)
	near(t, "term eval 1/p", Term{Exp: -1}.Eval(8), 0.125)
	near(t, "term eval 1/(p^2 log2(p))", Term{Exp: -2, Log: -1}.Eval(8), 1.0/(64*3))
	if got := modelExponentsParam(); got != "-3,-11/4,-8/3,-5/2,-7/3,-9/4,-2,-7/4,-5/3,-3/2,-4/3,-5/4,-1,-4/5,-3/4,-2/3,-1/2,-1/3,-1/4,0,1/4,1/3,1/2,2/3,3/4,4/5,1,5/4,4/3,3/2,5/3,7/4,2,9/4,7/3,5/2,8/3,11/4,3" {
		t.Errorf("exponents param %q", got)
	}
}

func TestModelString(t *testing.T) {
	for _, c := range []struct {
		m    Model
		want string
	}{
		{Model{Constant: 100, Terms: []Term{{Exp: -1}, {Log: 1}}, Coefs: []float64{900, 5}}, "100 + 900 * p^-1 + 5 * log2(p)"},
		{Model{Constant: 100, Terms: []Term{{Exp: 1}}, Coefs: []float64{-2}}, "100 - 2 * p"},
		{Model{Terms: []Term{{Exp: -1}}, Coefs: []float64{800}}, "800 * p^-1"},
		{Model{Terms: []Term{{Exp: 1}}, Coefs: []float64{-0.5}}, "-0.5 * p"},
		{Model{Constant: 50}, "50"},
		{Model{}, "0"},
		{Model{Constant: 1.23456789e-5}, "1.23457e-05"},
	} {
		if got := c.m.String(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

func TestFitModelExact(t *testing.T) {
	ps := []float64{1, 2, 4, 8, 16, 32, 64}
	eval := func(f func(float64) float64) []float64 {
		y := make([]float64, len(ps))
		for i, p := range ps {
			y[i] = f(p)
		}
		return y
	}
	m, err := FitModel(ps, eval(progLaw))
	if err != nil {
		t.Fatal(err)
	}
	wantModel(t, "program", m, 100, []Term{{Exp: -1}, {Log: 1}}, []float64{900, 5}, 1e-9)
	if m.String() != "100 + 900 * p^-1 + 5 * log2(p)" {
		t.Errorf("text %q", m.String())
	}
	if m.RSS > 1e-18 || m.SMAPE > 1e-9 || m.CVSMAPE > 1e-9 || math.Abs(m.AdjR2-1) > 1e-12 || m.Points != 7 {
		t.Errorf("fit errors %+v", m)
	}
	relNear(t, "prediction", m.Eval(128), progLaw(128), 1e-9)

	for _, c := range []struct {
		name  string
		f     func(float64) float64
		c0    float64
		terms []Term
		coefs []float64
	}{
		{"constant", func(float64) float64 { return 50 }, 50, nil, nil},
		{"inverse", func(p float64) float64 { return 800 / p }, 0, []Term{{Exp: -1}}, []float64{800}},
		{"log", func(p float64) float64 { return 5 * math.Log2(p) }, 0, []Term{{Log: 1}}, []float64{5}},
		{"linear", func(p float64) float64 { return 0.25 * p }, 0, []Term{{Exp: 1}}, []float64{0.25}},
		{"linear+c", func(p float64) float64 { return 3 + 0.25*p }, 3, []Term{{Exp: 1}}, []float64{0.25}},
		{"sqrtlog", func(p float64) float64 { return 0.5 * math.Sqrt(p) * math.Log2(p) }, 0, []Term{{Exp: 0.5, Log: 1}}, []float64{0.5}},
		{"inv sqrt", func(p float64) float64 { return 7 + 40/math.Sqrt(p) }, 7, []Term{{Exp: -0.5}}, []float64{40}},
		{"two growing", func(p float64) float64 { return 3 + 2*math.Pow(p, 1.0/3)*math.Log2(p) + 0.01*p*p }, 3,
			[]Term{{Exp: 1.0 / 3, Log: 1}, {Exp: 2}}, []float64{2, 0.01}},
		{"n log^2 n", func(p float64) float64 { return 1e6 + 20*p*math.Log2(p)*math.Log2(p) }, 1e6, []Term{{Exp: 1, Log: 2}}, []float64{20}},
		{"cubic", func(p float64) float64 { return 1e-3 * p * p * p }, 0, []Term{{Exp: 3}}, []float64{1e-3}},
	} {
		m, err := FitModel(ps, eval(c.f))
		if err != nil {
			t.Fatal(err)
		}
		wantModel(t, c.name, m, c.c0, c.terms, c.coefs, 1e-6)
	}
	// The widened terms: p^-2, p^-3, p^(4/5) and, from p = 2 on (log2(1)
	// = 0), log2(p)^-1 and p^-1*log2(p)^-1.
	ps2 := []float64{2, 4, 8, 16, 32, 64, 128}
	for _, c := range []struct {
		name string
		ps   []float64
		c0   float64
		term Term
		coef float64
	}{
		{"p^-2", ps, 5, Term{Exp: -2}, 300},
		{"p^-3", ps, 1, Term{Exp: -3}, 80},
		{"p^(4/5)", ps, 0, Term{Exp: 0.8}, 2},
		{"1/log", ps2, 10, Term{Log: -1}, 50},
		{"1/(p log)", ps2, 0, Term{Exp: -1, Log: -1}, 700},
	} {
		y := make([]float64, len(c.ps))
		for i, p := range c.ps {
			y[i] = c.c0 + c.coef*c.term.Eval(p)
		}
		m, err := FitModel(c.ps, y)
		if err != nil {
			t.Fatal(err)
		}
		wantModel(t, c.name, m, c.c0, []Term{c.term}, []float64{c.coef}, 1e-6)
	}
	// A constant is exactly the constant model, even with values that do
	// not add up exactly in floating point.
	m, _ = FitModel(ps, eval(func(float64) float64 { return 0.1 }))
	if len(m.Terms) != 0 || m.Constant != 0.1 && math.Abs(m.Constant-0.1) > 1e-17 || !math.IsNaN(m.AdjR2) {
		t.Errorf("constant 0.1: %s %+v", m, m)
	}
	m, _ = FitModel(ps, make([]float64, len(ps)))
	if m.String() != "0" || len(m.Terms) != 0 {
		t.Errorf("zeros: %s", m)
	}
}

// TestFitModelNoise perturbs the exact laws by a small deterministic
// relative error (at most 0.1%) and still expects the right terms, with
// coefficients close to the true ones. (A steep law such as 5 + 0.5*p^2 is
// not among them: its absolute residuals at large p dominate the least
// squares, and AICc then accepts a spurious second term, see FitModel.)
func TestFitModelNoise(t *testing.T) {
	ps := []float64{1, 2, 4, 8, 16, 32, 64}
	noise := []float64{+1e-3, -0.7e-3, +0.4e-3, -1e-3, +0.8e-3, -0.2e-3, +0.6e-3}
	noisy := func(f func(float64) float64) []float64 {
		y := make([]float64, len(ps))
		for i, p := range ps {
			y[i] = f(p) * (1 + noise[i])
		}
		return y
	}
	for _, c := range []struct {
		name  string
		f     func(float64) float64
		c0    float64
		terms []Term
		coefs []float64
		tol   float64
	}{
		{"program", progLaw, 100, []Term{{Exp: -1}, {Log: 1}}, []float64{900, 5}, 0.1},
		{"constant", func(float64) float64 { return 50 }, 50, nil, nil, 1e-3},
		{"inverse", func(p float64) float64 { return 800 / p }, 0, []Term{{Exp: -1}}, []float64{800}, 0.01},
		{"linear", func(p float64) float64 { return 20 + 0.25*p }, 20, []Term{{Exp: 1}}, []float64{0.25}, 0.05},
		{"amdahl", func(p float64) float64 { return 100 + 900/p }, 100, []Term{{Exp: -1}}, []float64{900}, 0.01},
		{"log", func(p float64) float64 { return 40 + 5*math.Log2(p) }, 40, []Term{{Log: 1}}, []float64{5}, 0.05},
	} {
		m, err := FitModel(ps, noisy(c.f))
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Terms) != len(c.terms) {
			t.Errorf("%s: model %s, want terms %v", c.name, m, c.terms)
			continue
		}
		for k := range c.terms {
			if m.Terms[k] != c.terms[k] {
				t.Errorf("%s: model %s, want terms %v", c.name, m, c.terms)
				break
			}
			if math.Abs(m.Coefs[k]-c.coefs[k]) > c.tol*math.Abs(c.coefs[k]) {
				t.Errorf("%s: coefficient %v, want %v ± %v%%", c.name, m.Coefs[k], c.coefs[k], 100*c.tol)
			}
		}
		if m.RSS == 0 || !(m.SMAPE > 0) || !(m.SMAPE < 1) {
			t.Errorf("%s: fit errors %+v", c.name, m)
		}
	}
}

// TestFitModelOppositeSigns: two terms whose coefficients have opposite
// signs are never chosen, even when they fit exactly.
func TestFitModelOppositeSigns(t *testing.T) {
	ps := []float64{1, 2, 4, 8, 16, 32, 64}
	y := make([]float64, len(ps))
	for i, p := range ps {
		y[i] = 1000 + 10*p - 0.1*p*p
	}
	m, err := FitModel(ps, y)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Terms) == 2 && (m.Coefs[0] < 0) != (m.Coefs[1] < 0) {
		t.Errorf("model %s has terms of opposite signs", m)
	}
	if m.RSS == 0 {
		t.Errorf("model %s fits exactly", m)
	}
}

func TestFitModelFewPoints(t *testing.T) {
	// One point: the constant, no cross-validation.
	m, err := FitModel([]float64{4}, []float64{7})
	if err != nil || m.String() != "7" || !math.IsNaN(m.CVSMAPE) {
		t.Errorf("one point: %s %+v %v", m, m, err)
	}
	// Two and three points: only the constant (a one-term model needs 4),
	// the relative-weighted mean Σ(1/y)/Σ(1/y²): (1/10 + 1/5)/(1/100 +
	// 1/25) = 6, (1/12 + 1/6 + 1/3)/(1/144 + 1/36 + 1/9) = 4.
	m, _ = FitModel([]float64{1, 2}, []float64{10, 5})
	if len(m.Terms) != 0 || math.Abs(m.Constant-6) > 1e-12 {
		t.Errorf("two points: %s", m)
	}
	m, _ = FitModel([]float64{1, 2, 4}, []float64{12, 6, 3})
	if len(m.Terms) != 0 || math.Abs(m.Constant-4) > 1e-12 {
		t.Errorf("three points: %s", m)
	}
	// Four points: two coefficients at most (one term, or the p·y form
	// (c0 + c1*t)/p), even for a two-term law.
	ps := []float64{2, 4, 6, 8}
	y := make([]float64, 4)
	for i, p := range ps {
		y[i] = progLaw(p)
	}
	m, _ = FitModel(ps, y)
	if coefs := len(m.Terms) + map[bool]int{true: 1}[m.Constant != 0]; coefs != 2 {
		t.Errorf("four points: %s", m)
	}
	// Parameter values below 1: no log terms.
	m, _ = FitModel([]float64{0.25, 0.5, 1, 2, 4}, []float64{4, 2, 1, 0.5, 0.25})
	wantModel(t, "below 1", m, 0, []Term{{Exp: -1}}, []float64{1}, 1e-9)
	// All parameter values equal: nothing but the constant can be fitted.
	// (the relative-weighted mean of 1..5: Σ1/k / Σ1/k² = (137/60)/(5269/3600)).
	m, _ = FitModel([]float64{4, 4, 4, 4, 4}, []float64{1, 2, 3, 4, 5})
	if len(m.Terms) != 0 || math.Abs(m.Constant-(137.0/60)/(5269.0/3600)) > 1e-12 {
		t.Errorf("equal p: %s", m)
	}
}

func TestFitModelErrors(t *testing.T) {
	_, err := FitModel([]float64{1, 2}, []float64{1})
	wantErr(t, "lengths", err, "2 parameter values", "1 measurements")
	_, err = FitModel(nil, nil)
	wantErr(t, "empty", err, "no measurement")
	_, err = FitModel([]float64{1, 0}, []float64{1, 1})
	wantErr(t, "p = 0", err, "> 0")
	_, err = FitModel([]float64{1, 2}, []float64{1, math.NaN()})
	wantErr(t, "NaN", err, "not a finite number")
}

func TestAmdahlAndKarpFlatt(t *testing.T) {
	// Exact Amdahl data: T = 100*(0.1 + 0.9/p).
	ps := []float64{1, 2, 4, 8}
	ts := make([]float64, len(ps))
	for i, p := range ps {
		ts[i] = 100 * (0.1 + 0.9/p)
	}
	f, t1, ok := Amdahl(ps, ts)
	if !ok {
		t.Fatal("no fit")
	}
	near(t, "serial fraction", f, 0.1)
	near(t, "T1", t1, 100)
	// Karp-Flatt recovers the serial fraction of exact Amdahl data.
	for i, p := range ps[1:] {
		near(t, "karp-flatt", KarpFlatt(ts[0]/ts[i+1], p), 0.1)
	}
	near(t, "karp-flatt ideal", KarpFlatt(8, 8), 0)
	near(t, "karp-flatt by hand", KarpFlatt(2, 4), (0.5-0.25)/0.75)
	for _, c := range [][2]float64{{2, 1}, {2, 0.5}, {0, 4}, {math.NaN(), 4}, {math.Inf(1), 4}} {
		if !math.IsNaN(KarpFlatt(c[0], c[1])) {
			t.Errorf("KarpFlatt(%v, %v) defined", c[0], c[1])
		}
	}
	if _, _, ok := Amdahl([]float64{4, 4}, []float64{1, 2}); ok {
		t.Error("Amdahl with one distinct p")
	}
	if _, _, ok := Amdahl([]float64{4}, []float64{1}); ok {
		t.Error("Amdahl with one point")
	}
	if !strings.Contains(modelExponentsParam(), "11/4") {
		t.Error("exponents")
	}
}
