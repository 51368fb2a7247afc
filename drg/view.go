package drg

import "strings"

// Flat returns the flat view: the flat node of every timed region, one per
// region, so that sums over it never count a value twice. Left out (they
// remain in Trial.Regions) are the regions whose values repeat time other
// regions already hold: those derived by ParaProf from others, sample
// regions (see Region.Sampled), and parameter profiles "f [ <k> = <v> ]"
// whose base region "f" is in the trial (TAU times the base as well).
func (t *Trial) Flat() []int {
	out := make([]int, 0, len(t.Regions))
	var names map[string]bool
	for r := range t.Regions {
		reg := &t.Regions[r]
		if reg.Derived() || reg.Sampled() {
			continue
		}
		if i := strings.Index(reg.Name, "[ <"); i > 0 && len(reg.Params) > 0 {
			if names == nil {
				names = make(map[string]bool, len(t.Regions))
				for k := range t.Regions {
					names[t.Regions[k].Name] = true
				}
			}
			if names[strings.TrimSpace(reg.Name[:i])] {
				continue
			}
		}
		out = append(out, reg.Flat)
	}
	return out
}

// TreeKind says what the callpath entries of a trial form.
type TreeKind int

const (
	// NoCallpaths: the trial has flat profiles only.
	NoCallpaths TreeKind = iota
	// CompleteTree: every callpath starts at the main region and every
	// measured region appears in some callpath, so the tree rooted at the
	// main region's node covers the whole program (TAU_CALLPATH_DEPTH was
	// deep enough).
	CompleteTree
	// PartialCallpaths: callpaths exist but are depth-limited (TAU's default
	// depth is 2): some do not start at the main region, or some regions
	// appear in none. Each root is the top of a partial subtree.
	PartialCallpaths
)

// String names the kind.
func (k TreeKind) String() string {
	switch k {
	case CompleteTree:
		return "complete"
	case PartialCallpaths:
		return "partial"
	}
	return "none"
}

// Tree is the tree view of a trial's callpaths.
type Tree struct {
	// Kind says whether the callpaths form a complete tree.
	Kind TreeKind
	// Main is the main region (see Trial.MainRegion) of the time metric.
	Main int
	// Roots lists the nodes the tree view starts from: the main region's
	// flat node for a complete tree, every flat node that has callpath
	// children otherwise.
	Roots []int
	// Children lists the callpath children of every node, in trial order.
	Children [][]int
}

// Tree returns the tree view of the trial (nodes ParaProf derived are left
// out).
func (t *Trial) Tree() Tree {
	tr := Tree{Main: t.MainRegion(t.TimeMetric()), Children: make([][]int, len(t.Nodes))}
	leafOf := make([]bool, len(t.Regions))
	topOK := true
	any := false
	for i, n := range t.Nodes {
		if n.Parent < 0 || n.Derived {
			continue
		}
		any = true
		tr.Children[n.Parent] = append(tr.Children[n.Parent], i)
		leafOf[n.Region] = true
		top := i
		for t.Nodes[top].Parent >= 0 {
			top = t.Nodes[top].Parent
		}
		if tr.Main < 0 || t.Nodes[top].Region != tr.Main {
			topOK = false
		}
	}
	if !any {
		tr.Kind = NoCallpaths
		return tr
	}
	complete := topOK
	for r := range t.Regions {
		reg := &t.Regions[r]
		if r == tr.Main || leafOf[r] || reg.Derived() {
			continue
		}
		if t.RowLen(reg.Flat) > 0 {
			complete = false
			break
		}
	}
	if complete {
		tr.Kind = CompleteTree
		tr.Roots = []int{t.Regions[tr.Main].Flat}
		return tr
	}
	tr.Kind = PartialCallpaths
	for i, n := range t.Nodes {
		if n.Parent < 0 && len(tr.Children[i]) > 0 {
			tr.Roots = append(tr.Roots, i)
		}
	}
	return tr
}

// Size returns the number of nodes reachable from the roots, roots included.
func (tr Tree) Size() int {
	n := 0
	var walk func(int)
	walk = func(i int) {
		n++
		for _, c := range tr.Children[i] {
			walk(c)
		}
	}
	for _, r := range tr.Roots {
		walk(r)
	}
	return n
}
