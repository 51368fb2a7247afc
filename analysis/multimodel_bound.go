package analysis

import (
	"math"
)

// Lower bounds of the pair search's criterion.
//
// The criterion of c0 + c1*u + c2*v is n*ln(max(PRESS, floor)/n) plus the
// coefficient penalty, and PRESS = Σ (w_i*r_i/(1 − h_ii))² is at least the
// weighted residual sum of squares wRSS = Σ (w_i*r_i)², since 0 ≤ h_ii < 1.
// wRSS has a closed form in a few inner products that do not depend on the
// other columns of the hypothesis: with q0 the weighted constant column
// normalized, û and v̂ the weighted columns made orthogonal to q0 and
// normalized, t the weighted values made orthogonal to q0, ρ = <û, v̂>,
// z_u = <û, t> and z_v = <v̂, t>,
//
//	wRSS = |t|² − z_u² − (z_v − ρ·z_u)²/(1 − ρ²)
//
// (for one column: |t|² − z_u²). Each column is prepared once per series,
// so the bound of a pair costs one inner product of n values instead of a
// least-squares fit. A hypothesis whose bound is no better than the best
// criterion so far (less modelTieTolerance) would be rejected by the
// search, so it is not fitted: the search makes the same choice.

// boundSlack and boundAbsSlack make every wRSS bound smaller by
// boundSlack·|t|² + boundAbsSlack·Σ(w_i*y_i)²: for the columns boundGuard
// lets through, the rounding of the inner products and of the fit's own
// residuals stays below 1e-12 of that sum, so the bound stays below the
// wRSS the fit computes.
const (
	boundSlack    = 1e-7
	boundAbsSlack = 1e-12
)

// boundGuard is the least part of its norm (squared) that a column keeps
// when made orthogonal to q0, and the least 1 − ρ² of a pair, for which a
// bound is computed; for more nearly collinear columns the closed form
// loses digits, and the hypothesis is fitted instead (−Inf bound).
const boundGuard = 1e-3

// searchBounds holds the prepared columns of one series.
type searchBounds struct {
	n     int
	ok    bool       // false: no bound (every hypothesis is fitted)
	tt    float64    // |t|²
	slack float64    // what is subtracted from every wRSS bound
	floor float64    // the criterion's floor on PRESS
	pen   float64    // coefficient penalty per column
	u     []float64  // û of column c at u[c*n:(c+1)*n]
	z     []float64  // z_c = <û_c, t>
	use   []bool     // column c has a bound
	limit float64    // the criterion thr was computed for
	thr   [2]float64 // the wRSS of criterion limit with 1 and 2 columns
}

// newSearchBounds prepares the columns vals (each n values) for the
// values ys with square-root weights sw.
func newSearchBounds(vals [][]float64, sw, ys []float64, floor, pen float64) *searchBounds {
	n := len(ys)
	s := &searchBounds{n: n, floor: floor, pen: pen, u: make([]float64, n*len(vals)),
		z: make([]float64, len(vals)), use: make([]bool, len(vals)), limit: math.NaN()}
	q0 := make([]float64, n) // the weights over their largest: only directions matter
	var big float64
	for _, w := range sw {
		big = max(big, w)
	}
	for i := range n {
		q0[i] = sw[i] / big
	}
	if !normalize(q0) {
		return s
	}
	t := make([]float64, n)
	for i := range n {
		t[i] = sw[i] * ys[i]
		if !defined(t[i]) {
			return s
		}
	}
	all := dot(t, t)
	orthogonalize(t, q0)
	s.tt = dot(t, t)
	s.slack = boundSlack*s.tt + boundAbsSlack*all
	s.ok = true
	for c, col := range vals {
		u := s.u[c*n : (c+1)*n]
		var norm0 float64
		for i := range n {
			u[i] = sw[i] / big * col[i]
			norm0 += u[i] * u[i]
		}
		if !defined(norm0) || norm0 == 0 {
			continue
		}
		orthogonalize(u, q0)
		if !(dot(u, u) >= boundGuard*norm0) || !normalize(u) {
			continue
		}
		s.use[c], s.z[c] = true, dot(u, t)
	}
	return s
}

// orthogonalize removes from v its component along the unit vector q,
// twice (the second pass removes what rounding left of it).
func orthogonalize(v, q []float64) {
	for range 2 {
		d := dot(q, v)
		for i := range v {
			v[i] -= d * q[i]
		}
	}
}

// normalize scales v to unit length; false when its length is 0 or not
// finite.
func normalize(v []float64) bool {
	norm := math.Sqrt(dot(v, v))
	if !(norm > 0) || math.IsInf(norm, 0) {
		return false
	}
	for i := range v {
		v[i] /= norm
	}
	return true
}

// dot returns Σ a_i*b_i.
func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// skip says whether the hypothesis c0 + c1*col a (+ c2*col b when b ≥
// 0) has a criterion of at least limit for certain: its bound is that
// high. It compares wRSS bounds with limit turned into a wRSS,
// n*exp((limit − penalty)/n), raised by 1e-12 for the rounding of exp,
// instead of taking a logarithm per hypothesis.
func (s *searchBounds) skip(a, b int, limit float64) bool {
	rss, ok := s.rss(a, b)
	if !ok {
		return false
	}
	if limit != s.limit {
		fn := float64(s.n)
		for c := range s.thr {
			s.thr[c] = fn * math.Exp((limit-s.pen*float64(c+1))/fn) * (1 + 1e-12)
		}
		s.limit = limit
	}
	cols := 0
	if b >= 0 {
		cols = 1
	}
	return max(rss-s.slack, s.floor) >= s.thr[cols]
}

// rss returns the closed form of the wRSS of c0 + c1*col a (+ c2*col b
// when b ≥ 0); ok is false when the columns are too nearly collinear for
// it (see boundGuard).
func (s *searchBounds) rss(a, b int) (rss float64, ok bool) {
	if !s.ok || !s.use[a] || b >= 0 && !s.use[b] {
		return 0, false
	}
	za := s.z[a]
	if b < 0 {
		return s.tt - za*za, true
	}
	n := s.n
	rho := dot(s.u[a*n:(a+1)*n], s.u[b*n:(b+1)*n])
	g := (1 - rho) * (1 + rho)
	if !(g >= boundGuard) {
		return 0, false
	}
	e := s.z[b] - rho*za
	return s.tt - za*za - e*e/g, true
}
