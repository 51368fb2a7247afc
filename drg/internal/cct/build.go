package cct

import (
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// RegionName returns the name a context's region gets in the trial: the
// name canonicalized as TAU does, with "=>" (TAU's callpath separator)
// written "->", and "<unnamed>" for an empty name.
func RegionName(name string) string {
	name = drg.CanonicalName(strings.ReplaceAll(name, "=>", "->"))
	if name == "" {
		return "<unnamed>"
	}
	return name
}

// Paths returns the TAU callpath name of every node: the region names from
// the root down, joined with " => ".
func (t *Tree) Paths() []string {
	paths := make([]string, len(t.Nodes))
	for i, n := range t.Nodes {
		paths[i] = RegionName(n.Name)
		if n.Parent >= 0 {
			paths[i] = paths[n.Parent] + drg.CallpathSeparator + paths[i]
		}
	}
	return paths
}

// Build makes the trial. Every non-root context becomes the callpath node of
// its path (contexts with the same path, such as two calls of one function
// from different lines, are summed into one node, as TAU does). Every
// region gets a flat node holding, per thread, the sum of its contexts'
// exclusive values and the sum of the inclusive values of its contexts that
// have no ancestor of the same region (so recursion is not counted twice);
// a root context is its region's flat node. Calls add up the same way;
// subroutines are the calls of a node's children. A (node, thread) cell is
// present when some value or call count in it is not zero. meta becomes
// the trial's metadata.
func (t *Tree) Build(name string, src drg.Source, meta map[string]string) (*drg.Trial, error) {
	b, err := drg.NewBuilder(t.Threads)
	if err != nil {
		return nil, err
	}
	b.AggregateMetadata = false
	for k, v := range meta {
		b.TrialMetadata(k, v)
	}
	for _, m := range t.Metrics {
		b.Metric(m)
	}
	cols := make([]int, len(t.Threads))
	for th, id := range t.Threads {
		cols[th] = b.Column(id)
	}
	paths := t.Paths()
	subrs := t.subroutines()
	for i, n := range t.Nodes {
		if n.Parent < 0 {
			continue
		}
		node := b.Node(paths[i])
		t.add(b, cols, node, i, subrs, t.Incl, t.Excl, t.Calls)
	}
	t.addFlat(b, cols, subrs)
	return b.Finish(name, src)
}

// subroutines returns the calls of each node's children, or nil without
// calls.
func (t *Tree) subroutines() []float64 {
	if t.Calls == nil {
		return nil
	}
	nt := len(t.Threads)
	s := make([]float64, len(t.Calls))
	for i, n := range t.Nodes {
		if n.Parent >= 0 {
			for th := 0; th < nt; th++ {
				s[n.Parent*nt+th] += t.Calls[i*nt+th]
			}
		}
	}
	return s
}

// add adds row i of the given columns to trial node node, for every thread
// where some value is not zero; cols maps the tree's threads to the
// builder's columns.
func (t *Tree) add(b *drg.Builder, cols []int, node, i int, subrs []float64, incl, excl [][]float64, calls []float64) {
	nt := len(t.Threads)
	for th := 0; th < nt; th++ {
		c := i*nt + th
		any := calls != nil && (calls[c] != 0 || subrs[c] != 0)
		for m := range incl {
			any = any || incl[m][c] != 0 || excl[m][c] != 0
		}
		if !any {
			continue
		}
		for m := range incl {
			b.AddValues(node, cols[th], m, excl[m][c], incl[m][c])
		}
		if calls != nil {
			b.AddCalls(node, cols[th], calls[c], subrs[c])
		} else {
			b.AddCalls(node, cols[th], 0, 0)
		}
	}
}
