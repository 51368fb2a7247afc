package cluster

import (
	"math"
	"sort"
)

// DefaultMinPts is DBSCAN's minPts when Options.MinPts is 0 (Ester et al.
// 1996 use 4).
const DefaultMinPts = 4

// Noise is the label DBSCAN gives to rows in no cluster.
const Noise = -1

// DBSCAN clusters the rows of m by density (Ester, Kriegel, Sander & Xu
// 1996): the eps-neighbourhood N(p) of a row p is every row q (p itself
// included) with ‖x_p − x_q‖ ≤ eps; p is a core row when |N(p)| ≥ minPts;
// a cluster is a maximal set of core rows connected through neighbourhoods
// plus the non-core rows in their neighbourhoods (border rows, which go to
// the first cluster that reaches them, rows visited in order). Other rows
// are noise, labelled −1 (Noise). Clusters are numbered 0, 1, ... in order
// of their first row. Neighbourhoods are found by brute force (O(n²·d)).
func DBSCAN(m Matrix, eps float64, minPts int) []int {
	minPts = max(minPts, 1)
	const unvisited = -2
	labels := make([]int, m.N)
	for i := range labels {
		labels[i] = unvisited
	}
	eps2 := eps * eps
	neigh := func(p int) []int {
		var out []int
		row := m.Row(p)
		for q := 0; q < m.N; q++ {
			if sqDistBound(row, m.Row(q), eps2) <= eps2 {
				out = append(out, q)
			}
		}
		return out
	}
	c := 0
	for p := 0; p < m.N; p++ {
		if labels[p] != unvisited {
			continue
		}
		nb := neigh(p)
		if len(nb) < minPts {
			labels[p] = Noise
			continue
		}
		labels[p] = c
		queue := append([]int(nil), nb...)
		for len(queue) > 0 {
			q := queue[0]
			queue = queue[1:]
			if labels[q] == Noise {
				labels[q] = c
			}
			if labels[q] != unvisited {
				continue
			}
			labels[q] = c
			if nq := neigh(q); len(nq) >= minPts {
				queue = append(queue, nq...)
			}
		}
		c++
	}
	return labels
}

// KDistances returns, for every row, the distance to its k-th nearest
// other row (k clamped to [1, n−1]), sorted ascending: the "k-distance
// graph" of Ester et al.
func KDistances(m Matrix, k int) []float64 {
	if m.N < 2 {
		return make([]float64, m.N)
	}
	k = max(1, min(k, m.N-1))
	out := make([]float64, m.N)
	d := make([]float64, 0, m.N)
	for i := 0; i < m.N; i++ {
		d = d[:0]
		for j := 0; j < m.N; j++ {
			if j != i {
				d = append(d, sqDist(m.Row(i), m.Row(j)))
			}
		}
		sort.Float64s(d)
		out[i] = math.Sqrt(d[k-1])
	}
	sort.Float64s(out)
	return out
}

// KneeEps returns the default eps of DBSCAN, read off the sorted
// (minPts−1)-distance graph d_0 ≤ … ≤ d_{n−1} (minPts counts the row
// itself, so a row whose (minPts−1)-distance is at most eps is a core row):
// the knee is taken at the largest jump of the upper half of the curve,
// eps = d_i for the i ≥ ⌊(n−1)/2⌋ maximizing d_{i+1} − d_i (ties: the
// smaller i). Rows above the jump, at most half of them, are the sparse
// ones that become noise unless they border a cluster; this suits
// performance data, where outlying threads are few. A flat curve gives
// d_{n−1}.
func KneeEps(m Matrix, minPts int) float64 {
	kd := KDistances(m, max(minPts-1, 1))
	if len(kd) == 0 {
		return 0
	}
	bi, best := len(kd)-1, 0.0
	for i := (len(kd) - 1) / 2; i+1 < len(kd); i++ {
		if g := kd[i+1] - kd[i]; g > best {
			bi, best = i, g
		}
	}
	return kd[bi]
}
