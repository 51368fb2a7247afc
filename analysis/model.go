package analysis

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Performance models in the spirit of Extra-P (Calotoiu et al., "Using
// automated performance modeling to find scalability bugs in complex
// codes", SC'13): a value y measured at several parameter values p (the
// process count) is fitted by least squares to every hypothesis of the
// performance model normal form
//
//	y(p) = c0                                    (constant)
//	y(p) = c0 + c1 * p^i1 * log2(p)^j1           (one term)
//	y(p) = c0 + c1 * p^i1 * log2(p)^j1 + c2 * p^i2 * log2(p)^j2   (two terms)
//
// with i ∈ ModelExponents and j ∈ ModelLogExponents ((i, j) = (0, 0) is
// the constant), and the hypothesis with the smallest corrected Akaike
// information criterion (AICc) is chosen; see FitModel.

// ModelExponents is the set I of exponents of p in a model term: Extra-P's
// default search space {0, 1/4, 1/3, 1/2, 2/3, 3/4, 1, 5/4, 4/3, 3/2, 5/3,
// 7/4, 2, 9/4, 7/3, 5/2, 8/3, 11/4, 3} plus −1 and −1/2, the terms by which
// a strongly scaled region's time falls (T ∝ 1/p for perfectly divided work,
// 1/√p for a 2-D decomposition's halo). Sorted ascending.
var ModelExponents = []float64{
	-1, -1.0 / 2,
	0, 1.0 / 4, 1.0 / 3, 1.0 / 2, 2.0 / 3, 3.0 / 4,
	1, 5.0 / 4, 4.0 / 3, 3.0 / 2, 5.0 / 3, 7.0 / 4,
	2, 9.0 / 4, 7.0 / 3, 5.0 / 2, 8.0 / 3, 11.0 / 4,
	3,
}

// ModelLogExponents is the set J of exponents of log2(p) in a model term.
var ModelLogExponents = []int{0, 1, 2}

// ModelEpsilon is the smallest contribution a term may make: a hypothesis is
// discarded when one of its non-constant terms c*t(p) has
// max over the points of |c*t(p)|/|y| < ModelEpsilon, |y| being replaced by
// the largest |y| at a point where y = 0 (Extra-P's "minimum term
// contribution", 0.0005). It keeps a region from picking a term whose
// coefficient is rounding noise.
const ModelEpsilon = 5e-4

// Minimum numbers of points for the hypotheses with one and two terms: the
// AICc of a hypothesis with k coefficients is defined for n > k + 1 points.
const (
	ModelMinPointsOneTerm = 4
	ModelMinPointsTwoTerm = 5
)

// modelCondLimit is the largest condition number of a hypothesis' design
// matrix (columns scaled to a largest magnitude of 1) for which it is
// fitted; beyond it the columns are numerically collinear for the given p.
const modelCondLimit = 1e10

// modelRSSFloor is the relative size of a residual below which it is
// rounding noise: a residual sum of squares below n*(modelRSSFloor*max|y|)²
// counts as that floor, so that hypotheses which all fit the data exactly
// tie and the one with fewer coefficients wins.
const modelRSSFloor = 1e-10

// modelTieTolerance is the AICc difference under which two hypotheses tie
// (the earlier, simpler one is kept).
const modelTieTolerance = 1e-9

// Term is one term p^Exp * log2(p)^Log of a performance model.
type Term struct {
	// Exp is the exponent of p (an element of ModelExponents).
	Exp float64
	// Log is the exponent of log2(p) (an element of ModelLogExponents).
	Log int
}

// Eval returns p^Exp * log2(p)^Log.
func (t Term) Eval(p float64) float64 {
	v := 1.0
	switch t.Exp {
	case 0:
	case 1:
		v = p
	case -1:
		v = 1 / p
	default:
		v = math.Pow(p, t.Exp)
	}
	if t.Log > 0 {
		l := math.Log2(p)
		for range t.Log {
			v *= l
		}
	}
	return v
}

// String writes the term as "p", "p^2", "p^-1", "p^(1/2)", "p^(-1/2)",
// "log2(p)", "log2(p)^2" or a product of them ("p^(1/2) * log2(p)").
func (t Term) String() string {
	var parts []string
	if t.Exp != 0 {
		num, den := fraction(t.Exp)
		switch {
		case den == 1 && num == 1:
			parts = append(parts, "p")
		case den == 1:
			parts = append(parts, "p^"+strconv.Itoa(num))
		case den == 0:
			parts = append(parts, "p^"+strconv.FormatFloat(t.Exp, 'g', -1, 64))
		default:
			parts = append(parts, fmt.Sprintf("p^(%d/%d)", num, den))
		}
	}
	switch t.Log {
	case 0:
	case 1:
		parts = append(parts, "log2(p)")
	default:
		parts = append(parts, "log2(p)^"+strconv.Itoa(t.Log))
	}
	if len(parts) == 0 {
		return "1"
	}
	return strings.Join(parts, " * ")
}

// fraction writes x as num/den with den ≤ 12, or den = 0 when it has no
// such form.
func fraction(x float64) (num, den int) {
	for d := 1; d <= 12; d++ {
		n := math.Round(x * float64(d))
		if math.Abs(n/float64(d)-x) < 1e-12 {
			return int(n), d
		}
	}
	return 0, 0
}

// ModelTerms returns the candidate terms: every (i, j) of ModelExponents ×
// ModelLogExponents except the constant (0, 0), ordered by exponent of p,
// then of log2(p) (62 terms).
func ModelTerms() []Term {
	var out []Term
	for _, i := range ModelExponents {
		for _, j := range ModelLogExponents {
			if i == 0 && j == 0 {
				continue
			}
			out = append(out, Term{Exp: i, Log: j})
		}
	}
	return out
}

// Model is a fitted performance model y(p) = Constant + Σ Coefs[k]*Terms[k](p).
type Model struct {
	// Constant is c0. A fitted c0 smaller in magnitude than 1e-9 times the
	// largest |y| is rounding noise and is reported as exactly 0.
	Constant float64
	// Terms are the model's terms (none, one or two), in ModelTerms order.
	Terms []Term
	// Coefs are the terms' coefficients, parallel to Terms.
	Coefs []float64
	// Points is the number of measurements fitted.
	Points int
	// RSS is the residual sum of squares Σ(y − ŷ)² (unit of y squared).
	RSS float64
	// AdjR2 is the adjusted coefficient of determination
	// 1 − (RSS/(n−k))/(TSS/(n−1)), TSS = Σ(y − ȳ)², k the number of
	// coefficients (c0 included): 0 for the constant model, NaN when
	// n ≤ k or the values are all equal (TSS at the RSS floor, nothing to
	// explain).
	AdjR2 float64
	// SMAPE is the in-sample symmetric mean absolute percentage error
	// (100/n) Σ |ŷ − y| / ((|ŷ| + |y|)/2), in percent (a point where ŷ and
	// y are both 0 counts 0).
	SMAPE float64
	// CVSMAPE is the leave-one-out cross-validation SMAPE (Extra-P's
	// selection criterion, reported here as a measure of predictive
	// quality): the same sum where ŷ_i is the prediction of the chosen
	// hypothesis refitted without point i (for least squares
	// y_i − r_i/(1 − h_ii), r the residual and h the hat matrix's
	// diagonal). NaN for one point, or when a point's leverage h_ii is 1.
	CVSMAPE float64
	// AICc is the chosen hypothesis' corrected Akaike information
	// criterion (see FitModel); only differences between hypotheses of
	// the same data mean something.
	AICc float64
	// NearTies are the other hypotheses whose AICc is within ModelNearTie
	// (2) of the chosen one, closest first, at most ModelMaxNearTies (3):
	// models the data support about as well, whose predictions may differ
	// (each with its own fit; their NearTies are empty).
	NearTies []Model

	design *hypothesis // the chosen hypothesis, for prediction intervals
}

// ModelNearTie is the AICc difference below which another hypothesis is
// reported as a near tie of the chosen one (Burnham and Anderson's rule of
// thumb: ΔAICc < 2 means substantial support for both).
const ModelNearTie = 2

// ModelMaxNearTies is the largest number of near ties a Model lists.
const ModelMaxNearTies = 3

// PredictionInterval returns the two-sided prediction interval of a new
// measurement at p with the given confidence level (0.95 for 95%):
//
//	ŷ(p) ± t_{n−k, (1+level)/2} · s · sqrt(1 + x(p)ᵀ (XᵀX)⁻¹ x(p))
//
// with s² = RSS/(n − k), X the design matrix of the fitted points and x(p)
// the model's terms at p; (XᵀX)⁻¹ = X⁺X⁺ᵀ from the pseudo-inverse X⁺
// used for the fit. It assumes independent errors of constant variance,
// which real timings only approximate. NaN, NaN when n ≤ k (no residual
// degree of freedom) or the model was not fitted by FitModel.
func (m Model) PredictionInterval(p, level float64) (lo, hi float64) {
	h := m.design
	if h == nil || m.Points <= h.k || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	n, k := m.Points, h.k
	x := make([]float64, k)
	x[0] = 1
	for c, t := range h.terms {
		x[c+1] = t.Eval(p)
	}
	var lever float64 // x(p)ᵀ X⁺ X⁺ᵀ x(p) = |X⁺ᵀ x(p)|²
	for i := range n {
		var v float64
		for c := range k {
			v += x[c] * h.pinv[c*n+i]
		}
		lever += v * v
	}
	s := math.Sqrt(m.RSS / float64(n-k))
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - k)}.Quantile((1 + level) / 2)
	half := q * s * math.Sqrt(1+lever)
	y := m.Eval(p)
	return y - half, y + half
}

