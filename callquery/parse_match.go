package callquery

import (
	"strconv"
	"strings"
)

// single reads MATCH path [WHERE conditions]; a WHERE of {cond} OP {cond}
// groups makes a compound of queries sharing the MATCH.
func (p *parser) single() (*Query, error) {
	if err := p.expectKeyword("MATCH", "to start the query"); err != nil {
		return nil, err
	}
	nodes, err := p.path()
	if err != nil {
		return nil, err
	}
	if !p.peekKeyword("WHERE") {
		return &Query{path: &pathQuery{nodes: nodes}}, nil
	}
	p.next()
	if !p.peekPunct("{") {
		us, err := p.where()
		if err != nil {
			return nil, err
		}
		return p.bind(nodes, us)
	}
	q := &Query{}
	for {
		open, _ := p.expectPunct("{", "")
		if len(q.parts) == maxParts {
			return nil, p.errTok(open, "more than %d condition groups", maxParts)
		}
		c, err := p.where()
		if err != nil {
			return nil, err
		}
		if _, err := p.expectPunct("}", "to close the conditions opened at column "+strconv.Itoa(errAt(p.src, open.pos, "").Column)); err != nil {
			return nil, err
		}
		part, err := p.bind(nodes, c)
		if err != nil {
			return nil, err
		}
		q.parts = append(q.parts, part)
		op, ok := p.setOp()
		if !ok {
			return q, nil
		}
		if !p.peekPunct("{") {
			return nil, p.errTok(p.peek(), "expected \"{\" to open conditions after %s, found %s", op, describe(p.peek()))
		}
		q.ops = append(q.ops, op)
	}
}

// path reads (node)->(node)->...
func (p *parser) path() ([]nodePat, error) {
	var nodes []nodePat
	seen := map[string]bool{}
	steps := 0
	for {
		n, err := p.node()
		if err != nil {
			return nil, err
		}
		if n.name != "" {
			if seen[n.name] {
				return nil, errAt(p.src, n.pos, "node variable %q is named twice", n.name)
			}
			seen[n.name] = true
		}
		switch n.quant {
		case qPlus:
			steps += 2
		case qCount:
			steps += n.count
		default:
			steps++
		}
		if steps > maxSteps {
			return nil, errAt(p.src, n.pos, "the pattern is longer than %d nodes (counts included)", maxSteps)
		}
		nodes = append(nodes, n)
		if !p.peekPunct("->") {
			return nodes, nil
		}
		p.next()
	}
}

// node reads ( [quantifier [, name] | name] ).
func (p *parser) node() (nodePat, error) {
	open, err := p.expectPunct("(", "to open a node pattern")
	if err != nil {
		return nodePat{}, err
	}
	n := nodePat{pos: open.pos}
	t := p.peek()
	switch t.kind {
	case tString, tNumber:
		p.next()
		if err := p.quantifier(t, &n); err != nil {
			return n, err
		}
		if p.peekPunct(",") {
			p.next()
			if n.name, err = p.variable(); err != nil {
				return n, err
			}
		}
	case tIdent:
		if n.name, err = p.variable(); err != nil {
			return n, err
		}
	}
	_, err = p.expectPunct(")", "to close the node pattern")
	return n, err
}

// quantifier reads ".", "*", "+" or a count n >= 1.
func (p *parser) quantifier(t token, n *nodePat) error {
	if t.kind == tString {
		switch t.text {
		case ".":
			n.quant = qOne
		case "*":
			n.quant = qStar
		case "+":
			n.quant = qPlus
		default:
			return p.errTok(t, "unknown quantifier %q: use \".\" (one node), \"*\" (zero or more), \"+\" (one or more) or a count", t.text)
		}
		return nil
	}
	c, err := strconv.Atoi(t.text)
	if err != nil || c < 1 {
		return p.errTok(t, "a count of nodes must be a whole number from 1 to %d, found %s", maxSteps, t.text)
	}
	if c > maxSteps {
		return p.errTok(t, "a count of nodes must be a whole number from 1 to %d, found %s", maxSteps, t.text)
	}
	n.quant, n.count = qCount, c
	if c == 1 {
		n.quant = qOne
	}
	return nil
}

// variable reads a node variable: a name that is not a keyword.
func (p *parser) variable() (string, error) {
	t := p.next()
	if t.kind != tIdent {
		return "", p.errTok(t, "expected a node variable (a name such as p), found %s", describe(t))
	}
	if keywords[strings.ToUpper(t.text)] {
		return "", p.errTok(t, "%s is a keyword and cannot name a node", t.text)
	}
	return t.text, nil
}

// bind groups the WHERE conditions by the node variable each names and
// attaches them to their nodes; a parenthesized condition must name one
// node, since a node pattern holds conditions on its own node.
func (p *parser) bind(nodes []nodePat, us []unit) (*Query, error) {
	out := append([]nodePat(nil), nodes...)
	at := map[string]int{}
	for i, n := range out {
		if n.name != "" {
			at[n.name] = i
		}
	}
	per := map[int][]unit{}
	for _, u := range us {
		vs := map[string]int{}
		u.c.vars(vs)
		var name string
		for v, pos := range vs {
			if _, ok := at[v]; !ok {
				return nil, errAt(p.src, pos, "node variable %q is not in the MATCH pattern", v)
			}
			if name != "" && name != v {
				return nil, errAt(p.src, u.c.at(), "these parentheses join conditions on nodes %q and %q; a condition applies to one node: write them without parentheses, or as {conditions} OR {conditions}", min(name, v), max(name, v))
			}
			name = v
		}
		per[at[name]] = append(per[at[name]], u)
	}
	for k, list := range per {
		out[k].pred = precedence(list)
	}
	return &Query{path: &pathQuery{nodes: out}}, nil
}

// precedence joins one node's conditions: AND before OR. The operator of
// the first is ignored, as Hatchet ignores it.
func precedence(us []unit) cond {
	var or, and cond
	for i, u := range us {
		switch {
		case i == 0:
			and = u.c
		case u.op == "AND":
			and = &condAnd{and, u.c}
		default:
			if or == nil {
				or = and
			} else {
				or = &condOr{or, and}
			}
			and = u.c
		}
	}
	if or == nil {
		return and
	}
	return &condOr{or, and}
}
