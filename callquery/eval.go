package callquery

import (
	"math"
	"regexp"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// evaluator decides conditions on the nodes of one trial, caching the
// per-node means of the value attributes it reads.
type evaluator struct {
	src    string
	t      *drg.Trial
	g      *graph
	means  map[[2]int][]float64 // (metric, inclusive) → mean per node, NaN: no record
	regexp map[string]*regexp.Regexp
}

// sat returns, per trial node, whether the node (a graph node) satisfies c;
// nil c is satisfied by every node.
func (e *evaluator) sat(c cond) ([]bool, error) {
	out := make([]bool, len(e.t.Nodes))
	if c == nil {
		copy(out, e.g.in)
		return out, nil
	}
	f, err := e.compile(c)
	if err != nil {
		return nil, err
	}
	for _, n := range e.g.pre {
		out[n] = f(n)
	}
	return out, nil
}

// compile turns a condition into a test of one node, resolving its
// attributes against the trial.
func (e *evaluator) compile(c cond) (func(int) bool, error) {
	switch c := c.(type) {
	case *condAnd:
		l, r, err := e.compile2(c.l, c.r)
		return func(n int) bool { return l(n) && r(n) }, err
	case *condOr:
		l, r, err := e.compile2(c.l, c.r)
		return func(n int) bool { return l(n) || r(n) }, err
	case *condNot:
		x, err := e.compile(c.x)
		return func(n int) bool { return !x(n) }, err
	case *condLeaf:
		g, leaf := e.g, c.leaf
		return func(n int) bool { return (len(g.children[n]) == 0) == leaf }, nil
	case *condIs:
		return e.compileIs(c)
	case *condCmp:
		return e.compileCmp(c)
	}
	return nil, errAt(e.src, 0, "internal error: unknown condition %T", c)
}

func (e *evaluator) compile2(a, b cond) (func(int) bool, func(int) bool, error) {
	l, err := e.compile(a)
	if err != nil {
		return nil, nil, err
	}
	r, err := e.compile(b)
	return l, r, err
}

// resolve finds the attribute of a condition, or an error at its column.
func (e *evaluator) resolve(name string, pos int) (prop, error) {
	p, ok := resolveProp(e.t, name)
	if !ok {
		return p, errAt(e.src, pos, "trial %q has no attribute %q; it has %s", e.t.Name, name, attributeList(e.t))
	}
	return p, nil
}

// numeric returns the number attribute p of node n and whether it has one.
func (e *evaluator) numeric(p prop) func(n int) (float64, bool) {
	if !p.value {
		return func(n int) (float64, bool) {
			v, none := number(e.t, p, n)
			return v, !none
		}
	}
	means := e.meansOf(p)
	return func(n int) (float64, bool) {
		v := means[n]
		return v, !math.IsNaN(v) || e.present(n)
	}
}

// present reports whether some thread has a record of node n.
func (e *evaluator) present(n int) bool {
	nt := len(e.t.Threads)
	return e.t.Present.Count(n*nt, (n+1)*nt) > 0
}

// meansOf returns the mean of value attribute p per node over the threads
// that executed the node (NaN when none did, or when a value is NaN).
func (e *evaluator) meansOf(p prop) []float64 {
	key := [2]int{p.metric, 0}
	if p.inclusive {
		key[1] = 1
	}
	if m, ok := e.means[key]; ok {
		return m
	}
	var col []float64
	switch {
	case p.metric == -1:
		col = e.t.Calls
	case p.metric == -2:
		col = e.t.Subroutines
	case p.inclusive:
		col = e.t.Values[p.metric].Inclusive
	default:
		col = e.t.Values[p.metric].Exclusive
	}
	nt := len(e.t.Threads)
	out := make([]float64, len(e.t.Nodes))
	for _, n := range e.g.pre {
		sum, k := 0.0, 0
		for th := 0; th < nt; th++ {
			if c := n*nt + th; e.t.Present.Get(c) && c < len(col) {
				sum += col[c]
				k++
			}
		}
		out[n] = math.NaN()
		if k > 0 {
			out[n] = sum / float64(k)
		}
	}
	e.means[key] = out
	return out
}

// compileIs compiles v."prop" IS [NOT] NONE|NAN|INF.
func (e *evaluator) compileIs(c *condIs) (func(int) bool, error) {
	p, err := e.resolve(c.prop, c.propPos)
	if err != nil {
		return nil, err
	}
	var f func(int) bool
	switch {
	case c.what == "NONE" && p.kind == pText:
		f = func(n int) bool { _, none := texts(e.t, p, n); return none }
	case c.what == "NONE":
		num := e.numeric(p)
		f = func(n int) bool { _, ok := num(n); return !ok }
	case p.kind == pText:
		return nil, errAt(e.src, c.propPos, "attribute %q is text: IS %s applies to numbers", c.prop, c.what)
	default:
		num, inf := e.numeric(p), c.what == "INF"
		f = func(n int) bool {
			v, ok := num(n)
			if !ok {
				return false
			}
			if inf {
				return math.IsInf(v, 0)
			}
			return math.IsNaN(v)
		}
	}
	if c.not {
		return func(n int) bool { return !f(n) }, nil
	}
	return f, nil
}

// compileCmp compiles v."prop" OP value.
func (e *evaluator) compileCmp(c *condCmp) (func(int) bool, error) {
	p, err := e.resolve(c.prop, c.propPos)
	if err != nil {
		return nil, err
	}
	if c.isNum != (p.kind == pNumber) {
		what, use := "text", "STARTS WITH, ENDS WITH, CONTAINS, =~ or = with a string in quotes"
		if p.kind == pNumber {
			what, use = "a number", "=, <, <=, >, >= with a number"
		}
		return nil, errAt(e.src, c.propPos, "attribute %q is %s: compare it with %s", c.prop, what, use)
	}
	if p.kind == pText {
		return e.compileText(c, p)
	}
	if c.prop == "depth" && c.op == "=" && c.num == -1 {
		// Hatchet's "depth" = -1: the node is a leaf.
		return func(n int) bool { return len(e.g.children[n]) == 0 }, nil
	}
	num, x := e.numeric(p), c.num
	var cmp func(v float64) bool
	switch c.op {
	case "=":
		cmp = func(v float64) bool { return v == x }
	case "<":
		cmp = func(v float64) bool { return v < x }
	case "<=":
		cmp = func(v float64) bool { return v <= x }
	case ">":
		cmp = func(v float64) bool { return v > x }
	default:
		cmp = func(v float64) bool { return v >= x }
	}
	return func(n int) bool {
		v, ok := num(n)
		return ok && cmp(v)
	}, nil
}

// compileText compiles a text comparison; for "group" it holds when it
// holds for one of the region's groups.
func (e *evaluator) compileText(c *condCmp, p prop) (func(int) bool, error) {
	x := c.str
	var test func(s string) bool
	switch c.op {
	case "=":
		test = func(s string) bool { return s == x }
	case "STARTS WITH":
		test = func(s string) bool { return strings.HasPrefix(s, x) }
	case "ENDS WITH":
		test = func(s string) bool { return strings.HasSuffix(s, x) }
	case "CONTAINS":
		test = func(s string) bool { return strings.Contains(s, x) }
	default: // =~
		re, ok := e.regexp[x]
		if !ok {
			var err error
			if re, err = compileMatch(x); err != nil {
				return nil, errAt(e.src, c.pos, "bad regular expression: %v", err)
			}
			e.regexp[x] = re
		}
		test = re.MatchString
	}
	return func(n int) bool {
		vals, none := texts(e.t, p, n)
		if none {
			return false
		}
		for _, s := range vals {
			if test(s) {
				return true
			}
		}
		return false
	}, nil
}
