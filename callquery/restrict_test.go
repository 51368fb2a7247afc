package callquery

import (
	"slices"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

func TestGraphOfFlatAndPartialTrials(t *testing.T) {
	flat := build(t, []cp{{"main", 10, 4}, {"MPI_Send()", 6, 6}}, map[string]string{"MPI_Send()": "MPI"})
	if GraphSize(flat) != 2 {
		t.Errorf("flat profile: graph of %d nodes, want 2 roots", GraphSize(flat))
	}
	expect(t, flat, `MATCH (".", p) WHERE p IS LEAF AND p."group" = "MPI"`, "MPI_Send()")
	// Depth-limited callpaths (TAU's default depth 2): every region's
	// flat node with callpath children is a root; "b" appears in callpath
	// "a => b" only, so its flat node is not in the graph.
	partial := build(t, []cp{{"a", 10, 2}, {"c", 8, 8}, {"a => b", 8, 8}, {"c => d", 0, 0}}, nil)
	if GraphSize(partial) != 4 {
		t.Errorf("partial: graph of %d nodes, want 4", GraphSize(partial))
	}
	expect(t, partial, `MATCH (p)->(q)`, "a", "a => b", "c", "c => d")
	expect(t, partial, `MATCH (".", p) WHERE p."name" = "b"`, "a => b")
}

func TestRestrictSumsContexts(t *testing.T) {
	tr := build(t, forest, forestGroups)
	r := run(t, tr, `MATCH (".", p) WHERE p."name" =~ "MPI_(Send|Recv)"`)
	sub := Restrict(tr, r)
	// Two regions, each the sum of its two contexts, and main as the
	// reference of percentages; no callpath node has a matched ancestor,
	// so none is kept.
	if len(sub.Regions) != 3 || len(sub.Nodes) != 3 {
		t.Fatalf("%d regions, %d nodes, want 3 and 3", len(sub.Regions), len(sub.Nodes))
	}
	m := sub.Regions[sub.RegionIndex("main")].Flat
	if sub.Values[0].Inclusive[m*2+1] != 130*1.5 || sub.Values[0].Exclusive[m*2+1] != 0 || sub.MainRegion(0) != sub.RegionIndex("main") {
		t.Errorf("main %v/%v on thread 1, want 195/0 and still the main region", sub.Values[0].Inclusive[m*2+1], sub.Values[0].Exclusive[m*2+1])
	}
	for _, c := range []struct {
		name string
		want float64 // mean over threads: thread 0 half, thread 1 one and a half
	}{{"MPI_Send()", 15 + 20}, {"MPI_Recv()", 10 + 5}} {
		reg := sub.RegionIndex(c.name)
		if reg < 0 {
			t.Fatalf("no region %s", c.name)
		}
		f := sub.Regions[reg].Flat
		th0, th1 := sub.Values[0].Exclusive[f*2], sub.Values[0].Exclusive[f*2+1]
		if !near(th0, c.want/2) || !near(th1, c.want*1.5) || !near(sub.Values[0].Inclusive[f*2], c.want/2) {
			t.Errorf("%s: exclusive %v %v, inclusive %v; want %v %v", c.name, th0, th1, sub.Values[0].Inclusive[f*2], c.want/2, c.want*1.5)
		}
		if sub.Calls[f*2] != 2 || !sub.Has(f, 0) || !sub.Has(f, 1) {
			t.Errorf("%s: calls %v, want 2 (one per context)", c.name, sub.Calls[f*2])
		}
	}
}

func TestRestrictKeepsTheTreeUnderMatchedRoots(t *testing.T) {
	tr := build(t, forest, forestGroups)
	// The main tree down to step, and step's children: main's flat node
	// is a root and keeps its own values.
	r := run(t, tr, `MATCH (p)->("*")->(q) WHERE p."name" = "main" AND q."depth" <= 3`)
	sub := Restrict(tr, r)
	tree := sub.Tree()
	if tree.Kind != drg.CompleteTree {
		t.Fatalf("restricted tree is %s, want complete", tree.Kind)
	}
	var got []string
	for _, n := range sub.Nodes {
		if n.Parent >= 0 {
			got = append(got, n.Name)
		}
	}
	want := []string{"main => init", "main => init => MPI_Init()", "main => init => read", "main => solve", stepP,
		stepP + " => " + cmpt, exch, "main => finalize", "main => finalize => MPI_Finalize()"}
	if !slices.Equal(got, want) {
		t.Errorf("callpath nodes %q, want %q", got, want)
	}
	m := sub.RegionIndex("main")
	if f := sub.Regions[m].Flat; sub.Values[0].Inclusive[f*2+1] != 130*1.5 {
		t.Errorf("main inclusive on thread 1 %v, want %v", sub.Values[0].Inclusive[f*2+1], 130*1.5)
	}
	// exchange: the main context only (30/5), not worker's.
	x := sub.Regions[sub.RegionIndex("exchange")].Flat
	if sub.Values[0].Inclusive[x*2] != 15 || sub.Values[0].Exclusive[x*2] != 2.5 {
		t.Errorf("exchange %v/%v on thread 0, want 15/2.5", sub.Values[0].Inclusive[x*2], sub.Values[0].Exclusive[x*2])
	}
}

func TestRestrictRecursionCountsInclusiveOnce(t *testing.T) {
	tr := build(t, []cp{{"main", 100, 10}, {"main => f", 90, 30}, {"main => f => f", 60, 60}}, nil)
	tr.Values[0].Exclusive[0] = 99 // main's exclusive on thread 0: not matched, so 0 below
	sub := Restrict(tr, run(t, tr, `MATCH (".", p) WHERE p."name" = "f"`))
	f := sub.Regions[sub.RegionIndex("f")].Flat
	// Inclusive of the outer call only (90); exclusive of both (30+60).
	if sub.Values[0].Inclusive[f*2] != 45 || sub.Values[0].Exclusive[f*2] != 45 {
		t.Errorf("f %v/%v on thread 0, want 45/45", sub.Values[0].Inclusive[f*2], sub.Values[0].Exclusive[f*2])
	}
	// The outer f has no matched ancestor, so neither it nor the nested f
	// under it stays a callpath node: f's flat node holds them, next to
	// main's, kept as the reference of percentages.
	if len(sub.Nodes) != 2 || sub.Nodes[0].Name != "main" || sub.Values[0].Exclusive[0] != 0 {
		t.Errorf("nodes %+v, main exclusive %v; want main's and f's flat nodes, main's exclusive 0", sub.Nodes, sub.Values[0].Exclusive[0])
	}
}

func TestPaths(t *testing.T) {
	tr := build(t, forest, forestGroups)
	r := run(t, tr, `MATCH ("*")->(p)->(q) WHERE p."name" = "exchange" AND q."name" = "MPI_Send()"`)
	var got [][]string
	for _, p := range r.Paths(100) {
		var s []string
		for _, n := range p {
			s = append(s, tr.Nodes[n].Name)
		}
		got = append(got, s)
	}
	// One path from each of the 4 nodes above main's exchange (main,
	// solve, step, exchange itself), and 2 for worker's.
	if len(got) != 6 {
		t.Fatalf("%d paths, want 6: %q", len(got), got)
	}
	if !slices.Equal(got[0], []string{"main", "main => solve", stepP, exch, exch + " => MPI_Send()"}) {
		t.Errorf("first path %q", got[0])
	}
	if len(r.Paths(2)) != 2 || len(r.Paths(0)) != 0 {
		t.Error("the limit is not kept")
	}
}

func TestCallGraph(t *testing.T) {
	tr := build(t, forest, forestGroups)
	roots, children := CallGraph(tr)
	if len(roots) != 2 || tr.Nodes[roots[0]].Name != "main" || tr.Nodes[roots[1]].Name != "worker" {
		t.Fatalf("roots %v", roots)
	}
	var kids []string
	for _, c := range children[roots[0]] {
		kids = append(kids, tr.Nodes[c].Name)
	}
	if !slices.Equal(kids, []string{"main => init", "main => solve", "main => finalize"}) {
		t.Errorf("children of main %q", kids)
	}
	if f := tr.Regions[tr.RegionIndex("exchange")].Flat; children[f] != nil || GraphSize(tr) != len(forest) {
		t.Errorf("exchange's flat node has children %v; graph of %d nodes, want %d", children[f], GraphSize(tr), len(forest))
	}
}
