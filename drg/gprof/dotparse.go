package gprof

import (
	"io"
	"strings"
)

// dotGraph is the part of a DOT graph the reader needs: nodes with their
// attributes, and edges.
type dotGraph struct {
	order []string
	nodes map[string]*dotNode
	edges []dotEdge
}

type dotNode struct {
	attrs map[string]string
	line  int
}

type dotEdge struct {
	from, to string
	attrs    map[string]string
	line     int
}

// parseDOT reads one graph: [strict] (graph|digraph) [ID] { stmt... }.
// Subgraphs are not read; ports are dropped.
func parseDOT(r io.Reader) (*dotGraph, error) {
	l := newLexer(r)
	g := &dotGraph{nodes: map[string]*dotNode{}}
	t, err := l.next()
	if err != nil {
		return nil, err
	}
	if t.kind == tID && strings.EqualFold(t.text, "strict") {
		if t, err = l.next(); err != nil {
			return nil, err
		}
	}
	if t.kind != tID || !(strings.EqualFold(t.text, "digraph") || strings.EqualFold(t.text, "graph")) {
		return nil, l.errf("not a DOT graph (want \"digraph {\")")
	}
	if t, err = l.next(); err != nil {
		return nil, err
	}
	if t.kind == tID {
		if t, err = l.next(); err != nil {
			return nil, err
		}
	}
	if t.text != "{" || t.kind != tPunct {
		return nil, l.errf("want '{' after the graph header")
	}
	if err := g.statements(l); err != nil {
		return nil, err
	}
	if t, err = l.next(); err != nil || t.kind != tEOF {
		if err == nil {
			err = l.errf("text after the end of the graph")
		}
		return nil, err
	}
	return g, nil
}

func (g *dotGraph) node(id string, line int) *dotNode {
	n, ok := g.nodes[id]
	if !ok {
		n = &dotNode{attrs: map[string]string{}, line: line}
		g.nodes[id] = n
		g.order = append(g.order, id)
	}
	return n
}

// statements reads statements up to the closing '}'.
func (g *dotGraph) statements(l *lexer) error {
	for {
		t, err := l.next()
		if err != nil {
			return err
		}
		switch {
		case t.kind == tEOF:
			return l.errf("the file ends inside the graph (no closing '}'): truncated?")
		case t.kind == tPunct && t.text == "}":
			return nil
		case t.kind == tPunct && t.text == ";":
			continue
		case t.kind != tID:
			return l.errf("unexpected %q at the start of a statement", t.text)
		}
		if err := g.statement(l, t); err != nil {
			return err
		}
	}
}

func (g *dotGraph) statement(l *lexer, first token) error {
	switch strings.ToLower(first.text) {
	case "graph", "node", "edge":
		_, err := attrLists(l)
		return err
	case "subgraph":
		return l.errf("subgraphs are not read")
	}
	ids := []string{first.text}
	for {
		if err := skipPort(l); err != nil {
			return err
		}
		t, err := l.next()
		if err != nil {
			return err
		}
		if t.kind == tPunct && t.text == "=" && len(ids) == 1 {
			_, err := l.next() // graph attribute ID = ID
			return err
		}
		if t.kind != tPunct || (t.text != "->" && t.text != "--") {
			l.unread(t)
			break
		}
		id, err := l.next()
		if err != nil {
			return err
		}
		if id.kind != tID {
			return l.errf("want a node after %q", t.text)
		}
		ids = append(ids, id.text)
	}
	attrs, err := attrLists(l)
	if err != nil {
		return err
	}
	if len(ids) == 1 {
		n := g.node(ids[0], first.line)
		for k, v := range attrs {
			n.attrs[k] = v
		}
		n.line = first.line
		return nil
	}
	for i := 0; i+1 < len(ids); i++ {
		g.node(ids[i], first.line)
		g.node(ids[i+1], first.line)
		g.edges = append(g.edges, dotEdge{from: ids[i], to: ids[i+1], attrs: attrs, line: first.line})
	}
	return nil
}

// skipPort drops a ":port[:compass]" suffix of a node id.
func skipPort(l *lexer) error {
	for {
		t, err := l.next()
		if err != nil {
			return err
		}
		if t.kind != tPunct || t.text != ":" {
			l.unread(t)
			return nil
		}
		if id, err := l.next(); err != nil || id.kind != tID {
			if err == nil {
				err = l.errf("want a port name after ':'")
			}
			return err
		}
	}
}

// attrLists reads zero or more "[k=v, ...]" lists.
func attrLists(l *lexer) (map[string]string, error) {
	attrs := map[string]string{}
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		if t.kind != tPunct || t.text != "[" {
			l.unread(t)
			return attrs, nil
		}
		if err := attrList(l, attrs); err != nil {
			return nil, err
		}
	}
}

func attrList(l *lexer, attrs map[string]string) error {
	for {
		k, err := l.next()
		if err != nil {
			return err
		}
		switch {
		case k.kind == tPunct && k.text == "]":
			return nil
		case k.kind == tPunct && (k.text == "," || k.text == ";"):
			continue
		case k.kind == tEOF:
			return l.errf("the file ends inside an attribute list: truncated?")
		case k.kind != tID:
			return l.errf("unexpected %q in an attribute list", k.text)
		}
		eq, err := l.next()
		if err != nil {
			return err
		}
		if eq.kind != tPunct || eq.text != "=" {
			return l.errf("attribute %q has no value", k.text)
		}
		v, err := l.next()
		if err != nil {
			return err
		}
		if v.kind != tID {
			return l.errf("attribute %q: want a value", k.text)
		}
		attrs[k.text] = v.text
	}
}
