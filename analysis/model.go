package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

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
// the constant), plus the model of p·y divided back by p, y(p) = (c0 +
// c1*p^i1*log2(p)^j1)/p; the fit weighs relative errors and the
// hypothesis with the smallest leave-one-out error is chosen; see FitModel
// and docs/models.md for the measurements behind these choices.

// ModelExponents is the set I of exponents of p in a model term: Extra-P's
// default search space {0, 1/4, 1/3, 1/2, 2/3, 3/4, 4/5, 1, 5/4, 4/3, 3/2,
// 5/3, 7/4, 2, 9/4, 7/3, 5/2, 8/3, 11/4, 3} and the negatives of its
// non-zero elements (Extra-P's "negative exponents" for strong scaling:
// T ∝ 1/p for perfectly divided work, 1/√p for a 2-D decomposition's halo,
// down to p^-3). Sorted ascending.
var ModelExponents = []float64{
	-3, -11.0 / 4, -8.0 / 3, -5.0 / 2, -7.0 / 3, -9.0 / 4, -2,
	-7.0 / 4, -5.0 / 3, -3.0 / 2, -4.0 / 3, -5.0 / 4, -1,
	-4.0 / 5, -3.0 / 4, -2.0 / 3, -1.0 / 2, -1.0 / 3, -1.0 / 4,
	0, 1.0 / 4, 1.0 / 3, 1.0 / 2, 2.0 / 3, 3.0 / 4, 4.0 / 5,
	1, 5.0 / 4, 4.0 / 3, 3.0 / 2, 5.0 / 3, 7.0 / 4,
	2, 9.0 / 4, 7.0 / 3, 5.0 / 2, 8.0 / 3, 11.0 / 4,
	3,
}

// ModelLogExponents is the set J of exponents of log2(p) in a model term:
// a term p^i*log2(p)^j has j ∈ {0, 1, 2} when i ≥ 0 and j ∈ {0, −1, −2}
// when i < 0 (a falling term falls faster with a log in the denominator),
// plus j ∈ {1, 2} for i ∈ {−1, −1/2}; see ModelTerms.
var ModelLogExponents = []int{-2, -1, 0, 1, 2}

// ModelEpsilon is the smallest contribution a term may make: a hypothesis is
// discarded when one of its non-constant terms c*t(p) has
// max over the points of |c*t(p)|/|y| < ModelEpsilon, |y| being replaced by
// the largest |y| at a point where y = 0 (Extra-P's "minimum term
// contribution", 0.0005). It keeps a region from picking a term whose
// coefficient is rounding noise.
const ModelEpsilon = 5e-4

// Minimum numbers of distinct parameter values for the hypotheses with one
// and two terms: a hypothesis with k coefficients needs k + 2 (one value
// for the leave-one-out error, one for a residual), so fewer values
// restrict the search to fewer terms (ModelTermBound says so).
const (
	ModelMinPointsOneTerm = 4
	ModelMinPointsTwoTerm = 5
)

// modelTieTolerance is the AICc difference under which two hypotheses tie
// (the earlier, simpler one is kept).
const modelTieTolerance = 1e-9

// Term is one term p^Exp * log2(p)^Log of a performance model.
type Term struct {
	// Exp is the exponent of p (an element of ModelExponents, or one
	// less for the p·y hypotheses).
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
	if t.Log != 0 {
		l := math.Log2(p)
		for range t.Log {
			v *= l
		}
		for range -t.Log {
			v /= l
		}
	}
	return v
}

// String writes the term as "p", "p^2", "p^-1", "p^(1/2)", "p^(-1/2)",
// "log2(p)", "log2(p)^2", "log2(p)^-1" or a product of them ("p^(1/2) * log2(p)").
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

// ModelTerms returns the candidate terms of the one-term hypotheses,
// ordered by exponent of p, then of log2(p) (123 terms): for i ∈
// ModelExponents, p^i*log2(p)^j with j ∈ {0, 1, 2} when i ≥ 0 (not the
// constant i = j = 0), j ∈ {0, −1, −2} when i < 0 and also j ∈ {1, 2} when
// i ∈ {−1, −1/2}; and log2(p)^-1, log2(p)^-2.
func ModelTerms() []Term {
	var out []Term
	for _, i := range ModelExponents {
		for _, j := range ModelLogExponents {
			switch {
			case i == 0 && j == 0:
				continue
			case i > 0 && j < 0, i < 0 && j > 0 && i != -1 && i != -0.5:
				continue
			}
			out = append(out, Term{Exp: i, Log: j})
		}
	}
	return out
}

// legacyTerms returns the 62 terms of the search space before the
// negative exponents were widened: exponents {−1, −1/2, 0, 1/4, ..., 3}
// (Extra-P's positive ones without 4/5) × log exponents {0, 1, 2}.
func legacyTerms() []Term {
	var out []Term
	for _, t := range ModelTerms() {
		if t.Log >= 0 && (t.Exp >= 0 || t.Exp == -1 || t.Exp == -0.5) && t.Exp != 0.8 {
			out = append(out, t)
		}
	}
	return out
}

