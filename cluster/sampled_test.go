package cluster

import (
	"fmt"
	"math"
	"testing"
)

// mixture returns n rows in d dimensions drawn from Gaussian clusters of
// the given weights, unit noise and centres spread with standard deviation
// spread (small spread: overlapping clusters), and, when gradient is set,
// a continuum instead: every row on a line through the origin at a uniform
// position in [0, 20), plus unit noise (as threads whose load grows with
// their rank).
func mixture(n, d int, weights []float64, spread float64, gradient bool, seed uint64) Matrix {
	rng := NewRand(seed)
	centres := make([][]float64, len(weights))
	for c := range centres {
		centres[c] = make([]float64, d)
		for j := range centres[c] {
			centres[c][j] = spread * rng.NormFloat64()
		}
	}
	m := Matrix{N: n, D: d, X: make([]float64, 0, n*d)}
	for range n {
		if gradient {
			pos := 20 * rng.Float64()
			for range d {
				m.X = append(m.X, pos/math.Sqrt(float64(d))+rng.NormFloat64())
			}
			continue
		}
		u, c := rng.Float64(), 0
		for c < len(weights)-1 && u >= weights[c] {
			u -= weights[c]
			c++
		}
		for j := range d {
			m.X = append(m.X, centres[c][j]+rng.NormFloat64())
		}
	}
	return m
}

// TestKMeansSampledObjective checks KMeansSampled against full KMeans
// (Lloyd's algorithm with adaptive restarts on every row) on generated data
// bigger than the sample: separated and overlapping clusters of unequal
// weights (one of 2%) and a continuum, for k = 2..8 (k below, at and above
// the number of clusters). The sampled run's W_k must be within 1% of the
// full run's (10 restarts): W_sampled ≤ 1.01 W_full, and be the W_k of its
// labels.
func TestKMeansSampledObjective(t *testing.T) {
	weights := []float64{0.4, 0.25, 0.15, 0.1, 0.08, 0.02}
	cases := []struct {
		name string
		m    Matrix
	}{
		{"separated", mixture(20_000, 6, weights, 8, false, 1)},
		{"overlapping", mixture(20_000, 6, weights, 1.5, false, 2)},
		{"continuum", mixture(20_000, 6, nil, 0, true, 3)},
	}
	for _, c := range cases {
		for _, k := range []int{2, 4, 6, 8} {
			t.Run(fmt.Sprintf("%s/k=%d", c.name, k), func(t *testing.T) {
				full := KMeans(c.m, k, 10, 0, NewRand(uint64(k)))
				got := KMeansSampled(c.m, k, 0, 0, 2_000, NewRand(uint64(100+k)))
				if len(got.Labels) != c.m.N || got.Centers.N != k {
					t.Fatalf("%d labels, %d centres", len(got.Labels), got.Centers.N)
				}
				if w := WithinSS(c.m, got.Labels); math.Abs(w-got.W) > 1e-9*w {
					t.Fatalf("W %g, but the labels give %g", got.W, w)
				}
				if got.W > 1.01*full.W {
					t.Errorf("sampled W %.6g is %.3f%% above full Lloyd's %.6g", got.W, 100*(got.W/full.W-1), full.W)
				}
			})
		}
	}
}
