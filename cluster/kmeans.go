package cluster

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// DefaultRestarts is the number of k-means runs (each from its own k-means++
// seeding) that KMeans makes at least when its restarts argument is 0
// (adaptive); the run with the smallest W_k wins.
const DefaultRestarts = 10

// Adaptive restarts (KMeans with restarts = 0): after DefaultRestarts runs,
// KMeans goes on while one of the last RestartPatience runs improved the
// best W_k by more than a relative 1e-12, and stops at MaxRestarts. A
// partition whose basin k-means++ seldom finds is thus searched for longer
// than an easy one, instead of a fixed count stopping at a local optimum.
const (
	RestartPatience = 10
	MaxRestarts     = 200
)

// DefaultMaxIter bounds the Lloyd iterations of one k-means run.
const DefaultMaxIter = 100

// Tolerance stops a k-means run once the centroids move little, as
// scikit-learn's tol does: when Σ_c ‖μ_c(new) − μ_c(old)‖² ≤ Tolerance ·
// (1/D) Σ_j var_j, var_j the population variance of column j.
const Tolerance = 1e-4

// meanVariance returns (1/D) Σ_j var_j of the columns of m.
func meanVariance(m Matrix) float64 {
	if m.N == 0 || m.D == 0 {
		return 0
	}
	tot := 0.0
	for j := 0; j < m.D; j++ {
		mu, ss := 0.0, 0.0
		for i := 0; i < m.N; i++ {
			mu += m.X[i*m.D+j]
		}
		mu /= float64(m.N)
		for i := 0; i < m.N; i++ {
			d := m.X[i*m.D+j] - mu
			ss += d * d
		}
		tot += ss / float64(m.N)
	}
	return tot / float64(m.D)
}

// NewRand returns the generator every random choice of this package uses:
// math/rand/v2's PCG seeded with (seed, seed ^ 0x9e3779b97f4a7c15), so that
// a seed always gives the same draws.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// KMeansResult is the outcome of KMeans.
type KMeansResult struct {
	// Labels holds the cluster (0..K−1) of every row.
	Labels []int
	// Centers holds the K centroids (a K×D matrix).
	Centers Matrix
	// W is the within-cluster sum of squares W_k = Σ_c Σ_{t∈c} ‖x_t − μ_c‖².
	W float64
	// Iterations is the number of Lloyd iterations of the winning run.
	Iterations int
}

// KMeans clusters the rows of m into k groups by Lloyd's algorithm:
// assign every row to its nearest centroid by squared Euclidean distance,
// move every centroid to the mean of its rows, until no row changes, the
// centroids move by no more than the Tolerance, or maxIter iterations
// (maxIter ≤ 0 means DefaultMaxIter). Rows are assigned with Hamerly's
// (2010) bounds, which give plain Lloyd's assignments up to exact ties.
// With at most HartiganMaxRows rows, each run's partition is then refined
// by Hartigan's single-point moves (see hartigan), which only lower W_k. The algorithm is started restarts times (restarts = 0: adaptively, see
// RestartPatience) from k-means++ seedings (Arthur & Vassilvitskii 2007: the first centre uniformly, each
// next one a row drawn with probability D(x)² / Σ D(x)², D the distance to
// the nearest centre chosen so far), keeping the run of smallest W_k. A
// cluster that becomes empty is given the row farthest from its centroid.
// Labels are renumbered by first appearance (row 0 is in cluster 0), so
// equal partitions get equal labels. k is clamped to [1, n]. The result
// depends only on m, k, restarts, maxIter and the state of rng.
func KMeans(m Matrix, k, restarts, maxIter int, rng *rand.Rand) KMeansResult {
	k = max(1, min(k, m.N))
	adaptive := restarts <= 0
	if maxIter <= 0 {
		maxIter = DefaultMaxIter
	}
	tol := Tolerance * meanVariance(m)
	var best KMeansResult
	best.W = math.Inf(1)
	improved := 0 // the run that last improved the best W_k
	for r := 0; ; r++ {
		if adaptive && (r >= MaxRestarts || (r >= DefaultRestarts && r-improved >= RestartPatience)) {
			break
		}
		if !adaptive && r >= restarts {
			break
		}
		res := lloyd(m, seedPlusPlus(m, k, rng), maxIter, tol)
		if m.N <= HartiganMaxRows {
			res = hartigan(m, res)
		}
		if res.W < best.W {
			if res.W < best.W*(1-1e-12) {
				improved = r
			}
			best = res
		}
	}
	relabel(best.Labels, &best.Centers)
	return best
}

