package cluster

// hartiganPasses bounds the passes of Hartigan's refinement.
const hartiganPasses = 100

// HartiganMaxRows is the largest number of rows KMeans refines with
// Hartigan's moves. Poor local optima trouble small sets (the ranks of one
// trial, where one misplaced rank changes the story); on large sets a pass
// costs several Lloyd iterations and the restarts find the basin anyway.
const HartiganMaxRows = 4096

// hartigan refines a partition found by Lloyd's algorithm with Hartigan's
// single-point moves (Hartigan and Wong 1979; Telgarsky and Vattani 2010):
// row x leaves its cluster a for cluster b when that lowers the
// within-cluster sum of squares, that is when
//
//	n_b/(n_b+1)·‖x − μ_b‖² < n_a/(n_a−1)·‖x − μ_a‖²
//
// (the exact change of W_k, centroids updated after each move), until a
// pass over the rows moves none. Every Hartigan optimum is a Lloyd
// optimum but not the reverse, so the refinement escapes many of the poor
// local optima a k-means++ start falls into. W is recomputed at the end.
func hartigan(m Matrix, r KMeansResult) KMeansResult {
	k, d := r.Centers.N, m.D
	labels := append([]int(nil), r.Labels...)
	counts := make([]float64, k)
	mu := make([]float64, k*d)
	for i, l := range labels {
		counts[l]++
		for j, v := range m.Row(i) {
			mu[l*d+j] += v
		}
	}
	for c := 0; c < k; c++ {
		for j := 0; j < d && counts[c] > 0; j++ {
			mu[c*d+j] /= counts[c]
		}
	}
	for pass := 0; pass < hartiganPasses; pass++ {
		moved := false
		for i := 0; i < m.N; i++ {
			x, a := m.Row(i), labels[i]
			if counts[a] <= 1 {
				continue
			}
			leave := counts[a] / (counts[a] - 1) * sqDist(x, mu[a*d:(a+1)*d])
			best, bestCost := a, leave
			for b := 0; b < k; b++ {
				if b == a {
					continue
				}
				if join := counts[b] / (counts[b] + 1) * sqDist(x, mu[b*d:(b+1)*d]); join < bestCost*(1-1e-12) {
					best, bestCost = b, join
				}
			}
			if best == a {
				continue
			}
			for j, v := range x {
				mu[a*d+j] = (counts[a]*mu[a*d+j] - v) / (counts[a] - 1)
				mu[best*d+j] = (counts[best]*mu[best*d+j] + v) / (counts[best] + 1)
			}
			counts[a]--
			counts[best]++
			labels[i] = best
			moved = true
		}
		if !moved {
			break
		}
	}
	out := KMeansResult{Labels: labels, Centers: Matrix{N: k, D: d, X: mu}, Iterations: r.Iterations}
	for i, l := range labels {
		out.W += sqDist(m.Row(i), mu[l*d:(l+1)*d])
	}
	return out
}
