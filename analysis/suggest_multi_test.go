package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// suggestStudy generates T = 50 + 3·n/p + 40·log2(p) on p = 2..32 × n =
// 16..256 with 3 repetitions at 2% noise, leaving out the points in skip,
// and fits it.
func suggestStudy(t *testing.T, seed uint64, skip map[[2]float64]bool) (MultiModel, [][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	var x, reps [][]float64
	var ys []float64
	for _, p := range []float64{2, 4, 8, 16, 32} {
		for _, n := range []float64{16, 32, 64, 128, 256} {
			if skip[[2]float64{p, n}] {
				continue
			}
			var v []float64
			for range 3 {
				v = append(v, (50+3*n/p+40*math.Log2(p))*(1+0.02*r.NormFloat64()))
			}
			sort.Float64s(v)
			x, reps, ys = append(x, []float64{p, n}), append(reps, v), append(ys, v[1])
		}
	}
	m, err := FitMultiModel([]string{"p", "n"}, x, reps, ReduceMedian)
	if err != nil {
		t.Fatal(err)
	}
	return m, x, ys
}

// bruteHalf returns the 95% prediction half-width at target of m fitted to
// ys at x, after one more run at each of extra, from the weighted normal
// equations inverted by gonum (weights 1/y², the model's value at the new
// runs) and the residual variance recomputed from the residuals.
func bruteHalf(m MultiModel, x [][]float64, ys []float64, extra [][]float64, target []float64) float64 {
	cols := append([]MultiTerm{make(MultiTerm, len(m.Names))}, m.Terms...)
	k := len(cols)
	a := mat.NewDense(k, k, nil)
	add := func(pt []float64, w float64) {
		for i := range k {
			for j := range k {
				a.Set(i, j, a.At(i, j)+w*cols[i].Eval(pt)*cols[j].Eval(pt))
			}
		}
	}
	var s2 float64
	for i, pt := range x {
		add(pt, 1/(ys[i]*ys[i]))
		r := (ys[i] - m.Eval(pt)) / ys[i]
		s2 += r * r / float64(len(ys)-k)
	}
	for _, pt := range extra {
		add(pt, 1/(m.Eval(pt)*m.Eval(pt)))
	}
	var inv mat.Dense
	if err := inv.Inverse(a); err != nil {
		return math.NaN()
	}
	xt := mat.NewVecDense(k, nil)
	for i, c := range cols {
		xt.SetVec(i, c.Eval(target))
	}
	lever := mat.Inner(xt, &inv, xt)
	y := m.Eval(target)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(ys) - k)}.Quantile(0.975)
	return q * math.Sqrt(m.RepNoise*m.RepNoise*y*y+s2*lever)
}

// TestSuggestMultiMeasurements: on a generated two-parameter study with
// two grid points left out, the three runs suggested for the prediction at
// p = 128, n = 256 are the set of three candidates (the unmeasured points
// of {2, ..., 128} × {16, ..., 256}, listed here by hand) whose half-width,
// recomputed by brute force over all 220 sets with gonum, is the smallest;
// each half-width after 1, 2 and 3 runs (prediction and confidence), time
// and cost (time × p) agree.
func TestSuggestMultiMeasurements(t *testing.T) {
	skip := map[[2]float64]bool{{16, 128}: true, {8, 16}: true}
	m, x, ys := suggestStudy(t, 11, skip)
	if len(m.Terms) == 0 {
		t.Fatalf("the study's model is a constant: %s", m)
	}
	target := []float64{128, 256}
	cands := [][]float64{{8, 16}, {16, 128}}
	for _, p := range []float64{64, 128} {
		for _, n := range []float64{16, 32, 64, 128, 256} {
			cands = append(cands, []float64{p, n})
		}
	}
	const n = 3
	s, err := SuggestMultiMeasurements(m, x, target, n)
	if err != nil {
		t.Fatal(err)
	}
	if s.Candidates != len(cands) || !s.Exhaustive || len(s.Points) != n {
		t.Fatalf("%d candidates (want %d), exhaustive %v, %d points", s.Candidates, len(cands), s.Exhaustive, len(s.Points))
	}
	best, bestSet, second := math.Inf(1), "", math.Inf(1)
	for a := range cands {
		for b := a + 1; b < len(cands); b++ {
			for c := b + 1; c < len(cands); c++ {
				set := [][]float64{cands[a], cands[b], cands[c]}
				h := bruteHalf(m, x, ys, set, target)
				switch {
				case h < best:
					best, bestSet, second = h, setKey(set), best
				case h < second:
					second = h
				}
			}
		}
	}
	t.Logf("model %s; suggested %v (half-width %.6g → %.6g); brute force %s %.6g, next set %.6g", m, s.Points, s.HalfBefore, s.HalfAfter[n-1], bestSet, best, second)
	if second-best < 1e-6*best {
		t.Fatalf("the brute-force optimum is not unique (%g, %g): choose another seed", best, second)
	}
	if setKey(s.Points) != bestSet {
		t.Errorf("suggested %v, brute force %s", s.Points, bestSet)
	}
	if h := bruteHalf(m, x, ys, nil, target); math.Abs(s.HalfBefore-h) > 1e-9*h {
		t.Errorf("half-width now %g, brute force %g", s.HalfBefore, h)
	}
	for i := range n {
		if h := bruteHalf(m, x, ys, s.Points[:i+1], target); math.Abs(s.HalfAfter[i]-h) > 1e-9*h {
			t.Errorf("half-width after %d runs %g, brute force %g", i+1, s.HalfAfter[i], h)
		}
		h := bruteHalf(m, x, ys, s.Points[:i+1], target)
		conf := math.Sqrt(max(h*h-s.HalfBefore*s.HalfBefore+s.ConfBefore*s.ConfBefore, 0)) // the same noise part
		if math.Abs(s.ConfAfter[i]-conf) > 1e-6*s.ConfBefore || !(s.ConfAfter[i] < s.ConfBefore) {
			t.Errorf("confidence half-width after %d runs %g, from the prediction one %g", i+1, s.ConfAfter[i], conf)
		}
		if y := m.Eval(s.Points[i]); s.Time[i] != y || s.Cost[i] != y*s.Points[i][0] {
			t.Errorf("run %v: time %g cost %g, want %g and %g", s.Points[i], s.Time[i], s.Cost[i], y, y*s.Points[i][0])
		}
	}
	if i := s.HalfAfter; !(i[0] >= i[1] && i[1] >= i[2] && i[2] < s.HalfBefore) || math.Abs(s.Reduction-(1-i[2]/s.HalfBefore)) > 1e-12 {
		t.Errorf("half-widths %g then %v, reduction %g", s.HalfBefore, i, s.Reduction)
	}
}

