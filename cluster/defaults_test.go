package cluster

import (
	"fmt"
	"math"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// ppPME builds a 64-rank trial shaped like a GROMACS run: 48 particle-
// particle ranks and 16 PME ranks that differ in four regions, and an
// MPI_Init whose time is launch skew, uniform over 0..3 s, larger in raw
// spread than all the rest. truth is 0 for PP ranks, 1 for PME ranks.
func ppPME() (*drg.Trial, []int) {
	rng := NewRand(5)
	const n = 64
	regions := []string{"MPI_Init()", "pp_force", "pme_spread", "fft", "MPI_Sendrecv()", "update"}
	m := Matrix{N: n, D: len(regions)}
	var truth []int
	for i := 0; i < n; i++ {
		pme := i%4 == 3
		noise := func(v float64) float64 { return v * (1 + 0.02*rng.NormFloat64()) }
		row := []float64{3e6 * rng.Float64(), noise(4e5), noise(2e4), noise(1e4), noise(6e4), noise(8e4)}
		if pme {
			row[1], row[2], row[3], row[4] = noise(3e4), noise(2.5e5), noise(1.2e5), noise(1.5e5)
		}
		m.X = append(m.X, row...)
		truth = append(truth, map[bool]int{false: 0, true: 1}[pme])
	}
	t := synthTrial("gromacs-like", m)
	for r, name := range regions {
		t.Regions[r].Name, t.Nodes[r].Name = name, name
	}
	return t, truth
}

// TestDefaultFollowsBehaviour: on raw values k-means splits the ranks by
// their MPI_Init launch skew; the default preprocessing (z-score over the
// regions holding 1% or more) finds the PP/PME split exactly.
func TestDefaultFollowsBehaviour(t *testing.T) {
	tr, truth := ppPME()
	def, err := Cluster([]*drg.Trial{tr}, Options{K: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a := ari(membership(t, def), truth); a != 1 {
		t.Errorf("default preprocessing: ARI %v with the PP/PME split, want 1", a)
	}
	if def.Params["normalization"] != NormZScore || def.Params["dimension_reduction"] != ReduceOverX {
		t.Errorf("default params %v", def.Params)
	}
	rawRes, err := Cluster([]*drg.Trial{tr}, raw(Options{K: 2, Seed: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if a := ari(membership(t, rawRes), truth); a > 0.5 {
		t.Errorf("raw values: ARI %v; the test needs MPI_Init's skew to mislead them", a)
	}
}

// blobs returns k well-separated Gaussian blobs of unequal sizes in d
// dimensions, a layout where a few k-means++ starts often miss a blob.
func blobs(k, d int, seed uint64) Matrix {
	rng := NewRand(seed)
	m := Matrix{D: d}
	for c := 0; c < k; c++ {
		centre := make([]float64, d)
		for j := range centre {
			centre[j] = 30 * rng.NormFloat64()
		}
		for i := 0; i < 5+c*4; i++ {
			for j := 0; j < d; j++ {
				m.X = append(m.X, centre[j]+rng.NormFloat64())
			}
		}
	}
	m.N = len(m.X) / d
	return m
}

// TestAdaptiveRestartsReachTheBest compares the adaptive default against
// 300 restarts on hard generated layouts and on every real trial of the
// shared data with 8 or more threads (z-scored, k = 2..5): the adaptive
// run's W_k is the best W_k found.
func TestAdaptiveRestartsReachTheBest(t *testing.T) {
	check := func(name string, m Matrix, k int) {
		t.Helper()
		best := KMeans(m, k, 300, 0, NewRand(99)).W
		got := KMeans(m, k, 0, 0, NewRand(1)).W
		if got > best*(1+1e-9) {
			t.Errorf("%s k=%d: adaptive W %v, best of 300 restarts %v (+%.3g%%)", name, k, got, best, 100*(got/best-1))
		}
	}
	for seed := uint64(0); seed < 8; seed++ {
		check(fmt.Sprintf("blobs seed %d", seed), blobs(12, 4, seed), 12)
	}
	for _, rel := range []string{
		"UO-OACISS-tau2/perfexplorer/HeatMapSamples/matmult.ppk",
		"UO-OACISS-tau2/perfexplorer/HardwareCounterBasicAnalysis/xgc-nosamples.ppk",
		"UO-OACISS-tau2/perfexplorer/MetadataCorrelation/tauprofile-unweighted.xml",
		"UO-OACISS-tau2/examples/workflow_consolidation/xmain_0",
		"stevenpl98-ParallelFinalProject/parallel-omp12",
		"ThanGeo-Hecatoncheir/profile-6ef6332/spawn-1",
	} {
		tr := readReal(t, rel)
		fs, err := Features([]*drg.Trial{tr}, FeatureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		z, err := Normalize(fs.Data, NormZScore)
		if err != nil {
			t.Fatal(err)
		}
		for k := 2; k <= min(5, z.N-1); k++ {
			check(rel, z, k)
		}
	}
}

// TestRegionPatterns: --regions keeps the dimensions matching a glob on
// the full or the short name, --exclude drops them, a bad glob and an
// empty selection are errors.
func TestRegionPatterns(t *testing.T) {
	tr, _ := ppPME()
	tr.Regions[1].Name = "void pp_force(double *, int) C [{md.c} {10,1}-{90,1}]"
	tr.Nodes[1].Name = tr.Regions[1].Name
	for _, c := range []struct {
		regions, exclude []string
		want             []string
	}{
		{[]string{"MPI_*"}, nil, []string{"MPI_Init()", "MPI_Sendrecv()"}},
		{nil, []string{"MPI_*"}, []string{tr.Regions[1].Name, "pme_spread", "fft", "update"}},
		{[]string{"pp_force", "fft"}, nil, []string{tr.Regions[1].Name, "fft"}},
		{[]string{"*"}, []string{"MPI_Init*", "update"}, []string{tr.Regions[1].Name, "pme_spread", "fft", "MPI_Sendrecv()"}},
	} {
		fs, err := Features([]*drg.Trial{tr}, FeatureOptions{Regions: c.regions, Exclude: c.exclude})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(fs.Regions) != fmt.Sprint(c.want) {
			t.Errorf("regions %q exclude %q: %q, want %q", c.regions, c.exclude, fs.Regions, c.want)
		}
	}
	if _, err := Features([]*drg.Trial{tr}, FeatureOptions{Regions: []string{"[x"}}); err == nil {
		t.Error("bad glob: want an error")
	}
	if _, err := Features([]*drg.Trial{tr}, FeatureOptions{Regions: []string{"nothing*"}}); err == nil {
		t.Error("no region selected: want an error")
	}
	// Excluding MPI_Init from the raw values is another way to find the
	// PP/PME split.
	r, err := Cluster([]*drg.Trial{tr}, raw(Options{K: 2, Seed: 1, FeatureOptions: FeatureOptions{Exclude: []string{"MPI_Init*"}}}))
	if err != nil {
		t.Fatal(err)
	}
	_, truth := ppPME()
	if a := ari(membership(t, r), truth); math.Abs(a-1) > 1e-12 {
		t.Errorf("raw without MPI_Init: ARI %v", a)
	}
}
