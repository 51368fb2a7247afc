package callquery

import (
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Restrict returns the part of trial t that r matched, as a trial the
// analyses take like any other:
//
//   - Regions: those with a matched node, in trial order, and the main
//     region (drg.Trial.MainRegion of the time metric) in any case: when
//     the query did not match it, it stays as the reference of
//     percentages with its inclusive values, calls and records, and
//     exclusive values 0, so that a share of "the main region" remains a
//     share of the whole program.
//   - Each region's flat node: when the region's own flat node matched (a
//     root of the graph, which holds every context of the region), its
//     values; otherwise the sum over the region's matched nodes of their
//     exclusive values, calls and subroutine calls, and of the inclusive
//     values of those matched nodes that have no matched ancestor of the
//     same region (so recursion is not counted twice); a thread has a
//     record when it has one for some matched node.
//   - Callpath nodes: the matched ones that have a matched ancestor, under
//     the nearest one (Hatchet's squash); they keep their full call-path
//     name. A matched node without a matched ancestor (and the matched
//     nodes below it) counts only in its region's flat node: start the
//     pattern with ("*") to keep the call paths from the root.
//
// Threads, metrics, metadata and user events are shared with t (user
// events keep their context node when it was kept); earlier snapshots are
// dropped. t is not modified.
func Restrict(t *drg.Trial, r *Result) *drg.Trial {
	g := newGraph(t)
	main := t.MainRegion(t.TimeMetric())
	keptRegion, newRegion := restrictRegions(t, r, main)
	out := &drg.Trial{
		Name: t.Name, Source: t.Source, Metadata: t.Metadata, Threads: t.Threads,
		Metrics: t.Metrics, Counters: t.Counters, CounterValues: t.CounterValues,
		CounterPresent: t.CounterPresent, LongNames: t.LongNames, Warnings: t.Warnings,
	}
	nt := len(t.Threads)
	out.Values = make([]drg.MetricValues, len(t.Metrics))
	newNode := make([]int, len(t.Nodes))
	for i := range newNode {
		newNode[i] = -1
	}
	var sources [][]int // per new node: the old nodes summed into it
	var inclFrom [][]int
	for _, reg := range keptRegion {
		old := &t.Regions[reg]
		nr := *old
		nr.Flat = len(out.Nodes)
		out.Regions = append(out.Regions, nr)
		out.Nodes = append(out.Nodes, drg.Node{Name: t.Nodes[old.Flat].Name, Region: newRegion[reg], Parent: -1})
		if r.Has(old.Flat) || reg == main {
			newNode[old.Flat] = nr.Flat
			sources = append(sources, []int{old.Flat})
			inclFrom = append(inclFrom, []int{old.Flat})
			continue
		}
		all, outer := regionContexts(t, g, r, reg)
		sources = append(sources, all)
		inclFrom = append(inclFrom, outer)
	}
	for _, n := range r.Nodes {
		nd := &t.Nodes[n]
		if nd.Parent < 0 {
			continue
		}
		p := nearestMatched(g, r, n)
		if p < 0 || newNode[p] < 0 {
			continue // no matched ancestor kept: counted in the flat node only
		}
		newNode[n] = len(out.Nodes)
		out.Nodes = append(out.Nodes, drg.Node{Name: nd.Name, Region: newRegion[nd.Region], Parent: newNode[p], Derived: nd.Derived})
		sources = append(sources, []int{n})
		inclFrom = append(inclFrom, []int{n})
	}
	for i := range out.Nodes {
		if p := out.Nodes[i].Parent; p >= 0 {
			out.Nodes[i].Depth = out.Nodes[p].Depth + 1
		}
	}
	fillValues(t, out, nt, sources, inclFrom)
	if main >= 0 && !r.Has(t.Regions[main].Flat) {
		f := out.Regions[newRegion[main]].Flat
		for m := range out.Values {
			clear(out.Values[m].Exclusive[f*nt : (f+1)*nt])
		}
	}
	for i := range out.Counters {
		if n := out.Counters[i].Node; n >= 0 {
			if out.Counters[i].Node = newNode[n]; newNode[n] < 0 {
				out.Counters[i].Node = -1
			}
		}
	}
	return out
}

// restrictRegions lists the regions with a matched node, and main (when
// >= 0), and their new indexes.
func restrictRegions(t *drg.Trial, r *Result, main int) (kept []int, newIdx []int) {
	has := make([]bool, len(t.Regions))
	if main >= 0 {
		has[main] = true
	}
	for _, n := range r.Nodes {
		has[t.Nodes[n].Region] = true
	}
	newIdx = make([]int, len(t.Regions))
	for reg, ok := range has {
		newIdx[reg] = -1
		if ok {
			newIdx[reg] = len(kept)
			kept = append(kept, reg)
		}
	}
	return kept, newIdx
}

// regionContexts returns the matched nodes of region reg, and those of
// them without a matched ancestor of the same region.
func regionContexts(t *drg.Trial, g *graph, r *Result, reg int) (all, outer []int) {
	for _, n := range r.Nodes {
		if t.Nodes[n].Region != reg {
			continue
		}
		all = append(all, n)
		nested := false
		for p := g.parent[n]; p >= 0; p = g.parent[p] {
			if r.Has(p) && t.Nodes[p].Region == reg {
				nested = true
				break
			}
		}
		if !nested {
			outer = append(outer, n)
		}
	}
	return all, outer
}

// nearestMatched returns the closest matched ancestor of n, or -1.
func nearestMatched(g *graph, r *Result, n int) int {
	for p := g.parent[n]; p >= 0; p = g.parent[p] {
		if r.Has(p) {
			return p
		}
	}
	return -1
}

// fillValues sums the old nodes' cells into the new trial's columns.
func fillValues(t, out *drg.Trial, nt int, sources, inclFrom [][]int) {
	size := len(out.Nodes) * nt
	for m := range t.Metrics {
		out.Values[m] = drg.MetricValues{Inclusive: make([]float64, size), Exclusive: make([]float64, size)}
	}
	out.Calls = make([]float64, size)
	out.Subroutines = make([]float64, size)
	out.Present = drg.NewBitmap(size)
	for i := range out.Nodes {
		for th := 0; th < nt; th++ {
			c := i*nt + th
			for _, o := range sources[i] {
				oc := o*nt + th
				if !t.Present.Get(oc) {
					continue
				}
				out.Present.Set(c)
				out.Calls[c] += t.Calls[oc]
				out.Subroutines[c] += t.Subroutines[oc]
				for m := range t.Metrics {
					out.Values[m].Exclusive[c] += t.Values[m].Exclusive[oc]
				}
			}
			for _, o := range inclFrom[i] {
				for m := range t.Metrics {
					out.Values[m].Inclusive[c] += t.Values[m].Inclusive[o*nt+th]
				}
			}
		}
	}
}
