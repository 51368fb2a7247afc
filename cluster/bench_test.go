package cluster

import (
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// benchData returns 65,536 threads × 100 regions in 5 Gaussian groups
// (sizes in the ratio 1:2:3:4:6) whose centres differ by 10 standard
// deviations in 10 regions each.
func benchData() Matrix {
	const n, d = 65536, 100
	rng := NewRand(99)
	m := Matrix{N: n, D: d, X: make([]float64, n*d)}
	for i := 0; i < n; i++ {
		g := (i % 16)
		switch {
		case g < 1:
			g = 0
		case g < 3:
			g = 1
		case g < 6:
			g = 2
		case g < 10:
			g = 3
		default:
			g = 4
		}
		row := m.Row(i)
		for j := range row {
			row[j] = 100 + rng.NormFloat64()
			if j/10 == g {
				row[j] += 10
			}
		}
	}
	return m
}

// BenchmarkKMeans65536 times k-means (k = 5, 10 restarts) and the whole
// Cluster call with k chosen by the silhouette over k = 2..10 (silhouette
// on a random sample of DefaultSilhouetteSample threads) on 65,536 threads
// × 100 regions.
func BenchmarkKMeans65536(b *testing.B) {
	m := benchData()
	b.Run("kmeans_k5", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := KMeans(m, 5, DefaultRestarts, 0, NewRand(1))
			if len(r.Labels) != m.N {
				b.Fatal("labels")
			}
		}
	})
	tr := []*drg.Trial{synthTrial("bench", m)}
	b.Run("cluster_auto_silhouette", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := Cluster(tr, raw(Options{})) // equal noise everywhere: raw values, as before
			if err != nil {
				b.Fatal(err)
			}
			if k := r.Table("quality").Num("k", 0); k != 5 {
				b.Fatalf("k = %g, want 5", k)
			}
		}
	})
}