// seedPlusPlus picks k initial centres by k-means++.
func seedPlusPlus(m Matrix, k int, rng *rand.Rand) Matrix {
	c := Matrix{N: k, D: m.D, X: make([]float64, 0, k*m.D)}
	c.X = append(c.X, m.Row(rng.IntN(m.N))...)
	dist := make([]float64, m.N)
	for i := range dist {
		dist[i] = sqDist(m.Row(i), c.Row(0))
	}
	for j := 1; j < k; j++ {
		sum := 0.0
		for _, d := range dist {
			sum += d
		}
		pick := 0
		if sum > 0 {
			u := rng.Float64() * sum
			pick = m.N - 1
			for i, d := range dist {
				u -= d
				if u < 0 && d > 0 {
					pick = i
					break
				}
			}
		} else {
			pick = rng.IntN(m.N)
		}
		c.X = append(c.X, m.Row(pick)...)
		row := c.Row(j)
		for i := range dist {
			if d := sqDist(m.Row(i), row); d < dist[i] {
				dist[i] = d
			}
		}
	}
	return c
}

// lloyd runs Lloyd's iterations from the given centres, accelerated by
// Hamerly's (2010) bounds: an upper bound u(i) on the distance to the
// assigned centre and a lower bound l(i) on the distance to every other
// centre let a row keep its centre without computing distances when u(i) ≤
// max(l(i), s(a(i))), s(c) being half the distance from centre c to its
// nearest other centre. The assignments are those of plain Lloyd (up to
// exact ties).
func lloyd(m Matrix, c Matrix, maxIter int, tol float64) KMeansResult {
	k := c.N
	labels := make([]int, m.N)
	upper := make([]float64, m.N)
	lower := make([]float64, m.N)
	counts := make([]int, k)
	old := make([]float64, len(c.X))
	moved := make([]float64, k)
	half := make([]float64, k)
	for i := range half {
		half[i] = math.Inf(-1)
	}
	full := true
	it := 0
	for {
		changed := hamerlyPass(m, c, labels, upper, lower, half, full)
		full = false
		if it > 0 && !changed {
			break
		}
		if it >= maxIter {
			break
		}
		it++
		copy(old, c.X)
		moveCentroids(m, c, labels, counts)
		if full = fillEmpty(m, c, labels, counts); full {
			continue
		}
		if shift := loosenBounds(c, old, moved, labels, upper, lower); shift <= tol {
			break
		}
		halfDistances(c, half)
	}
	w := 0.0
	for i := 0; i < m.N; i++ {
		w += sqDist(m.Row(i), c.Row(labels[i]))
	}
	return KMeansResult{Labels: labels, Centers: c, W: w, Iterations: it}
}

// moveCentroids moves every centroid of c to the mean of its rows
// (counts: the rows per cluster; an empty cluster's centroid becomes 0).
func moveCentroids(m, c Matrix, labels, counts []int) {
	clear(c.X)
	clear(counts)
	for i := 0; i < m.N; i++ {
		l := labels[i]
		counts[l]++
		row := c.Row(l)
		for j, v := range m.Row(i) {
			row[j] += v
		}
	}
	for l := 0; l < c.N; l++ {
		if counts[l] == 0 {
			continue
		}
		row := c.Row(l)
		inv := 1 / float64(counts[l])
		for j := range row {
			row[j] *= inv
		}
	}
}

// fillEmpty gives every empty cluster the row farthest from its centre
// among clusters of more than one row, and reports whether it moved any
// (the bounds are then stale and the next pass must be full).
func fillEmpty(m, c Matrix, labels, counts []int) bool {
	full := false
	for l := 0; l < c.N; l++ {
		if counts[l] != 0 {
			continue
		}
		far, fd := -1, -1.0
		for i := 0; i < m.N; i++ {
			if counts[labels[i]] > 1 {
				if d := sqDist(m.Row(i), c.Row(labels[i])); d > fd {
					far, fd = i, d
				}
			}
		}
		if far < 0 {
			break
		}
		counts[labels[far]]--
		labels[far] = l
		counts[l] = 1
		copy(c.Row(l), m.Row(far))
		full = true
	}
	return full
}

