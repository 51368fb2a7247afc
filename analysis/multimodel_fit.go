package analysis

import (
	"math"
)

// multiCand is a chosen column subset with its coefficients.
type multiCand struct {
	cols []MultiTerm
	h    hypothesis
	crit float64
	fits int // hypotheses fitted by the search
}

// multiNegConst is how negative the constant of a two-column hypothesis
// may be, as a fraction of the smallest |y|: a sum of costs has c0 ≥ 0,
// and a small negative c0 is noise, but a large one cancels the terms
// inside the measured range (a fit to noise that extrapolates badly).
const multiNegConst = 0.25

// multiSearch fits c0 plus every subset of one or two columns and
// returns the best by the leave-one-out criterion that stays positive:
// the first in the order c0, one column, two columns (by column index)
// to beat the best before it by modelTieTolerance. A hypothesis whose
// lower bound (searchBounds) cannot beat the best so far is not fitted.
func multiSearch(pts [][]float64, ys []float64, cols []MultiTerm) multiCand {
	return multiSearchWith(pts, ys, cols, true)
}

// multiSearchWith is multiSearch, fitting every hypothesis when prune is
// false (the straightforward search the bounds must agree with).
func multiSearchWith(pts [][]float64, ys []float64, cols []MultiTerm, prune bool) multiCand {
	s := newMultiSearcher(pts, ys, cols)
	var bounds *searchBounds
	if prune {
		bounds = newSearchBounds(s.vals, s.sw, ys, s.floor, s.b.m.coefPenalty)
	}
	s.try(nil)
	for i := range cols {
		if bounds == nil || !bounds.skip(i, -1, s.best.crit-modelTieTolerance) {
			s.try([]int{i})
		}
	}
	idx := make([]int, 2)
	for i := range cols {
		for j := i + 1; j < len(cols); j++ {
			if bounds == nil || !bounds.skip(i, j, s.best.crit-modelTieTolerance) {
				idx[0], idx[1] = i, j
				s.try(idx)
			}
		}
	}
	if s.best.cols == nil {
		s.best.h, _ = multiHypothesis(pts, nil)
	}
	return s.best
}

// multiSearcher is the state of one search: the series, its weights, the
// columns' values at its points and the best hypothesis so far.
type multiSearcher struct {
	pts                 [][]float64
	ys, sw              []float64
	maxAbs, floor, minY float64
	cols                []MultiTerm
	vals                [][]float64 // each column at the points
	b                   *modelBasis
	f                   *lsFit
	q, buf              []float64
	best                multiCand
}

// newMultiSearcher prepares the search of ys at pts over cols.
func newMultiSearcher(pts [][]float64, ys []float64, cols []MultiTerm) *multiSearcher {
	n := len(ys)
	s := &multiSearcher{pts: pts, ys: ys, cols: cols, b: &modelBasis{m: defaultModelMethod},
		f: newLSFit(n, 4), q: make([]float64, 4*n), buf: make([]float64, 3*n), minY: math.Inf(1)}
	s.sw, s.maxAbs, s.floor = s.b.scaled(ys)
	for _, v := range ys {
		s.minY = min(s.minY, math.Abs(v))
	}
	s.vals = columnValues(pts, cols)
	s.best = multiCand{crit: math.Inf(1)}
	return s
}

// columnValues returns each column at the points, as MultiTerm.Eval
// computes it (the same products in the same order), evaluating each term
// once per distinct coordinate value.
func columnValues(pts [][]float64, cols []MultiTerm) [][]float64 {
	if len(pts) == 0 {
		return make([][]float64, len(cols))
	}
	dims := len(pts[0])
	at := make([][]int, dims) // at[k][i]: the index of pts[i][k] among the distinct values
	distinct := make([][]float64, dims)
	for k := range dims {
		index := map[float64]int{}
		at[k] = make([]int, len(pts))
		for i, pt := range pts {
			j, ok := index[pt[k]]
			if !ok {
				j = len(distinct[k])
				index[pt[k]] = j
				distinct[k] = append(distinct[k], pt[k])
			}
			at[k][i] = j
		}
	}
	terms := make([]map[Term][]float64, dims)
	for k := range terms {
		terms[k] = map[Term][]float64{}
	}
	out := make([][]float64, len(cols))
	for c, col := range cols {
		out[c] = make([]float64, len(pts))
		for i := range out[c] {
			out[c][i] = 1
		}
		for k, t := range col {
			if t == (Term{}) {
				continue
			}
			tv, ok := terms[k][t]
			if !ok {
				tv = make([]float64, len(distinct[k]))
				for j, v := range distinct[k] {
					tv[j] = t.Eval(v)
				}
				terms[k][t] = tv
			}
			for i := range out[c] {
				out[c][i] *= tv[at[k][i]]
			}
		}
	}
	return out
}

// try fits c0 plus the columns idx and makes it the best when it passes
// the checks and beats the best by modelTieTolerance.
func (s *multiSearcher) try(idx []int) {
	n := len(s.ys)
	h, ok := cachedHypothesis(n, s.vals, idx, s.buf)
	if !ok || n < h.k+2 {
		return
	}
	s.best.fits++
	f := s.f
	if !h.solve(s.ys, s.sw, f, s.q) || !s.b.admissible(&h, f, s.ys, s.maxAbs) {
		return
	}
	if h.k == 3 && ((f.coef[1] < 0) != (f.coef[2] < 0) || f.coef[0] < -multiNegConst*s.minY) {
		return // terms that cancel each other: a fit to noise
	}
	crit := s.b.criterion(&h, f, s.sw, s.floor)
	if !(crit < s.best.crit-modelTieTolerance) {
		return
	}
	var sub []MultiTerm
	for _, i := range idx {
		sub = append(sub, s.cols[i])
	}
	if !multiPositive(s.pts, sub, f.coef[:h.k], s.maxAbs) {
		return
	}
	h.x = append([]float64(nil), h.x...)
	s.best = multiCand{cols: sub, h: h, crit: crit, fits: s.best.fits}
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
	all, one := make([]float64, len(top)), make([]float64, len(top))
	for s := 1; s <= 20; s++ {
		f := math.Exp2(float64(s))
		for k := range top {
			all[k] = top[k] * f
			copy(one, top)
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