// pairTerms returns the terms paired in the two-term hypotheses: the
// legacy 62 terms plus p^-2, p^-3 (64 terms, 2,016 pairs); the
// finer negative exponents only in one-term hypotheses keep the search,
// and the chance of fitting noise with two terms, small.
func pairTerms() []Term {
	out := legacyTerms()
	out = append([]Term{{Exp: -3}, {Exp: -2}}, out...)
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
	// Criterion is the chosen hypothesis' selection criterion, the
	// leave-one-out error n*ln(PRESS/n) (see FitModel; AICc for the
	// legacy method measured in docs/models.md); only differences between
	// hypotheses of the same data mean something.
	Criterion float64
	// NearTies are the other hypotheses whose Criterion is within
	// ModelNearTie (2) of the chosen one, closest first, at most ModelMaxNearTies (3):
	// models the data support about as well, whose predictions may differ
	// (each with its own fit; their NearTies are empty).
	NearTies []Model

	relative bool      // fitted with relative weights
	k        int       // coefficients
	cols     []Term    // the fitted columns (Term{} the constant)
	cov      []float64 // (XᵀWX)⁻¹, k×k
	s2       float64   // weighted residual variance Σ(w_i*r_i)²/(n−k)
	press    float64   // weighted leave-one-out sum Σ(w_i*r_i/(1−h_ii))²
}

// ModelNearTie is the criterion difference below which another hypothesis
// is reported as a near tie of the chosen one (Burnham and Anderson's rule
// of thumb for AICc, ΔAICc < 2; for n*ln(PRESS/n) it means a leave-one-out
// error within a factor e^(2/n), 1.33 for 7 points).
const ModelNearTie = 2

// ModelMaxNearTies is the largest number of near ties a Model lists.
const ModelMaxNearTies = 3

// PredictionInterval returns the two-sided prediction interval of a new
// measurement at p with the given confidence level (0.95 for 95%):
//
//	ŷ(p) ± t_{n−k, (1+level)/2} · s · sqrt(v(p) + x(p)ᵀ (XᵀWX)⁻¹ x(p))
//
// with W the fit's weights (1/y² for relative ones, 1 otherwise), s² =
// Σ w_i r_i²/(n − k), X the design matrix of the fitted points, x(p) the
// model's columns at p and v(p) the noise variance there in units of s²:
// ŷ(p)² for relative weights (noise proportional to the value), 1
// otherwise. It assumes independent errors, which real timings only
// approximate. NaN, NaN when n ≤ k (no residual degree of freedom) or the
// model was not fitted by FitModel.
func (m Model) PredictionInterval(p, level float64) (lo, hi float64) {
	n, k := m.Points, m.k
	if m.cov == nil || n <= k || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	x := make([]float64, k)
	for c, t := range m.cols {
		x[c] = t.Eval(p)
	}
	lever := quadForm(x, m.cov)
	y := m.Eval(p)
	v := 1.0
	if m.relative {
		v = y * y
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - k)}.Quantile((1 + level) / 2)
	half := q * math.Sqrt(m.s2*(v+lever))
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
// parameter values p (finite, p > 0; y finite; repeated p allowed) and
// returns the chosen hypothesis with its fit errors.
//
// Search space: the constant; with at least ModelMinPointsOneTerm (4)
// distinct p every one-term hypothesis c0 + c1*t (t ∈ ModelTerms, 123
// terms) and every p·y hypothesis (c0 + c1*t)/p for t ∈ ModelTerms with
// non-negative exponents (Extra-P's route for strong scaling: the cost
// p·T follows a growing law); with at least ModelMinPointsTwoTerm (5)
// distinct p every two-term hypothesis c0 + c1*t1 + c2*t2 (t1, t2 among
// the 64 pairTerms, 2,016 pairs). Terms with log2(p) are left out when
// some p < 1 (as in Extra-P), and those with negative powers of log2(p)
// when some p = 1.
//
// Fit: weighted least squares with weights 1/y_i² (relative residuals
// (y − ŷ)/y; |y| below 1e-3*max|y| counts as that floor), by modified
// Gram-Schmidt on the column-scaled design. Relative weights keep the
// points at small p, whose times are 10-100× larger in strong scaling,
// from deciding the model alone.
//
// Selection: the smallest leave-one-out criterion n*ln(PRESS/n), PRESS =
// Σ (w_i*r_i/(1 − h_ii))² the weighted error of each point predicted by
// the hypothesis fitted without it (h the weighted hat matrix), plus
// ModelTwoTermPenalty (4) for two-term hypotheses. PRESS is floored at
// n*(1e-10*max w|y|)² (rounding noise), so hypotheses that all fit exactly
// tie; ties (within 1e-9) keep the hypothesis visited first, in the order
// constant, one-term, p·y, two-term, so the simplest exact one wins. A
// hypothesis is discarded when one of its terms contributes less than
// ModelEpsilon, when its columns are numerically collinear for these p,
// when it has two terms whose coefficients have opposite signs (two large
// terms cancelling inside the measured range are the signature of a fit
// to noise), and when it is not positive everywhere from the smallest
// measured p to 2^20 times the largest: a time is never predicted
// negative. docs/models.md gives the leave-last-out measurements that
// chose this method over AICc and ordinary least squares.
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
	return cachedBasis(p, defaultModelMethod, &fitBases).fit(y), nil
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
	h, valid := prepareHypothesis(p, []Term{{}, {Exp: -1}})
	n := len(p)
	sw := make([]float64, n)
	for i := range sw {
		sw[i] = 1
	}
	fit := newLSFit(n, 2)
	if !valid || !h.solve(t, sw, fit, make([]float64, 2*n)) {
		return math.NaN(), math.NaN(), false
	}
	a, b := fit.coef[0], fit.coef[1]
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

// quadForm returns xᵀ·C·x for the k×k matrix C (row-major, k = len(x)):
// the leverage of a point x under a fit's coefficient covariance C.
func quadForm(x, c []float64) float64 {
	k := len(x)
	var q float64
	for a := range k {
		for e := range k {
			q += x[a] * c[a*k+e] * x[e]
		}
	}
	return q
}
