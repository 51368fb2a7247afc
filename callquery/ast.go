package callquery

// Query is a parsed call-path query: one MATCH pattern with its WHERE
// conditions, or a compound of such queries combined left to right with
// AND (intersection of the matched node sets), OR (union) and XOR
// (symmetric difference). Parse makes one; Match applies it to a trial.
// A Query is immutable and safe for concurrent use.
type Query struct {
	src string
	// path is set for a simple query.
	path *pathQuery
	// parts and ops are set for a compound: parts[0] ops[0] parts[1] ...
	parts []*Query
	ops   []string
}

// pathQuery is one MATCH pattern: its node patterns in order.
type pathQuery struct {
	nodes []nodePat
}

// quantKind is how many consecutive call-path nodes a node pattern takes.
type quantKind int

const (
	qOne   quantKind = iota // "." exactly one
	qStar                   // "*" zero or more
	qPlus                   // "+" one or more
	qCount                  // an integer n: exactly n
)

// nodePat is one "(quantifier, name)" of the MATCH pattern.
type nodePat struct {
	quant quantKind
	count int
	name  string // the variable, "" when unnamed
	pos   int    // byte offset of "(" in the query
	pred  cond   // nil: any node
}

// cond is a condition on one node (a WHERE clause, split by variable).
type cond interface {
	// vars adds the variables the condition names to set.
	vars(set map[string]int)
	// at is the byte offset of the condition in the query.
	at() int
}

type condAnd struct{ l, r cond }
type condOr struct{ l, r cond }
type condNot struct {
	x   cond
	pos int
}

// condLeaf is "v IS LEAF" (leaf) or "v IS NOT LEAF".
type condLeaf struct {
	v    string
	leaf bool
	pos  int
}

// condCmp is v."prop" OP value: OP one of = < <= > >= for a number, = STARTS
// ENDS CONTAINS =~ for a string.
type condCmp struct {
	v, prop string
	op      string
	str     string
	num     float64
	isNum   bool
	pos     int // of v
	propPos int // of "prop"
}

// condIs is v."prop" IS [NOT] NONE|NAN|INF.
type condIs struct {
	v, prop string
	what    string // NONE, NAN, INF
	not     bool
	pos     int
	propPos int
}

func (c *condAnd) vars(s map[string]int)  { c.l.vars(s); c.r.vars(s) }
func (c *condOr) vars(s map[string]int)   { c.l.vars(s); c.r.vars(s) }
func (c *condNot) vars(s map[string]int)  { c.x.vars(s) }
func (c *condLeaf) vars(s map[string]int) { addVar(s, c.v, c.pos) }
func (c *condCmp) vars(s map[string]int)  { addVar(s, c.v, c.pos) }
func (c *condIs) vars(s map[string]int)   { addVar(s, c.v, c.pos) }

func addVar(s map[string]int, v string, pos int) {
	if _, ok := s[v]; !ok {
		s[v] = pos
	}
}

func (c *condAnd) at() int  { return c.l.at() }
func (c *condOr) at() int   { return c.l.at() }
func (c *condNot) at() int  { return c.pos }
func (c *condLeaf) at() int { return c.pos }
func (c *condCmp) at() int  { return c.pos }
func (c *condIs) at() int   { return c.pos }

// String returns the query as it was given.
func (q *Query) String() string { return q.src }

// NeedsValues reports whether the query has a condition on a metric (or on
// calls): such a query needs the trial's values, while any other (names,
// files, groups, lines, depth, leaves) is answered from the call graph's
// structure alone, as store.DB.LoadCallGraph reads it.
func (q *Query) NeedsValues() bool {
	if q.path == nil {
		for _, p := range q.parts {
			if p.NeedsValues() {
				return true
			}
		}
		return false
	}
	for _, n := range q.path.nodes {
		if n.pred != nil && condNeedsValues(n.pred) {
			return true
		}
	}
	return false
}

func condNeedsValues(c cond) bool {
	switch c := c.(type) {
	case *condAnd:
		return condNeedsValues(c.l) || condNeedsValues(c.r)
	case *condOr:
		return condNeedsValues(c.l) || condNeedsValues(c.r)
	case *condNot:
		return condNeedsValues(c.x)
	case *condCmp:
		_, structural := structProps[c.prop]
		return !structural
	case *condIs:
		_, structural := structProps[c.prop]
		return !structural
	}
	return false
}
