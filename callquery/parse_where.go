package callquery

import (
	"strconv"
	"strings"
)

// unit is one condition of a WHERE clause and the AND or OR before it
// ("" for the first).
type unit struct {
	op string
	c  cond
}

// where reads a WHERE clause: conditions joined by AND and OR. As in
// Hatchet, the conditions are then grouped by the node they name, each
// node's conditions keeping their order and operators (NOT binds tightest,
// then AND, then OR): "p.a > 1 OR p.a < 0 AND q.b = 2" puts "p.a > 1 OR
// p.a < 0" on p and "q.b = 2" on q.
func (p *parser) where() ([]unit, error) {
	var out []unit
	op := ""
	for {
		c, err := p.notCond()
		if err != nil {
			return nil, err
		}
		out = append(out, unit{op: op, c: c})
		switch {
		case p.peekKeyword("AND"):
			op = "AND"
		case p.peekKeyword("OR"):
			op = "OR"
		default:
			return out, nil
		}
		p.next()
	}
}

// condition reads cond := and (OR and)*, within parentheses.
func (p *parser) condition() (cond, error) {
	l, err := p.andCond()
	if err != nil {
		return nil, err
	}
	for p.peekKeyword("OR") {
		p.next()
		r, err := p.andCond()
		if err != nil {
			return nil, err
		}
		l = &condOr{l, r}
	}
	return l, nil
}

// andCond reads not (AND not)*.
func (p *parser) andCond() (cond, error) {
	l, err := p.notCond()
	if err != nil {
		return nil, err
	}
	for p.peekKeyword("AND") {
		p.next()
		r, err := p.notCond()
		if err != nil {
			return nil, err
		}
		l = &condAnd{l, r}
	}
	return l, nil
}

// notCond reads NOT* primary, or a parenthesized condition.
func (p *parser) notCond() (cond, error) {
	p.depth++
	defer func() { p.depth-- }()
	t := p.peek()
	if p.depth > maxDepth {
		return nil, p.errTok(t, "conditions nested more than %d deep", maxDepth)
	}
	if p.peekKeyword("NOT") {
		p.next()
		x, err := p.notCond()
		if err != nil {
			return nil, err
		}
		return &condNot{x: x, pos: t.pos}, nil
	}
	if p.peekPunct("(") {
		p.next()
		c, err := p.condition()
		if err != nil {
			return nil, err
		}
		if _, err := p.expectPunct(")", "to close the parenthesis at column "+strconv.Itoa(errAt(p.src, t.pos, "").Column)); err != nil {
			return nil, err
		}
		return c, nil
	}
	return p.primary()
}

// primary reads v IS [NOT] LEAF, v."prop" IS [NOT] NONE|NAN|INF, or
// v."prop" OP value.
func (p *parser) primary() (cond, error) {
	vt := p.peek()
	v, err := p.variable()
	if err != nil {
		return nil, err
	}
	if p.peekKeyword("IS") {
		p.next()
		leaf := true
		if p.peekKeyword("NOT") {
			p.next()
			leaf = false
		}
		if err := p.expectKeyword("LEAF", "after "+v+" IS"); err != nil {
			return nil, err
		}
		return &condLeaf{v: v, leaf: leaf, pos: vt.pos}, nil
	}
	if _, err := p.expectPunct(".", "and an attribute in quotes after node variable "+v+" (or IS LEAF)"); err != nil {
		return nil, err
	}
	pt := p.next()
	if pt.kind != tString {
		return nil, p.errTok(pt, "expected an attribute in quotes (such as \"name\" or \"time (inc)\") after %s., found %s", v, describe(pt))
	}
	return p.comparison(v, vt.pos, pt)
}

// comparison reads the operator and value after v."prop".
func (p *parser) comparison(v string, vpos int, pt token) (cond, error) {
	ot := p.next()
	op := strings.ToUpper(ot.text)
	switch {
	case ot.kind == tIdent && op == "IS":
		not := false
		if p.peekKeyword("NOT") {
			p.next()
			not = true
		}
		w := p.next()
		what := strings.ToUpper(w.text)
		if w.kind != tIdent || (what != "NONE" && what != "NAN" && what != "INF") {
			return nil, p.errTok(w, "expected NONE, NAN or INF after IS, found %s", describe(w))
		}
		return &condIs{v: v, prop: pt.text, what: what, not: not, pos: vpos, propPos: pt.pos}, nil
	case ot.kind == tIdent && (op == "STARTS" || op == "ENDS"):
		if err := p.expectKeyword("WITH", "after "+op); err != nil {
			return nil, err
		}
		op += " WITH"
	case ot.kind == tIdent && op == "CONTAINS":
	case ot.kind == tPunct && (op == "=" || op == "=~" || op == "<" || op == "<=" || op == ">" || op == ">="):
	default:
		return nil, p.errTok(ot, "expected an operator (=, <, <=, >, >=, STARTS WITH, ENDS WITH, CONTAINS, =~, IS) after %s.%s, found %s", v, strconv.Quote(pt.text), describe(ot))
	}
	c := &condCmp{v: v, prop: pt.text, op: op, pos: vpos, propPos: pt.pos}
	val := p.next()
	switch {
	case val.kind == tString && (op == "=" || !isOrder(op)):
		c.str = val.text
		if op == "=~" {
			if _, err := compileMatch(val.text); err != nil {
				return nil, p.errTok(val, "bad regular expression: %v", err)
			}
		}
	case val.kind == tNumber && (op == "=" || isOrder(op)):
		c.num, _ = strconv.ParseFloat(val.text, 64)
		c.isNum = true
	case isOrder(op):
		return nil, p.errTok(val, "expected a number after %s, found %s", op, describe(val))
	default:
		return nil, p.errTok(val, "expected a string in quotes after %s, found %s", op, describe(val))
	}
	return c, nil
}

// isOrder reports whether op compares numbers only.
func isOrder(op string) bool { return op == "<" || op == "<=" || op == ">" || op == ">=" }
