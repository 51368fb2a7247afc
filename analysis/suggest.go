package analysis

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Suggestion is a parameter value whose measurement would narrow the
// prediction at the target.
type Suggestion struct {
	// P is where to measure.
	P float64
	// HalfBefore and HalfAfter are the half-widths of the 95% confidence
	// interval of the model's value at the target now and with one more
	// measurement at P (unit of y); Reduction = 1 − HalfAfter/HalfBefore.
	HalfBefore, HalfAfter, Reduction float64
	// Time is the model's value at P (the run's expected time, unit of y),
	// Cost = P*Time (process-time, e.g. core-µs).
	Time, Cost float64
}

// SuggestMeasurements ranks the values of p where one more measurement
// would most narrow the confidence interval of m's value at target:
// candidates are the powers of two from the smallest measured p to the
// target, and the target itself, that are not measured. With C =
// (XᵀWX)⁻¹ of the fit, x(p) the model's columns at p and w = 1/ŷ(p)² (the
// relative weights), one measurement at c changes the variance of ŷ(t) by
// (Sherman-Morrison)
//
//	Var_after = s²·(x(t)ᵀCx(t) − w·(x(t)ᵀCx(c))²/(1 + w·x(c)ᵀCx(c)))
//
// The n best (largest reduction, then cheapest) are returned; none when
// the model has no interval (no residual degree of freedom).
func SuggestMeasurements(m Model, measured []float64, target float64, n int) ([]Suggestion, error) {
	if !(target > 0) || math.IsInf(target, 0) || n < 1 {
		return nil, fmt.Errorf("suggest: target p = %v and count %d: want p > 0 and count ≥ 1", target, n)
	}
	k := m.k
	if m.cov == nil || m.Points <= k {
		return nil, nil
	}
	done := map[float64]bool{}
	lo := math.Inf(1)
	for _, p := range measured {
		done[p] = true
		lo = min(lo, p)
	}
	var cands []float64
	for p := math.Exp2(math.Ceil(math.Log2(lo))); p < target; p *= 2 {
		if !done[p] {
			cands = append(cands, p)
		}
	}
	if !done[target] {
		cands = append(cands, target)
	}
	xt := m.columnsAt(target)
	q := distuv95(m.Points - k)
	before := m.quad(xt, xt)
	var out []Suggestion
	for _, c := range cands {
		y := m.Eval(c)
		if !(y > 0) {
			continue
		}
		xc := m.columnsAt(c)
		w := 1 / (y * y)
		after := before - w*m.quad(xt, xc)*m.quad(xt, xc)/(1+w*m.quad(xc, xc))
		s := Suggestion{P: c, HalfBefore: q * math.Sqrt(m.s2*before), HalfAfter: q * math.Sqrt(m.s2*math.Max(after, 0)), Time: y, Cost: c * y}
		if s.HalfBefore > 0 {
			s.Reduction = 1 - s.HalfAfter/s.HalfBefore
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(a, b int) bool {
		if math.Abs(out[a].Reduction-out[b].Reduction) > 1e-9 {
			return out[a].Reduction > out[b].Reduction
		}
		return out[a].Cost < out[b].Cost
	})
	return out[:min(n, len(out))], nil
}

// columnsAt returns the model's columns at p.
func (m Model) columnsAt(p float64) []float64 {
	x := make([]float64, m.k)
	for c, t := range m.cols {
		x[c] = t.Eval(p)
	}
	return x
}

// quad returns aᵀ·cov·b.
func (m Model) quad(a, b []float64) float64 {
	var s float64
	for i := range m.k {
		for j := range m.k {
			s += a[i] * m.cov[i*m.k+j] * b[j]
		}
	}
	return s
}

// distuv95 is the two-sided 95% quantile of Student's t with df degrees
// of freedom.
func distuv95(df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
}
