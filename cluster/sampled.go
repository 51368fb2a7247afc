package cluster

import (
	"math/rand/v2"
)

// KMeansSampleRows is the number of rows KMeansSampled runs its restarts
// on, and the size above which Cluster's k-means uses it: below it, full
// KMeans is cheap enough (seconds) and exact.
const KMeansSampleRows = 10_000

// KMeansSampled clusters the rows of m into k groups as KMeans does, at a
// cost that grows with m.N only through one Lloyd run:
//
//  1. draw sample rows uniformly without replacement;
//  2. run KMeans (k-means++ seedings, restarts, Hartigan refinement where
//     it applies) on the sample alone;
//  3. run Lloyd's algorithm on all rows, started from the sample's best
//     centroids, until it converges (at most maxIter iterations).
//
// Step 3 only lowers W_k from the partition the sample's centroids induce,
// and a uniform sample of 10,000 rows places the centroids of any cluster
// holding more than a few tenths of a percent of the rows within sampling
// error of their full-data position; TestKMeansSampledObjective checks the
// result against full KMeans within 1% of W_k. With m.N ≤ sample it is
// KMeans itself. The result depends only on its arguments and the state of
// rng.
func KMeansSampled(m Matrix, k, restarts, maxIter, sample int, rng *rand.Rand) KMeansResult {
	if m.N <= sample || sample < 1 {
		return KMeans(m, k, restarts, maxIter, rng)
	}
	k = max(1, min(k, m.N))
	if maxIter <= 0 {
		maxIter = DefaultMaxIter
	}
	sub := sampleRows(m, sample, rng)
	seed := KMeans(sub, k, restarts, maxIter, rng)
	res := lloyd(m, seed.Centers.clone(), maxIter, Tolerance*meanVariance(m))
	relabel(res.Labels, &res.Centers)
	return res
}

// sampleRows returns a matrix of n rows of m drawn uniformly without
// replacement (a partial Fisher–Yates shuffle of the row indices), in the
// order drawn.
func sampleRows(m Matrix, n int, rng *rand.Rand) Matrix {
	idx := make([]int, m.N)
	for i := range idx {
		idx[i] = i
	}
	out := Matrix{N: n, D: m.D, X: make([]float64, 0, n*m.D)}
	for i := range n {
		j := i + rng.IntN(m.N-i)
		idx[i], idx[j] = idx[j], idx[i]
		out.X = append(out.X, m.Row(idx[i])...)
	}
	return out
}