// Eval returns the model's value at p.
func (m Model) Eval(p float64) float64 {
	v := m.Constant
	for k, t := range m.Terms {
		v += m.Coefs[k] * t.Eval(p)
	}
	return v
}

// String writes the model as "100 + 900 * p^-1 + 5 * log2(p)": the
// constant (left out when 0 and a term follows), then each term with its
// coefficient (6 significant digits), a negative coefficient as " - ".
func (m Model) String() string {
	var b strings.Builder
	if m.Constant != 0 || len(m.Terms) == 0 {
		b.WriteString(strconv.FormatFloat(m.Constant, 'g', 6, 64))
	}
	for k, t := range m.Terms {
		c := m.Coefs[k]
		switch {
		case b.Len() == 0 && c < 0:
			b.WriteString("-")
		case b.Len() == 0:
		case c < 0:
			b.WriteString(" - ")
		default:
			b.WriteString(" + ")
		}
		b.WriteString(strconv.FormatFloat(math.Abs(c), 'g', 6, 64))
		b.WriteString(" * ")
		b.WriteString(t.String())
	}
	return b.String()
}

// FitModel fits the performance model of the values y measured at the
// parameter values p (finite, p > 0; y finite) and returns the chosen
// hypothesis with its fit errors.
//
// Search space: the constant; with at least ModelMinPointsOneTerm (4)
// points every one-term hypothesis c0 + c1*t (t ∈ ModelTerms, 62 terms);
// with at least ModelMinPointsTwoTerm (5) points every two-term hypothesis
// c0 + c1*t1 + c2*t2 (t1 before t2 in ModelTerms order, 1,891 pairs).
// Terms with log2(p) are left out when some p < 1 (as in Extra-P). Each
// hypothesis is fitted by linear least squares (QR factorization of the
// column-scaled design matrix, gonum mat).
//
// Selection, by a criterion that does not reward overfitting: the smallest
// corrected Akaike information criterion
//
//	AICc = n*ln(RSS/n) + 2k + 2k(k+1)/(n−k−1)
//
// for n points and k coefficients (c0 included: 1, 2 or 3), which charges
// every extra coefficient more the fewer the points. RSS is floored at
// n*(1e-10*max|y|)² (rounding noise), so hypotheses that all fit exactly
// tie; ties (within 1e-9) keep the hypothesis visited first, in the order
// constant, one-term, two-term, so the simplest exact hypothesis wins. A
// hypothesis is discarded when one of its terms contributes less than
// ModelEpsilon, when its design matrix is numerically singular for these
// p (condition number above 1e10), or when it has two terms whose
// coefficients have opposite signs: a performance model is a sum of costs,
// and two large terms cancelling each other inside the measured range are
// the signature of a fit to noise, one that turns negative soon after it
// (on the real matmult series, 4.6e6 + 2.1e5*p^(7/4)*log2(p)^2 −
// 1.3e5*p^3, predicting −100 s at p = 16). Constant data thus give the
// constant model, and data that follow a hypothesis exactly give that
// hypothesis (two-term laws with terms of opposite sign excepted).
// AICc does not account for the size of the search: with noisy data a
// spurious second term can still win, which is why Model reports the
// leave-one-out cross-validation error (Extra-P's criterion) as well.
func FitModel(p, y []float64) (Model, error) {
	if len(p) != len(y) {
		return Model{}, fmt.Errorf("model: %d parameter values but %d measurements", len(p), len(y))
	}
	if len(p) == 0 {
		return Model{}, fmt.Errorf("model: no measurement")
	}
	for i := range p {
		if !(p[i] > 0) || math.IsInf(p[i], 0) {
			return Model{}, fmt.Errorf("model: parameter value %v: want a finite number > 0", p[i])
		}
		if !defined(y[i]) {
			return Model{}, fmt.Errorf("model: measurement %v at p = %v is not a finite number", y[i], p[i])
		}
	}
	return newModelBasis(p).fit(y), nil
}