// loosenBounds loosens Hamerly's bounds by how far the centres moved from
// old (moved receives each centre's distance) and returns the sum of the
// squared moves (when it is within the tolerance the bounds are not used
// again).
func loosenBounds(c Matrix, old, moved []float64, labels []int, upper, lower []float64) float64 {
	m1, m2, a1 := 0.0, 0.0, -1
	shift := 0.0
	for l := 0; l < c.N; l++ {
		d2 := sqDist(old[l*c.D:(l+1)*c.D], c.Row(l))
		shift += d2
		moved[l] = math.Sqrt(d2)
		if moved[l] > m1 {
			m1, m2, a1 = moved[l], m1, l
		} else if moved[l] > m2 {
			m2 = moved[l]
		}
	}
	for i := range labels {
		a := labels[i]
		upper[i] += moved[a]
		if a == a1 {
			lower[i] -= m2
		} else {
			lower[i] -= m1
		}
	}
	return shift
}

// halfDistances sets half[l] to half the distance from centre l to its
// nearest other centre.
func halfDistances(c Matrix, half []float64) {
	for l := 0; l < c.N; l++ {
		half[l] = math.Inf(1)
		for o := 0; o < c.N; o++ {
			if o != l {
				half[l] = math.Min(half[l], math.Sqrt(sqDist(c.Row(l), c.Row(o))))
			}
		}
		half[l] /= 2
	}
}

// hamerlyPass assigns rows to their nearest centre (ties to the lower
// index) in parallel chunks, skipping the rows whose bounds prove their
// centre unchanged; full recomputes every row. It reports whether any
// label changed.
func hamerlyPass(m Matrix, c Matrix, labels []int, upper, lower, half []float64, full bool) bool {
	workers := runtime.GOMAXPROCS(0)
	if m.N*c.N*m.D < 1<<16 {
		workers = 1
	}
	chunk := (m.N + workers - 1) / workers
	changed := make([]bool, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, m.N)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				row := m.Row(i)
				if !full {
					a := labels[i]
					bound := math.Max(half[a], lower[i])
					if upper[i] <= bound {
						continue
					}
					upper[i] = math.Sqrt(sqDist(row, c.Row(a)))
					if upper[i] <= bound {
						continue
					}
				}
				b1, b2, d1 := 0, math.Inf(1), math.Inf(1)
				for l := 0; l < c.N; l++ {
					d := sqDist(row, c.Row(l))
					if d < d1 {
						b2, d1, b1 = d1, d, l
					} else if d < b2 {
						b2 = d
					}
				}
				if full || labels[i] != b1 {
					if labels[i] != b1 {
						changed[w] = true
					}
					labels[i] = b1
				}
				upper[i] = math.Sqrt(d1)
				lower[i] = math.Sqrt(b2)
			}
		}(w, lo, hi)
	}
	wg.Wait()
	for _, ch := range changed {
		if ch {
			return true
		}
	}
	return false
}

// relabel renumbers labels by first appearance (noise, −1, stays −1) and
// permutes the rows of centers (if given) alike.
func relabel(labels []int, centers *Matrix) {
	mp := map[int]int{}
	for i, l := range labels {
		if l < 0 {
			continue
		}
		n, ok := mp[l]
		if !ok {
			n = len(mp)
			mp[l] = n
		}
		labels[i] = n
	}
	if centers == nil || centers.N == 0 {
		return
	}
	old := centers.clone()
	for o, n := range mp {
		copy(centers.Row(n), old.Row(o))
	}
}

// sqDist returns ‖a − b‖².
func sqDist(a, b []float64) float64 {
	s := 0.0
	for j, v := range a {
		d := v - b[j]
		s += d * d
	}
	return s
}

// sqDistBound returns ‖a − b‖², or some value ≥ bound once the partial sum
// exceeds bound.
func sqDistBound(a, b []float64, bound float64) float64 {
	s := 0.0
	for j, v := range a {
		d := v - b[j]
		s += d * d
		if s > bound && j&7 == 7 {
			return s
		}
	}
	return s
}

// WithinSS returns W_k = Σ_c Σ_{t∈c} ‖x_t − μ_c‖² of a labelling (rows
// labelled −1 are left out).
func WithinSS(m Matrix, labels []int) float64 {
	k := 0
	for _, l := range labels {
		k = max(k, l+1)
	}
	mu := make([]float64, k*m.D)
	cnt := make([]int, k)
	for i, l := range labels {
		if l < 0 {
			continue
		}
		cnt[l]++
		for j, v := range m.Row(i) {
			mu[l*m.D+j] += v
		}
	}
	for l := 0; l < k; l++ {
		for j := 0; j < m.D; j++ {
			if cnt[l] > 0 {
				mu[l*m.D+j] /= float64(cnt[l])
			}
		}
	}
	w := 0.0
	for i, l := range labels {
		if l >= 0 {
			w += sqDist(m.Row(i), mu[l*m.D:(l+1)*m.D])
		}
	}
	return w
}
