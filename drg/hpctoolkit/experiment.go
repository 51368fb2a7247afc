package hpctoolkit

import (
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
)

// metricDB is one column of the metric-db files (a MetricDB element).
type metricDB struct {
	id, partner, column int
	name, kind          string // kind: "inclusive", "exclusive" or ""
}

// experiment is what experiment.xml says.
type experiment struct {
	version, program string
	info             map[string]string
	metrics          []metricDB
	glob             string
	tree             cct.Tree
	// stmtParent maps a statement or loop node to the node its exclusive
	// value is taken out of (-1: none).
	stmtParent map[int]int
	// byID maps a context id to its node.
	byID  map[int64]int
	maxID int64
	// nodeByID is byID as a slice indexed by id (-1: no node), made once.
	nodeByID []int
	tables   map[string]map[string]string
}

// frame is one open element of the calling context tree.
type frame struct {
	id          int64
	attach      int    // node the children attach to
	self        int    // node this element made, or -1
	file        string // file of the enclosing procedure or loop
	module      string // load module of the enclosing procedure
	line        int    // the element's own line ("l")
	isStatement bool
}

// maxDepth bounds the nesting of experiment.xml, so that a hostile file
// cannot grow the parser's stack without limit.
const maxDepth = 1 << 16

// parseExperiment reads experiment.xml from r (name is used in errors).
func parseExperiment(r io.Reader, name string) (*experiment, error) {
	e := &experiment{info: map[string]string{}, stmtParent: map[int]int{}, byID: map[int64]int{},
		tables: map[string]map[string]string{"LoadModule": {}, "File": {}, "Procedure": {}}}
	d := xml.NewDecoder(r)
	var stack []frame
	inData, inHeader, seenRoot := false, false, false
	depth := 0
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, errorf(name, d.InputOffset(), "%v", xmlCause(err))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxDepth {
				return nil, errorf(name, off, "elements nested deeper than %d", maxDepth)
			}
			if depth == 1 {
				if t.Name.Local != "HPCToolkitExperiment" {
					return nil, errorf(name, off, "root element <%s>, want <HPCToolkitExperiment>", t.Name.Local)
				}
				seenRoot = true
				e.version = attr(t, "version")
				continue
			}
			if inData {
				if err := e.startContext(t, &stack, name, off); err != nil {
					return nil, err
				}
				continue
			}
			if err := e.startHeader(t, &inHeader, name, off); err != nil {
				return nil, err
			}
			if t.Name.Local == "SecCallPathProfileData" {
				if len(e.tree.Nodes) > 0 {
					return nil, errorf(name, off, "a second call path profile section (only one is read)")
				}
				inData = true
				stack = append(stack[:0], frame{attach: -1, self: -1})
			}
		case xml.EndElement:
			depth--
			switch {
			case t.Name.Local == "SecCallPathProfileData":
				inData = false
			case inData && isContext(t.Name.Local):
				stack = stack[:len(stack)-1]
			case t.Name.Local == "Header":
				inHeader = false
			}
		}
	}
	if !seenRoot {
		return nil, errorf(name, d.InputOffset(), "no <HPCToolkitExperiment> element: not an HPCToolkit experiment.xml")
	}
	if len(e.tree.Nodes) == 0 {
		return nil, errorf(name, -1, "no calling context (no SecCallPathProfileData with a PF)")
	}
	if len(e.metrics) == 0 {
		return nil, errorf(name, -1, "no MetricDB entry: the database has no metric-db columns")
	}
	return e, nil
}

// xmlCause shortens the decoder's errors; the offset is given separately.
func xmlCause(err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return errors.New("XML: " + se.Msg)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("XML: file ends inside an element")
	}
	return err
}

