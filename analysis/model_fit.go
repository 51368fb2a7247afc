package analysis

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// modelMethod says how the hypotheses of a performance model are fitted
// and which one is chosen (see FitModel for the default).
type modelMethod struct {
	// relative weights every point by 1/y² (least squares on relative
	// residuals (y − ŷ)/y); false is ordinary least squares.
	relative bool
	// pT adds, for every term t of pTTerms, the hypothesis
	// y = (c0 + c1*t(p))/p: the model of p·y (the cost in process-time)
	// that Extra-P recommends for strong scaling, divided back by p.
	pT bool
	// loo selects by the leave-one-out error n*ln(PRESS/n) instead of
	// AICc (PRESS = Σ (w_i*r_i/(1 − h_ii))², the weighted residual of
	// point i when it is left out of the fit).
	loo bool
	// twoPenalty is added to the criterion of a two-term hypothesis: it
	// must beat the best simpler one by that much.
	twoPenalty float64
	// coefPenalty is added to the leave-one-out criterion per coefficient
	// beyond the first (as AIC charges 2 per coefficient).
	coefPenalty float64
	// one are the terms of the one-term hypotheses c0 + c1*t; two are the
	// terms paired in the two-term hypotheses c0 + c1*t1 + c2*t2.
	one, two []Term
}

// legacyModelMethod is the method before relative weighting: ordinary
// least squares, AICc, the 62 terms of exponents {−1, −1/2, 0, ..., 3} and
// log exponents {0, 1, 2}. It is kept to measure the change.
var legacyModelMethod = modelMethod{one: legacyTerms(), two: legacyTerms()}

// defaultModelMethod is FitModel's method (chosen by the leave-last-out
// measurements of docs/models.md).
var defaultModelMethod = modelMethod{relative: true, pT: true, loo: true, coefPenalty: ModelCoefPenalty, twoPenalty: ModelTwoTermPenalty, one: ModelTerms(), two: pairTerms()}

// ModelSelection describes FitModel's method in one line (the
// scalability result's parameter model_selection).
const ModelSelection = "weighted least squares on relative errors (weights 1/y^2); hypotheses c0 + c1*t, (c0 + c1*t)/p and c0 + c1*t1 + c2*t2; chosen by the leave-one-out error n*ln(PRESS/n) + 2 per coefficient beyond c0 (+2 for two terms); term contribution >= 0.0005; non-negative up to 2^20 times the largest p"

// ModelCoefPenalty is added to the leave-one-out criterion n*ln(PRESS/n)
// per coefficient beyond the first, as AIC charges 2 per coefficient: a
// term must lower the leave-one-out error by a factor e^(2/n) to be kept.
const ModelCoefPenalty = 2

// ModelTwoTermPenalty is what a two-term hypothesis must gain on the
// criterion over simpler ones on top of ModelCoefPenalty.
const ModelTwoTermPenalty = 2

// hypothesis is one model hypothesis prepared for a fixed set of parameter
// values: its columns (Term{} is the constant) and design matrix.
type hypothesis struct {
	cols  []Term
	k     int       // columns
	x     []float64 // design matrix, n×k row-major
	konst int       // index of the constant column, -1 when none
	twoT  bool      // a two-term hypothesis c0 + c1*t1 + c2*t2
}

// modelBasis holds every valid hypothesis for one set of parameter values;
// it is read-only after newModelBasis, so several goroutines may fit with
// it at once.
type modelBasis struct {
	p          []float64
	pmin, pmax float64
	m          modelMethod
	hyps       []hypothesis // hyps[0] is the constant
}

// newModelBasis prepares every hypothesis of the default method for p.
func newModelBasis(p []float64) *modelBasis { return newModelBasisWith(p, defaultModelMethod) }

