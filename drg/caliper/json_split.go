package caliper

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
)

// Column names of json-split output with a meaning of their own.
const (
	callpathColumn  = "source.function#callpath.address"
	pathColumn      = "path"
	sourcelocColumn = "sourceloc#cali.sampler.pc"
)

// splitLayout says what each json-split column is.
type splitLayout struct {
	hier, rank, thread, sourceloc int
	metrics                       []int
}

func (doc *splitDoc) layout() (*splitLayout, error) {
	if doc.columns == nil || doc.nodes == nil || !doc.seen["data"] {
		return nil, errors.New(`json-split output needs "data", "columns" and "nodes"`)
	}
	if doc.width != 0 && len(doc.columns) != doc.width {
		return nil, fmt.Errorf("%d columns but data rows of %d values", len(doc.columns), doc.width)
	}
	if doc.isValue != nil && len(doc.isValue) != len(doc.columns) {
		return nil, fmt.Errorf("%d columns but %d column_metadata entries", len(doc.columns), len(doc.isValue))
	}
	l := &splitLayout{hier: -1, rank: -1, thread: -1, sourceloc: -1}
	prio := len(threadAttrs)
	for i, c := range doc.columns {
		switch {
		case c == callpathColumn || (c == pathColumn && l.hier < 0):
			l.hier = i
		case c == rankAttr:
			l.rank = i
		case isThreadAttr(c):
			if p := threadPriority(c); p < prio {
				l.thread, prio = i, p
			}
		case c == sourcelocColumn:
			l.sourceloc = i
		case doc.isValue == nil || doc.isValue[i]:
			if c != pathColumn {
				l.metrics = append(l.metrics, i)
			}
		}
	}
	if l.hier < 0 {
		return nil, errors.New(`no region hierarchy column ("path" or "source.function#callpath.address")`)
	}
	if l.hier >= 0 && doc.columns[l.hier] == callpathColumn {
		// "path" may be a second hierarchy: it is not a metric.
		for k, i := range l.metrics {
			if doc.columns[i] == pathColumn {
				l.metrics = append(l.metrics[:k], l.metrics[k+1:]...)
				break
			}
		}
	}
	return l, nil
}

// buildSplit turns a json-split document into a trial, as Hatchet's
// CaliperReader reads it: rows whose hierarchy value is null are left out;
// a callpath node whose rows carry more than one source line (sampled
// callpaths with sourceloc#cali.sampler.pc) gets one child per line, named
// "file:line" after the first row of that line, which takes those rows.
func (j *jsonDecoder) buildSplit(doc *splitDoc) (*sinkResult, error) {
	l, err := doc.layout()
	if err != nil {
		return nil, &Error{Path: j.path, Offset: j.dec.InputOffset(), Err: err}
	}
	s := newSink()
	ctx, err := splitContexts(s, doc, l)
	if err != nil {
		return nil, &Error{Path: j.path, Offset: j.dec.InputOffset(), Err: err}
	}
	stmt, err := statementContexts(s, doc, l, ctx)
	if err != nil {
		return nil, &Error{Path: j.path, Offset: j.dec.InputOffset(), Err: err}
	}
	for k, v := range doc.metadata {
		s.meta[k] = v
	}
	for r := 0; r < doc.nrows; r++ {
		if err := splitRow(s, doc, l, ctx, stmt, r); err != nil {
			return nil, &Error{Path: j.path, Offset: j.dec.InputOffset(), Err: fmt.Errorf("data row %d: %w", r, err)}
		}
	}
	return &sinkResult{s: s, format: "json-split"}, nil
}

// splitContexts makes a tree context for every node of the hierarchy
// column, in the order of the nodes section (parents come first).
func splitContexts(s *sink, doc *splitDoc, l *splitLayout) ([]int, error) {
	ctx := make([]int, len(doc.nodes))
	hier := doc.columns[l.hier]
	for i, n := range doc.nodes {
		ctx[i] = -1
		if n.Column != hier {
			continue
		}
		parent := -1
		if n.Parent != nil {
			p := *n.Parent
			if p < 0 || p >= i || ctx[p] < 0 {
				return nil, fmt.Errorf("node %d: parent %d is not an earlier %s node", i, p, hier)
			}
			parent = ctx[p]
		}
		c, err := s.tree.Child(parent, metaString(n.Label))
		if err != nil {
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
		ctx[i] = c
	}
	return ctx, nil
}

var sourceLine = regexp.MustCompile(`^(.*):(\d+)$`)

// statementContexts returns, per data row, the statement context that takes
// it (-1 when the row stays on its callpath node).
func statementContexts(s *sink, doc *splitDoc, l *splitLayout, ctx []int) ([]int, error) {
	if l.sourceloc < 0 {
		return nil, nil
	}
	type loc struct{ file, line string }
	locOf := make([]loc, doc.nrows)
	lines := map[int]map[string]string{} // node -> line -> file of first row
	for r := 0; r < doc.nrows; r++ {
		nid, ok := nodeRef(doc, r, l.hier, len(ctx))
		if !ok {
			continue
		}
		sl, ok := nodeRef(doc, r, l.sourceloc, len(ctx))
		if !ok {
			continue
		}
		label := metaString(doc.nodes[sl].Label)
		m := sourceLine.FindStringSubmatch(label)
		if m == nil {
			m = []string{label, label, ""}
		}
		locOf[r] = loc{m[1], m[2]}
		if lines[nid] == nil {
			lines[nid] = map[string]string{}
		}
		if _, ok := lines[nid][m[2]]; !ok {
			lines[nid][m[2]] = m[1]
		}
	}
	stmt := make([]int, doc.nrows)
	for r := range stmt {
		stmt[r] = -1
		nid, ok := nodeRef(doc, r, l.hier, len(ctx))
		if !ok || len(lines[nid]) < 2 || ctx[nid] < 0 {
			continue
		}
		line := locOf[r].line
		file := lines[nid][line]
		c, err := s.tree.Child(ctx[nid], filepath.Base(file)+":"+line)
		if err != nil {
			return nil, err
		}
		stmt[r] = c
	}
	return stmt, nil
}

// nodeRef returns the node index held by column c of row r.
func nodeRef(doc *splitDoc, r, c, n int) (int, bool) {
	v := doc.rows[r*doc.width+c]
	if math.IsNaN(v) || v < 0 || v >= float64(n) || v != math.Trunc(v) {
		return 0, false
	}
	return int(v), true
}

func splitRow(s *sink, doc *splitDoc, l *splitLayout, ctx, stmt []int, r int) error {
	row := doc.rows[r*doc.width : (r+1)*doc.width]
	if math.IsNaN(row[l.hier]) {
		s.skipped++
		return nil
	}
	nid, ok := nodeRef(doc, r, l.hier, len(ctx))
	if !ok || ctx[nid] < 0 {
		return fmt.Errorf("%s value %v is not a node of that column", doc.columns[l.hier], row[l.hier])
	}
	n := ctx[nid]
	if stmt != nil && stmt[r] >= 0 {
		n = stmt[r]
	}
	var rank, thread float64
	if l.rank >= 0 {
		rank = row[l.rank]
	}
	if l.thread >= 0 {
		thread = row[l.thread]
	}
	th, err := s.thread(rank, thread, l.thread >= 0 && !math.IsNaN(thread))
	if err != nil {
		return err
	}
	vals := make([]value, 0, len(l.metrics))
	for _, c := range l.metrics {
		if !math.IsNaN(row[c]) {
			vals = append(vals, value{attr: doc.columns[c], v: row[c]})
		}
	}
	s.addAt(n, th, vals)
	return nil
}
