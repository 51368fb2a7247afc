package cct

import (
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Collector gathers a calling context tree from records that name their
// contexts (a child is found by its parent and name) and carry values one
// at a time, per (context, thread, metric), exclusive or inclusive; Build
// derives the side of a metric that was not recorded. Values are kept as
// they come (24 bytes each) until Build, so memory grows with the input.
type Collector struct {
	// GivenFlat is Tree.GivenFlat of the tree built.
	GivenFlat bool
	names     []string
	parent    []int
	depth     []int
	child     map[childKey]int
	metrics   []metricSpec
	metIdx    map[string]int
	cells     [][]cell // in chunks of chunkCells, so that growing copies nothing
	threads   map[drg.ThreadID]int32
	thIDs     []drg.ThreadID
	last      drg.ThreadID
	lastIdx   int32
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

// cell is one value as added; th indexes Collector.thIDs.
type cell struct {
	node   int32
	metric int32
	th     int32
	kind   int8
	v      float64
}

// NewCollector returns an empty collector.
func NewCollector() *Collector {
	return &Collector{child: map[childKey]int{}, metIdx: map[string]int{}, threads: map[drg.ThreadID]int32{}, lastIdx: -1}
}

// Name returns the region name of context n.
func (t *Collector) Name(n int) string { return t.names[n] }

// MaxDepth is the deepest context a tree takes (a root has depth 0): a
// callpath name grows with its depth, and the trial keeps one per context.
const MaxDepth = 1000

// Child returns the context named name under parent (-1 for a root),
// adding it if new. The name is cleaned first (" => ", TAU's callpath
// separator, inside a name becomes " -> "; a blank name becomes "UNKNOWN").
// A context deeper than MaxDepth is an error.
func (t *Collector) Child(parent int, name string) (int, error) {
	name = contextName(name)
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

// Metric returns the index of the metric named name, adding it if new.
func (t *Collector) Metric(name string) int {
	if i, ok := t.metIdx[name]; ok {
		return i
	}
	t.metrics = append(t.metrics, metricSpec{name: name})
	t.metIdx[name] = len(t.metrics) - 1
	return len(t.metrics) - 1
}

// MetricName returns the name of metric m.
func (t *Collector) MetricName(m int) string { return t.metrics[m].name }

// RenameMetric renames metric m; a name already taken by another metric is
// left as it was.
func (t *Collector) RenameMetric(m int, name string) {
	if _, taken := t.metIdx[name]; taken {
		return
	}
	delete(t.metIdx, t.metrics[m].name)
	t.metrics[m].name = name
	t.metIdx[name] = m
}

// MoveFirst makes metric m the first one (the trial's default metric
// when it measures time), keeping the others in order.
func (t *Collector) MoveFirst(m int) {
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

// AddExclusive adds an exclusive value of metric m for context n on thread th.
func (t *Collector) AddExclusive(n int, th drg.ThreadID, m int, v float64) {
	t.metrics[m].recordedExcl = true
	t.add(th, cell{node: int32(n), kind: kExcl, metric: int32(m), v: v})
}

// AddInclusive adds an inclusive value of metric m for context n on thread th.
func (t *Collector) AddInclusive(n int, th drg.ThreadID, m int, v float64) {
	t.metrics[m].recordedIncl = true
	t.add(th, cell{node: int32(n), kind: kIncl, metric: int32(m), v: v})
}

// AddCalls adds calls of context n on thread th.
func (t *Collector) AddCalls(n int, th drg.ThreadID, calls float64) {
	t.add(th, cell{node: int32(n), kind: kCalls, v: calls})
}

// MarkPresent records that thread th has a record for context n without
// adding any value.
func (t *Collector) MarkPresent(n int, th drg.ThreadID) {
	t.add(th, cell{node: int32(n), kind: kPresent})
}

func (t *Collector) add(th drg.ThreadID, c cell) {
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
