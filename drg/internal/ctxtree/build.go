package ctxtree

import (
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Build derives the missing values and returns the trial, named name, with
// source src and the trial metadata meta. For every metric it records in
// the trial metadata "<metric> (inclusive)" and "<metric> (exclusive)" as
// "recorded" or "derived".
func (t *Tree) Build(name string, src drg.Source, meta map[string]string) (*drg.Trial, error) {
	d, err := t.densify()
	if err != nil {
		return nil, err
	}
	if len(t.metrics) == 0 {
		return nil, fmt.Errorf("no metric")
	}
	t.derive(d)
	b, err := drg.NewBuilder(d.ids)
	if err != nil {
		return nil, err
	}
	b.AggregateMetadata = false
	for m, s := range t.metrics {
		b.Metric(s.name)
		inc, exc := t.Derivation(m)
		b.TrialMetadata(s.name+" (inclusive)", inc)
		b.TrialMetadata(s.name+" (exclusive)", exc)
	}
	for k, v := range meta {
		b.TrialMetadata(k, v)
	}
	b.Reserve(2 * len(t.names)) // at most a flat and a callpath node each
	if t.SumFlat {
		t.addFlat(b, d)
	}
	t.addNodes(b, d)
	return b.Finish(name, src)
}

// addNodes adds the callpath nodes (every context below a root) and, without
// SumFlat, the roots as flat nodes.
func (t *Tree) addNodes(b *drg.Builder, d *dense) {
	paths := make([]string, len(t.names))
	for n := range t.names {
		if p := t.parent[n]; p >= 0 {
			paths[n] = paths[p] + drg.CallpathSeparator + t.names[n]
		} else {
			paths[n] = t.names[n]
			if t.SumFlat {
				continue
			}
		}
		node := b.Node(paths[n])
		t.addCell(b, d, node, n)
	}
}

func (t *Tree) addCell(b *drg.Builder, d *dense, node, n int) {
	for th := 0; th < d.nt; th++ {
		i := n*d.nt + th
		if !d.present[i] {
			continue
		}
		col := b.Column(d.ids[th])
		b.AddCalls(node, col, d.calls[i], d.subr[i])
		for m := range t.metrics {
			b.AddValues(node, col, m, d.excl[m][i], d.incl[m][i])
		}
	}
}

// addFlat adds one flat node per region name with the sums described in the
// package comment.
func (t *Tree) addFlat(b *drg.Builder, d *dense) {
	// outer[n] is true when no ancestor of n has n's name.
	outer := make([]bool, len(t.names))
	for n := range t.names {
		outer[n] = true
		for p := t.parent[n]; p >= 0; p = t.parent[p] {
			if t.names[p] == t.names[n] {
				outer[n] = false
				break
			}
		}
	}
	for n := range t.names {
		flat := b.Node(t.names[n])
		for th := 0; th < d.nt; th++ {
			i := n*d.nt + th
			if !d.present[i] {
				continue
			}
			col := b.Column(d.ids[th])
			b.AddCalls(flat, col, d.calls[i], d.subr[i])
			for m := range t.metrics {
				incl := 0.0
				if outer[n] {
					incl = d.incl[m][i]
				}
				b.AddValues(flat, col, m, d.excl[m][i], incl)
			}
		}
	}
}
