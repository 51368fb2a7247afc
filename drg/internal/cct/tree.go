// Package cct turns a calling context tree, as profilers other than TAU
// record it, into a drg.Trial shaped like a TAU callpath profile.
//
// Tree holds the contexts densely: nodes with a parent, and per thread and
// metric an inclusive and an exclusive value (node*len(Threads)+thread),
// optionally visit counts. Readers whose format numbers its contexts and
// gives a value for every (context, thread) fill it directly (HPCToolkit,
// Score-P CUBE). Collector gathers a tree from records that name their
// contexts and come with values one by one (Caliper's nested regions,
// gprof's call graph) and builds a Tree from them.
//
// Tree.Build makes one callpath node per distinct path of names (the names
// from the root joined by " => "; contexts with the same path are summed),
// and one flat node per region name. The flat node holds, per thread, the
// sum of the exclusive values, calls and subroutines of every context of
// the region and the sum of the inclusive values of its outermost contexts
// only (a context with no ancestor of the same region), so that recursion
// is not counted twice; a root context is represented by its flat node.
// With GivenFlat the roots instead are the flat nodes, holding their own
// values, and their descendants are callpaths only (a call graph given as
// caller => callee edges). A metric recorded only one way gets the other
// side derived (DeriveInclusive, DeriveExclusive):
//
//	inclusive(n) = exclusive(n) + Σ inclusive(c) over the children c of n
//	exclusive(n) = inclusive(n) − Σ inclusive(c) over the children c of n
//
// Sizes are bounded by what the input holds: the callpath names of a tree
// by MaxPathBytes, a collected tree's depth by MaxDepth and its cells by
// MinDensity.
package cct

import (
	"fmt"
	"math"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Tree is a calling context tree with its values. Nodes are added parents
// first (a node's parent has a smaller index), then Alloc sizes the value
// columns, which are indexed node*len(Threads)+thread.
type Tree struct {
	// Threads lists the threads; their order is the column order.
	Threads []drg.ThreadID
	// Metrics lists the metric names, parallel to Incl and Excl.
	Metrics []string
	// Nodes lists the contexts, parents before children.
	Nodes []Node
	// Incl and Excl hold each metric's inclusive and exclusive values.
	Incl, Excl [][]float64
	// Calls holds visit counts (nil when the format has none).
	Calls []float64
	// Present marks the (node, thread) cells that hold a record even where
	// all their values are zero; nil means a cell is present when some value
	// or call count of it (or a subroutine call) is not zero.
	Present []bool
	// GivenFlat makes the roots the flat nodes with their own values and
	// every other context a callpath only (see the package comment); false
	// gives TAU's flat nodes summed over every context of a region.
	GivenFlat bool
}

// Node is one calling context.
type Node struct {
	// ID is the format's own id of the context (HPCToolkit's node id,
	// CUBE's cnode id).
	ID int64
	// Parent is the index of the parent node, or -1 for a root.
	Parent int
	// Name is the region name (the procedure, loop or statement), used as
	// it is in the callpath and flat names.
	Name string
	// Group is the TAU group given to the region ("" for none).
	Group string
	// Module and File are the load module (binary or library) and the
	// source file of the context where the format records them ("" where
	// not: HPCToolkit's experiment.xml names them, other formats' readers
	// leave them empty).
	Module, File string
	// Line is the context's own source line and CallLine the line of the
	// element that encloses it (HPCToolkit: the call site's line for a
	// procedure frame); 0 when unknown.
	Line, CallLine int
}

// AddNode appends a node named RegionName(name) and returns its index.
// parent must be -1 or the index of a node added before.
func (t *Tree) AddNode(id int64, parent int, name, group string) (int, error) {
	if parent < -1 || parent >= len(t.Nodes) {
		return 0, fmt.Errorf("context %d: parent %d is not a context read before it", id, parent)
	}
	t.Nodes = append(t.Nodes, Node{ID: id, Parent: parent, Name: RegionName(name), Group: group})
	return len(t.Nodes) - 1, nil
}

// SetSource records node i's load module, source file, line and the line
// of the element enclosing it (see Node).
func (t *Tree) SetSource(i int, module, file string, line, callLine int) {
	n := &t.Nodes[i]
	n.Module, n.File, n.Line, n.CallLine = module, file, line, callLine
}

// Alloc sizes the value columns for the nodes and metrics present (zeros),
// with a calls column when calls is true.
func (t *Tree) Alloc(calls bool) {
	n := len(t.Nodes) * len(t.Threads)
	t.Incl = make([][]float64, len(t.Metrics))
	t.Excl = make([][]float64, len(t.Metrics))
	for m := range t.Metrics {
		t.Incl[m] = make([]float64, n)
		t.Excl[m] = make([]float64, n)
	}
	if calls {
		t.Calls = make([]float64, n)
	}
}

// DeriveInclusive sets metric m's inclusive values from its exclusive ones:
// incl(n) = excl(n) + Σ incl(c) over the children c of n.
func (t *Tree) DeriveInclusive(m int) {
	nt := len(t.Threads)
	in, ex := t.Incl[m], t.Excl[m]
	copy(in, ex)
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		p := t.Nodes[i].Parent
		if p < 0 {
			continue
		}
		for th := 0; th < nt; th++ {
			in[p*nt+th] += in[i*nt+th]
		}
	}
}

// DeriveExclusive sets metric m's exclusive values from its inclusive ones:
// excl(n) = incl(n) − Σ incl(c) over the children c of n. A difference
// below zero by at most 1e-9 of incl(n) (rounding, as when values in
// seconds are scaled to microseconds) is set to 0; larger negative
// differences are kept for the builder to report.
func (t *Tree) DeriveExclusive(m int) {
	nt := len(t.Threads)
	in, ex := t.Incl[m], t.Excl[m]
	copy(ex, in)
	for i := range t.Nodes {
		p := t.Nodes[i].Parent
		if p < 0 {
			continue
		}
		for th := 0; th < nt; th++ {
			ex[p*nt+th] -= in[i*nt+th]
		}
	}
	for c, v := range ex {
		if v < 0 && -v <= 1e-9*math.Max(math.Abs(in[c]), 1) {
			ex[c] = 0
		}
	}
}

// Children returns the children of every node, in node order.
func (t *Tree) Children() [][]int {
	ch := make([][]int, len(t.Nodes))
	for i, n := range t.Nodes {
		if n.Parent >= 0 {
			ch[n.Parent] = append(ch[n.Parent], i)
		}
	}
	return ch
}
