package analysis

import (
	"math"
)

// multiCand is a chosen column subset with its coefficients.
type multiCand struct {
	cols []MultiTerm
	h    hypothesis
	crit float64
}

// multiNegConst is how negative the constant of a two-column hypothesis
// may be, as a fraction of the smallest |y|: a sum of costs has c0 ≥ 0,
// and a small negative c0 is noise, but a large one cancels the terms
// inside the measured range (a fit to noise that extrapolates badly).
const multiNegConst = 0.25

// multiSearch fits c0 plus every subset of one or two columns and
// returns the best by the leave-one-out criterion that stays positive.
func multiSearch(pts [][]float64, ys []float64, cols []MultiTerm) multiCand {
	n := len(ys)
	b := &modelBasis{m: defaultModelMethod}
	sw, maxAbs, floor := b.scaled(ys)
	minY := math.Inf(1)
	for _, v := range ys {
		minY = min(minY, math.Abs(v))
	}
	f := newLSFit(n, 4)
	q := make([]float64, 4*n)
	best := multiCand{crit: math.Inf(1)}
	vals := make([][]float64, len(cols)) // each column at the points
	for c, col := range cols {
		vals[c] = make([]float64, n)
		for i, pt := range pts {
			vals[c][i] = col.Eval(pt)
		}
	}
	var idx []int
	buf := make([]float64, 3*n)
	try := func(sub []MultiTerm) {
		h, ok := cachedHypothesis(n, vals, idx, buf)
		if !ok || n < h.k+2 || !h.solve(ys, sw, f, q) || !b.admissible(&h, f, ys, maxAbs) {
			return
		}
		if h.k == 3 && ((f.coef[1] < 0) != (f.coef[2] < 0) || f.coef[0] < -multiNegConst*minY) {
			return // terms that cancel each other: a fit to noise
		}
		crit := b.criterion(&h, f, sw, floor)
		if !(crit < best.crit-modelTieTolerance) || !multiPositive(pts, sub, f.coef[:h.k], maxAbs) {
			return
		}
		h.x = append([]float64(nil), h.x...)
		best = multiCand{cols: append([]MultiTerm(nil), sub...), h: h, crit: crit}
	}
	try(nil)
	for i := range cols {
		idx = []int{i}
		try([]MultiTerm{cols[i]})
	}
	for i := range cols {
		for j := i + 1; j < len(cols); j++ {
			idx = []int{i, j}
			try([]MultiTerm{cols[i], cols[j]})
		}
	}
	if best.cols == nil {
		best.h, _ = multiHypothesis(pts, nil)
	}
	return best
}

// cachedHypothesis builds the design matrix [1, vals[idx[0]], ...] of n
// points from the precomputed columns, in buf (n*(len(idx)+1) long at
// least).
func cachedHypothesis(n int, vals [][]float64, idx []int, buf []float64) (hypothesis, bool) {
	k := len(idx) + 1
	h := hypothesis{k: k, x: buf[:n*k], konst: 0}
	for i := range n {
		h.x[i*k] = 1
		for c, j := range idx {
			v := vals[j][i]
			if !defined(v) {
				return hypothesis{}, false
			}
			h.x[i*k+c+1] = v
		}
	}
	return h, true
}

// multiHypothesis builds the design matrix [1, cols...] at pts.
func multiHypothesis(pts [][]float64, cols []MultiTerm) (hypothesis, bool) {
	n, k := len(pts), len(cols)+1
	h := hypothesis{k: k, x: make([]float64, n*k), konst: 0}
	for i, pt := range pts {
		h.x[i*k] = 1
		for c, t := range cols {
			v := t.Eval(pt)
			if !defined(v) {
				return hypothesis{}, false
			}
			h.x[i*k+c+1] = v
		}
	}
	return h, true
}

// multiPositive says whether the model is ≥ −1e-3*max|y| at the measured
// points and ≥ 0 where it predicts: every coordinate, and each one alone,
// scaled by 2^s for s = 1..20 from the largest point.
func multiPositive(pts [][]float64, cols []MultiTerm, coef []float64, maxAbs float64) bool {
	if maxAbs == 0 {
		return true
	}
	eval := func(x []float64) float64 {
		v := coef[0]
		for c, t := range cols {
			v += coef[c+1] * t.Eval(x)
		}
		return v
	}
	top := make([]float64, len(pts[0]))
	for _, pt := range pts {
		if !(eval(pt) >= -1e-3*maxAbs) {
			return false
		}
		for k, v := range pt {
			top[k] = max(top[k], v)
		}
	}
	for s := 1; s <= 20; s++ {
		f := math.Exp2(float64(s))
		all := make([]float64, len(top))
		for k := range top {
			all[k] = top[k] * f
			one := append([]float64(nil), top...)
			one[k] *= f
			if !(eval(one) >= -1e-9*maxAbs) {
				return false
			}
		}
		if !(eval(all) >= -1e-9*maxAbs) {
			return false
		}
	}
	return true
}

// describeMulti refits the chosen candidate and fills the model's errors
// and what its prediction intervals need.
func describeMulti(names []string, pts [][]float64, ys []float64, c multiCand) MultiModel {
	n := len(ys)
	if c.h.k == 0 {
		c.h, _ = multiHypothesis(pts, nil)
	}
	b := &modelBasis{m: defaultModelMethod}
	var maxAbs float64
	for _, v := range ys {
		maxAbs = max(maxAbs, math.Abs(v))
	}
	sw := b.weights(ys, maxAbs)
	f := newLSFit(n, c.h.k)
	c.h.solve(ys, sw, f, make([]float64, c.h.k*n))
	m := MultiModel{Names: names, Constant: f.coef[0], Terms: c.cols, Coefs: append([]float64(nil), f.coef[1:c.h.k]...),
		Points: n, Criterion: c.crit, cols: append([]MultiTerm{make(MultiTerm, len(names))}, c.cols...)}
	k := c.h.k
	m.cov = make([]float64, k*k)
	for a := range k {
		for e := range k {
			var s float64
			for l := max(a, e); l < k; l++ {
				s += f.rinv[a*k+l] * f.rinv[e*k+l]
			}
			m.cov[a*k+e] = s / (f.scale[a] * f.scale[e])
		}
	}
	var mean, tss, wrss float64
	for _, v := range ys {
		mean += v / float64(n)
	}
	for i, v := range ys {
		r := f.resid[i]
		m.RSS += r * r
		wrss += (sw[i] * r) * (sw[i] * r)
		m.SMAPE += smapeTerm(v-r, v) / float64(n)
		tss += (v - mean) * (v - mean)
	}
	m.AdjR2 = math.NaN()
	if n > k {
		m.s2 = wrss / float64(n-k)
		if tss > 0 {
			m.AdjR2 = 1 - (m.RSS/float64(n-k))/(tss/float64(n-1))
		}
	}
	return m
}
