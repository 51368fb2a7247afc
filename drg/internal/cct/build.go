package cct

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// MaxPathBytes bounds the total length of the callpath names of a tree:
// a path names every ancestor, so a deep chain of contexts (a few MB of
// input) could otherwise ask for gigabytes of names.
const MaxPathBytes = 512 << 20

// Paths returns the TAU callpath name of every node: the region names from
// the root down, joined with " => ". It fails, before building any name,
// when the names together would exceed MaxPathBytes.
func (t *Tree) Paths() ([]string, error) {
	names := make([]string, len(t.Nodes))
	size := make([]int, len(t.Nodes))
	total := 0
	for i, n := range t.Nodes {
		names[i] = n.Name
		size[i] = len(names[i])
		if n.Parent >= 0 {
			size[i] += size[n.Parent] + len(drg.CallpathSeparator)
		}
		if total += size[i]; total > MaxPathBytes {
			return nil, fmt.Errorf("the callpath names of the first %d of %d contexts would take more than %d bytes (the calling context tree is too deep for TAU's callpath names)", i+1, len(t.Nodes), MaxPathBytes)
		}
	}
	paths := names
	for i, n := range t.Nodes {
		if n.Parent >= 0 {
			paths[i] = paths[n.Parent] + drg.CallpathSeparator + names[i]
		}
	}
	return paths, nil
}

// builder carries the state of Build.
type builder struct {
	t        *Tree
	b        *drg.Builder
	cols     []int    // the builder's column of each thread
	paths    []string // callpath name of each node
	flat     []int    // the builder's flat node of each node's region
	region   []int    // region index of each node
	active   []int    // per region: open contexts of it on the walk
	children [][]int
	// colsOrNil is cols, or nil when every thread is its own column.
	colsOrNil []int
	ops       []op // the rows to add, in walk order
}

// op is one row Build adds: tree node i's values into trial node node,
// its inclusive values only when incl.
type op struct {
	node, i int
	incl    bool
}

// Build makes the trial. Every non-root context becomes the callpath node of
// its path (contexts with the same path, such as two calls of one function
// from different lines, are summed into one node, as TAU does). Every
// region gets a flat node holding, per thread, the sum of its contexts'
// exclusive values and the sum of the inclusive values of its contexts that
// have no ancestor of the same region (so recursion is not counted twice);
// a root context is its region's flat node. Calls add up the same way;
// subroutines are the calls of a node's children. With GivenFlat only the
// roots have flat nodes, holding their own values. A (node, thread) cell is
// present as Present says (see Tree). meta becomes the trial's metadata.
// Callpath nodes are made in depth-first order, walked with an explicit
// stack, so that a deep tree cannot exhaust the goroutine stack.
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
	paths, err := t.Paths()
	if err != nil {
		return nil, err
	}
	s := &builder{t: t, b: b, cols: make([]int, len(t.Threads)), paths: paths, children: t.Children()}
	identity := true
	for th, id := range t.Threads {
		s.cols[th] = b.Column(id)
		identity = identity && s.cols[th] == th
	}
	if !identity {
		s.colsOrNil = s.cols
	}
	s.regions()
	for root, n := range t.Nodes {
		if n.Parent < 0 {
			s.walk(root)
		}
	}
	s.addAll()
	return b.Finish(name, src)
}

// regions makes one flat node per region name (with GivenFlat, per root
// name), in the order of the contexts, with its group (that of the
// region's first context), reserving room for every node first.
func (s *builder) regions() {
	t := s.t
	byName := map[string]int{}
	var names, groups []string
	var hasRoot []bool
	s.region = make([]int, len(t.Nodes))
	for i, n := range t.Nodes {
		r, ok := byName[n.Name]
		if !ok {
			r = len(names)
			byName[n.Name] = r
			names, groups, hasRoot = append(names, n.Name), append(groups, n.Group), append(hasRoot, false)
		}
		hasRoot[r] = hasRoot[r] || n.Parent < 0
		s.region[i] = r
	}
	// Room for every callpath node and flat node at once, so that the
	// builder does not grow its value columns node by node.
	s.b.Reserve(len(t.Nodes) + len(names))
	regionNode := make([]int, len(names))
	for r, name := range names {
		if t.GivenFlat && !hasRoot[r] {
			continue
		}
		regionNode[r] = s.b.Node(name)
		if groups[r] != "" {
			s.b.SetGroups(regionNode[r], groups[r])
		}
	}
	s.flat = make([]int, len(t.Nodes))
	for i := range t.Nodes {
		s.flat[i] = regionNode[s.region[i]]
	}
	s.active = make([]int, len(names))
}

