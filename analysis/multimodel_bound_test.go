package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// searchCase is one series of the search tests: reduced values at points.
type searchCase struct {
	name  string
	names []string
	pts   [][]float64
	ys    []float64
}

// gridCase evaluates law on the grid ps × ns, each value times (1 + sd·ε),
// ε standard normal.
func gridCase(r *rand.Rand, name string, ps, ns []float64, sd float64, law func(p, n float64) float64) searchCase {
	c := searchCase{name: name, names: []string{"p", "n"}}
	for _, p := range ps {
		for _, n := range ns {
			c.pts = append(c.pts, []float64{p, n})
			c.ys = append(c.ys, law(p, n)*(1+sd*r.NormFloat64()))
		}
	}
	return c
}

// searchCases returns the series the pruned search is checked on: the
// generated laws of TestMultiModelRecovery with 0-5% noise, and series
// that are hard on the bounds' rounding: noise-free or nearly so, nearly
// constant, spanning twelve decades, crossing zero, with zeros, on
// parameter values so close together that every column is nearly
// collinear with the constant, and three parameters.
func searchCases() []searchCase {
	r := rand.New(rand.NewPCG(19, 19))
	var out []searchCase
	for i := range 60 {
		l := randomMultiLaw(r)
		sd := []float64{0, 1e-9, 0.01, 0.03, 0.05}[i%5]
		out = append(out, gridCase(r, fmt.Sprintf("law %d (noise %g)", i, sd), multiPs, multiNs, sd, l.eval))
	}
	l := randomMultiLaw(r)
	out = append(out,
		gridCase(r, "nearly constant", multiPs, multiNs, 1e-13, func(p, n float64) float64 { return 7 }),
		gridCase(r, "constant", multiPs, multiNs, 0, func(p, n float64) float64 { return 7 }),
		gridCase(r, "twelve decades", []float64{1, 10, 100, 1000, 10000}, []float64{1, 10, 100, 1000, 10000}, 0.02,
			func(p, n float64) float64 { return 1e-3 + n*n*n/p }),
		gridCase(r, "crosses zero", multiPs, multiNs, 0.01, func(p, n float64) float64 { return l.eval(p, n) - l.eval(8, 64) }),
		gridCase(r, "close values", []float64{100, 101, 102, 103, 104}, []float64{1000, 1001, 1002, 1003, 1004}, 1e-6,
			func(p, n float64) float64 { return 5 + n*math.Log2(p) }),
		gridCase(r, "tiny values", multiPs, multiNs, 0.02, func(p, n float64) float64 { return 1e-300 * l.eval(p, n) }),
	)
	zeros := gridCase(r, "zeros", multiPs, multiNs, 0.03, l.eval)
	for i := 0; i < len(zeros.ys); i += 7 {
		zeros.ys[i] = 0
	}
	three := searchCase{name: "three parameters", names: []string{"a", "b", "c"}}
	for _, a := range []float64{1, 2, 4, 8, 16} {
		for _, b := range []float64{1, 2, 4, 8, 16} {
			for _, c := range []float64{2, 4, 8, 16, 32} {
				three.pts = append(three.pts, []float64{a, b, c})
				three.ys = append(three.ys, (3+a*b*math.Log2(c)+20*math.Sqrt(c))*(1+0.02*r.NormFloat64()))
			}
		}
	}
	return append(out, zeros, three)
}

// TestSearchBoundsBelowFits checks the closed form of searchBounds against
// least-squares fits of every one- and two-column hypothesis: where it
// gives a bound, its wRSS equals the fit's within 1e-9 of Σ(w*y)², and
// the hypothesis is not skipped for a limit just above its criterion.
func TestSearchBoundsBelowFits(t *testing.T) {
	cases := searchCases()
	var worst float64
	for _, c := range append(cases[:10], cases[60:]...) {
		cols := multiColumns(c.names, c.pts, c.ys)
		s := newMultiSearcher(c.pts, c.ys, cols)
		bd := newSearchBounds(s.vals, s.sw, c.ys, s.floor, s.b.m.coefPenalty)
		var all float64
		for i, v := range c.ys {
			all += (s.sw[i] * v) * (s.sw[i] * v)
		}
		n, checked := len(c.ys), 0
		for a := range cols {
			for b := a; b < len(cols); b++ {
				idx := []int{a, b}
				if a == b {
					idx = idx[:1]
				}
				h, ok := cachedHypothesis(n, s.vals, idx, s.buf)
				if !ok || !h.solve(c.ys, s.sw, s.f, s.q) {
					continue
				}
				second := -1
				if len(idx) == 2 {
					second = b
				}
				rss, ok := bd.rss(a, second)
				if !ok {
					continue
				}
				var fit float64
				for i, r := range s.f.resid[:n] {
					fit += (s.sw[i] * r) * (s.sw[i] * r)
				}
				worst = max(worst, math.Abs(rss-fit)/all)
				if math.Abs(rss-fit) > 1e-9*all {
					t.Fatalf("%s: columns %v: closed-form wRSS %g, fitted %g", c.name, idx, rss, fit)
				}
				crit := s.b.criterion(&h, s.f, s.sw, s.floor)
				if bd.skip(a, second, crit+1e-9) {
					t.Fatalf("%s: columns %v: skipped below its criterion %g", c.name, idx, crit)
				}
				checked++
			}
		}
		if checked == 0 && c.name != "constant" {
			t.Errorf("%s: no hypothesis had a bound", c.name)
		}
	}
	t.Logf("largest |closed-form − fitted wRSS| / Σ(w*y)²: %.3g", worst)
}

// TestMultiSearchPrunedAgrees: on every search case, the search that
// skips hypotheses by their bounds chooses the same columns with the same
// criterion and coefficients as the one that fits them all, and on the
// noisy generated laws it fits at most a tenth of them.
func TestMultiSearchPrunedAgrees(t *testing.T) {
	var fast, slow int
	for _, c := range searchCases() {
		cols := multiColumns(c.names, c.pts, c.ys)
		pruned, plain := multiSearchWith(c.pts, c.ys, cols, true), multiSearchWith(c.pts, c.ys, cols, false)
		mp, mf := describeMulti(c.names, c.pts, c.ys, pruned), describeMulti(c.names, c.pts, c.ys, plain)
		if fmt.Sprint(mp.Terms) != fmt.Sprint(mf.Terms) || pruned.crit != plain.crit {
			t.Errorf("%s: pruned search chose %s (criterion %g), plain %s (%g)", c.name, mp, pruned.crit, mf, plain.crit)
			continue
		}
		want := append([]float64{mf.Constant}, mf.Coefs...)
		for i, v := range append([]float64{mp.Constant}, mp.Coefs...) {
			if math.Abs(v-want[i]) > 1e-9*math.Abs(want[i]) {
				t.Errorf("%s: coefficient %d: pruned %g, plain %g", c.name, i, v, want[i])
			}
		}
		if pruned.fits > plain.fits {
			t.Errorf("%s: pruned search fitted %d hypotheses, plain %d", c.name, pruned.fits, plain.fits)
		}
		if c.name[:3] == "law" && c.name[len(c.name)-3:] != "0)" && c.name[len(c.name)-5:] != "e-09)" {
			fast, slow = fast+pruned.fits, slow+plain.fits
		}
	}
	t.Logf("noisy generated laws: the pruned search fitted %d hypotheses, the plain one %d", fast, slow)
	if fast*10 > slow {
		t.Errorf("pruned search fitted %d of %d hypotheses on the noisy laws, want at most a tenth", fast, slow)
	}
}
