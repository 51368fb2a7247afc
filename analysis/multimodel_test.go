package analysis

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// multiLaw is a generated two-parameter law T = c0 + c1*f(p)*g(n) + c2*h(p).
type multiLaw struct {
	f, g, h    Term
	c0, c1, c2 float64
}

func (l multiLaw) eval(p, n float64) float64 {
	return l.c0 + l.c1*l.f.Eval(p)*l.g.Eval(n) + l.c2*l.h.Eval(p)
}

// multiGrid is the 5×5 grid of the generated instances.
var (
	multiPs = []float64{2, 4, 8, 16, 32}
	multiNs = []float64{16, 32, 64, 128, 256}
)

// randomMultiLaw draws a law: f among p^-1, p^(-1/2), p^(-2/3); g among n,
// n^(3/2), n*log2(n), n^2; h among log2(p), p^(1/2), p; coefficients such
// that the product term is 1000 at the grid's first point and h(p) costs
// 20-80% of the product term at the largest p and n.
func randomMultiLaw(r *rand.Rand) multiLaw {
	fs := []Term{{Exp: -1}, {Exp: -0.5}, {Exp: -2.0 / 3}}
	gs := []Term{{Exp: 1}, {Exp: 1.5}, {Exp: 1, Log: 1}, {Exp: 2}}
	hs := []Term{{Log: 1}, {Exp: 0.5}, {Exp: 1}}
	l := multiLaw{f: fs[r.IntN(len(fs))], g: gs[r.IntN(len(gs))], h: hs[r.IntN(len(hs))]}
	l.c1 = 1000 / (l.f.Eval(multiPs[0]) * l.g.Eval(multiNs[0]))
	pm, nm := multiPs[len(multiPs)-1], multiNs[len(multiNs)-1]
	l.c2 = (0.2 + 0.6*r.Float64()) * l.c1 * l.f.Eval(pm) * l.g.Eval(nm) / l.h.Eval(pm)
	l.c0 = r.Float64() * 100
	return l
}

// multiInstance generates the measurements of l: every grid point with
// reps repetitions, each times (1 + ε), ε normal with standard deviation sd.
func multiInstance(r *rand.Rand, l multiLaw, reps int, sd float64) (x, y [][]float64) {
	for _, p := range multiPs {
		for _, n := range multiNs {
			var v []float64
			for range reps {
				v = append(v, l.eval(p, n)*(1+sd*r.NormFloat64()))
			}
			x, y = append(x, []float64{p, n}), append(y, v)
		}
	}
	return x, y
}

// recovered says whether m's terms are exactly f*g and h (any order).
func recovered(m MultiModel, l multiLaw) bool {
	if len(m.Terms) != 2 {
		return false
	}
	want := map[string]bool{fmt.Sprint(MultiTerm{l.f, l.g}): true, fmt.Sprint(MultiTerm{l.h, {}}): true}
	for _, t := range m.Terms {
		if !want[fmt.Sprint(t)] {
			return false
		}
		delete(want, fmt.Sprint(t))
	}
	return true
}

// TestMultiModelRecovery: over 200 random instances of T = c0 +
// c1*f(p)*g(n) + c2*h(p) on a 5×5 grid with 3-5 repetitions and 1-5%
// noise, the chosen terms are f*g and h in at least 95% of them, and the
// 95% prediction interval at 4× the largest p (largest n) covers the true
// value in at least 90%.
func TestMultiModelRecovery(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 2))
	const instances = 200
	var ok, covered int
	for i := range instances {
		l := randomMultiLaw(r)
		x, y := multiInstance(r, l, 3+r.IntN(3), 0.01+0.04*r.Float64())
		m, err := FitMultiModel([]string{"p", "n"}, x, y, ReduceMedian)
		if err != nil {
			t.Fatal(err)
		}
		if recovered(m, l) {
			ok++
		} else if testing.Verbose() {
			t.Logf("instance %d: f=%s g=%s h=%s: chose %s", i, l.f, l.g, l.h, m)
		}
		at := []float64{4 * multiPs[len(multiPs)-1], multiNs[len(multiNs)-1]}
		if lo, hi := m.PredictionInterval(at, 0.95); lo <= l.eval(at[0], at[1]) && l.eval(at[0], at[1]) <= hi {
			covered++
		}
	}
	rate, cover := float64(ok)/instances, float64(covered)/instances
	t.Logf("exponent recovery %d/%d = %.3f; 95%% PI coverage at 4× the largest p %d/%d = %.3f", ok, instances, rate, covered, instances, cover)
	if rate < 0.95 {
		t.Errorf("recovery rate %.3f < 0.95", rate)
	}
	if cover < 0.90 {
		t.Errorf("coverage %.3f < 0.90", cover)
	}
}

// benchRegions generates 1000 regions' measurements on the 5×5 grid with
// 5 repetitions (random laws as TestMultiModelRecovery's, 3% noise).
func benchRegions() (laws []multiLaw, x [][][]float64, y [][][]float64) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 1000 {
		l := randomMultiLaw(r)
		xi, yi := multiInstance(r, l, 5, 0.03)
		laws, x, y = append(laws, l), append(x, xi), append(y, yi)
	}
	return laws, x, y
}

// BenchmarkMultiModel1000 models 1,000 regions over a 5×5 grid with 5
// repetitions (two parameters), spread over the processors as
// Scalability spreads its regions.
func BenchmarkMultiModel1000(b *testing.B) {
	_, x, y := benchRegions()
	for b.Loop() {
		parallelRows(len(x), func(i int) {
			if _, err := FitMultiModel([]string{"p", "n"}, x[i], y[i], ReduceMedian); err != nil {
				b.Error(err)
			}
		})
	}
}

// BenchmarkSingleModel1000 is the reference: the single-parameter fit
// (FitModel) of the same 1,000 regions along p at the largest n (5 points,
// median of 5 repetitions), spread the same way.
func BenchmarkSingleModel1000(b *testing.B) {
	_, x, y := benchRegions()
	for b.Loop() {
		parallelRows(len(x), func(i int) {
			var ps, ys []float64
			for j, pt := range x[i] {
				if pt[1] == multiNs[len(multiNs)-1] {
					ps, ys = append(ps, pt[0]), append(ys, medianOf(y[i][j]))
				}
			}
			if _, err := FitModel(ps, ys); err != nil {
				b.Error(err)
			}
		})
	}
}

// TestMultiModelFourParameters: four parameters on a 4⁴ grid stay within
// the column bound and still find the product term of T = 10 + a*b*c*d/100.
func TestMultiModelFourParameters(t *testing.T) {
	vals := []float64{2, 4, 8, 16}
	var x, y [][]float64
	for _, a := range vals {
		for _, b := range vals {
			for _, c := range vals {
				for _, d := range vals {
					x, y = append(x, []float64{a, b, c, d}), append(y, []float64{10 + a*b*c*d/100})
				}
			}
		}
	}
	m, err := FitMultiModel([]string{"a", "b", "c", "d"}, x, y, ReduceMedian)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Terms) != 1 || m.Terms[0].String(m.Names) != "a * b * c * d" || m.MinReps != 1 {
		t.Errorf("four parameters: %s", m)
	}
}
