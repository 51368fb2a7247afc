package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// EDivisiveOptions tune change-point detection by E-divisive means.
type EDivisiveOptions struct {
	// Significance is the permutation test's level: a split is kept when
	// its p-value is at most this (default 0.005).
	Significance float64
	// Permutations bounds the permutations per test (default 399; at most
	// 10,000). The test stops early once the split cannot be significant.
	Permutations int
	// MinSize is the fewest points a segment may have (default 3, ≥ 2).
	MinSize int
	// MaxChanges bounds the change points per series (default 10).
	MaxChanges int
	// Seed makes the permutations reproducible.
	Seed uint64
}

// ChangePoint is a change found in a series.
type ChangePoint struct {
	// Index is the position of the first value of the new segment.
	Index int
	// Q is the split's scaled energy statistic (see EDivisive), in the
	// series' unit.
	Q float64
	// PValue is the permutation test's p-value, (exceed+1)/(tried+1).
	PValue float64
}

// withDefaults fills the zero fields and checks the others.
func (o EDivisiveOptions) withDefaults() (EDivisiveOptions, error) {
	if o.Significance == 0 {
		o.Significance = 0.005
	}
	if o.Permutations == 0 {
		o.Permutations = 399
	}
	if o.MinSize == 0 {
		o.MinSize = 3
	}
	if o.MaxChanges == 0 {
		o.MaxChanges = 10
	}
	switch {
	case !(o.Significance > 0 && o.Significance < 1):
		return o, fmt.Errorf("significance %v: want a level in (0, 1)", o.Significance)
	case o.Permutations < 1 || o.Permutations > 10000:
		return o, fmt.Errorf("permutations %d: want 1 to 10000", o.Permutations)
	case o.MinSize < 2:
		return o, fmt.Errorf("minimum segment size %d: want at least 2", o.MinSize)
	case o.MaxChanges < 1:
		return o, fmt.Errorf("maximum number of changes %d: want at least 1", o.MaxChanges)
	}
	return o, nil
}

// EDivisive finds the change points of x by E-divisive means (Matteson &
// James, "A nonparametric approach for multiple change point analysis of
// multivariate data", JASA 2014), the method of MongoDB's
// signal-processing-algorithms and of Hunter. It suits noisy performance
// histories: it assumes no distribution (run-to-run noise is skewed and
// heavy-tailed), compares whole segments rather than neighbouring points
// (so one outlier does not make a change), finds any number of changes, and
// says how unlikely each is under "no change" by a permutation test rather
// than by a threshold tuned by hand.
//
// For a split of a segment into X = (x_1..x_m) and Y = (y_1..y_k), with
// α = 1, the energy distance estimate is
//
//	Ê = 2/(m·k)·Σ|x_i − y_j| − Σ_{i<i'}|x_i − x_i'|/C(m,2) − Σ_{j<j'}|y_j − y_j'|/C(k,2)
//
// and the split's statistic Q = m·k/(m+k)·Ê. Each step takes, over the
// current segments, the split with the largest Q (segments of at least
// MinSize points), and tests it: the segment's values are permuted at
// random (Permutations times, seeded) and the best Q of each permutation
// compared with the observed one; p = (exceed+1)/(tried+1). A split with
// p ≤ Significance is kept and the search goes on; the first one that is
// not significant ends it. NaN values are not allowed. The result is in
// ascending Index order.
func EDivisive(x []float64, opt EDivisiveOptions) ([]ChangePoint, error) {
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("change points: value %d is %v", i, v)
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x65646976))
	bounds := []int{0, len(x)}
	var out []ChangePoint
	buf := make([]float64, len(x))
	for len(out) < o.MaxChanges {
		seg, tau, q := -1, -1, math.Inf(-1)
		for s := 0; s+1 < len(bounds); s++ {
			t, v := bestSplit(x[bounds[s]:bounds[s+1]], o.MinSize)
			if t >= 0 && v > q {
				seg, tau, q = s, bounds[s]+t, v
			}
		}
		if seg < 0 {
			break
		}
		p := permutationP(x[bounds[seg]:bounds[seg+1]], q, o, rng, buf)
		if p > o.Significance {
			break
		}
		out = append(out, ChangePoint{Index: tau, Q: q, PValue: p})
		bounds = append(bounds, tau)
		sort.Ints(bounds)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out, nil
}

// permutationP is the p-value of the best split statistic q of segment z:
// the share of random permutations of z whose best split is at least q,
// as (exceed+1)/(tried+1). It stops as soon as the p-value must exceed the
// significance level.
func permutationP(z []float64, q float64, o EDivisiveOptions, rng *rand.Rand, buf []float64) float64 {
	w := buf[:len(z)]
	copy(w, z)
	stop := int(math.Floor(o.Significance*float64(o.Permutations+1))) - 1 // more exceedances than this: p > level
	exceed, tried := 0, 0
	for tried < o.Permutations {
		rng.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
		tried++
		if _, v := bestSplit(w, o.MinSize); v >= q*(1-1e-12) {
			exceed++
			if exceed > stop {
				break
			}
		}
	}
	return float64(exceed+1) / float64(tried+1)
}

// bestSplit returns the split τ of z (X = z[:τ], Y = z[τ:]) with the
// largest statistic Q, both parts having at least minSize values, and that
// Q; (−1, −Inf) when z is too short. It runs in O(n²) time: the sums of
// distances within X, within Y and across are updated as τ moves.
func bestSplit(z []float64, minSize int) (int, float64) {
	n := len(z)
	if n < 2*minSize {
		return -1, math.Inf(-1)
	}
	// row[i] = Σ_{j<i}|z_i − z_j| (distances to earlier values), col[i] =
	// Σ_{j>i}|z_i − z_j| (to later ones); total = Σ_{i<j}|z_i − z_j|.
	row := make([]float64, n)
	col := make([]float64, n)
	total := 0.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d := math.Abs(z[i] - z[j])
			col[i] += d
			row[j] += d
			total += d
		}
	}
	wx, wy := 0.0, total // within X = z[:τ], within Y = z[τ:]
	best, bestQ := -1, math.Inf(-1)
	for tau := 1; tau < n; tau++ {
		// Move z[τ−1] from Y to X.
		wx += row[tau-1]
		wy -= col[tau-1]
		m, k := tau, n-tau
		if m < minSize || k < minSize {
			continue
		}
		cross := total - wx - wy
		e := 2*cross/float64(m*k) - wx/pairs(m) - wy/pairs(k)
		q := float64(m*k) / float64(n) * e
		if q > bestQ {
			best, bestQ = tau, q
		}
	}
	return best, bestQ
}

// pairs is C(m,2) = m(m−1)/2, at least 1 so that one value has no spread.
func pairs(m int) float64 {
	return math.Max(1, float64(m*(m-1))/2)
}
