package callquery

import (
	"strconv"
	"strings"
)

// maxSteps bounds the node patterns of one MATCH after counts are
// expanded ("+" is two, n is n), and maxParts the queries of a compound.
const (
	maxSteps = 63
	maxParts = 64
	maxDepth = 200 // nesting of NOT and parentheses in a WHERE clause
)

// keywords cannot name a node variable; they are matched without regard
// to case.
var keywords = map[string]bool{
	"MATCH": true, "WHERE": true, "AND": true, "OR": true, "XOR": true, "NOT": true,
	"IS": true, "LEAF": true, "NONE": true, "NAN": true, "INF": true,
	"STARTS": true, "ENDS": true, "WITH": true, "CONTAINS": true,
}

// parser reads tokens of one query.
type parser struct {
	src   string
	toks  []token
	i     int
	depth int
}

// Parse reads a query of the string dialect:
//
//	MATCH (".", p)->("*")->(q) WHERE p."name" STARTS WITH "MPI_" AND q."time (inc)" > 10
//	{MATCH ... WHERE ...} OR {MATCH ... WHERE ...}
//	MATCH (".", p) WHERE {p."name" = "a"} XOR {p."time" > 5}
//
// (docs/query.md has the whole language). It checks the syntax and the
// variables; attribute names that depend on the trial (metrics) are
// checked by Match. A query that cannot be read gives an *Error with the
// column where reading failed.
func Parse(src string) (*Query, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks}
	var q *Query
	if p.peekPunct("{") {
		q, err = p.compound()
	} else {
		q, err = p.single()
	}
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errTok(t, "unexpected %s after the end of the query", describe(t))
	}
	q.src = src
	return q, nil
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) peekPunct(s string) bool {
	t := p.peek()
	return t.kind == tPunct && t.text == s
}

func (p *parser) peekKeyword(k string) bool {
	t := p.peek()
	return t.kind == tIdent && strings.EqualFold(t.text, k)
}

func (p *parser) errTok(t token, format string, args ...any) *Error {
	return errAt(p.src, t.pos, format, args...)
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of query"
	case tString:
		return "string " + strconv.Quote(t.text)
	case tNumber:
		return "number " + t.text
	}
	return strconv.Quote(t.text)
}

func (p *parser) expectPunct(s, what string) (token, error) {
	t := p.next()
	if t.kind != tPunct || t.text != s {
		return t, p.errTok(t, "expected %q %s, found %s", s, what, describe(t))
	}
	return t, nil
}

func (p *parser) expectKeyword(k, what string) error {
	t := p.next()
	if t.kind != tIdent || !strings.EqualFold(t.text, k) {
		return p.errTok(t, "expected %s %s, found %s", k, what, describe(t))
	}
	return nil
}

// compound reads {query} OP {query} ...
func (p *parser) compound() (*Query, error) {
	q := &Query{}
	for {
		open, err := p.expectPunct("{", "to open a query")
		if err != nil {
			return nil, err
		}
		if len(q.parts) == maxParts {
			return nil, p.errTok(open, "more than %d queries in a compound", maxParts)
		}
		part, err := p.single()
		if err != nil {
			return nil, err
		}
		if _, err := p.expectPunct("}", "to close the query opened at column "+strconv.Itoa(errAt(p.src, open.pos, "").Column)); err != nil {
			return nil, err
		}
		q.parts = append(q.parts, part)
		op, ok := p.setOp()
		if !ok {
			return q, nil
		}
		q.ops = append(q.ops, op)
	}
}

// setOp reads AND, OR or XOR when one comes next.
func (p *parser) setOp() (string, bool) {
	for _, op := range []string{"AND", "OR", "XOR"} {
		if p.peekKeyword(op) {
			p.next()
			return op, true
		}
	}
	return "", false
}
