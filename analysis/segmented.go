package analysis

import (
	"fmt"
	"math"
	"sort"
)

// Segmented models (one parameter): a series whose behaviour changes at
// some p (the time stops falling, a switch from intra- to inter-node
// communication) is fitted as two models, one on each side of a change
// point, when that beats one model over all points.

// SegModel is a two-segment model: Left holds for p < Change (the points
// up to LastLeft), Right from Change on.
type SegModel struct {
	// Left and Right are the segments' models (FitModel's method with at
	// most one term, or the p·y form, on their points).
	Left, Right Model
	// LastLeft and FirstRight are the measured p on both sides of the
	// change; Change is the first p of the right segment.
	LastLeft, FirstRight float64
	// Gain is how much lower the segmented criterion is than the single
	// model's (see FitSegmented); > ModelSegmentGain when chosen.
	Gain float64
}

// segmentMethod fits a segment: FitModel's method without two-term
// hypotheses (a segment has few points; one term, or the p·y form, each).
var segmentMethod = modelMethod{relative: true, pT: true, loo: true, coefPenalty: ModelCoefPenalty, one: ModelTerms()}

// ModelSegmentMinPoints is the fewest distinct p a segment may have.
const ModelSegmentMinPoints = 4

// ModelSegmentGain is what two segments must gain on the criterion over
// one model to be chosen.
const ModelSegmentGain = 6

// Eval returns the segment's model at p: Left below FirstRight, Right from
// it on.
func (s SegModel) Eval(p float64) float64 {
	if p < s.FirstRight {
		return s.Left.Eval(p)
	}
	return s.Right.Eval(p)
}

// String writes "A for p ≤ a; B for p ≥ b".
func (s SegModel) String() string {
	return fmt.Sprintf("%s for p ≤ %s; %s for p ≥ %s", s.Left, formatNum(s.LastLeft), s.Right, formatNum(s.FirstRight))
}

// FitSegmented fits the values y at p (as FitModel) with one model and
// with two segments split between every pair of consecutive distinct p
// that leaves each segment ModelSegmentMinPoints distinct values, and
// returns the best split when its criterion
//
//	n*ln((PRESS_left + PRESS_right)/n) + 2*(k_left + k_right − 1) + 2
//
// (the leave-one-out error of each point within its segment, 2 per
// coefficient as FitModel charges, 2 for the change point) is below the
// single model's n*ln(PRESS/n) + 2*(k − 1) by more than ModelSegmentGain;
// ok is false otherwise (one model is enough, or too few points).
func FitSegmented(p, y []float64) (seg SegModel, ok bool, err error) {
	one, err := FitModel(p, y)
	if err != nil {
		return SegModel{}, false, err
	}
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	xs, ys := make([]float64, len(p)), make([]float64, len(p))
	for i, j := range idx {
		xs[i], ys[i] = p[j], y[j]
	}
	var distinct []float64
	for i, v := range xs {
		if i == 0 || v != xs[i-1] {
			distinct = append(distinct, v)
		}
	}
	n := float64(len(p))
	base := segCriterion(one.press, n, coefCount(one))
	best := SegModel{Gain: math.Inf(-1)}
	for c := ModelSegmentMinPoints; c <= len(distinct)-ModelSegmentMinPoints; c++ {
		cut := sort.SearchFloat64s(xs, distinct[c])
		l := newModelBasisWith(xs[:cut], segmentMethod).fit(ys[:cut])
		r := newModelBasisWith(xs[cut:], segmentMethod).fit(ys[cut:])
		crit := segCriterion(l.press+r.press, n, coefCount(l)+coefCount(r)) + ModelCoefPenalty
		if g := base - crit; g > best.Gain {
			best = SegModel{Left: l, Right: r, LastLeft: distinct[c-1], FirstRight: distinct[c], Gain: g}
		}
	}
	return best, best.Gain > ModelSegmentGain, nil
}

// segCriterion returns n*ln(press/n) + ModelCoefPenalty*(k − 1).
func segCriterion(press, n float64, k int) float64 {
	return n*math.Log(max(press, 1e-300)/n) + ModelCoefPenalty*float64(k-1)
}

// coefCount returns the number of coefficients of m (c0 counts when the
// model has a constant column).
func coefCount(m Model) int { return max(m.k, 1) }
