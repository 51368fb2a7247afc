package cluster

import (
	"math"
	"math/rand/v2"
)

// DefaultMaxK is the largest k tried by the automatic choice when
// Options.MaxK is 0.
const DefaultMaxK = 10

// DefaultGapB is the number of reference data sets of the gap statistic
// when Options.GapB is 0.
const DefaultGapB = 10

// DefaultSilhouetteSample is the most rows the silhouette is computed over
// when Options.SilhouetteSample is 0; above it, the silhouette is that of a
// uniform random sample (without replacement) of this many rows, with
// distances within the sample only.
const DefaultSilhouetteSample = 2000

// Silhouette returns Rousseeuw's silhouette of every row and their mean:
// s(i) = (b(i) − a(i)) / max(a(i), b(i)), where a(i) is the mean Euclidean
// distance from row i to the other rows of its cluster and b(i) the
// smallest mean distance to the rows of another cluster; s(i) = 0 for a row
// alone in its cluster. Rows labelled −1 (noise) get NaN and are left out of
// the mean and of every mean distance. The mean is NaN with fewer than two
// clusters.
func Silhouette(m Matrix, labels []int) (mean float64, s []float64) {
	idx := make([]int, m.N)
	for i := range idx {
		idx[i] = i
	}
	return silhouetteOf(m, labels, idx)
}

// SampledSilhouette is Silhouette over a uniform random sample (without
// replacement, drawn from rng) of at most size rows when m has more; rows
// outside the sample get NaN.
func SampledSilhouette(m Matrix, labels []int, size int, rng *rand.Rand) (mean float64, s []float64) {
	if size <= 0 || m.N <= size {
		return Silhouette(m, labels)
	}
	perm := rng.Perm(m.N)[:size]
	return silhouetteOf(m, labels, perm)
}

func silhouetteOf(m Matrix, labels []int, idx []int) (float64, []float64) {
	s := make([]float64, m.N)
	for i := range s {
		s[i] = math.NaN()
	}
	k := 0
	for _, i := range idx {
		k = max(k, labels[i]+1)
	}
	cnt := make([]int, k)
	for _, i := range idx {
		if labels[i] >= 0 {
			cnt[labels[i]]++
		}
	}
	nonEmpty := 0
	for _, c := range cnt {
		if c > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 2 {
		for _, i := range idx {
			if labels[i] >= 0 {
				s[i] = 0
			}
		}
		return math.NaN(), s
	}
	sum := make([]float64, k)
	total, n := 0.0, 0
	for _, i := range idx {
		li := labels[i]
		if li < 0 {
			continue
		}
		clear(sum)
		row := m.Row(i)
		for _, j := range idx {
			if j == i || labels[j] < 0 {
				continue
			}
			sum[labels[j]] += math.Sqrt(sqDist(row, m.Row(j)))
		}
		if cnt[li] == 1 {
			s[i] = 0
		} else {
			a := sum[li] / float64(cnt[li]-1)
			b := math.Inf(1)
			for l := 0; l < k; l++ {
				if l != li && cnt[l] > 0 {
					b = math.Min(b, sum[l]/float64(cnt[l]))
				}
			}
			if mx := math.Max(a, b); mx > 0 {
				s[i] = (b - a) / mx
			} else {
				s[i] = 0
			}
		}
		total += s[i]
		n++
	}
	return total / float64(n), s
}

// GapResult holds the gap statistic for k = 1..len(Gap).
type GapResult struct {
	// LogW[k−1] is log W_k of the data (W_k from KMeans).
	LogW []float64
	// RefLogW[k−1] is E*[log W_k] = (1/B) Σ_b log W*_kb over the B
	// reference sets.
	RefLogW []float64
	// Gap[k−1] = E*[log W_k] − log W_k.
	Gap []float64
	// S[k−1] = sd_k · sqrt(1 + 1/B), sd_k the population standard
	// deviation of log W*_kb over b.
	S []float64
	// K is the choice: the smallest k with Gap(k) ≥ Gap(k+1) − s_{k+1},
	// or the largest k tried when none qualifies.
	K int
}

// GapStatistic computes Tibshirani, Walther & Hastie's (2001) gap statistic
// for k = 1..maxK. The B reference sets are drawn uniformly over the
// bounding box of the data as given (the columns' [min, max] ranges of m,
// after whatever normalization and reduction m went through; not over its
// principal components). W_k of the data comes from KMeans with restarts
// runs; W*_kb of a reference set from KMeans with min(restarts, 3) runs. A
// W of 0 is replaced by the smallest positive double before the logarithm.
// All draws come from rng.
func GapStatistic(m Matrix, maxK, b, restarts int, rng *rand.Rand) GapResult {
	maxK = max(1, min(maxK, m.N))
	b = max(b, 1)
	lo := make([]float64, m.D)
	hi := make([]float64, m.D)
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for i := 0; i < m.N; i++ {
		for j, v := range m.Row(i) {
			lo[j], hi[j] = math.Min(lo[j], v), math.Max(hi[j], v)
		}
	}
	g := GapResult{
		LogW: make([]float64, maxK), RefLogW: make([]float64, maxK),
		Gap: make([]float64, maxK), S: make([]float64, maxK),
	}
	logOf := func(w float64) float64 { return math.Log(math.Max(w, math.SmallestNonzeroFloat64)) }
	for k := 1; k <= maxK; k++ {
		g.LogW[k-1] = logOf(KMeans(m, k, restarts, 0, rng).W)
	}
	ref := make([][]float64, maxK)
	refRestarts := min(max(restarts, 1), 3)
	r := Matrix{N: m.N, D: m.D, X: make([]float64, m.N*m.D)}
	for bi := 0; bi < b; bi++ {
		for i := 0; i < m.N; i++ {
			for j := 0; j < m.D; j++ {
				r.X[i*m.D+j] = lo[j] + rng.Float64()*(hi[j]-lo[j])
			}
		}
		for k := 1; k <= maxK; k++ {
			ref[k-1] = append(ref[k-1], logOf(KMeans(r, k, refRestarts, 0, rng).W))
		}
	}
	for k := 1; k <= maxK; k++ {
		mean := 0.0
		for _, v := range ref[k-1] {
			mean += v
		}
		mean /= float64(b)
		ss := 0.0
		for _, v := range ref[k-1] {
			ss += (v - mean) * (v - mean)
		}
		g.RefLogW[k-1] = mean
		g.Gap[k-1] = mean - g.LogW[k-1]
		g.S[k-1] = math.Sqrt(ss/float64(b)) * math.Sqrt(1+1/float64(b))
	}
	g.K = maxK
	for k := 1; k < maxK; k++ {
		if g.Gap[k-1] >= g.Gap[k]-g.S[k] {
			g.K = k
			break
		}
	}
	return g
}
