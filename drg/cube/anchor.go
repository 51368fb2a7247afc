package cube

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
)

// metric is one <metric> of anchor.xml.
type metric struct {
	id                     int
	kind                   string // EXCLUSIVE, INCLUSIVE, or a derived kind
	uniq, disp, dtype, uom string
}

// region is one <region> of anchor.xml.
type region struct {
	name, paradigm string
}

// location is one <location> (a thread) with its location group's rank.
type location struct {
	id, rank, groupRank int
	groupName, name     string
}

// anchor is what anchor.xml says.
type anchor struct {
	version string
	attrs   map[string]string
	metrics []metric
	regions map[int]region
	// cnodes in document order (parents first) with their callee region.
	cnodes []cnode
	locs   []location
}

type cnode struct {
	id, callee, parent int
}

// maxDepth bounds the nesting of anchor.xml.
const maxDepth = 1 << 16

// parser is the state of the anchor.xml parse.
type parser struct {
	a       *anchor
	d       *xml.Decoder
	path    []string // open element names
	metrics []*metric
	reg     *region
	regID   int
	cnodes  []int // open cnodes (index in a.cnodes)
	group   location
	loc     *location
	text    strings.Builder
	name    string // the .cubex, for errors
}

// parseAnchor reads anchor.xml from r.
func parseAnchor(r io.Reader, name string) (*anchor, error) {
	p := &parser{a: &anchor{attrs: map[string]string{}, regions: map[int]region{}}, d: xml.NewDecoder(r), name: name}
	for {
		off := p.d.InputOffset()
		tok, err := p.d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, errorf(name, "anchor.xml", p.d.InputOffset(), "%v", xmlCause(err))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(p.path) >= maxDepth {
				return nil, errorf(name, "anchor.xml", off, "elements nested deeper than %d", maxDepth)
			}
			if len(p.path) == 0 && t.Name.Local != "cube" {
				return nil, errorf(name, "anchor.xml", off, "root element <%s>, want <cube>", t.Name.Local)
			}
			p.path = append(p.path, t.Name.Local)
			p.text.Reset()
			if err := p.start(t); err != nil {
				return nil, errorf(name, "anchor.xml", off, "%v", err)
			}
		case xml.CharData:
			if p.text.Len() < 1<<20 {
				p.text.Write(t)
			}
		case xml.EndElement:
			if err := p.end(t.Name.Local); err != nil {
				return nil, errorf(name, "anchor.xml", off, "%v", err)
			}
			p.path = p.path[:len(p.path)-1]
		}
	}
	if p.a.version == "" && len(p.a.cnodes) == 0 {
		return nil, errorf(name, "anchor.xml", -1, "no <cube> element")
	}
	if err := p.a.check(); err != nil {
		return nil, errorf(name, "anchor.xml", -1, "%v", err)
	}
	return p.a, nil
}

func xmlCause(err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return errors.New("XML: " + se.Msg)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("XML: ends inside an element")
	}
	return err
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func intAttr(t xml.StartElement, name string) (int, error) {
	v, err := strconv.Atoi(attr(t, name))
	if err != nil || v < 0 {
		return 0, errors.New("<" + t.Name.Local + ">: " + name + " " + strconv.Quote(attr(t, name)) + " is not a non-negative integer")
	}
	return v, nil
}

// parent returns the name of the element enclosing the current one.
func (p *parser) parent() string {
	if len(p.path) < 2 {
		return ""
	}
	return p.path[len(p.path)-2]
}

