package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// Multi-parameter performance models in the manner of Extra-P's
// multi-parameter modeler (Calotoiu et al., "Fast multi-parameter
// performance modeling", CLUSTER'16): the terms of each parameter are
// found by the single-parameter search (FitModel) on every line of the
// measurement grid along that parameter, and the model is then chosen
// among the additive and multiplicative combinations of those terms.

// MultiTerm is a product of one single-parameter term per parameter
// (Term{} = 1 for a parameter the product does not depend on).
type MultiTerm []Term

// Eval returns Π_k t_k(x_k).
func (mt MultiTerm) Eval(x []float64) float64 {
	v := 1.0
	for k, t := range mt {
		if t != (Term{}) {
			v *= t.Eval(x[k])
		}
	}
	return v
}

// String writes the product with the parameter names ("p^-1 * n").
func (mt MultiTerm) String(names []string) string {
	var parts []string
	for k, t := range mt {
		if t != (Term{}) {
			parts = append(parts, strings.ReplaceAll(t.String(), "p", names[k]))
		}
	}
	if len(parts) == 0 {
		return "1"
	}
	return strings.Join(parts, " * ")
}

// MultiModel is a fitted multi-parameter model y = Constant + Σ
// Coefs[i]*Terms[i](x).
type MultiModel struct {
	// Names are the parameters, in coordinate order.
	Names []string
	// Constant is c0; Terms and Coefs the other terms.
	Constant float64
	Terms    []MultiTerm
	Coefs    []float64
	// Points is the number of distinct parameter points fitted;
	// MinReps the fewest repetitions at one of them.
	Points, MinReps int
	// RSS is Σ(y − ŷ)² over the points' reduced values; AdjR2 and SMAPE
	// (percent) as in Model.
	RSS, AdjR2, SMAPE float64
	// Criterion is the leave-one-out criterion of the choice (as FitModel's).
	Criterion float64
	// RepNoise is the pooled relative standard deviation of the
	// repetitions (sqrt of the mean of their relative variances), NaN
	// when no point has two repetitions.
	RepNoise float64

	cols []MultiTerm
	cov  []float64
	s2   float64
}

// Eval returns the model's value at x.
func (m MultiModel) Eval(x []float64) float64 {
	v := m.Constant
	for i, t := range m.Terms {
		v += m.Coefs[i] * t.Eval(x)
	}
	return v
}

// String writes "c0 + c1 * p^-1 * n + c2 * log2(p)".
func (m MultiModel) String() string {
	var b strings.Builder
	if m.Constant != 0 || len(m.Terms) == 0 {
		b.WriteString(fmt.Sprintf("%.6g", m.Constant))
	}
	for i, t := range m.Terms {
		c := m.Coefs[i]
		switch {
		case b.Len() == 0 && c < 0:
			b.WriteString("-")
		case b.Len() == 0:
		case c < 0:
			b.WriteString(" - ")
		default:
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%.6g * %s", math.Abs(c), t.String(m.Names))
	}
	return b.String()
}

// PredictionInterval returns the interval of a new measurement at x at the
// given level: ŷ ± t_{n−k} sqrt(σ²ŷ² + s²·x0ᵀ(XᵀWX)⁻¹x0), σ the repetitions'
// relative noise (RepNoise; the residuals' s when there is none) and s²
// the weighted residual variance of the fitted points.
func (m MultiModel) PredictionInterval(x []float64, level float64) (lo, hi float64) {
	k := len(m.cols)
	if m.cov == nil || m.Points <= k || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	x0 := make([]float64, k)
	for c, t := range m.cols {
		x0[c] = t.Eval(x)
	}
	lever := quadForm(x0, m.cov)
	y := m.Eval(x)
	noise := m.RepNoise
	if !defined(noise) {
		noise = math.Sqrt(m.s2)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m.Points - k)}.Quantile((1 + level) / 2)
	half := q * math.Sqrt(noise*noise*y*y+m.s2*lever)
	return y - half, y + half
}

// MultiReduce selects how repetitions are reduced: the median or the mean.
type MultiReduce int

// Reductions of repetitions.
const (
	ReduceMedian MultiReduce = iota
	ReduceMean
)

