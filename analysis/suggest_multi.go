package analysis

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// MultiSuggestion is a set of runs at parameter points whose measurement
// would together most narrow the prediction of a multi-parameter model at
// a target point.
type MultiSuggestion struct {
	// Points are where to measure (one coordinate per parameter), the run
	// that narrows the interval most first, then each the one that adds
	// most to those before it.
	Points [][]float64
	// Time is each run's expected value from the model (unit of y); Cost
	// is Time times the run's process count (the parameter named "p"),
	// Time when no parameter is p.
	Time, Cost []float64
	// HalfAfter[i] is the half-width of the 95% prediction interval at the
	// target after the runs 0..i; HalfBefore is the half-width now;
	// Reduction = 1 − HalfAfter[last]/HalfBefore.
	HalfAfter             []float64
	HalfBefore, Reduction float64
	// ConfAfter and ConfBefore are the same for the 95% confidence
	// interval of the model's value (the part the runs narrow; the
	// prediction interval also holds the noise of one run).
	ConfAfter  []float64
	ConfBefore float64
	// Candidates is the number of unmeasured grid points compared;
	// Exhaustive says every set of len(Points) of them was compared
	// (false: more than multiSuggestMaxSets sets, chosen one run at a
	// time).
	Candidates int
	Exhaustive bool
}

// multiSuggestMaxPoints bounds the candidate grid of SuggestMultiMeasurements.
const multiSuggestMaxPoints = 4096

// multiSuggestMaxSets is the most sets of candidates compared exhaustively.
const multiSuggestMaxSets = 200000

// SuggestMultiMeasurements chooses the n runs whose measurement would most
// narrow the 95% prediction interval of m at target. Candidates are the
// unmeasured points of the grid whose values along each parameter are its
// measured values, the powers of two from its smallest measured value up
// to the target's, and the target's (at most multiSuggestMaxPoints), with
// a positive model value. With C = (XᵀWX)⁻¹ of the fit and x(·) the
// model's columns, a run at c of weight 1/ŷ(c)² (the fit's relative
// weights) turns C into C − u·uᵀ/(ŷ(c)² + x(c)ᵀu), u = C·x(c)
// (Sherman-Morrison); after the runs, the target's leverage is
// x(t)ᵀCx(t) and the half-width q·sqrt(σ²ŷ(t)² + s²·leverage) with σ, s² and the t
// quantile q of the current fit (see MultiModel.PredictionInterval). Every
// set of n candidates is compared when there are at most
// multiSuggestMaxSets sets, else the runs are added one at a time, each
// the one that narrows most; ties (within 1e-12 of the leverage) go to the
// cheaper set. No suggestion when the model has no interval.
func SuggestMultiMeasurements(m MultiModel, measured [][]float64, target []float64, n int) (MultiSuggestion, error) {
	if len(target) != len(m.Names) || n < 1 {
		return MultiSuggestion{}, fmt.Errorf("suggest: target %v for %d parameters and count %d: want one coordinate per parameter and count ≥ 1", target, len(m.Names), n)
	}
	for k, v := range target {
		if !(v > 0) || math.IsInf(v, 0) {
			return MultiSuggestion{}, fmt.Errorf("suggest: target %s = %v: want a finite number > 0", m.Names[k], v)
		}
	}
	k := len(m.cols)
	if m.cov == nil || m.Points <= k {
		return MultiSuggestion{}, nil
	}
	pts, err := suggestGrid(measured, target)
	if err != nil {
		return MultiSuggestion{}, err
	}
	sp := newSuggestProblem(m, pts, target)
	out := MultiSuggestion{Candidates: len(sp.pts), HalfBefore: sp.half(sp.lever0, true), ConfBefore: sp.half(sp.lever0, false)}
	if len(sp.pts) == 0 {
		return out, nil
	}
	n = min(n, len(sp.pts))
	var set []int
	if sets := binomial(len(sp.pts), n); sets <= multiSuggestMaxSets {
		set, out.Exhaustive = sp.exhaustive(n), true
	} else {
		set = sp.greedy(nil, n)
	}
	for i, c := range sp.greedy(set, n) {
		out.Points = append(out.Points, sp.pts[c])
		out.Time, out.Cost = append(out.Time, sp.y[c]), append(out.Cost, sp.cost[c])
		lv := sp.lever(sp.order[:i+1])
		out.HalfAfter, out.ConfAfter = append(out.HalfAfter, sp.half(lv, true)), append(out.ConfAfter, sp.half(lv, false))
	}
	if out.HalfBefore > 0 {
		out.Reduction = 1 - out.HalfAfter[len(out.HalfAfter)-1]/out.HalfBefore
	}
	return out, nil
}