// hypothesis is one model hypothesis prepared for a fixed set of parameter
// values: its design matrix and the least-squares solution operator.
type hypothesis struct {
	terms []Term
	k     int       // coefficients, c0 included
	x     []float64 // design matrix, n×k row-major (column 0 is 1)
	pinv  []float64 // pseudo-inverse, k×n row-major: coef = pinv·y
	hat   []float64 // diagonal of the hat matrix x·pinv
}

// modelBasis holds every valid hypothesis for one set of parameter values;
// it is read-only after newModelBasis, so several goroutines may fit with
// it at once.
type modelBasis struct {
	p    []float64
	hyps []hypothesis // hyps[0] is the constant
}

// newModelBasis prepares every hypothesis of the search space for the
// parameter values p.
func newModelBasis(p []float64) *modelBasis {
	n := len(p)
	b := &modelBasis{p: append([]float64(nil), p...)}
	c := hypothesis{k: 1, x: make([]float64, n), pinv: make([]float64, n), hat: make([]float64, n)}
	for i := range n {
		c.x[i] = 1
		c.pinv[i] = 1 / float64(n)
		c.hat[i] = 1 / float64(n)
	}
	b.hyps = append(b.hyps, c)
	if n < ModelMinPointsOneTerm {
		return b
	}
	logOK := true
	for _, v := range p {
		if v < 1 {
			logOK = false
		}
	}
	var terms []Term
	for _, t := range ModelTerms() {
		if t.Log > 0 && !logOK {
			continue
		}
		terms = append(terms, t)
	}
	for _, t := range terms {
		if h, ok := prepareHypothesis(p, []Term{t}); ok {
			b.hyps = append(b.hyps, h)
		}
	}
	if n < ModelMinPointsTwoTerm {
		return b
	}
	for i := range terms {
		for j := i + 1; j < len(terms); j++ {
			if h, ok := prepareHypothesis(p, []Term{terms[i], terms[j]}); ok {
				b.hyps = append(b.hyps, h)
			}
		}
	}
	return b
}