// FitMultiModel fits the model of values measured at parameter points
// (x[i] has one coordinate per name, > 0; reps[i] the repetitions at
// x[i], at least one; equal points are merged). The repetitions of each
// point are reduced (median or mean); then
//
//  1. for each parameter, the hypotheses of the single-parameter search
//     are scored on all the lines of points along it at once (see
//     candidateTerms), and the terms of the best three are that
//     parameter's candidate terms;
//  2. the hypotheses are c0 plus one or two columns among the terms of
//     each parameter alone (multiTerms) and the products of candidate
//     terms across parameters (the additive and multiplicative
//     combinations, see combineColumns), fitted by weighted least
//     squares on relative errors and chosen by the leave-one-out criterion
//     n*ln(PRESS/n) + ModelCoefPenalty per coefficient, never negative at
//     the measured points or at 2^20 times the largest coordinates.
func FitMultiModel(names []string, x [][]float64, reps [][]float64, reduce MultiReduce) (MultiModel, error) {
	pts, ys, minReps, noise, err := reducePoints(names, x, reps, reduce)
	if err != nil {
		return MultiModel{}, err
	}
	best := multiSearch(pts, ys, multiColumns(names, pts, ys))
	m := describeMulti(names, pts, ys, best)
	m.MinReps, m.RepNoise = minReps, noise
	return m, nil
}

// multiColumns returns the columns of the pair search of ys at pts: the
// candidate terms of each parameter, widened, combined, and shortened to
// at most multiMaxColumns.
func multiColumns(names []string, pts [][]float64, ys []float64) []MultiTerm {
	cands := candidateTerms(names, pts, ys)
	for k := range cands {
		cands[k] = widenCandidates(cands[k][:min(multiWiden, len(cands[k]))])
	}
	cols := combineColumns(len(names), cands)
	for len(cols) > multiMaxColumns { // bound the pair search (≈ cols²/2 fits)
		longest := 0
		for k := range cands {
			if len(cands[k]) > len(cands[longest]) {
				longest = k
			}
		}
		if len(cands[longest]) <= 1 {
			break
		}
		cands[longest] = cands[longest][:len(cands[longest])-1]
		cols = combineColumns(len(names), cands)
	}
	return cols
}

// reducePoints merges equal points and reduces their repetitions; it
// returns the pooled relative noise of the repetitions.
func reducePoints(names []string, x, reps [][]float64, reduce MultiReduce) (pts [][]float64, ys []float64, minReps int, noise float64, err error) {
	if len(x) != len(reps) || len(x) == 0 || len(names) == 0 {
		return nil, nil, 0, 0, fmt.Errorf("multi-parameter model: %d points, %d value lists, %d parameters", len(x), len(reps), len(names))
	}
	merged := map[string]int{}
	var vals [][]float64
	for i, pt := range x {
		if len(pt) != len(names) {
			return nil, nil, 0, 0, fmt.Errorf("multi-parameter model: point %v has %d coordinates for %d parameters", pt, len(pt), len(names))
		}
		for k, v := range pt {
			if !(v > 0) || math.IsInf(v, 0) {
				return nil, nil, 0, 0, fmt.Errorf("multi-parameter model: %s = %v: want a finite number > 0", names[k], v)
			}
		}
		for _, v := range reps[i] {
			if !defined(v) {
				return nil, nil, 0, 0, fmt.Errorf("multi-parameter model: value %v at %v is not a finite number", v, pt)
			}
		}
		key := fmt.Sprint(pt)
		j, ok := merged[key]
		if !ok {
			j = len(pts)
			merged[key] = j
			pts, vals = append(pts, pt), append(vals, nil)
		}
		vals[j] = append(vals[j], reps[i]...)
	}
	minReps = math.MaxInt
	var relVar float64
	var pooled int
	for j, v := range vals {
		if len(v) == 0 {
			return nil, nil, 0, 0, fmt.Errorf("multi-parameter model: no value at %v", pts[j])
		}
		minReps = min(minReps, len(v))
		y := medianOf(v)
		if reduce == ReduceMean {
			y = meanOf(v)
		}
		ys = append(ys, y)
		if len(v) > 1 && meanOf(v) != 0 {
			mu := meanOf(v)
			var s float64
			for _, e := range v {
				s += (e - mu) * (e - mu)
			}
			relVar += s / float64(len(v)-1) / (mu * mu)
			pooled++
		}
	}
	noise = math.NaN()
	if pooled > 0 {
		noise = math.Sqrt(relVar / float64(pooled))
	}
	return pts, ys, minReps, noise, nil
}