// start handles an opening tag.
func (p *parser) start(t xml.StartElement) error {
	var err error
	switch t.Name.Local {
	case "cube":
		p.a.version = attr(t, "version")
	case "attr":
		if p.parent() == "cube" {
			p.a.attrs[attr(t, "key")] = attr(t, "value")
		}
	case "metric":
		m := &metric{kind: attr(t, "type")}
		if m.id, err = intAttr(t, "id"); err != nil && attr(t, "id") != "" {
			return err
		}
		if attr(t, "id") == "" {
			m.id = -1
		}
		p.metrics = append(p.metrics, m)
	case "region":
		if p.regID, err = intAttr(t, "id"); err != nil {
			return err
		}
		p.reg = &region{}
	case "cnode":
		return p.startCnode(t)
	case "locationgroup":
		p.group = location{}
	case "location":
		p.loc = &location{}
		if p.loc.id, err = intAttr(t, "Id"); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) startCnode(t xml.StartElement) error {
	var c cnode
	var err error
	if c.id, err = intAttr(t, "id"); err != nil {
		return err
	}
	if c.callee, err = intAttr(t, "calleeId"); err != nil {
		return err
	}
	c.parent = -1
	if len(p.cnodes) > 0 {
		c.parent = p.cnodes[len(p.cnodes)-1]
	}
	p.a.cnodes = append(p.a.cnodes, c)
	p.cnodes = append(p.cnodes, len(p.a.cnodes)-1)
	return nil
}

// end handles a closing tag: text of leaf elements goes to the innermost
// open metric, region, location group or location.
func (p *parser) end(tag string) error {
	text := strings.TrimSpace(p.text.String())
	p.text.Reset()
	switch tag {
	case "metric":
		m := p.metrics[len(p.metrics)-1]
		p.metrics = p.metrics[:len(p.metrics)-1]
		p.a.metrics = append(p.a.metrics, *m)
	case "region":
		if _, dup := p.a.regions[p.regID]; dup {
			return errors.New("region id " + strconv.Itoa(p.regID) + " given twice")
		}
		p.a.regions[p.regID] = *p.reg
		p.reg = nil
	case "cnode":
		p.cnodes = p.cnodes[:len(p.cnodes)-1]
	case "location":
		l := *p.loc
		l.groupRank, l.groupName = p.group.rank, p.group.name
		p.a.locs = append(p.a.locs, l)
		p.loc = nil
	default:
		return p.leaf(tag, text)
	}
	return nil
}

// leaf stores the text of a leaf element in the object it describes.
func (p *parser) leaf(tag, text string) error {
	switch parent := p.parent(); {
	case parent == "metric" && len(p.metrics) > 0:
		m := p.metrics[len(p.metrics)-1]
		switch tag {
		case "uniq_name":
			m.uniq = text
		case "disp_name":
			m.disp = text
		case "dtype":
			m.dtype = text
		case "uom":
			m.uom = text
		}
	case parent == "region" && p.reg != nil:
		switch tag {
		case "name":
			p.reg.name = text
		case "paradigm":
			p.reg.paradigm = text
		}
	case parent == "location" && p.loc != nil:
		return setLoc(p.loc, tag, text)
	case parent == "locationgroup":
		return setLoc(&p.group, tag, text)
	}
	return nil
}

func setLoc(l *location, tag, text string) error {
	switch tag {
	case "name":
		l.name = text
	case "rank":
		r, err := strconv.Atoi(text)
		if err != nil || r < 0 {
			return errors.New("<rank> " + strconv.Quote(text) + " is not a non-negative integer")
		}
		l.rank = r
	}
	return nil
}

// check verifies the references between the parts of anchor.xml.
func (a *anchor) check() error {
	if len(a.cnodes) == 0 {
		return errors.New("no call tree (<cnode>)")
	}
	if len(a.locs) == 0 {
		return errors.New("no <location>")
	}
	seen := make([]bool, len(a.locs))
	for _, l := range a.locs {
		if l.id >= len(a.locs) || seen[l.id] {
			return errors.New("location ids are not 0.." + strconv.Itoa(len(a.locs)-1) + " each once")
		}
		seen[l.id] = true
	}
	ids := map[int]bool{}
	for _, c := range a.cnodes {
		if ids[c.id] {
			return errors.New("cnode id " + strconv.Itoa(c.id) + " given twice")
		}
		ids[c.id] = true
		if _, ok := a.regions[c.callee]; !ok {
			return errors.New("cnode " + strconv.Itoa(c.id) + " calls region " + strconv.Itoa(c.callee) + ", which is not defined")
		}
	}
	return nil
}

// tree makes the calling context tree (no threads or values yet).
func (a *anchor) tree() *cct.Tree {
	t := &cct.Tree{}
	for _, c := range a.cnodes {
		r := a.regions[c.callee]
		// Parents come first in document order, so AddNode cannot fail.
		_, _ = t.AddNode(int64(c.id), c.parent, r.name, group(r.paradigm))
	}
	return t
}

// group gives TAU's group name for a Score-P paradigm.
func group(paradigm string) string {
	switch strings.ToLower(paradigm) {
	case "mpi":
		return "MPI"
	case "openmp":
		return "OpenMP"
	case "pthread":
		return "PTHREAD"
	case "":
		return ""
	}
	return strings.ToUpper(paradigm)
}