// newModelBasisWith prepares every hypothesis of method m for the
// parameter values p: the constant; from ModelMinPointsOneTerm distinct
// values the one-term (and p·y) hypotheses; from ModelMinPointsTwoTerm the
// two-term ones. Log terms are left out when some p < 1 (as in Extra-P);
// a hypothesis whose columns are undefined at some p (log2(1)^-1) is left
// out too.
func newModelBasisWith(p []float64, m modelMethod) *modelBasis {
	b := &modelBasis{p: append([]float64(nil), p...), m: m, pmin: math.Inf(1)}
	distinct := map[float64]bool{}
	logOK := true
	for _, v := range p {
		distinct[v] = true
		b.pmin, b.pmax = min(b.pmin, v), max(b.pmax, v)
		if v < 1 {
			logOK = false
		}
	}
	seen := map[string]bool{}
	add := func(cols []Term, twoT bool) {
		for _, c := range cols {
			if c.Log != 0 && !logOK {
				return
			}
		}
		key := colsKey(cols)
		if seen[key] {
			return
		}
		seen[key] = true
		if h, ok := prepareHypothesis(p, cols); ok {
			h.twoT = twoT
			b.hyps = append(b.hyps, h)
		}
	}
	add([]Term{{}}, false)
	if len(distinct) < ModelMinPointsOneTerm {
		return b
	}
	for _, t := range m.one {
		add([]Term{{}, t}, false)
	}
	if m.pT {
		for _, t := range m.one {
			if t.Log >= 0 && t.Exp >= 0 {
				add([]Term{{Exp: -1}, {Exp: t.Exp - 1, Log: t.Log}}, false)
			}
		}
	}
	if len(distinct) < ModelMinPointsTwoTerm {
		return b
	}
	for i := range m.two {
		for j := i + 1; j < len(m.two); j++ {
			add([]Term{{}, m.two[i], m.two[j]}, true)
		}
	}
	return b
}

