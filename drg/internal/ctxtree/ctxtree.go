// Package ctxtree turns a calling-context tree with per-thread values, as
// profilers other than TAU record it (Caliper's nested regions, gprof's call
// graph), into a drg.Trial shaped like a TAU callpath profile.
//
// A context is a tree node named by its region; its callpath name is the
// names from the root joined by " => ". Values are added per (context,
// thread, metric) as exclusive or inclusive; a metric recorded only one way
// gets the other derived at Build time:
//
//	inclusive(n) = exclusive(n) + Σ inclusive(c) over the children c of n
//	exclusive(n) = inclusive(n) − Σ inclusive(c) over the children c of n
//
// per thread (a negative derived exclusive is clamped to 0 by drg.Builder,
// with a warning). With SumFlat, every region also gets TAU's flat node:
// exclusive, calls and subroutines summed over all its contexts, inclusive
// summed over its outermost contexts only (a context with no ancestor of the
// same name), so that recursion is not counted twice; the roots are
// represented by their flat nodes. Without SumFlat the roots are the flat
// nodes and hold their own values, and their descendants are callpaths (a
// call graph given as caller => callee edges).
package ctxtree

import (
	"fmt"
	"sort"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Tree is a calling-context tree being filled by a reader.
type Tree struct {
	// SumFlat selects how flat nodes are made (see the package comment).
	SumFlat bool
	names   []string
	parent  []int
	depth   []int
	child   map[childKey]int
	metrics []metricSpec
	metIdx  map[string]int
	cells   [][]cell // in chunks of chunkCells, so that growing copies nothing
	threads map[drg.ThreadID]int32
	thIDs   []drg.ThreadID
	last    drg.ThreadID
	lastIdx int32
}

type childKey struct {
	parent int
	name   string
}

type metricSpec struct {
	name                       string
	recordedExcl, recordedIncl bool
}

// cell kinds
const (
	kExcl = iota
	kIncl
	kCalls
	kPresent
)

// cell is one value as added; th indexes Tree.thIDs.
type cell struct {
	node   int32
	metric int32
	th     int32
	kind   int8
	v      float64
}

// New returns an empty tree.
func New() *Tree {
	return &Tree{child: map[childKey]int{}, metIdx: map[string]int{}, threads: map[drg.ThreadID]int32{}, lastIdx: -1}
}

// Len returns the number of contexts.
func (t *Tree) Len() int { return len(t.names) }

// Name returns the region name of context n.
func (t *Tree) Name(n int) string { return t.names[n] }

// Parent returns the parent context of n, or -1 for a root.
func (t *Tree) Parent(n int) int { return t.parent[n] }

// MaxDepth is the deepest context a tree takes (a root has depth 0): a
// callpath name grows with its depth, and the trial keeps one per context.
const MaxDepth = 1000

// Child returns the context named name under parent (-1 for a root),
// adding it if new. Names are cleaned: " => " (TAU's callpath separator)
// inside a name becomes " -> ", and an empty name becomes "UNKNOWN". A
// context deeper than MaxDepth is an error.
func (t *Tree) Child(parent int, name string) (int, error) {
	name = cleanName(name)
	k := childKey{parent, name}
	if i, ok := t.child[k]; ok {
		return i, nil
	}
	d := 0
	if parent >= 0 {
		d = t.depth[parent] + 1
	}
	if d > MaxDepth {
		return -1, fmt.Errorf("regions nested more than %d deep", MaxDepth)
	}
	i := len(t.names)
	t.names = append(t.names, name)
	t.parent = append(t.parent, parent)
	t.depth = append(t.depth, d)
	t.child[k] = i
	return i, nil
}

func cleanName(s string) string {
	s = strings.ReplaceAll(s, drg.CallpathSeparator, " -> ")
	if strings.TrimSpace(s) == "" {
		return "UNKNOWN"
	}
	return s
}

// Path returns the callpath name of context n ("a => b => c").
func (t *Tree) Path(n int) string {
	var parts []string
	for ; n >= 0; n = t.parent[n] {
		parts = append(parts, t.names[n])
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, drg.CallpathSeparator)
}

// Metric returns the index of the metric named name, adding it if new.
func (t *Tree) Metric(name string) int {
	if i, ok := t.metIdx[name]; ok {
		return i
	}
	t.metrics = append(t.metrics, metricSpec{name: name})
	t.metIdx[name] = len(t.metrics) - 1
	return len(t.metrics) - 1
}

// MetricName returns the name of metric m.
func (t *Tree) MetricName(m int) string { return t.metrics[m].name }

// RenameMetric renames metric m; a name already taken by another metric is
// left as it was.
func (t *Tree) RenameMetric(m int, name string) {
	if _, taken := t.metIdx[name]; taken {
		return
	}
	delete(t.metIdx, t.metrics[m].name)
	t.metrics[m].name = name
	t.metIdx[name] = m
}

// MoveFirst makes metric m the first one (the trial's default metric
// when it measures time), keeping the others in order.
func (t *Tree) MoveFirst(m int) {
	if m <= 0 || m >= len(t.metrics) {
		return
	}
	newIdx := make([]int32, len(t.metrics))
	for i := range t.metrics {
		switch {
		case i == m:
			newIdx[i] = 0
		case i < m:
			newIdx[i] = int32(i + 1)
		default:
			newIdx[i] = int32(i)
		}
	}
	spec := t.metrics[m]
	copy(t.metrics[1:m+1], t.metrics[:m])
	t.metrics[0] = spec
	for i, s := range t.metrics {
		t.metIdx[s.name] = i
	}
	for _, chunk := range t.cells {
		for i := range chunk {
			if k := chunk[i].kind; k == kExcl || k == kIncl {
				chunk[i].metric = newIdx[chunk[i].metric]
			}
		}
	}
}

// NumMetrics returns the number of metrics.
func (t *Tree) NumMetrics() int { return len(t.metrics) }

// AddExclusive adds an exclusive value of metric m for context n on thread th.
func (t *Tree) AddExclusive(n int, th drg.ThreadID, m int, v float64) {
	t.metrics[m].recordedExcl = true
	t.add(th, cell{node: int32(n), kind: kExcl, metric: int32(m), v: v})
}

// AddInclusive adds an inclusive value of metric m for context n on thread th.
func (t *Tree) AddInclusive(n int, th drg.ThreadID, m int, v float64) {
	t.metrics[m].recordedIncl = true
	t.add(th, cell{node: int32(n), kind: kIncl, metric: int32(m), v: v})
}

// AddCalls adds calls of context n on thread th.
func (t *Tree) AddCalls(n int, th drg.ThreadID, calls float64) {
	t.add(th, cell{node: int32(n), kind: kCalls, v: calls})
}

// MarkPresent records that thread th has a record for context n without
// adding any value.
func (t *Tree) MarkPresent(n int, th drg.ThreadID) {
	t.add(th, cell{node: int32(n), kind: kPresent})
}

func (t *Tree) add(th drg.ThreadID, c cell) {
	if t.lastIdx < 0 || th != t.last {
		i, ok := t.threads[th]
		if !ok {
			i = int32(len(t.thIDs))
			t.threads[th] = i
			t.thIDs = append(t.thIDs, th)
		}
		t.last, t.lastIdx = th, i
	}
	c.th = t.lastIdx
	if k := len(t.cells); k == 0 || len(t.cells[k-1]) == cap(t.cells[k-1]) {
		t.cells = append(t.cells, make([]cell, 0, chunkCells))
	}
	k := len(t.cells) - 1
	t.cells[k] = append(t.cells[k], c)
}

// chunkCells is the number of cells per chunk (24 bytes each).
const chunkCells = 1 << 14

// Derivation says, per metric, which of inclusive and exclusive were
// recorded: "recorded", "derived" or "none" (a metric that got no value).
func (t *Tree) Derivation(m int) (inclusive, exclusive string) {
	s := t.metrics[m]
	switch {
	case s.recordedIncl && s.recordedExcl:
		return "recorded", "recorded"
	case s.recordedIncl:
		return "recorded", "derived"
	case s.recordedExcl:
		return "derived", "recorded"
	}
	return "none", "none"
}

// dense holds the tree's values as arrays indexed node*nt+thread.
type dense struct {
	nt          int
	col         map[drg.ThreadID]int
	ids         []drg.ThreadID
	excl, incl  [][]float64
	calls, subr []float64
	present     []bool
}

func (t *Tree) densify() (*dense, error) {
	if len(t.threads) == 0 {
		return nil, fmt.Errorf("no value for any region")
	}
	d := &dense{col: map[drg.ThreadID]int{}}
	d.ids = append(d.ids, t.thIDs...)
	sort.Slice(d.ids, func(i, j int) bool {
		a, b := d.ids[i], d.ids[j]
		if a.Node != b.Node {
			return a.Node < b.Node
		}
		if a.Context != b.Context {
			return a.Context < b.Context
		}
		return a.Thread < b.Thread
	})
	for i, id := range d.ids {
		d.col[id] = i
	}
	d.nt = len(d.ids)
	if err := t.checkDensity(d.nt); err != nil {
		return nil, err
	}
	n := len(t.names) * d.nt
	for range t.metrics {
		d.excl = append(d.excl, make([]float64, n))
		d.incl = append(d.incl, make([]float64, n))
	}
	d.calls, d.subr, d.present = make([]float64, n), make([]float64, n), make([]bool, n)
	colOf := make([]int, len(t.thIDs))
	for i, id := range t.thIDs {
		colOf[i] = d.col[id]
	}
	for _, chunk := range t.cells {
		for _, c := range chunk {
			i := int(c.node)*d.nt + colOf[c.th]
			d.present[i] = true
			switch c.kind {
			case kExcl:
				d.excl[c.metric][i] += c.v
			case kIncl:
				d.incl[c.metric][i] += c.v
			case kCalls:
				d.calls[i] += c.v
			}
		}
	}
	t.cells = nil
	return d, nil
}

// MinDensity bounds the trial's dense (context × thread) arrays by what the
// input holds: a trial of more than 2^20 cells needs at least one value per
// MinDensity cells, so that a small file cannot make a huge trial.
const MinDensity = 64

func (t *Tree) checkDensity(nt int) error {
	cells := len(t.names) * nt
	values := 0
	for _, chunk := range t.cells {
		values += len(chunk)
	}
	if nt > 0 && cells/nt != len(t.names) {
		return fmt.Errorf("%d contexts × %d threads overflow", len(t.names), nt)
	}
	if cells > 1<<20 && cells/MinDensity > values {
		return fmt.Errorf("%d contexts × %d threads = %d cells for %d values: too sparse to hold densely (at most %d cells per value)",
			len(t.names), nt, cells, values, MinDensity)
	}
	return nil
}

// derive fills the missing side of every metric and propagates presence
// and subroutine calls to parents. Children always have larger indexes than
// their parents, so one backward pass sees every child before its parent.
func (t *Tree) derive(d *dense) {
	nt := d.nt
	childIncl := make([][]float64, len(t.metrics))
	for m := range t.metrics {
		childIncl[m] = make([]float64, len(t.names)*nt)
	}
	for n := len(t.names) - 1; n >= 0; n-- {
		p := t.parent[n]
		for th := 0; th < nt; th++ {
			i := n*nt + th
			for m, s := range t.metrics {
				switch {
				case s.recordedExcl && !s.recordedIncl:
					d.incl[m][i] = d.excl[m][i] + childIncl[m][i]
				case s.recordedIncl && !s.recordedExcl:
					d.excl[m][i] = d.incl[m][i] - childIncl[m][i]
				}
				if p >= 0 {
					childIncl[m][p*nt+th] += d.incl[m][i]
				}
			}
			if p >= 0 && d.present[i] {
				d.present[p*nt+th] = true
				d.subr[p*nt+th] += d.calls[i]
			}
		}
	}
}
