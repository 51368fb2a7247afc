package cct

import (
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// TestRecursionAndMerge builds a tree by hand: main → f → f (recursion)
// and main → g twice (two call sites), one thread. The flat node of f
// counts the outer f's inclusive value only; the two g contexts are one
// callpath node with summed values and calls.
func TestRecursionAndMerge(t *testing.T) {
	tr := &Tree{Threads: []drg.ThreadID{{}}, Metrics: []string{"TIME"}}
	add := func(parent int, name string) int {
		i, err := tr.AddNode(int64(len(tr.Nodes)+1), parent, name, "")
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	main := add(-1, "main")
	f1 := add(main, "f")
	f2 := add(f1, "f")
	g1, g2 := add(main, "g"), add(main, "g")
	tr.Alloc(true)
	excl := map[int]float64{main: 1, f1: 2, f2: 3, g1: 4, g2: 5}
	for i, v := range excl {
		tr.Excl[0][i] = v
		tr.Calls[i] = 1
	}
	tr.DeriveInclusive(0)
	if tr.Incl[0][main] != 15 || tr.Incl[0][f1] != 5 {
		t.Fatalf("inclusive %v", tr.Incl[0])
	}
	trial, err := tr.Build("t", drg.Source{Format: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	val := func(name string) (float64, float64, float64, float64) {
		i := trial.NodeIndex(name)
		if i < 0 {
			t.Fatalf("no node %q", name)
		}
		return trial.Values[0].Inclusive[i], trial.Values[0].Exclusive[i], trial.Calls[i], trial.Subroutines[i]
	}
	if in, ex, c, s := val("f"); in != 5 || ex != 5 || c != 2 || s != 1 {
		t.Errorf("flat f: %v %v %v %v, want inclusive 5 (outer only), exclusive 2+3, calls 2, subroutines 1", in, ex, c, s)
	}
	if in, ex, c, _ := val("main => g"); in != 9 || ex != 9 || c != 2 {
		t.Errorf("main => g: %v %v %v, want 4+5 and 2 calls", in, ex, c)
	}
	if in, ex, c, s := val("main"); in != 15 || ex != 1 || c != 1 || s != 3 {
		t.Errorf("main: %v %v %v %v", in, ex, c, s)
	}
	if len(trial.Nodes) != 6 { // main, main => f, main => f => f, main => g, f, g
		t.Errorf("%d nodes, want 6", len(trial.Nodes))
	}
}

// TestDeepChain refuses a chain so deep that its callpath names would pass
// MaxPathBytes, without building them.
func TestDeepChain(t *testing.T) {
	tr := &Tree{Threads: []drg.ThreadID{{}}, Metrics: []string{"TIME"}}
	name := strings.Repeat("x", 1000)
	parent := -1
	for i := 0; i < 50000; i++ {
		parent, _ = tr.AddNode(int64(i+1), parent, name, "")
	}
	tr.Alloc(false)
	if _, err := tr.Build("t", drg.Source{}, nil); err == nil || !strings.Contains(err.Error(), "callpath names") {
		t.Fatalf("error %v", err)
	}
}

// TestNames: AddNode names a context as RegionName does ("=>" written "->",
// blanks canonicalized, "<unnamed>" for none), Collector.Child as Caliper
// and gprof name theirs (" => " written " -> ", "UNKNOWN" for a blank name).
func TestNames(t *testing.T) {
	tr := &Tree{}
	for _, c := range []struct{ in, want string }{{"a=>b", "a->b"}, {"  f  ( x )", "f ( x )"}, {"", "<unnamed>"}} {
		i, err := tr.AddNode(1, -1, c.in, "")
		if err != nil || tr.Nodes[i].Name != c.want {
			t.Errorf("AddNode(%q): %q, %v, want %q", c.in, tr.Nodes[i].Name, err, c.want)
		}
	}
	if _, err := tr.AddNode(9, 5, "x", ""); err == nil {
		t.Error("a parent not read before: accepted")
	}
	co := NewCollector()
	for _, c := range []struct{ in, want string }{{"a => b", "a -> b"}, {"a=>b", "a=>b"}, {" \t", "UNKNOWN"}} {
		n := child(t, co, -1, c.in)
		if co.Name(n) != c.want {
			t.Errorf("Child(%q): %q, want %q", c.in, co.Name(n), c.want)
		}
	}
	if a, b := child(t, co, -1, "r"), child(t, co, -1, "r"); a != b {
		t.Errorf("the same root twice: contexts %d and %d", a, b)
	}
}

// TestPresentAndGivenFlat builds a dense tree f → {g, h} on two threads with
// GivenFlat and an explicit Present column: thread 1 has a record of h with
// every value zero, which must still be present; the flat node g holds
// nothing (g is no root), f holds its own inclusive 10 and 2 subroutine
// calls (the calls of g and h on thread 0).
func TestPresentAndGivenFlat(t *testing.T) {
	tr := &Tree{Threads: []drg.ThreadID{{}, {Node: 1}}, Metrics: []string{"T"}, GivenFlat: true}
	f, _ := tr.AddNode(1, -1, "f", "")
	g, _ := tr.AddNode(2, f, "g", "")
	h, _ := tr.AddNode(3, f, "h", "")
	tr.Alloc(true)
	tr.Present = make([]bool, 3*2)
	tr.Present[h*2+1] = true
	tr.Excl[0][f*2], tr.Excl[0][g*2], tr.Excl[0][h*2] = 4, 5, 1
	tr.Calls[f*2], tr.Calls[g*2], tr.Calls[h*2] = 1, 1, 1
	tr.DeriveInclusive(0)
	trial, err := tr.Build("t", drg.Source{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fi := trial.NodeIndex("f")
	if c := trial.Cell(fi, 0); trial.Values[0].Inclusive[c] != 10 || trial.Values[0].Exclusive[c] != 4 || trial.Subroutines[c] != 2 {
		t.Errorf("f: inclusive %v exclusive %v subroutines %v, want 10, 4, 2", trial.Values[0].Inclusive[c], trial.Values[0].Exclusive[c], trial.Subroutines[c])
	}
	if gf := trial.Regions[trial.RegionIndex("g")].Flat; trial.Has(gf, 0) {
		t.Error("flat g present: with GivenFlat only roots have flat values")
	}
	fh := trial.NodeIndex("f => h")
	if !trial.Has(fh, 1) || trial.Has(trial.NodeIndex("f => g"), 1) || trial.Has(fi, 1) {
		t.Errorf("thread 1: f => h present %v (want true), f => g %v, f %v (want false)", trial.Has(fh, 1), trial.Has(trial.NodeIndex("f => g"), 1), trial.Has(fi, 1))
	}
}

// TestDeriveExclusiveRounding: a derived exclusive value below zero by
// rounding (1e-12 of the inclusive) becomes 0; one below zero by more is
// kept for the builder to report.
func TestDeriveExclusiveRounding(t *testing.T) {
	tr := &Tree{Threads: []drg.ThreadID{{}}, Metrics: []string{"T"}}
	p, _ := tr.AddNode(1, -1, "p", "")
	c, _ := tr.AddNode(2, p, "c", "")
	q, _ := tr.AddNode(3, -1, "q", "")
	d, _ := tr.AddNode(4, q, "d", "")
	tr.Alloc(false)
	tr.Incl[0][p], tr.Incl[0][c] = 1e6, 1e6+1e-6
	tr.Incl[0][q], tr.Incl[0][d] = 1, 2
	tr.DeriveExclusive(0)
	if tr.Excl[0][p] != 0 || tr.Excl[0][c] != 1e6+1e-6 || tr.Excl[0][q] != -1 {
		t.Errorf("exclusive %v, want [0 1000000.000001 -1 2]", tr.Excl[0])
	}
}