// colsKey names a set of columns.
func colsKey(cols []Term) string {
	s := make([]string, len(cols))
	for i, c := range cols {
		s[i] = strconv.FormatFloat(c.Exp, 'g', -1, 64) + "/" + strconv.Itoa(c.Log)
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}

// prepareHypothesis builds the design matrix of Σ c_k*cols[k] at p; ok is
// false when a column is undefined or zero at every p.
func prepareHypothesis(p []float64, cols []Term) (hypothesis, bool) {
	n, k := len(p), len(cols)
	if n < k {
		return hypothesis{}, false
	}
	h := hypothesis{cols: cols, k: k, x: make([]float64, n*k), konst: -1}
	for c, t := range cols {
		if t == (Term{}) {
			h.konst = c
		}
		var big float64
		for i, v := range p {
			tv := t.Eval(v)
			if !defined(tv) {
				return hypothesis{}, false
			}
			h.x[i*k+c] = tv
			big = max(big, math.Abs(tv))
		}
		if big == 0 {
			return hypothesis{}, false
		}
	}
	return h, true
}

// lsFit is a weighted least-squares fit of one hypothesis.
type lsFit struct {
	coef  []float64 // k coefficients
	resid []float64 // y − ŷ
	hat   []float64 // diagonal of the weighted hat matrix
	rinv  []float64 // R⁻¹ of the scaled weighted design (k×k, upper)
	scale []float64 // column scales of the weighted design
}

// newLSFit allocates a fit for n points and up to k columns.
func newLSFit(n, k int) *lsFit {
	return &lsFit{coef: make([]float64, k), resid: make([]float64, n), hat: make([]float64, n),
		rinv: make([]float64, k*k), scale: make([]float64, k)}
}

// solve fits h to y with square-root weights sw by least squares:
// modified Gram-Schmidt (twice, for orthogonality) on the weighted design
// with columns scaled to a largest magnitude of 1. ok is false when a
// column loses more than 1 − 1e-10 of its norm to the previous ones (the
// columns are numerically collinear at these p).
func (h *hypothesis) solve(y, sw []float64, f *lsFit, q []float64) bool {
	n, k := len(y), h.k
	for c := range k {
		var big float64
		for i := range n {
			v := sw[i] * h.x[i*k+c]
			q[c*n+i] = v
			big = max(big, math.Abs(v))
		}
		if big == 0 {
			return false
		}
		f.scale[c] = big
		var norm0 float64
		for i := range n {
			q[c*n+i] /= big
			norm0 += q[c*n+i] * q[c*n+i]
		}
		r := f.rinv // holds R while orthogonalizing
		for l := range c {
			r[l*k+c] = 0
		}
		for range 2 {
			for l := range c {
				var d float64
				for i := range n {
					d += q[l*n+i] * q[c*n+i]
				}
				r[l*k+c] += d
				for i := range n {
					q[c*n+i] -= d * q[l*n+i]
				}
			}
		}
		var norm float64
		for i := range n {
			norm += q[c*n+i] * q[c*n+i]
		}
		if !(norm > 1e-20*norm0) {
			return false
		}
		norm = math.Sqrt(norm)
		r[c*k+c] = norm
		for i := range n {
			q[c*n+i] /= norm
		}
	}
	invertUpper(f.rinv, k)
	for c := range k {
		f.coef[c] = 0
	}
	for l := range k { // coef_s = R⁻¹ Qᵀ (sw·y)
		var z float64
		for i := range n {
			z += q[l*n+i] * sw[i] * y[i]
		}
		for c := 0; c <= l; c++ {
			f.coef[c] += f.rinv[c*k+l] * z
		}
	}
	for c := range k {
		f.coef[c] /= f.scale[c]
	}
	for i := range n {
		yhat, hh := 0.0, 0.0
		for c := range k {
			yhat += h.x[i*k+c] * f.coef[c]
			hh += q[c*n+i] * q[c*n+i]
		}
		f.resid[i], f.hat[i] = y[i]-yhat, hh
	}
	return true
}

// invertUpper replaces the upper triangular k×k matrix r (row-major) by
// its inverse.
func invertUpper(r []float64, k int) {
	for c := k - 1; c >= 0; c-- {
		r[c*k+c] = 1 / r[c*k+c]
		for l := c - 1; l >= 0; l-- {
			var s float64
			for m := l + 1; m <= c; m++ {
				s += r[l*k+m] * r[m*k+c]
			}
			r[l*k+c] = -s / r[l*k+l]
		}
		for l := c + 1; l < k; l++ {
			r[l*k+c] = 0
		}
	}
}

// modelFloor is the relative size of a weighted residual below which it
// is rounding noise (see fit).
const modelFloor = 1e-10

// weights returns the square-root weights of y under the method: 1 for
// ordinary least squares, 1/max(|y_i|, floor) for relative ones, floor
// the smallest non-zero |y| (a zero, a region not run or below the
// clock's resolution, weighs as the smallest measured value) and at
// least 1e-6*max|y|.
func (b *modelBasis) weights(y []float64, maxAbs float64) []float64 {
	sw := make([]float64, len(y))
	floor := maxAbs
	for _, v := range y {
		if v != 0 {
			floor = min(floor, math.Abs(v))
		}
	}
	floor = max(floor, 1e-6*maxAbs)
	for i, v := range y {
		sw[i] = 1
		if b.m.relative {
			sw[i] = 1 / max(math.Abs(v), floor)
		}
	}
	return sw
}

// modelCand is a hypothesis that passed the checks, with its criterion.
type modelCand struct {
	hi   int
	crit float64
	coef []float64
}

// scaled returns the square-root weights of y, its largest magnitude, and
// the criterion's floor on the weighted residual sum of squares,
// n·(modelFloor·max|sw·y|)²: what every fit of y starts from.
func (b *modelBasis) scaled(y []float64) (sw []float64, maxAbs, floor float64) {
	for _, v := range y {
		maxAbs = max(maxAbs, math.Abs(v))
	}
	sw = b.weights(y, maxAbs)
	var maxW float64
	for i, v := range y {
		maxW = max(maxW, sw[i]*math.Abs(v))
	}
	return sw, maxAbs, float64(len(y)) * (modelFloor * maxW) * (modelFloor * maxW)
}

// fit chooses and fits the model of y (len(y) = len(b.p), finite) as
// FitModel describes.
func (b *modelBasis) fit(y []float64) Model {
	n := len(y)
	sw, maxAbs, floor := b.scaled(y)
	f := newLSFit(n, 3)
	q := make([]float64, 3*n)
	best := modelCand{hi: -1, crit: math.Inf(1)}
	var near []modelCand
	for hi := range b.hyps {
		h := &b.hyps[hi]
		if !h.solve(y, sw, f, q) || !b.admissible(h, f, y, maxAbs) {
			continue
		}
		crit := b.criterion(h, f, sw, floor)
		if math.IsNaN(crit) {
			continue
		}
		c := modelCand{hi, crit, append([]float64(nil), f.coef[:h.k]...)}
		switch {
		case best.hi < 0 || crit < best.crit-modelTieTolerance:
			if !b.positive(h, c.coef, maxAbs) {
				continue
			}
			if best.hi >= 0 {
				near = append(near, best)
			}
			best = c
		case crit < best.crit+ModelNearTie:
			near = append(near, c)
		}
		if maxAbs == 0 {
			break // all zero: the constant 0
		}
	}
	m := b.describe(best, y, sw, maxAbs, floor)
	sort.SliceStable(near, func(i, j int) bool { return near[i].crit < near[j].crit })
	for _, c := range near {
		if len(m.NearTies) == ModelMaxNearTies {
			break
		}
		if c.hi != best.hi && c.crit < best.crit+ModelNearTie && !math.IsInf(c.crit, 0) && b.positive(&b.hyps[c.hi], c.coef, maxAbs) {
			m.NearTies = append(m.NearTies, b.describe(c, y, sw, maxAbs, floor))
		}
	}
	return m
}

// criterion returns the selection criterion of the fitted hypothesis:
// AICc = n*ln(wRSS/n) + 2k + 2k(k+1)/(n−k−1), or n*ln(PRESS/n) with the
// leave-one-out method; wRSS = Σ (w_i*r_i)² floored at floor. +Inf when
// n ≤ k+1 (AICc undefined), NaN when a point has leverage 1 (PRESS).
func (b *modelBasis) criterion(h *hypothesis, f *lsFit, sw []float64, floor float64) float64 {
	n := len(sw)
	if !b.m.loo {
		var rss float64
		for i, r := range f.resid {
			rss += (sw[i] * r) * (sw[i] * r)
		}
		return aicc(max(rss, floor), n, h.k)
	}
	if h.k > 1 && n <= h.k+1 {
		return math.Inf(1)
	}
	var press float64
	for i, r := range f.resid {
		lev := 1 - f.hat[i]
		if lev < 1e-10 {
			return math.NaN()
		}
		e := sw[i] * r / lev
		press += e * e
	}
	fn := float64(n)
	crit := fn*math.Log(max(press, floor)/fn) + b.m.coefPenalty*float64(h.k-1)
	if h.twoT {
		crit += b.m.twoPenalty
	}
	return crit
}

// admissible says whether a fitted hypothesis may be chosen: every
// non-constant column contributes at least ModelEpsilon of |y| at some
// point, and a two-term hypothesis has neither terms of opposite signs nor
// a negative constant (which cancels the terms inside the measured range,
// the signature of a fit to noise).
func (b *modelBasis) admissible(h *hypothesis, f *lsFit, y []float64, maxAbs float64) bool {
	if h.k == 1 {
		return true
	}
	n, k := len(y), h.k
	if h.twoT && ((f.coef[1] < 0) != (f.coef[2] < 0) || f.coef[0] < -1e-9*maxAbs) {
		return false // terms of opposite sign cancel each other
	}
	for c := range k {
		if c == h.konst {
			continue
		}
		if f.coef[c] == 0 || maxAbs == 0 {
			return false
		}
		contrib := 0.0
		for i := range n {
			d := math.Abs(y[i])
			if d == 0 {
				d = maxAbs
			}
			contrib = max(contrib, math.Abs(f.coef[c]*h.x[i*k+c])/d)
		}
		if contrib < ModelEpsilon {
			return false
		}
	}
	return true
}

// modelHorizon is how far beyond the largest measured p a chosen model
// must stay positive: 2^20 times it.
const modelHorizon = 1 << 20

// positive says whether the model of hypothesis h with coefficients coef
// is never negative where it predicts: from the largest measured p to
// modelHorizon times it (above −1e-9*max|y|, rounding noise), checked at
// 48 geometrically spaced points; inside the measured range, at the
// measured p and 16 points between the smallest and the largest, it may
// dip below 0 by at most 1e-3*max|y| (a region measured at 0 at p = 1,
// such as 5*log2(p), is fitted within that).
func (b *modelBasis) positive(h *hypothesis, coef []float64, maxAbs float64) bool {
	if maxAbs == 0 {
		return true
	}
	eval := func(p float64) float64 {
		var v float64
		for c, t := range h.cols {
			v += coef[c] * t.Eval(p)
		}
		return v
	}
	inside := -1e-3 * maxAbs
	for _, p := range b.p {
		if !(eval(p) >= inside) {
			return false
		}
	}
	lo, mid, hi := math.Log(b.pmin), math.Log(b.pmax), math.Log(b.pmax*modelHorizon)
	for s := range 16 {
		if !(eval(math.Exp(lo+(mid-lo)*float64(s)/15)) >= inside) {
			return false
		}
	}
	for s := range 48 {
		if !(eval(math.Exp(mid+(hi-mid)*float64(s)/47)) >= -1e-9*maxAbs) {
			return false
		}
	}
	return true
}

// describe builds the Model of candidate c fitted to y: its fit errors,
// leave-one-out error and what its prediction intervals need.
func (b *modelBasis) describe(c modelCand, y, sw []float64, maxAbs, floor float64) Model {
	n := len(y)
	if c.hi < 0 { // no positive hypothesis: the (weighted) mean
		c = modelCand{hi: 0}
	}
	h := &b.hyps[c.hi]
	f := newLSFit(n, h.k)
	h.solve(y, sw, f, make([]float64, h.k*n))
	m := Model{Points: n, Criterion: b.criterion(h, f, sw, floor), relative: b.m.relative, k: h.k, cols: h.cols}
	for col, t := range h.cols {
		if col == h.konst {
			m.Constant = f.coef[col]
		} else {
			m.Terms, m.Coefs = append(m.Terms, t), append(m.Coefs, f.coef[col])
		}
	}
	if math.Abs(m.Constant) <= 1e-9*maxAbs {
		m.Constant = 0
	}
	m.cov = make([]float64, h.k*h.k) // (XᵀWX)⁻¹ = D⁻¹R⁻¹R⁻ᵀD⁻¹
	for a := range h.k {
		for e := range h.k {
			var s float64
			for l := max(a, e); l < h.k; l++ {
				s += f.rinv[a*h.k+l] * f.rinv[e*h.k+l]
			}
			m.cov[a*h.k+e] = s / (f.scale[a] * f.scale[e])
		}
	}
	var mean, tss, wrss float64
	for _, v := range y {
		mean += v
	}
	mean /= float64(n)
	m.press = 0
	for i, r := range f.resid {
		if lev := 1 - f.hat[i]; lev > 1e-10 {
			m.press += (sw[i] * r / lev) * (sw[i] * r / lev)
		} else {
			m.press = math.Inf(1)
		}
	}
	m.CVSMAPE = math.NaN()
	var cv float64
	for i, v := range y {
		r := f.resid[i]
		m.RSS += r * r
		wrss += (sw[i] * r) * (sw[i] * r)
		m.SMAPE += smapeTerm(v-r, v)
		tss += (v - mean) * (v - mean)
		if lev := 1 - f.hat[i]; lev < 1e-10 || math.IsNaN(cv) {
			cv = math.NaN()
		} else {
			cv += smapeTerm(v-r/lev, v)
		}
	}
	m.SMAPE /= float64(n)
	if n > 1 {
		m.CVSMAPE = cv / float64(n)
	}
	if n > h.k {
		m.s2 = wrss / float64(n-h.k)
	}
	switch absFloor := float64(n) * (modelFloor * maxAbs) * (modelFloor * maxAbs); {
	case n <= h.k || tss <= absFloor:
		m.AdjR2 = math.NaN()
	default:
		m.AdjR2 = 1 - (m.RSS/float64(n-h.k))/(tss/float64(n-1))
	}
	return m
}

// aicc returns n*ln(rss/n) + 2k + 2k(k+1)/(n−k−1), +Inf when n ≤ k+1.
func aicc(rss float64, n, k int) float64 {
	if n <= k+1 {
		return math.Inf(1)
	}
	fn, fk := float64(n), float64(k)
	return fn*math.Log(rss/fn) + 2*fk + 2*fk*(fk+1)/(fn-fk-1)
}
