package cct

import (
	"fmt"

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
	subrs    []float64 // one row: the calls of the current node's children
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
	s := &builder{t: t, b: b, cols: make([]int, len(t.Threads)), paths: paths, children: t.Children(),
		subrs: make([]float64, len(t.Threads))}
	for th, id := range t.Threads {
		s.cols[th] = b.Column(id)
	}
	s.regions()
	for root, n := range t.Nodes {
		if n.Parent < 0 {
			s.walk(root)
		}
	}
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

// visit adds node i's values to its callpath node (unless it is a root,
// whose callpath node is its flat node) and to its region's flat node, and
// marks the region active below it.
func (s *builder) visit(i int) {
	t := s.t
	nt := len(t.Threads)
	if t.Calls != nil {
		clear(s.subrs)
		for _, c := range s.children[i] {
			for th := 0; th < nt; th++ {
				s.subrs[th] += t.Calls[c*nt+th]
			}
		}
	}
	r := s.region[i]
	root := t.Nodes[i].Parent < 0
	if !root {
		s.add(s.b.Node(s.paths[i]), i, true)
	}
	if root || !t.GivenFlat {
		s.add(s.flat[i], i, s.active[r] == 0)
	}
	s.active[r]++
}

// add adds node i's row to trial node node (its inclusive values only
// when incl), for every thread where some value is not zero.
func (s *builder) add(node, i int, incl bool) {
	t := s.t
	nt := len(t.Threads)
	for th := 0; th < nt; th++ {
		c := i*nt + th
		any := t.Present != nil && t.Present[c]
		any = any || t.Calls != nil && (t.Calls[c] != 0 || s.subrs[th] != 0)
		for m := range t.Incl {
			any = any || t.Incl[m][c] != 0 || t.Excl[m][c] != 0
		}
		if !any {
			continue
		}
		for m := range t.Incl {
			in := t.Incl[m][c]
			if !incl {
				in = 0
			}
			s.b.AddValues(node, s.cols[th], m, t.Excl[m][c], in)
		}
		if t.Calls != nil {
			s.b.AddCalls(node, s.cols[th], t.Calls[c], s.subrs[th])
		} else {
			s.b.AddCalls(node, s.cols[th], 0, 0)
		}
	}
}