// prepareHypothesis builds the design matrix of c0 + Σ c_k*terms[k] at p and
// its pseudo-inverse; ok is false when the matrix is numerically singular.
func prepareHypothesis(p []float64, terms []Term) (hypothesis, bool) {
	n, k := len(p), len(terms)+1
	if n < k {
		return hypothesis{}, false
	}
	h := hypothesis{terms: terms, k: k, x: make([]float64, n*k)}
	scale := make([]float64, k)
	for i, v := range p {
		h.x[i*k] = 1
		for c, t := range terms {
			tv := t.Eval(v)
			if !defined(tv) {
				return hypothesis{}, false
			}
			h.x[i*k+c+1] = tv
		}
	}
	for c := range k {
		for i := range n {
			scale[c] = max(scale[c], math.Abs(h.x[i*k+c]))
		}
		if scale[c] == 0 {
			return hypothesis{}, false
		}
	}
	scaled := mat.NewDense(n, k, nil)
	for i := range n {
		for c := range k {
			scaled.Set(i, c, h.x[i*k+c]/scale[c])
		}
	}
	var qr mat.QR
	qr.Factorize(scaled)
	if cond := qr.Cond(); !(cond < modelCondLimit) {
		return hypothesis{}, false
	}
	eye := mat.NewDiagDense(n, nil)
	for i := range n {
		eye.SetDiag(i, 1)
	}
	var pinv mat.Dense
	if err := qr.SolveTo(&pinv, false, eye); err != nil {
		return hypothesis{}, false
	}
	h.pinv = make([]float64, k*n)
	for c := range k {
		for i := range n {
			h.pinv[c*n+i] = pinv.At(c, i) / scale[c]
		}
	}
	h.hat = make([]float64, n)
	for i := range n {
		var s float64
		for c := range k {
			s += h.x[i*k+c] * h.pinv[c*n+i]
		}
		h.hat[i] = s
	}
	return h, true
}

