package callquery

import (
	"math/bits"
	"regexp"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Result is what a query matched in one trial.
type Result struct {
	// Nodes lists the matched nodes (indexes into the trial's Nodes) in
	// increasing order: every node of every matched call path.
	Nodes []int
	in    []bool
	g     *graph
	// simple holds the compiled simple queries the result was made of,
	// for Paths.
	simple []*compiled
}

// Has reports whether node n (an index into the trial's Nodes) matched.
func (r *Result) Has(n int) bool { return n >= 0 && n < len(r.in) && r.in[n] }

// Preorder returns the matched nodes in depth-first order of the call
// graph (a node before its children, siblings in trial order): the order
// a tree view lists them.
func (r *Result) Preorder() []int {
	out := make([]int, 0, len(r.Nodes))
	for _, n := range r.g.pre {
		if r.in[n] {
			out = append(out, n)
		}
	}
	return out
}

// Len returns the number of matched nodes.
func (r *Result) Len() int { return len(r.Nodes) }

// step is one node pattern after expansion: "+" is "." then "*", a count
// n is n times ".".
type step struct {
	star bool
	pat  int // index of the node pattern, into compiled.sat
}

// compiled is a simple query bound to a trial.
type compiled struct {
	g     *graph
	steps []step
	sat   [][]bool // per node pattern, per trial node
	clos  []uint64 // clos[s]: states reachable from s without a node
	good  []uint64 // per node: states after it from which the rest can match
}

// Match applies the query to trial t: a node matches when it lies on a
// call path (a chain of nodes, each the parent of the next, starting and
// ending anywhere in the graph) that the pattern matches, each node pattern
// taking as many consecutive nodes as its quantifier says, each of them
// satisfying its conditions. The graph is described at newGraph; see
// docs/query.md. An attribute the trial does not have is an *Error with
// its column.
func (q *Query) Match(t *drg.Trial) (*Result, error) {
	g := newGraph(t)
	e := &evaluator{src: q.src, t: t, g: g, means: map[[2]int][]float64{}, regexp: map[string]*regexp.Regexp{}}
	return q.match(e)
}

func (q *Query) match(e *evaluator) (*Result, error) {
	if q.path != nil {
		c, err := compile(e, q.path)
		if err != nil {
			return nil, err
		}
		in := c.run()
		return newResult(e.g, in, []*compiled{c}), nil
	}
	var acc []bool
	var simple []*compiled
	for i, part := range q.parts {
		r, err := part.match(e)
		if err != nil {
			return nil, err
		}
		simple = append(simple, r.simple...)
		if i == 0 {
			acc = r.in
			continue
		}
		for n := range acc {
			switch q.ops[i-1] {
			case "AND":
				acc[n] = acc[n] && r.in[n]
			case "OR":
				acc[n] = acc[n] || r.in[n]
			default: // XOR
				acc[n] = acc[n] != r.in[n]
			}
		}
	}
	return newResult(e.g, acc, simple), nil
}

func newResult(g *graph, in []bool, simple []*compiled) *Result {
	r := &Result{in: in, g: g, simple: simple}
	for n, ok := range in {
		if ok {
			r.Nodes = append(r.Nodes, n)
		}
	}
	return r
}

// compile evaluates the node patterns' conditions and expands the steps.
func compile(e *evaluator, pq *pathQuery) (*compiled, error) {
	c := &compiled{g: e.g}
	for k, n := range pq.nodes {
		s, err := e.sat(n.pred)
		if err != nil {
			return nil, err
		}
		c.sat = append(c.sat, s)
		switch n.quant {
		case qOne:
			c.steps = append(c.steps, step{pat: k})
		case qStar:
			c.steps = append(c.steps, step{star: true, pat: k})
		case qPlus:
			c.steps = append(c.steps, step{pat: k}, step{star: true, pat: k})
		case qCount:
			for i := 0; i < n.count; i++ {
				c.steps = append(c.steps, step{pat: k})
			}
		}
	}
	S := len(c.steps)
	c.clos = make([]uint64, S+1)
	for s := S; s >= 0; s-- {
		c.clos[s] = 1 << uint(s)
		if s < S && c.steps[s].star {
			c.clos[s] |= c.clos[s+1]
		}
	}
	return c, nil
}

// closure adds to set the states reachable without consuming a node.
func (c *compiled) closure(set uint64) uint64 {
	out := set
	for s := set; s != 0; s &= s - 1 {
		out |= c.clos[bits.TrailingZeros64(s)]
	}
	return out
}

// consume returns the states after node n from the (closed) states set,
// not closed.
func (c *compiled) consume(set uint64, n int) uint64 {
	var out uint64
	S := len(c.steps)
	for s := set; s != 0; s &= s - 1 {
		i := bits.TrailingZeros64(s)
		if i >= S || !c.sat[c.steps[i].pat][n] {
			continue
		}
		if c.steps[i].star {
			out |= 1 << uint(i)
		} else {
			out |= 1 << uint(i+1)
		}
	}
	return out
}

// run marks the nodes on matched paths: node n is on one when some state
// reached before n (from a path starting at or above n) consumes n into a
// state from which the rest of the pattern can be matched below n.
func (c *compiled) run() []bool {
	g := c.g
	c.computeGood()
	start := c.clos[0]
	after := make([]uint64, len(g.in))
	in := make([]bool, len(g.in))
	for _, n := range g.pre {
		before := start
		if p := g.parent[n]; p >= 0 {
			before |= after[p]
		}
		raw := c.consume(before, n)
		after[n] = c.closure(raw)
		in[n] = raw&c.good[n] != 0
	}
	return in
}

// computeGood fills good[n]: the states r (right after consuming n) from
// which the pattern can be completed by nothing more (the rest may match
// zero nodes) or by a path down through n's children.
func (c *compiled) computeGood() {
	g := c.g
	S := len(c.steps)
	accept := uint64(1) << uint(S)
	c.good = make([]uint64, len(g.in))
	for k := len(g.pre) - 1; k >= 0; k-- {
		n := g.pre[k]
		var into uint64 // states t from which a child can be consumed into its good set
		for _, d := range g.children[n] {
			for t := 0; t < S; t++ {
				if !c.sat[c.steps[t].pat][d] {
					continue
				}
				next := t + 1
				if c.steps[t].star {
					next = t
				}
				if c.good[d]&(1<<uint(next)) != 0 {
					into |= 1 << uint(t)
				}
			}
		}
		var good uint64
		for r := 0; r <= S; r++ {
			if c.clos[r]&accept != 0 || c.clos[r]&into != 0 {
				good |= 1 << uint(r)
			}
		}
		c.good[n] = good
	}
}
