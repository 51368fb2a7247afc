package cct

import "github.com/taudb-analyze/taudb-analyze/drg"

// addFlat adds one flat node per region (its group that of the region's
// first context): exclusive values and calls summed
// over the region's contexts, inclusive values over those contexts that
// have no ancestor of the same region. The tree is walked depth first
// with an explicit stack, so a deep tree cannot exhaust the goroutine
// stack.
func (t *Tree) addFlat(b *drg.Builder, cols []int, subrs []float64) {
	nt := len(t.Threads)
	var names, groups []string
	region := make([]int, len(t.Nodes))
	byName := map[string]int{}
	for i, n := range t.Nodes {
		name := RegionName(n.Name)
		r, ok := byName[name]
		if !ok {
			r = len(names)
			byName[name] = r
			names = append(names, name)
			groups = append(groups, n.Group)
		}
		region[i] = r
	}
	nm := len(t.Metrics)
	incl, excl := make([][]float64, nm), make([][]float64, nm)
	for m := 0; m < nm; m++ {
		incl[m] = make([]float64, len(names)*nt)
		excl[m] = make([]float64, len(names)*nt)
	}
	var calls, fsubrs []float64
	if t.Calls != nil {
		calls, fsubrs = make([]float64, len(names)*nt), make([]float64, len(names)*nt)
	}
	active := make([]int, len(names))
	children := t.Children()
	type frame struct{ node, next int }
	var stack []frame
	for root, n := range t.Nodes {
		if n.Parent >= 0 {
			continue
		}
		stack = append(stack[:0], frame{root, 0})
		t.enter(root, region, active, incl, excl, calls, fsubrs, subrs)
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(children[top.node]) {
				c := children[top.node][top.next]
				top.next++
				t.enter(c, region, active, incl, excl, calls, fsubrs, subrs)
				stack = append(stack, frame{c, 0})
				continue
			}
			active[region[top.node]]--
			stack = stack[:len(stack)-1]
		}
	}
	rt := &Tree{Threads: t.Threads, Metrics: t.Metrics, Nodes: make([]Node, len(names))}
	for r, name := range names {
		node := b.Node(name)
		if groups[r] != "" {
			b.SetGroups(node, groups[r])
		}
		rt.add(b, cols, node, r, fsubrs, incl, excl, calls)
	}
}

// enter adds node i's values to its region's flat sums and marks the
// region active below it.
func (t *Tree) enter(i int, region, active []int, incl, excl [][]float64, calls, fsubrs, subrs []float64) {
	nt := len(t.Threads)
	r := region[i]
	for m := range t.Metrics {
		for th := 0; th < nt; th++ {
			excl[m][r*nt+th] += t.Excl[m][i*nt+th]
			if active[r] == 0 {
				incl[m][r*nt+th] += t.Incl[m][i*nt+th]
			}
		}
	}
	if calls != nil {
		for th := 0; th < nt; th++ {
			calls[r*nt+th] += t.Calls[i*nt+th]
			fsubrs[r*nt+th] += subrs[i*nt+th]
		}
	}
	active[r]++
}
