package profile

import (
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/ppk"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// sameValues compares two trials node by node (by name), thread by thread,
// metric by metric, and their counters; regions and metadata by name.
func sameValues(t *testing.T, a, b *drg.Trial) {
	t.Helper()
	if len(a.Threads) != len(b.Threads) || len(a.Metrics) != len(b.Metrics) || len(a.Nodes) != len(b.Nodes) || len(a.Counters) != len(b.Counters) {
		t.Fatalf("shapes differ: %d/%d threads, %d/%d metrics, %d/%d nodes, %d/%d counters",
			len(a.Threads), len(b.Threads), len(a.Metrics), len(b.Metrics), len(a.Nodes), len(b.Nodes), len(a.Counters), len(b.Counters))
	}
	nt := len(a.Threads)
	for n := range a.Nodes {
		m := b.NodeIndex(a.Nodes[n].Name)
		if m < 0 {
			t.Fatalf("node %q missing", a.Nodes[n].Name)
		}
		for th := 0; th < nt; th++ {
			ca, cb := n*nt+th, m*nt+th
			if a.Present.Get(ca) != b.Present.Get(cb) || a.Calls[ca] != b.Calls[cb] || a.Subroutines[ca] != b.Subroutines[cb] {
				t.Fatalf("%q thread %d: presence/calls differ", a.Nodes[n].Name, th)
			}
			for k := range a.Metrics {
				kb := b.MetricIndex(a.Metrics[k].Name)
				if a.Values[k].Exclusive[ca] != b.Values[kb].Exclusive[cb] || a.Values[k].Inclusive[ca] != b.Values[kb].Inclusive[cb] {
					t.Fatalf("%q thread %d metric %s: %v/%v vs %v/%v", a.Nodes[n].Name, th, a.Metrics[k].Name,
						a.Values[k].Exclusive[ca], a.Values[k].Inclusive[ca], b.Values[kb].Exclusive[cb], b.Values[kb].Inclusive[cb])
				}
			}
		}
	}
	for k, v := range a.Metadata {
		if k != "File Type Index" && k != "File Type Name" && b.Metadata[k] != v {
			t.Errorf("metadata %q: %q vs %q", k, v, b.Metadata[k])
		}
	}
	for c := range a.Counters {
		for th := 0; th < nt; th++ {
			if a.CounterValues[c*nt+th] != b.CounterValues[c*nt+th] {
				t.Errorf("counter %q thread %d differs", a.Counters[c].Name, th)
			}
		}
	}
}

// TestWriteReadRoundTrip writes real trials (a profile folder and a ppk
// with several metrics) as TAU profiles and reads them back unchanged.
func TestWriteReadRoundTrip(t *testing.T) {
	cpi := read(t, realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi"))
	xgc, err := ppk.Reader{Path: realdata.Real(t, "UO-OACISS-tau2/perfexplorer/HardwareCounterBasicAnalysis/xgc-nosamples.ppk")}.Read()
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*drg.Trial{cpi, xgc} {
		dir := t.TempDir()
		if err := Write(dir, tr); err != nil {
			t.Fatal(err)
		}
		back := read(t, dir)
		sameValues(t, tr, back)
		if len(tr.Metrics) > 1 {
			if m, _ := filepath.Glob(filepath.Join(dir, "MULTI__*")); len(m) != len(tr.Metrics) {
				t.Errorf("MULTI folders %v", m)
			}
		}
	}
}
