package cluster

import (
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

func readReal(t *testing.T, rel string) *drg.Trial {
	t.Helper()
	tr, err := reader.Read(realdata.Real(t, rel), "")
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return tr
}

func TestRealStableAcrossSeeds(t *testing.T) {
	for _, tc := range []struct {
		rel     string
		threads int
	}{
		{"UO-OACISS-tau2/perfexplorer/HeatMapSamples/matmult.ppk", 24},
		{"UO-OACISS-tau2/perfexplorer/HardwareCounterBasicAnalysis/xgc-nosamples.ppk", 16},
	} {
		tr := readReal(t, tc.rel)
		for _, opt := range []Options{
			{},
			{Normalization: "percent", Reduction: "over"},
			{Normalization: "zscore", Reduction: "pca", K: 3},
			{Method: "hierarchical", Normalization: "range"},
			{Method: "dbscan", Normalization: "percent"},
		} {
			var first []int
			for seed := uint64(0); seed < 5; seed++ {
				opt.Seed = seed
				r, err := Cluster([]*drg.Trial{tr}, opt)
				if err != nil {
					t.Fatalf("%s %+v: %v", tc.rel, opt, err)
				}
				l := membership(t, r)
				if len(l) != tc.threads {
					t.Fatalf("%s: %d threads, want %d", tc.rel, len(l), tc.threads)
				}
				if first == nil {
					first = l
					t.Logf("%s %s/%s/%s: %s", tc.rel, r.Params["method_name"], r.Params["normalization"], r.Params["dimension_reduction"], r.Findings)
				} else if a := ari(l, first); a != 1 {
					t.Errorf("%s %+v: seed %d ARI %g against seed 0", tc.rel, opt, seed, a)
				}
			}
		}
	}
}

func TestRealAcrossTrials(t *testing.T) {
	a := readReal(t, "ParaToolsInc-taucmdr/jupyter/east02-mm-profile/3")
	b := readReal(t, "ParaToolsInc-taucmdr/jupyter/east02-mm-profile/7")
	r, err := Cluster([]*drg.Trial{a, b}, Options{Normalization: "percent"})
	if err != nil {
		t.Fatal(err)
	}
	mt := r.Table("membership")
	if mt.NumRows() != len(a.Threads)+len(b.Threads) {
		t.Fatalf("%d rows, want %d", mt.NumRows(), len(a.Threads)+len(b.Threads))
	}
	for i := 0; i < mt.NumRows(); i++ {
		want := a.Name
		if i >= len(a.Threads) {
			want = b.Name
		}
		if mt.Text("trial", i) != want {
			t.Errorf("row %d: trial %q, want %q", i, mt.Text("trial", i), want)
		}
	}
	if len(r.Trials) != 2 || r.Trial != "" {
		t.Errorf("trials %v %q", r.Trials, r.Trial)
	}
	if a.Name == b.Name {
		t.Logf("both trials are named %q", a.Name)
	}
	t.Log(r.Findings)
}

func TestRealFeatureOptions(t *testing.T) {
	tr := readReal(t, "UO-OACISS-tau2/perfexplorer/HeatMapSamples/matmult.ppk")
	flat, err := Features([]*drg.Trial{tr}, FeatureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := Features([]*drg.Trial{tr}, FeatureOptions{Callpath: true, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if flat.Data.N != 24 || len(cp.Regions) <= len(flat.Regions) || !cp.Inclusive {
		t.Errorf("flat %d regions, callpath %d", len(flat.Regions), len(cp.Regions))
	}
	if flat.Metric != tr.Metrics[tr.TimeMetric()].Name {
		t.Errorf("metric %s", flat.Metric)
	}
	r, err := Cluster([]*drg.Trial{tr}, Options{FeatureOptions: FeatureOptions{Callpath: true, Inclusive: true}, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Params["value"] != "inclusive" || r.Params["callpath"] != "true" || r.Params["k"] != "2" {
		t.Errorf("params %v", r.Params)
	}
	for _, bad := range []Options{{Method: "spectral"}, {Normalization: "log"}, {Reduction: "ica"}, {AutoK: "elbow"}, {Method: "dbscan", AutoK: "gap"}, {K: -1}} {
		if _, err := Cluster([]*drg.Trial{tr}, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