// multiExponents are the exponents of the multi-parameter search: halves
// and thirds only, with a factor log2(p) only for the integer exponents 0
// to 3 (on a line of 5 points at a few percent of noise, p^(3/4)*log2(p)
// and p, or p^(1/3)*log2(p) and p^(1/2), cannot be told apart, and a
// dense set only adds wrong choices).
var multiExponents = []float64{-2, -3.0 / 2, -1, -2.0 / 3, -1.0 / 2, -1.0 / 3, 0, 1.0 / 3, 1.0 / 2, 2.0 / 3, 1, 3.0 / 2, 2, 5.0 / 2, 3}

// multiTerms returns the terms of multiExponents.
func multiTerms() []Term {
	var out []Term
	for _, i := range multiExponents {
		for _, j := range []int{0, 1} {
			if i == 0 && j == 0 || j > 0 && i != math.Trunc(i) || i < 0 && j > 0 {
				continue
			}
			out = append(out, Term{Exp: i, Log: j})
		}
	}
	return out
}

// multiLineMethod is the single-parameter method of the line search.
var multiLineMethod = modelMethod{relative: true, loo: true, coefPenalty: ModelCoefPenalty, twoPenalty: ModelTwoTermPenalty, one: multiTerms(), two: multiTerms()}

// multiMaxTerms is the most candidate terms kept per parameter.
const multiMaxTerms = 6

// multiTopHyps is how many of the best line hypotheses give candidate terms.
const multiTopHyps = 10

// candidateTerms returns, per parameter, the terms of the hypotheses that
// fit best along that parameter on every line of the grid at once: each
// hypothesis of the single-parameter search is fitted on each line (the
// other coordinates fixed; the largest set of lines sharing the same
// values, at least ModelMinPointsOneTerm of them), its leave-one-out
// criteria are summed over the lines, and the terms of the multiTopHyps (10) best
// hypotheses, best first, are kept (at most multiMaxTerms = 6).
func candidateTerms(names []string, pts [][]float64, ys []float64) [][]Term {
	out := make([][]Term, len(names))
	for k := range names {
		xs, lines := gridLines(pts, ys, k)
		if len(lines) == 0 {
			continue
		}
		b := lineBasis(xs)
		type scored struct {
			hi    int
			total float64
		}
		var sc []scored
		n := len(xs)
		f := newLSFit(n, 3)
		q := make([]float64, 3*n)
		for hi := 1; hi < len(b.hyps); hi++ {
			h := &b.hyps[hi]
			total := 0.0
			for _, y := range lines {
				sw, floor := b.lineWeights(y)
				if !h.solve(y, sw, f, q) || !b.admissible(h, f, y, maxAbsOf(y)) {
					total = math.Inf(1)
					break
				}
				total += b.criterion(h, f, sw, floor)
			}
			if defined(total) {
				sc = append(sc, scored{hi, total})
			}
		}
		sort.SliceStable(sc, func(a, c int) bool { return sc[a].total < sc[c].total })
		seen := map[Term]bool{}
		for _, s := range sc[:min(multiTopHyps, len(sc))] {
			for c, t := range b.hyps[s.hi].cols {
				if c != b.hyps[s.hi].konst && !seen[t] && len(out[k]) < multiMaxTerms {
					seen[t] = true
					out[k] = append(out[k], t)
				}
			}
		}
	}
	return out
}

// gridLines returns the lines along parameter k: the largest group of
// lines (points sharing the other coordinates) that have the same values
// of k, at least ModelMinPointsOneTerm of them; xs are those values
// (sorted) and lines the reduced values at them.
func gridLines(pts [][]float64, ys []float64, k int) (xs []float64, lines [][]float64) {
	byRest := map[string]map[float64]float64{}
	for i, pt := range pts {
		rest := fmt.Sprint(append(append([]float64(nil), pt[:k]...), pt[k+1:]...))
		if byRest[rest] == nil {
			byRest[rest] = map[float64]float64{}
		}
		byRest[rest][pt[k]] = ys[i]
	}
	groups := map[string][][]float64{}
	keys := map[string][]float64{}
	for _, line := range byRest {
		var x []float64
		for v := range line {
			x = append(x, v)
		}
		sort.Float64s(x)
		if len(x) < ModelMinPointsOneTerm {
			continue
		}
		y := make([]float64, len(x))
		for i, v := range x {
			y[i] = line[v]
		}
		key := fmt.Sprint(x)
		groups[key], keys[key] = append(groups[key], y), x
	}
	bestKey := ""
	for key, g := range groups {
		if b := groups[bestKey]; bestKey == "" || len(g) > len(b) || len(g) == len(b) && (len(keys[key]) > len(keys[bestKey]) || len(keys[key]) == len(keys[bestKey]) && key < bestKey) {
			bestKey = key
		}
	}
	if bestKey == "" {
		return nil, nil
	}
	lines = groups[bestKey]
	sort.Slice(lines, func(a, c int) bool { return fmt.Sprint(lines[a]) < fmt.Sprint(lines[c]) })
	return keys[bestKey], lines
}

