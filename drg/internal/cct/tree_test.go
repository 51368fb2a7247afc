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
