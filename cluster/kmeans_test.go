package cluster

import (
	"math"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// naiveLloyd is plain Lloyd from the given centres, for comparison.
func naiveLloyd(m, c Matrix, maxIter int) []int {
	labels := make([]int, m.N)
	for it := 0; ; it++ {
		changed := false
		for i := 0; i < m.N; i++ {
			b, bd := 0, math.Inf(1)
			for l := 0; l < c.N; l++ {
				if d := sqDist(m.Row(i), c.Row(l)); d < bd {
					b, bd = l, d
				}
			}
			if b != labels[i] {
				labels[i], changed = b, true
			}
		}
		if (it > 0 && !changed) || it >= maxIter {
			return labels
		}
		sum := make([]float64, len(c.X))
		cnt := make([]int, c.N)
		for i, l := range labels {
			cnt[l]++
			for j, v := range m.Row(i) {
				sum[l*c.D+j] += v
			}
		}
		for l := 0; l < c.N; l++ {
			if cnt[l] == 0 {
				return nil // not compared
			}
			for j := 0; j < c.D; j++ {
				c.X[l*c.D+j] = sum[l*c.D+j] / float64(cnt[l])
			}
		}
	}
}

func TestHamerlyMatchesLloyd(t *testing.T) {
	rng := NewRand(5)
	m := Matrix{N: 400, D: 4, X: make([]float64, 1600)}
	for i := range m.X {
		m.X[i] = rng.NormFloat64()
	}
	for k := 1; k <= 8; k++ {
		for s := uint64(0); s < 3; s++ {
			c := seedPlusPlus(m, k, NewRand(s))
			want := naiveLloyd(m, c.clone(), DefaultMaxIter)
			if want == nil {
				continue
			}
			got := lloyd(m, c.clone(), DefaultMaxIter, 0)
			for i := range want {
				if want[i] != got.Labels[i] {
					t.Fatalf("k %d seed %d: row %d label %d, want %d", k, s, i, got.Labels[i], want[i])
				}
			}
			near(t, "W", got.W, WithinSS(m, got.Labels))
		}
	}
}

func TestKMeansEdgeCases(t *testing.T) {
	m := Matrix{N: 4, D: 1, X: []float64{1, 1, 1, 1}}
	r := KMeans(m, 3, 2, 0, NewRand(0))
	if len(r.Labels) != 4 || r.W != 0 {
		t.Errorf("identical rows: %+v", r)
	}
	r = KMeans(m, 10, 1, 0, NewRand(0))
	if r.Centers.N != 4 {
		t.Errorf("k clamped to n: %d centres", r.Centers.N)
	}
	one := KMeans(Matrix{N: 3, D: 1, X: []float64{0, 1, 5}}, 1, 1, 0, NewRand(0))
	near(t, "W1", one.W, 2*2+1*1+3*3)
}

func TestClusterDegenerate(t *testing.T) {
	for _, m := range []Matrix{
		{N: 1, D: 2, X: []float64{1, 2}},
		{N: 5, D: 2, X: []float64{1, 2, 1, 2, 1, 2, 1, 2, 1, 2}},
	} {
		for _, o := range []Options{{}, {Method: "hierarchical"}, {Method: "dbscan"}, {AutoK: "gap"}, {Normalization: "zscore", Reduction: "pca"}} {
			r, err := Cluster([]*drg.Trial{synthTrial("d", m)}, o)
			if err != nil {
				t.Fatalf("n=%d %+v: %v", m.N, o, err)
			}
			k := r.Table("quality").Num("k", 0)
			if o.Method == "dbscan" && m.N == 1 {
				if k != 0 || r.Table("membership").Num("cluster", 0) != Noise {
					t.Errorf("a single thread is not noise")
				}
				continue
			}
			if k != 1 && o.AutoK != "gap" {
				t.Errorf("n=%d %+v: k = %g", m.N, o, k)
			}
		}
	}
}
