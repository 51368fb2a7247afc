package cct

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Build makes the tree of what was collected, derives the missing side of
// every metric and returns the trial (see Tree.Build), named name, with
// source src and the trial metadata meta. For every metric it records in
// the trial metadata "<metric> (inclusive)" and "<metric> (exclusive)" as
// "recorded", "derived" or "none"; meta's keys win over those. A cell is
// present when a value, calls or MarkPresent were added to it or to a
// context below it.
func (t *Collector) Build(name string, src drg.Source, meta map[string]string) (*drg.Trial, error) {
	tr, err := t.tree()
	if err != nil {
		return nil, err
	}
	if len(t.metrics) == 0 {
		return nil, fmt.Errorf("no metric")
	}
	all := map[string]string{}
	for m, s := range t.metrics {
		all[s.name+" (inclusive)"], all[s.name+" (exclusive)"] = t.derivation(m)
		switch {
		case s.recordedExcl && !s.recordedIncl:
			tr.DeriveInclusive(m)
		case s.recordedIncl && !s.recordedExcl:
			tr.DeriveExclusive(m)
		}
	}
	for k, v := range meta {
		all[k] = v
	}
	return tr.Build(name, src, all)
}

// derivation says, per metric, which of inclusive and exclusive were
// recorded: "recorded", "derived" or "none" (a metric that got no value).
func (t *Collector) derivation(m int) (inclusive, exclusive string) {
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

// tree moves the collected values into a Tree, its threads sorted by
// (node, context, thread), and marks present every cell that got a record
// or has one below it. The collected values are dropped.
func (t *Collector) tree() (*Tree, error) {
	if len(t.thIDs) == 0 {
		return nil, fmt.Errorf("no value for any region")
	}
	tr := &Tree{GivenFlat: t.GivenFlat, Threads: slices.Clone(t.thIDs)}
	slices.SortFunc(tr.Threads, compareThreads)
	nt := len(tr.Threads)
	if err := t.checkDensity(nt); err != nil {
		return nil, err
	}
	for n, name := range t.names {
		tr.Nodes = append(tr.Nodes, Node{ID: int64(n), Parent: t.parent[n], Name: name})
	}
	for _, s := range t.metrics {
		tr.Metrics = append(tr.Metrics, s.name)
	}
	tr.Alloc(true)
	tr.Present = make([]bool, len(t.names)*nt)
	col := make([]int, len(t.thIDs)) // column of each collected thread
	for i, id := range t.thIDs {
		col[i], _ = slices.BinarySearchFunc(tr.Threads, id, compareThreads)
	}
	for _, chunk := range t.cells {
		for _, c := range chunk {
			i := int(c.node)*nt + col[c.th]
			tr.Present[i] = true
			switch c.kind {
			case kExcl:
				tr.Excl[c.metric][i] += c.v
			case kIncl:
				tr.Incl[c.metric][i] += c.v
			case kCalls:
				tr.Calls[i] += c.v
			}
		}
	}
	t.cells = nil
	// Children have larger indexes than their parents: one backward pass
	// carries presence up to the root.
	for n := len(t.names) - 1; n >= 0; n-- {
		if p := t.parent[n]; p >= 0 {
			for th := 0; th < nt; th++ {
				tr.Present[p*nt+th] = tr.Present[p*nt+th] || tr.Present[n*nt+th]
			}
		}
	}
	return tr, nil
}

// compareThreads orders threads by node, context and thread.
func compareThreads(a, b drg.ThreadID) int {
	if c := cmp.Compare(a.Node, b.Node); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Context, b.Context); c != 0 {
		return c
	}
	return cmp.Compare(a.Thread, b.Thread)
}

// MinDensity bounds the trial's dense (context × thread) arrays by what the
// input holds: a trial of more than 2^20 cells needs at least one value per
// MinDensity cells, so that a small file cannot make a huge trial.
const MinDensity = 64

func (t *Collector) checkDensity(nt int) error {
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
