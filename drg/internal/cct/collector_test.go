package cct

import (
	"fmt"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// TestDerive: a tree main > {a > b, b} on two threads, metric X recorded
// exclusive only and Y inclusive only; the other sides are derived by hand.
func TestDerive(t *testing.T) {
	tr := NewCollector()
	t0, t1 := drg.ThreadID{}, drg.ThreadID{Node: 1}
	main := child(t, tr, -1, "main")
	a := child(t, tr, main, "a")
	ab := child(t, tr, a, "b")
	b := child(t, tr, main, "b")
	x, y := tr.Metric("X"), tr.Metric("Y")
	for _, c := range []struct {
		n    int
		x, y float64
	}{{main, 1, 20}, {a, 2, 12}, {ab, 4, 4}, {b, 8, 8}} {
		tr.AddExclusive(c.n, t0, x, c.x)
		tr.AddInclusive(c.n, t0, y, c.y)
	}
	tr.AddExclusive(b, t1, x, 16)
	tr.MoveFirst(y)
	trial, err := tr.Build("t", drg.Source{Format: "test"}, map[string]string{"k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	if trial.Metrics[0].Name != "Y" || trial.Metadata["X (inclusive)"] != "derived" || trial.Metadata["Y (exclusive)"] != "derived" || trial.Metadata["k"] != "v" {
		t.Fatalf("metrics %v metadata %v", trial.Metrics, trial.Metadata)
	}
	ym, xm := 0, 1
	for _, c := range []struct {
		node           string
		th             int
		xe, xi, ye, yi float64
		present        bool
	}{
		{"main", 0, 1, 15, 20 - 12 - 8, 20, true},
		{"main => a", 0, 2, 6, 12 - 4, 12, true},
		{"main => a => b", 0, 4, 4, 4, 4, true},
		{"main => b", 0, 8, 8, 8, 8, true},
		{"b", 0, 12, 12, 12, 12, true}, // flat: both contexts, neither inside b
		{"a", 0, 2, 6, 8, 12, true},
		{"main => b", 1, 16, 16, 0, 0, true},
		{"main", 1, 0, 16, 0, 0, true}, // present through its child
		{"main => a", 1, 0, 0, 0, 0, false},
	} {
		n := trial.NodeIndex(c.node)
		cell := trial.Cell(n, c.th)
		got := []float64{trial.Values[xm].Exclusive[cell], trial.Values[xm].Inclusive[cell], trial.Values[ym].Exclusive[cell], trial.Values[ym].Inclusive[cell]}
		want := []float64{c.xe, c.xi, c.ye, c.yi}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s thread %d: %v, want %v", c.node, c.th, got, want)
				break
			}
		}
		if trial.Has(n, c.th) != c.present {
			t.Errorf("%s thread %d: present %v", c.node, c.th, trial.Has(n, c.th))
		}
	}
}

// TestGivenFlat: with GivenFlat the roots are the flat nodes with their
// own values, and children are caller => callee callpaths.
func TestGivenFlat(t *testing.T) {
	tr := NewCollector()
	tr.GivenFlat = true
	th := drg.ThreadID{}
	m := tr.Metric("T")
	f, g := child(t, tr, -1, "f"), child(t, tr, -1, "g")
	fg := child(t, tr, f, "g")
	tr.AddExclusive(f, th, m, 1)
	tr.AddInclusive(f, th, m, 10)
	tr.AddExclusive(g, th, m, 9)
	tr.AddInclusive(g, th, m, 9)
	tr.AddExclusive(fg, th, m, 3)
	tr.AddInclusive(fg, th, m, 3)
	tr.AddCalls(fg, th, 2)
	trial, err := tr.Build("t", drg.Source{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gf := trial.Regions[trial.RegionIndex("g")].Flat
	if e, i := trial.Values[0].Exclusive[gf], trial.Values[0].Inclusive[gf]; e != 9 || i != 9 {
		t.Errorf("flat g %v/%v: the callpath must not add to it", e, i)
	}
	if n := trial.NodeIndex("f"); trial.Subroutines[n] != 2 {
		t.Errorf("f subroutines %v", trial.Subroutines[n])
	}
	if _, err := NewCollector().Build("empty", drg.Source{}, nil); err == nil {
		t.Error("a tree with no value: accepted")
	}
}

func child(t *testing.T, tr *Collector, parent int, name string) int {
	t.Helper()
	n, err := tr.Child(parent, name)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLimits: nesting deeper than MaxDepth and a sparse trial too big for
// its values are refused.
func TestLimits(t *testing.T) {
	tr := NewCollector()
	n := -1
	var err error
	for d := 0; d <= MaxDepth && err == nil; d++ {
		n, err = tr.Child(n, "r")
	}
	if err != nil {
		t.Fatalf("depth %d refused: %v", MaxDepth, err)
	}
	if _, err := tr.Child(n, "r"); err == nil {
		t.Fatalf("depth %d accepted", MaxDepth+1)
	}
	// 2048 contexts × 2048 threads with one value each on the diagonal.
	sp := NewCollector()
	m := sp.Metric("T")
	for i := 0; i < 2048; i++ {
		c := child(t, sp, -1, fmt.Sprint("r", i))
		sp.AddExclusive(c, drg.ThreadID{Node: i}, m, 1)
	}
	if _, err := sp.Build("sparse", drg.Source{}, nil); err == nil || !strings.Contains(err.Error(), "too sparse") {
		t.Errorf("sparse trial: %v", err)
	}
}

// TestCollectedPathBytes: a collected chain within MaxDepth whose callpath
// names would still pass MaxPathBytes (1000 levels of 1100-byte names:
// about 1100 × 1000²/2 = 550 MB) is refused before the names are built.
func TestCollectedPathBytes(t *testing.T) {
	co := NewCollector()
	name := strings.Repeat("x", 1100)
	n := -1
	for range 1000 {
		n = child(t, co, n, name)
	}
	co.AddExclusive(n, drg.ThreadID{}, co.Metric("T"), 1)
	if _, err := co.Build("deep", drg.Source{}, nil); err == nil || !strings.Contains(err.Error(), "callpath names") {
		t.Fatalf("error %v", err)
	}
}