// fit chooses and fits the model of y (len(y) = len(b.p), finite) as
// FitModel describes.
func (b *modelBasis) fit(y []float64) Model {
	n := len(y)
	var maxAbs float64
	for _, v := range y {
		maxAbs = max(maxAbs, math.Abs(v))
	}
	resid := make([]float64, n)
	var coef [3]float64
	floor := float64(n) * (modelRSSFloor * maxAbs) * (modelRSSFloor * maxAbs)
	type cand struct {
		hi   int
		aic  float64
		coef [3]float64
	}
	var best cand
	best.aic = math.Inf(1)
	var near []cand // candidates within ModelNearTie of the best so far
	for hi := range b.hyps {
		h := &b.hyps[hi]
		rss, ok := h.evaluate(y, coef[:h.k], resid, maxAbs, hi == 0)
		if !ok {
			continue
		}
		c := cand{hi, aicc(max(rss, floor), n, h.k), coef}
		if hi == 0 || c.aic < best.aic-modelTieTolerance {
			if hi != 0 {
				near = append(near, best)
			}
			best = c
		} else if c.aic < best.aic+ModelNearTie {
			near = append(near, c)
		}
		if maxAbs == 0 {
			break // all zero: the constant 0
		}
	}
	m := b.describe(best.hi, best.coef, y, maxAbs, floor)
	m.AICc = best.aic
	sort.SliceStable(near, func(i, j int) bool { return near[i].aic < near[j].aic })
	for _, c := range near {
		if len(m.NearTies) == ModelMaxNearTies {
			break
		}
		if c.hi != best.hi && c.aic < best.aic+ModelNearTie && !math.IsInf(c.aic, 0) {
			t := b.describe(c.hi, c.coef, y, maxAbs, floor)
			t.AICc = c.aic
			m.NearTies = append(m.NearTies, t)
		}
	}
	return m
}

