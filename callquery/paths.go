package callquery

// Paths returns up to limit matched call paths, each a list of node
// indexes from its first node down to its last, in depth-first order of
// their first node, then of their continuations. Every node of a returned
// path is in Nodes. A compound query lists the paths of its simple queries
// whose nodes all belong to the combined result. The number of matched
// paths can grow as the square of the graph (a pattern starting and ending
// with "*" matches every chain of nodes), hence the limit; limit <= 0
// returns none.
func (r *Result) Paths(limit int) [][]int {
	var out [][]int
	for _, c := range r.simple {
		if len(out) >= limit {
			break
		}
		out = c.paths(r, out, limit)
	}
	return out
}

// paths appends the matched paths of c whose nodes are all in r.
func (c *compiled) paths(r *Result, out [][]int, limit int) [][]int {
	S := len(c.steps)
	accept := uint64(1) << uint(S)
	type frame struct {
		n    int
		set  uint64 // states right after n, not closed, within good[n]
		kid  int    // next child to try
		path []int
	}
	for _, start := range c.g.pre {
		set := c.consume(c.clos[0], start) & c.good[start]
		if set == 0 || !r.in[start] {
			continue
		}
		stack := []frame{{n: start, set: set, path: []int{start}}}
		if c.closure(set)&accept != 0 {
			out = append(out, stack[0].path)
		}
		for len(stack) > 0 && len(out) < limit {
			f := &stack[len(stack)-1]
			kids := c.g.children[f.n]
			if f.kid >= len(kids) {
				stack = stack[:len(stack)-1]
				continue
			}
			d := kids[f.kid]
			f.kid++
			next := c.consume(c.closure(f.set), d) & c.good[d]
			if next == 0 || !r.in[d] {
				continue
			}
			p := append(append(make([]int, 0, len(f.path)+1), f.path...), d)
			if c.closure(next)&accept != 0 {
				out = append(out, p)
			}
			stack = append(stack, frame{n: d, set: next, path: p})
		}
		if len(out) >= limit {
			return out[:limit]
		}
	}
	return out
}
