package synth

import (
	"math"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg/profile"
)

// TestModelImbalanceAndRoundTrip: without noise the main region's inclusive
// time on a balanced trial is T(p) (to the rounding of the region values to
// whole µs), the imbalance skews ranks linearly, and the trial written as
// TAU profiles reads back with the same values.
func TestModelImbalanceAndRoundTrip(t *testing.T) {
	s := Spec{Processes: 4, ThreadsPerProcess: 2, Regions: 50, Depth: 2, Metrics: 2, Serial: 1e5, Parallel: 9e5, Log: 5e3}
	tr, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	m := tr.MetricIndex("TIME")
	main := tr.MainInclusive(m)
	want := s.Model(4)
	for th, v := range main {
		if math.Abs(v-want) > float64(s.Regions+1) {
			t.Errorf("thread %d: main inclusive %v, model %v", th, v, want)
		}
	}
	if tr.Tree().Kind.String() != "complete" {
		t.Errorf("tree %v", tr.Tree().Kind)
	}
	s.Imbalance = 0.2
	tr2, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	mi := tr2.MainInclusive(m)
	// Rank 3 is 1.1 times, rank 0 0.9 times the balanced time.
	if r := mi[6] / mi[0]; math.Abs(r-1.1/0.9) > 1e-3 {
		t.Errorf("imbalance ratio %v, want %v", r, 1.1/0.9)
	}
	dir := t.TempDir()
	if err := profile.Write(dir, tr2); err != nil {
		t.Fatal(err)
	}
	back, err := profile.Reader{Path: dir}.Read()
	if err != nil {
		t.Fatal(err)
	}
	nt := len(tr2.Threads)
	for n := range tr2.Nodes {
		k := back.NodeIndex(tr2.Nodes[n].Name)
		for th := 0; th < nt; th++ {
			for mm := range tr2.Metrics {
				if tr2.Values[mm].Exclusive[n*nt+th] != back.Values[back.MetricIndex(tr2.Metrics[mm].Name)].Exclusive[k*nt+th] {
					t.Fatalf("%q thread %d metric %d differs after the round trip", tr2.Nodes[n].Name, th, mm)
				}
			}
		}
	}
	if _, err := Generate(Spec{Processes: 0}); err == nil {
		t.Error("a spec without processes was accepted")
	}
}

// TestNoiseIsSeeded: the same seed gives the same trial, another seed
// another one.
func TestNoiseIsSeeded(t *testing.T) {
	s := Spec{Processes: 2, ThreadsPerProcess: 1, Regions: 5, Depth: 1, Metrics: 1, Serial: 10, Parallel: 1000, Noise: 0.1, Seed: 7}
	a, _ := Generate(s)
	b, _ := Generate(s)
	s.Seed = 8
	c, _ := Generate(s)
	if a.Values[0].Exclusive[0] != b.Values[0].Exclusive[0] || a.Values[0].Exclusive[2] == c.Values[0].Exclusive[2] && a.Values[0].Exclusive[4] == c.Values[0].Exclusive[4] {
		t.Error("noise not reproducible per seed")
	}
}

// TestOverheadSpecTruth checks the generator against its own ground truth:
// every rank's main inclusive time is T(p), and the categories add up to
// T_o = T(p) − T_s/p.
func TestOverheadSpecTruth(t *testing.T) {
	s := OverheadSpec{Serial: 3e5, Work: 9e6, Replicated: 2e5, Comm: 4e4, Control: 6e4, Imbalance: 0.4, CoresPerHost: 4}
	for _, p := range []int{1, 3, 8} {
		tr, err := s.Generate(p, "x")
		if err != nil {
			t.Fatal(err)
		}
		o := s.Overheads(p)
		for th, v := range tr.MainInclusive(tr.TimeMetric()) {
			if math.Abs(v-o.Tp) > 1e-6*o.Tp {
				t.Errorf("p=%d thread %d: T %v, want %v", p, th, v, o.Tp)
			}
		}
		sum := o.DataMovement + o.Synchronization + o.Control + o.Loss + o.Unidentified
		if math.Abs(sum-o.To) > 1e-6*o.Tp {
			t.Errorf("p=%d: categories %v, T_o %v", p, sum, o.To)
		}
		if p == 8 && tr.Threads[7].Metadata["Hostname"] != "node001" {
			t.Errorf("rank 7 host %q", tr.Threads[7].Metadata["Hostname"])
		}
	}
	if _, err := (OverheadSpec{Work: -1}).Generate(2, "x"); err == nil {
		t.Error("negative work: want an error")
	}
}

// TestSecondParameter: with Size, the parallel work is Parallel·n^SizeExp
// (computed here by hand) and the trial says its SIZE in the metadata.
func TestSecondParameter(t *testing.T) {
	s := Spec{Processes: 8, ThreadsPerProcess: 1, Regions: 10, Depth: 1, Metrics: 1, Serial: 1e4, Parallel: 100, Log: 2e3, Size: 64, SizeExp: 1.5}
	want := 1e4 + 100*512/8.0 + 2e3*3
	if math.Abs(s.Model(8)-want) > 1e-9 {
		t.Fatalf("model %v, want %v", s.Model(8), want)
	}
	tr, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Metadata["SIZE"] != "64" {
		t.Errorf("SIZE metadata %q", tr.Metadata["SIZE"])
	}
	for th, v := range tr.MainInclusive(tr.TimeMetric()) {
		if math.Abs(v-want) > float64(s.Regions+1) {
			t.Errorf("thread %d: main inclusive %v, want %v", th, v, want)
		}
	}
	s.Size = -1
	if _, err := Generate(s); err == nil {
		t.Error("negative size accepted")
	}
}
