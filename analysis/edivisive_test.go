package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteQ is the split statistic computed straight from its definition, an
// oracle for bestSplit's incremental sums.
func bruteQ(z []float64, tau int) float64 {
	x, y := z[:tau], z[tau:]
	m, k := float64(len(x)), float64(len(y))
	var cross, wx, wy float64
	for _, a := range x {
		for _, b := range y {
			cross += math.Abs(a - b)
		}
	}
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			wx += math.Abs(x[i] - x[j])
		}
	}
	for i := range y {
		for j := i + 1; j < len(y); j++ {
			wy += math.Abs(y[i] - y[j])
		}
	}
	e := 2*cross/(m*k) - wx/math.Max(1, m*(m-1)/2) - wy/math.Max(1, k*(k-1)/2)
	return m * k / (m + k) * e
}

func TestBestSplitHand(t *testing.T) {
	// X = {0,0}, Y = {1,1}: cross = 4, Ê = 2·4/4 = 2, Q = 2·2/4·2 = 2.
	tau, q := bestSplit([]float64{0, 0, 1, 1}, 2)
	if tau != 2 || math.Abs(q-2) > 1e-12 {
		t.Fatalf("bestSplit = %d, %v; want 2, 2", tau, q)
	}
	if tau, _ := bestSplit([]float64{1, 2, 3}, 2); tau != -1 {
		t.Errorf("a series shorter than two segments split at %d", tau)
	}
}

func TestBestSplitOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		z := make([]float64, 6+rng.IntN(30))
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		minSize := 2 + rng.IntN(2)
		tau, q := bestSplit(z, minSize)
		best, bq := -1, math.Inf(-1)
		for s := minSize; s <= len(z)-minSize; s++ {
			if v := bruteQ(z, s); v > bq {
				best, bq = s, v
			}
		}
		if tau != best || math.Abs(q-bq) > 1e-9*math.Max(1, math.Abs(bq)) {
			t.Fatalf("n=%d min %d: bestSplit %d, %v; brute force %d, %v", len(z), minSize, tau, q, best, bq)
		}
	}
}

func TestEDivisiveSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	z := make([]float64, 60)
	for i := range z {
		level := 100.0
		if i >= 20 {
			level = 110
		}
		if i >= 45 {
			level = 95
		}
		z[i] = level * (1 + 0.02*rng.NormFloat64())
	}
	cps, err := EDivisive(z, EDivisiveOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(cps) != 2 || cps[0].Index != 20 || cps[1].Index != 45 {
		t.Fatalf("change points %+v, want at 20 and 45", cps)
	}
	for _, c := range cps {
		if c.PValue > 0.005 || c.PValue < 1.0/400 {
			t.Errorf("p-value %v outside [1/400, 0.005]", c.PValue)
		}
	}
	if _, err := EDivisive([]float64{1, math.NaN()}, EDivisiveOptions{}); err == nil {
		t.Error("NaN accepted")
	}
	if _, err := EDivisive(z, EDivisiveOptions{Significance: 2}); err == nil {
		t.Error("significance 2 accepted")
	}
}

// TestEDivisiveNull: on pure noise the test's level bounds the rate of
// false changes (about 0.5% at the default level 0.005; 2% allowed for
// sampling).
func TestEDivisiveNull(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alarms := 0
	const runs = 300
	for r := 0; r < runs; r++ {
		z := make([]float64, 40)
		for i := range z {
			z[i] = 100 * (1 + 0.02*rng.NormFloat64())
		}
		cps, err := EDivisive(z, EDivisiveOptions{Seed: uint64(r)})
		if err != nil {
			t.Fatal(err)
		}
		if len(cps) > 0 {
			alarms++
		}
	}
	if rate := float64(alarms) / runs; rate > 0.02 {
		t.Errorf("false change rate %.3f on noise, want ≤ 0.02", rate)
	} else {
		t.Logf("false change rate on noise: %.3f", rate)
	}
}