// suggestGrid returns the unmeasured points of the candidate grid (see
// SuggestMultiMeasurements), in lexicographic order.
func suggestGrid(measured [][]float64, target []float64) ([][]float64, error) {
	if len(measured) == 0 {
		return nil, fmt.Errorf("suggest: no measured point")
	}
	axes := make([][]float64, len(target))
	total := 1
	for k := range target {
		seen := map[float64]bool{target[k]: true}
		axes[k] = []float64{target[k]}
		lo := math.Inf(1)
		for _, pt := range measured {
			if len(pt) != len(target) {
				return nil, fmt.Errorf("suggest: measured point %v has %d coordinates for %d parameters", pt, len(pt), len(target))
			}
			lo = min(lo, pt[k])
			if !seen[pt[k]] {
				seen[pt[k]] = true
				axes[k] = append(axes[k], pt[k])
			}
		}
		for v := math.Exp2(math.Ceil(math.Log2(lo))); v < target[k] && len(axes[k]) <= multiSuggestMaxPoints; v *= 2 {
			if !seen[v] {
				seen[v] = true
				axes[k] = append(axes[k], v)
			}
		}
		sort.Float64s(axes[k])
		total *= len(axes[k])
		if total > multiSuggestMaxPoints {
			return nil, fmt.Errorf("suggest: the candidate grid has more than %d points (parameter %d has %d values): give a nearer --predict", multiSuggestMaxPoints, k+1, len(axes[k]))
		}
	}
	done := map[string]bool{}
	for _, pt := range measured {
		done[fmt.Sprint(pt)] = true
	}
	var out [][]float64
	cur := make([]float64, len(axes))
	var rec func(k int)
	rec = func(k int) {
		if k == len(axes) {
			if !done[fmt.Sprint(cur)] {
				out = append(out, slices.Clone(cur))
			}
			return
		}
		for _, v := range axes[k] {
			cur[k] = v
			rec(k + 1)
		}
	}
	rec(0)
	return out, nil
}

// suggestProblem holds the candidates of one suggestion: their columns
// x, model values y, weights' inverses d = ŷ² and costs.
type suggestProblem struct {
	m       MultiModel
	pts     [][]float64
	x       [][]float64
	d       []float64
	y, cost []float64
	xt      []float64 // the target's columns
	lever0  float64
	yt      float64
	work    []float64 // k×k, the covariance being updated
	u       []float64
	order   []int // the last greedy order
}

// newSuggestProblem prepares the candidates pts with a positive model
// value.
func newSuggestProblem(m MultiModel, pts [][]float64, target []float64) *suggestProblem {
	k := len(m.cols)
	sp := &suggestProblem{m: m, yt: m.Eval(target), work: make([]float64, k*k), u: make([]float64, k)}
	sp.xt = sp.columns(target)
	sp.lever0 = quadForm(sp.xt, m.cov)
	pIdx := slices.IndexFunc(m.Names, func(s string) bool { return strings.EqualFold(s, "p") })
	for _, pt := range pts {
		y := m.Eval(pt)
		if !(y > 0) {
			continue
		}
		cost := y
		if pIdx >= 0 {
			cost *= pt[pIdx]
		}
		sp.pts, sp.x, sp.d = append(sp.pts, pt), append(sp.x, sp.columns(pt)), append(sp.d, y*y)
		sp.y, sp.cost = append(sp.y, y), append(sp.cost, cost)
	}
	return sp
}

// columns returns the model's columns at pt.
func (sp *suggestProblem) columns(pt []float64) []float64 {
	x := make([]float64, len(sp.m.cols))
	for c, t := range sp.m.cols {
		x[c] = t.Eval(pt)
	}
	return x
}