func isContext(tag string) bool {
	switch tag {
	case "PF", "Pr", "L", "C", "S":
		return true
	}
	return false
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// startHeader records the header's tables and metric-db columns.
func (e *experiment) startHeader(t xml.StartElement, inHeader *bool, name string, off int64) error {
	switch t.Name.Local {
	case "Header":
		*inHeader = true
		e.program = attr(t, "n")
	case "NV":
		if *inHeader {
			e.info[attr(t, "n")] = attr(t, "v")
		}
	case "LoadModule", "File", "Procedure":
		e.tables[t.Name.Local][attr(t, "i")] = attr(t, "n")
	case "MetricDB":
		m := metricDB{name: attr(t, "n"), kind: attr(t, "t"), partner: -1}
		var err error
		if m.id, err = strconv.Atoi(attr(t, "i")); err != nil {
			return errorf(name, off, "MetricDB: id %q is not an integer", attr(t, "i"))
		}
		if m.column, err = strconv.Atoi(attr(t, "db-id")); err != nil || m.column < 0 {
			return errorf(name, off, "MetricDB %q: db-id %q is not a column number", m.name, attr(t, "db-id"))
		}
		if p := attr(t, "partner"); p != "" {
			if m.partner, err = strconv.Atoi(p); err != nil {
				return errorf(name, off, "MetricDB %q: partner %q is not an integer", m.name, p)
			}
		}
		if g := attr(t, "db-glob"); g != "" {
			e.glob = g
		}
		e.metrics = append(e.metrics, m)
	}
	return nil
}

// lookup resolves a table reference: an id of the table, or the name itself.
func (e *experiment) lookup(table, ref string) string {
	if v, ok := e.tables[table][ref]; ok {
		return v
	}
	return ref
}

// lineOf parses a line attribute ("12" or a range "12-20"; its start).
func lineOf(s string) (int, bool) {
	if s == "" {
		return 0, true
	}
	if i := strings.IndexByte(s, '-'); i > 0 {
		s = s[:i]
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// startContext adds the node of a PF, Pr, L, S or C element.
func (e *experiment) startContext(t xml.StartElement, stack *[]frame, name string, off int64) error {
	tag := t.Name.Local
	if !isContext(tag) {
		return nil // M (summary values) and anything else: not read
	}
	top := (*stack)[len(*stack)-1]
	if top.isStatement {
		return errorf(name, off, "<%s> inside a statement <S>", tag)
	}
	f := frame{attach: top.attach, self: -1, file: top.file, module: top.module}
	line, ok := lineOf(attr(t, "l"))
	if !ok {
		return errorf(name, off, "<%s>: line %q is not a line number", tag, attr(t, "l"))
	}
	f.line = line
	id, err := strconv.ParseInt(attr(t, "i"), 10, 64)
	if tag != "C" && (err != nil || id < 1) {
		return errorf(name, off, "<%s>: context id %q is not a positive integer", tag, attr(t, "i"))
	}
	f.id = id
	var nodeName, group string
	switch tag {
	case "PF", "Pr":
		nodeName, group = e.lookup("Procedure", attr(t, "n")), "PROCEDURE"
		if ref := attr(t, "f"); ref != "" {
			f.file = e.lookup("File", ref)
		}
		if ref := attr(t, "lm"); ref != "" {
			f.module = e.lookup("LoadModule", ref)
		}
		if tag == "Pr" && nodeName == "" {
			*stack = append(*stack, f)
			return nil
		}
	case "L":
		if ref := attr(t, "f"); ref != "" {
			f.file = e.lookup("File", ref)
		}
		nodeName, group = "Loop@"+path.Base(f.file)+":"+strconv.Itoa(line), "LOOP"
	case "S":
		nodeName, group = path.Base(f.file)+":"+strconv.Itoa(line), "STATEMENT"
		f.isStatement = true
	case "C":
		*stack = append(*stack, f)
		return nil
	}
	if _, dup := e.byID[id]; dup {
		return errorf(name, off, "<%s>: context id %d given twice", tag, id)
	}
	n, err := e.tree.AddNode(id, top.attach, nodeName, group)
	if err != nil {
		return errorf(name, off, "%v", err)
	}
	e.tree.SetSource(n, f.module, f.file, line, top.line)
	if tag == "S" || tag == "L" {
		e.stmtParent[n] = top.self
	}
	e.byID[id] = n
	e.maxID = max(e.maxID, id)
	f.attach, f.self = n, n
	*stack = append(*stack, f)
	return nil
}

// nodeOfID returns the node of each context id 0..maxID (-1 for none).
func (e *experiment) nodeOfID() []int {
	if e.nodeByID == nil {
		e.nodeByID = make([]int, e.maxID+1)
		for i := range e.nodeByID {
			e.nodeByID[i] = -1
		}
		for id, n := range e.byID {
			e.nodeByID[id] = n
		}
	}
	return e.nodeByID
}
