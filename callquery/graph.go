package callquery

import "github.com/taudb-analyze/taudb-analyze/drg"

// graph is the call graph a query runs on, over a trial's nodes:
//
//   - every callpath node ("A => B") that ParaProf did not derive, under
//     its parent;
//   - the flat node of a region (not derived by ParaProf) as a root, when
//     it has callpath children (the top of a tree or of a depth-limited
//     subtree) or when its region appears in no callpath (a flat profile,
//     or a region outside the recorded callpaths).
//
// So a complete tree is the tree rooted at the main region, a flat profile
// is one root per region, and a depth-limited trial is its partial
// subtrees. The graph depends only on names and parents, never on values,
// so a trial read without values (store.DB.LoadCallGraph) gives the same
// graph as the whole trial.
type graph struct {
	t        *drg.Trial
	in       []bool  // node is in the graph
	roots    []int   // flat nodes, in trial order
	children [][]int // per node, in trial order
	pre      []int   // graph nodes in depth-first preorder
	parent   []int   // graph parent, -1 for a root
}

func newGraph(t *drg.Trial) *graph {
	n := len(t.Nodes)
	g := &graph{t: t, in: make([]bool, n), children: make([][]int, n), parent: make([]int, n)}
	inCallpath := make([]bool, len(t.Regions))
	hasKids := make([]bool, n)
	state := make([]int8, n) // 0 unknown, 1 in, 2 out
	member := func(i int) bool {
		// Iterative over the parent chain: find the first known ancestor.
		chain := []int{}
		for j := i; state[j] == 0; j = t.Nodes[j].Parent {
			nd := &t.Nodes[j]
			if nd.Parent < 0 {
				break
			}
			if nd.Derived || nd.Parent == j {
				state[j] = 2
				break
			}
			chain = append(chain, j)
		}
		for k := len(chain) - 1; k >= 0; k-- {
			j := chain[k]
			p := t.Nodes[j].Parent
			if state[p] == 0 && t.Nodes[p].Parent < 0 {
				state[p] = flatState(t, p)
			}
			state[j] = 2
			if state[p] == 1 {
				state[j] = 1
			}
		}
		return state[i] == 1
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		if nd.Parent >= 0 && member(i) {
			inCallpath[nd.Region] = true
			hasKids[nd.Parent] = true
		}
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		g.parent[i] = nd.Parent
		switch {
		case nd.Parent >= 0:
			if state[i] == 1 {
				g.in[i] = true
				g.children[nd.Parent] = append(g.children[nd.Parent], i)
			}
		case flatState(t, i) == 1 && (hasKids[i] || !inCallpath[nd.Region]):
			g.in[i] = true
			g.roots = append(g.roots, i)
		}
	}
	g.pre = g.preorder()
	return g
}

// flatState is 1 for the flat node of a region ParaProf did not derive,
// 2 otherwise.
func flatState(t *drg.Trial, i int) int8 {
	r := t.Nodes[i].Region
	if r >= 0 && r < len(t.Regions) && t.Regions[r].Derived() {
		return 2
	}
	return 1
}

// preorder lists the graph's nodes depth first from each root, without
// recursion (call trees can be deep).
func (g *graph) preorder() []int {
	var out []int
	stack := []int{}
	for k := len(g.roots) - 1; k >= 0; k-- {
		stack = append(stack, g.roots[k])
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, i)
		kids := g.children[i]
		for k := len(kids) - 1; k >= 0; k-- {
			stack = append(stack, kids[k])
		}
	}
	return out
}

// GraphSize returns the number of nodes of the call graph a query runs on
// in trial t (see Match).
func GraphSize(t *drg.Trial) int { return len(newGraph(t).pre) }

// CallGraph returns the call graph queries run on in trial t (see Match):
// its roots (flat nodes, in trial order) and the children of every node
// (indexed by node, in trial order; nil for a node outside the graph), so
// that a tree view shows the same nodes a query sees.
func CallGraph(t *drg.Trial) (roots []int, children [][]int) {
	g := newGraph(t)
	return g.roots, g.children
}