// lever returns the target's leverage x(t)ᵀC'x(t) after runs at the
// candidates set, adding them to C one at a time (Sherman-Morrison: with
// u = C·x(c), C ← C − u·uᵀ/(ŷ(c)² + x(c)ᵀu)).
func (sp *suggestProblem) lever(set []int) float64 {
	copy(sp.work, sp.m.cov)
	for _, c := range set {
		sp.add(c)
	}
	return quadForm(sp.xt, sp.work)
}

// add updates the covariance in work with a run at candidate c.
func (sp *suggestProblem) add(c int) {
	k, x, w, u := len(sp.xt), sp.x[c], sp.work, sp.u
	for i := range k {
		u[i] = 0
		for j := range k {
			u[i] += w[i*k+j] * x[j]
		}
	}
	den := sp.d[c] + dot(x, u)
	for i := range k {
		for j := range k {
			w[i*k+j] -= u[i] * u[j] / den
		}
	}
}

// half returns the 95% prediction half-width at the target for leverage
// lv, or with pred false the confidence half-width q·sqrt(s²·lv).
func (sp *suggestProblem) half(lv float64, pred bool) float64 {
	m := sp.m
	noise := m.RepNoise
	if !defined(noise) {
		noise = math.Sqrt(m.s2)
	}
	if !pred {
		noise = 0
	}
	return distuv95(m.Points-len(m.cols)) * math.Sqrt(noise*noise*sp.yt*sp.yt+m.s2*lv)
}

// better says whether a set of leverage lv and cost c beats one of lv0
// and c0: a smaller leverage by more than 1e-12 of lever0, else a smaller
// cost.
func (sp *suggestProblem) better(lv, c, lv0, c0 float64) bool {
	if tol := 1e-12 * sp.lever0; math.Abs(lv-lv0) > tol {
		return lv < lv0
	}
	return c < c0
}

// exhaustive returns the best set of n candidates, comparing all of them
// (in lexicographic order of their indices; the first best is kept).
func (sp *suggestProblem) exhaustive(n int) []int {
	set := make([]int, n)
	for i := range set {
		set[i] = i
	}
	var best []int
	bestLv, bestCost := math.Inf(1), math.Inf(1)
	for {
		lv, c := sp.lever(set), sp.setCost(set)
		if best == nil || sp.better(lv, c, bestLv, bestCost) {
			best, bestLv, bestCost = slices.Clone(set), lv, c
		}
		i := n - 1
		for i >= 0 && set[i] == len(sp.pts)-n+i {
			i--
		}
		if i < 0 {
			return best
		}
		set[i]++
		for j := i + 1; j < n; j++ {
			set[j] = set[j-1] + 1
		}
	}
}

// setCost returns the total cost of the candidates set.
func (sp *suggestProblem) setCost(set []int) float64 {
	var c float64
	for _, i := range set {
		c += sp.cost[i]
	}
	return c
}

// greedy adds n candidates one at a time, each the one (among from, or
// all when from is nil) that narrows most with those before it, and
// returns them in that order (also kept in sp.order).
func (sp *suggestProblem) greedy(from []int, n int) []int {
	pool := from
	if pool == nil {
		pool = make([]int, len(sp.pts))
		for i := range pool {
			pool[i] = i
		}
	}
	k := len(sp.xt)
	cov := slices.Clone(sp.m.cov) // with the runs chosen so far
	var order []int
	used := map[int]bool{}
	for len(order) < n {
		bi, bestLv, bestCost := -1, math.Inf(1), math.Inf(1)
		for _, c := range pool {
			if used[c] {
				continue
			}
			copy(sp.work, cov)
			sp.add(c)
			if lv := quadForm(sp.xt, sp.work); bi < 0 || sp.better(lv, sp.cost[c], bestLv, bestCost) {
				bi, bestLv, bestCost = c, lv, sp.cost[c]
			}
		}
		copy(sp.work, cov)
		sp.add(bi)
		copy(cov, sp.work[:k*k])
		used[bi] = true
		order = append(order, bi)
	}
	sp.order = order
	return order
}

// binomial returns C(m, n), capped at math.MaxInt64/2 on overflow.
func binomial(m, n int) int {
	r := 1
	for i := 1; i <= n; i++ {
		if r > math.MaxInt64/2/(m-n+i) {
			return math.MaxInt64 / 2
		}
		r = r * (m - n + i) / i
	}
	return r
}