// walk visits the subtree of root depth first.
func (s *builder) walk(root int) {
	type frame struct{ node, next int }
	stack := []frame{{root, 0}}
	s.visit(root)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(s.children[top.node]) {
			c := s.children[top.node][top.next]
			top.next++
			s.visit(c)
			stack = append(stack, frame{c, 0})
			continue
		}
		s.active[s.region[top.node]]--
		stack = stack[:len(stack)-1]
	}
}

// visit plans the addition of node i's values to its callpath node
// (unless it is a root, whose callpath node is its flat node) and to its
// region's flat node, and marks the region active below it.
func (s *builder) visit(i int) {
	t := s.t
	r := s.region[i]
	root := t.Nodes[i].Parent < 0
	if !root {
		s.ops = append(s.ops, op{s.b.Node(s.paths[i]), i, true})
	}
	if root || !t.GivenFlat {
		s.ops = append(s.ops, op{s.flat[i], i, s.active[r] == 0})
	}
	s.active[r]++
}

// minRangeThreads is the fewest threads a goroutine of addAll takes: below
// that, starting goroutines costs more than it saves.
const minRangeThreads = 128

// addAll adds the planned rows. Every trial node exists by now, so the
// threads are split into ranges added by GOMAXPROCS goroutines at once
// (drg.Builder.AddRow on disjoint columns), when the threads are in the
// builder's column order; otherwise in one goroutine.
func (s *builder) addAll() {
	nt := len(s.t.Threads)
	workers := 1
	if s.colsOrNil == nil {
		workers = max(1, min(runtime.GOMAXPROCS(0), nt/minRangeThreads))
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := nt*w/workers, nt*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := s.newRowAdder(lo, hi)
			for _, o := range s.ops {
				a.add(o)
			}
		}()
	}
	wg.Wait()
}

// rowAdder adds rows for the threads lo..hi-1, with its own buffers.
type rowAdder struct {
	s      *builder
	lo, hi int
	last   int       // tree node whose children's calls subrs holds
	subrs  []float64 // the calls of node last's children, per thread
	keep   []bool    // the cells added
	ex, in [][]float64
}

func (s *builder) newRowAdder(lo, hi int) *rowAdder {
	return &rowAdder{s: s, lo: lo, hi: hi, last: -1, subrs: make([]float64, hi-lo), keep: make([]bool, hi-lo),
		ex: make([][]float64, len(s.t.Metrics)), in: make([][]float64, len(s.t.Metrics))}
}

// add adds tree node o.i's row to trial node o.node (its inclusive values
// only when o.incl), on every thread where some value is not zero (or the
// cell is Present), with one drg.Builder.AddRow.
func (a *rowAdder) add(o op) {
	t := a.s.t
	nt := len(t.Threads)
	lo, hi := o.i*nt+a.lo, o.i*nt+a.hi
	keep := a.keep
	if t.Present != nil {
		copy(keep, t.Present[lo:hi])
	} else {
		clear(keep)
	}
	var calls, subrs []float64
	if t.Calls != nil {
		a.childCalls(o.i)
		calls, subrs = t.Calls[lo:hi], a.subrs
		markNonZero(keep, calls)
		markNonZero(keep, subrs)
	}
	for m := range t.Incl {
		a.ex[m], a.in[m] = t.Excl[m][lo:hi], t.Incl[m][lo:hi]
		markNonZero(keep, a.ex[m])
		markNonZero(keep, a.in[m])
	}
	in := a.in
	if !o.incl {
		in = nil
	}
	a.s.b.AddRow(o.node, a.lo, a.s.colsOrNil, keep, a.ex, in, calls, subrs)
}

// childCalls sets subrs to the calls of node i's children (the node's
// subroutine calls), unless it holds them already.
func (a *rowAdder) childCalls(i int) {
	if a.last == i {
		return
	}
	a.last = i
	t := a.s.t
	nt := len(t.Threads)
	clear(a.subrs)
	for _, c := range a.s.children[i] {
		row := t.Calls[c*nt+a.lo : c*nt+a.hi]
		for k, v := range row {
			a.subrs[k] += v
		}
	}
}

// markNonZero sets keep[k] where v[k] is not zero.
func markNonZero(keep []bool, v []float64) {
	for k, x := range v {
		if x != 0 {
			keep[k] = true
		}
	}
}