// maxAbsOf returns max |v|.
func maxAbsOf(y []float64) float64 {
	var m float64
	for _, v := range y {
		m = max(m, math.Abs(v))
	}
	return m
}

// lineWeights returns the weights and the criterion floor of y, as fit.
func (b *modelBasis) lineWeights(y []float64) (sw []float64, floor float64) {
	maxAbs := maxAbsOf(y)
	sw = b.weights(y, maxAbs)
	var maxW float64
	for i, v := range y {
		maxW = max(maxW, sw[i]*math.Abs(v))
	}
	return sw, float64(len(y)) * (modelFloor * maxW) * (modelFloor * maxW)
}

// combineColumns returns the candidate columns: every term of
// multiTerms alone for each parameter (additive terms are searched in the
// whole coarse set: a term along one parameter may matter only where the
// others make it visible), and every product of one candidate term from
// each of two or more parameters (the multiplicative combinations).
func combineColumns(n int, cands [][]Term) []MultiTerm {
	var out []MultiTerm
	for k := range n {
		for _, t := range multiTerms() {
			col := make(MultiTerm, n)
			col[k] = t
			out = append(out, col)
		}
	}
	var rec func(k int, cur MultiTerm, used int)
	rec = func(k int, cur MultiTerm, used int) {
		if k == n {
			if used > 1 {
				out = append(out, append(MultiTerm(nil), cur...))
			}
			return
		}
		cur[k] = Term{}
		rec(k+1, cur, used)
		for _, t := range cands[k] {
			cur[k] = t
			rec(k+1, cur, used+1)
		}
	}
	rec(0, make(MultiTerm, n), 0)
	return out
}

// multiMaxColumns bounds the columns of the pair search (its cost grows
// with their square): with three or four parameters the candidate lists
// are shortened, the least supported terms first, until it holds.
const multiMaxColumns = 400

// multiWiden is how many of a parameter's best candidate terms are widened
// to their neighbours (the product columns grow with its square).
const multiWiden = multiMaxTerms

// widenCandidates adds to the candidate terms of a parameter the terms of
// multiTerms next to each (the neighbouring exponents with the same log
// factor), since the line search may stop one step off.
func widenCandidates(ts []Term) []Term {
	all := multiTerms()
	seen := map[Term]bool{}
	var out []Term
	for _, t := range ts {
		for i, a := range all {
			if a != t {
				continue
			}
			for _, j := range []int{i - 1, i, i + 1} {
				if j >= 0 && j < len(all) && all[j].Log == t.Log && !seen[all[j]] {
					seen[all[j]] = true
					out = append(out, all[j])
				}
			}
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// basisCache holds prepared bases by their parameter values, at most
// maxCachedBases of them (emptied when full): series that share their
// parameter values (a grid's lines, the regions of one study) share them.
type basisCache struct {
	sync.Mutex
	m map[string]*modelBasis
}

// maxCachedBases bounds a basisCache.
const maxCachedBases = 64

var (
	fitBases  = basisCache{m: map[string]*modelBasis{}} // FitModel's
	lineBases = basisCache{m: map[string]*modelBasis{}} // the line search's
)

// cachedBasis returns the basis of method m for xs from c, preparing it
// when absent.
func cachedBasis(xs []float64, m modelMethod, c *basisCache) *modelBasis {
	key := fmt.Sprint(xs)
	c.Lock()
	b, ok := c.m[key]
	c.Unlock()
	if ok {
		return b
	}
	b = newModelBasisWith(xs, m)
	c.Lock()
	if len(c.m) >= maxCachedBases {
		clear(c.m)
	}
	c.m[key] = b
	c.Unlock()
	return b
}

// lineBasis returns the (cached) basis of multiLineMethod for xs.
func lineBasis(xs []float64) *modelBasis { return cachedBasis(xs, multiLineMethod, &lineBases) }