// setKey names a set of points independently of their order.
func setKey(pts [][]float64) string {
	s := make([]string, len(pts))
	for i, p := range pts {
		s[i] = fmt.Sprint(p)
	}
	sort.Strings(s)
	return fmt.Sprint(s)
}

// TestSuggestMultiGreedy: with more sets than multiSuggestMaxSets the runs
// are added one at a time; each half-width still agrees with gonum's, and
// the first run is the best single run by brute force.
func TestSuggestMultiGreedy(t *testing.T) {
	m, x, ys := suggestStudy(t, 12, nil)
	target := []float64{1 << 14, 256} // p axis 2..16384: 9 new values × 5 n
	s, err := SuggestMultiMeasurements(m, x, target, 6)
	if err != nil {
		t.Fatal(err)
	}
	if s.Exhaustive || s.Candidates != 45 || binomial(45, 6) <= multiSuggestMaxSets {
		t.Fatalf("exhaustive %v with %d candidates", s.Exhaustive, s.Candidates)
	}
	var one []float64
	bestOne := math.Inf(1)
	for _, p := range []float64{64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384} {
		for _, n := range []float64{16, 32, 64, 128, 256} {
			if h := bruteHalf(m, x, ys, [][]float64{{p, n}}, target); h < bestOne {
				bestOne, one = h, []float64{p, n}
			}
		}
	}
	if fmt.Sprint(s.Points[0]) != fmt.Sprint(one) {
		t.Errorf("first run %v, best single run by brute force %v", s.Points[0], one)
	}
	for i := range s.Points {
		if h := bruteHalf(m, x, ys, s.Points[:i+1], target); math.Abs(s.HalfAfter[i]-h) > 1e-9*h {
			t.Errorf("half-width after %d runs %g, brute force %g", i+1, s.HalfAfter[i], h)
		}
	}
}

// TestSuggestMultiErrors: bad targets and counts are errors naming them,
// and a grid beyond multiSuggestMaxPoints is refused.
func TestSuggestMultiErrors(t *testing.T) {
	m, x, _ := suggestStudy(t, 13, nil)
	for _, c := range []struct {
		target []float64
		n      int
	}{{[]float64{64}, 1}, {[]float64{64, 256}, 0}, {[]float64{-1, 256}, 1}, {[]float64{math.Inf(1), 256}, 1}} {
		if _, err := SuggestMultiMeasurements(m, x, c.target, c.n); err == nil {
			t.Errorf("target %v count %d: no error", c.target, c.n)
		}
	}
	wide := make([][]float64, 0, 70)
	for i := range 70 {
		wide = append(wide, []float64{float64(2 + i), float64(1000 + i)})
	}
	if _, err := SuggestMultiMeasurements(m, wide, []float64{100, 2000}, 1); err == nil {
		t.Errorf("a grid of 70×70 values: no error")
	}
}
