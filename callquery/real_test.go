package callquery

import (
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestRealHatchetTAUTrial runs queries on the TAU profile of Hatchet's own
// test data (a complete call tree rooted at ".TAU application"), checking
// each against what the node names and values say directly.
func TestRealHatchetTAUTrial(t *testing.T) {
	tr, err := reader.Read(realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi"), "")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Tree().Kind != drg.CompleteTree {
		t.Fatalf("tree %s, want complete", tr.Tree().Kind)
	}
	// The callees of MPI_Finalize(), and it: the callpath nodes whose
	// name runs through "MPI_Finalize()".
	r := run(t, tr, `MATCH (".", p)->(".", q) WHERE p."name" = "MPI_Finalize()" AND q IS LEAF`)
	var want []int
	for i, n := range tr.Nodes {
		if n.Parent >= 0 && strings.Contains(n.Name, "=> MPI_Finalize()") {
			want = append(want, i)
		}
	}
	if len(want) < 2 || !same(r.Nodes, want) {
		t.Errorf("MPI_Finalize() and its callees: %v, want %v", r.Nodes, want)
	}
	// A "*" of one condition: every tree node whose mean inclusive time
	// over the threads exceeds 1 ms.
	r = run(t, tr, `MATCH ("*", p) WHERE p."time (inc)" > 1000`)
	want = want[:0]
	m := tr.TimeMetric()
	for _, n := range newGraph(tr).pre {
		sum, k := 0.0, 0
		for th := range tr.Threads {
			if tr.Has(n, th) {
				sum += tr.Values[m].Inclusive[tr.Cell(n, th)]
				k++
			}
		}
		if k > 0 && sum/float64(k) > 1000 {
			want = append(want, n)
		}
	}
	if len(want) == 0 || !same(r.Nodes, want) {
		t.Errorf("inclusive > 1 ms: %v, want %v", r.Nodes, want)
	}
}

// TestRealRestrictKeepsEveryContext: restricted to every MPI call in any
// context, each MPI region holds exactly its flat values, thread by thread
// (the flat node is the sum of the region's contexts in TAU's profile).
func TestRealRestrictKeepsEveryContext(t *testing.T) {
	tr, err := reader.Read(realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi"), "")
	if err != nil {
		t.Fatal(err)
	}
	sub := Restrict(tr, run(t, tr, `MATCH ("*")->(".", p) WHERE p."name" STARTS WITH "MPI_"`))
	checked := 0
	for _, reg := range sub.Regions {
		if !strings.HasPrefix(reg.Name, "MPI_") {
			continue
		}
		old := tr.Regions[tr.RegionIndex(reg.Name)].Flat
		for th := range tr.Threads {
			for mi := range tr.Metrics {
				a, b := sub.Values[mi].Exclusive[sub.Cell(reg.Flat, th)], tr.Values[mi].Exclusive[tr.Cell(old, th)]
				ai, bi := sub.Values[mi].Inclusive[sub.Cell(reg.Flat, th)], tr.Values[mi].Inclusive[tr.Cell(old, th)]
				if !near(a, b) || !near(ai, bi) {
					t.Errorf("%s thread %d: %v/%v, flat %v/%v", reg.Name, th, ai, a, bi, b)
				}
			}
		}
		checked++
	}
	if checked < 5 {
		t.Errorf("%d MPI regions checked", checked)
	}
}

func same(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