// describe builds the Model of hypothesis hi with coefficients coef fitted
// to y: its fit errors and leave-one-out error.
func (b *modelBasis) describe(hi int, coef [3]float64, y []float64, maxAbs, floor float64) Model {
	n := len(y)
	h := &b.hyps[hi]
	m := Model{Constant: coef[0], Terms: append([]Term(nil), h.terms...), Coefs: append([]float64(nil), coef[1:h.k]...), Points: n, design: h}
	if math.Abs(m.Constant) <= 1e-9*maxAbs {
		m.Constant = 0
	}
	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= float64(n)
	resid := make([]float64, n)
	var tss float64
	for i, v := range y {
		yhat := m.Eval(b.p[i])
		resid[i] = v - yhat
		m.RSS += resid[i] * resid[i]
		m.SMAPE += smapeTerm(yhat, v)
		tss += (v - mean) * (v - mean)
	}
	m.SMAPE /= float64(n)
	switch {
	case n <= h.k || tss <= floor:
		m.AdjR2 = math.NaN()
	default:
		m.AdjR2 = 1 - (m.RSS/float64(n-h.k))/(tss/float64(n-1))
	}
	m.CVSMAPE = math.NaN()
	if n > 1 {
		var cv float64
		for i := range n {
			lev := 1 - h.hat[i]
			if lev < 1e-10 {
				cv = math.NaN()
				break
			}
			cv += smapeTerm(y[i]-resid[i]/lev, y[i])
		}
		m.CVSMAPE = cv / float64(n)
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

// evaluate fits hypothesis h to y (coef gets its k coefficients, resid the
// residuals) and returns the residual sum of squares; ok is false when a
// term contributes less than ModelEpsilon (maxAbs is the largest |y|). The
// constant hypothesis is never discarded.
func (h *hypothesis) evaluate(y, coef, resid []float64, maxAbs float64, constant bool) (rss float64, ok bool) {
	n, k := len(y), h.k
	for c := range k {
		var s float64
		row := h.pinv[c*n : (c+1)*n]
		for i, v := range y {
			s += row[i] * v
		}
		coef[c] = s
	}
	for i := range n {
		yhat := 0.0
		for c := range k {
			yhat += h.x[i*k+c] * coef[c]
		}
		resid[i] = y[i] - yhat
		rss += resid[i] * resid[i]
	}
	if constant {
		return rss, true
	}
	if k == 3 && (coef[1] < 0) != (coef[2] < 0) {
		return 0, false // two terms of opposite sign cancel each other
	}
	for c := 1; c < k; c++ {
		if coef[c] == 0 || maxAbs == 0 {
			return 0, false
		}
		contrib := 0.0
		for i := range n {
			d := math.Abs(y[i])
			if d == 0 {
				d = maxAbs
			}
			contrib = max(contrib, math.Abs(coef[c]*h.x[i*k+c])/d)
		}
		if contrib < ModelEpsilon {
			return 0, false
		}
	}
	return rss, true
}

// smapeTerm returns 100*|pred − y|/((|pred| + |y|)/2), 0 when both are 0.
func smapeTerm(pred, y float64) float64 {
	d := math.Abs(pred) + math.Abs(y)
	if d == 0 {
		return 0
	}
	return 200 * math.Abs(pred-y) / d
}

// Amdahl fits Amdahl's law T(p) = T1*(f + (1−f)/p) to the times t measured
// at process counts p by linear least squares in (a, b) with T = a + b/p,
// and returns the serial fraction f = a/(a+b) and the estimated
// one-process time T1 = a + b (unit of t). It needs at least two distinct
// p; ok is false otherwise or when a + b = 0. f lies in [0, 1] only when
// both a and b are ≥ 0: a negative f means the times fall faster than 1/p,
// a value above 1 that they grow with p. An intercept a smaller in
// magnitude than 1e-9 times the largest time is rounding noise and counts
// as 0 (f = 0: perfectly parallel).
func Amdahl(p, t []float64) (f, t1 float64, ok bool) {
	if len(p) != len(t) || len(p) < 2 {
		return math.NaN(), math.NaN(), false
	}
	h, valid := prepareHypothesis(p, []Term{{Exp: -1}})
	if !valid {
		return math.NaN(), math.NaN(), false
	}
	n := len(p)
	var a, b float64
	for i := range n {
		a += h.pinv[i] * t[i]
		b += h.pinv[n+i] * t[i]
	}
	var maxAbs float64
	for _, v := range t {
		maxAbs = max(maxAbs, math.Abs(v))
	}
	if math.Abs(a) <= 1e-9*maxAbs {
		a = 0 // rounding noise: perfectly parallel
	}
	if a+b == 0 {
		return math.NaN(), math.NaN(), false
	}
	return a / (a + b), a + b, true
}

// KarpFlatt returns the Karp-Flatt experimentally determined serial
// fraction e = (1/S − 1/p)/(1 − 1/p) for speedup S on p times the
// baseline's processors (p = p/p_b); NaN when p ≤ 1 or S is not a finite
// positive number. e = 0 for ideal speedup (S = p) and grows with the
// parallel overhead.
func KarpFlatt(speedup, p float64) float64 {
	if !(p > 1) || !(speedup > 0) || math.IsInf(speedup, 0) || math.IsInf(p, 0) {
		return math.NaN()
	}
	return (1/speedup - 1/p) / (1 - 1/p)
}
