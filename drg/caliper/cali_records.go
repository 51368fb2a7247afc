package caliper

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// node stores a context-tree node record (id, attr, data, optional parent).
func (d *caliDecoder) node(r *rec) error {
	id, _, err := oneID(r.id, "id", true)
	if err != nil {
		return err
	}
	attr, _, err := oneID(r.attr, "attr", true)
	if err != nil {
		return err
	}
	data := r.data
	if len(data) != 1 {
		return fmt.Errorf("node %d: want exactly one data value", id)
	}
	parent, hasParent, err := oneID(r.parent, "parent", false)
	if err != nil {
		return err
	}
	if _, dup := d.nodes[id]; dup || id <= 11 {
		return fmt.Errorf("node %d defined twice", id)
	}
	if hasParent {
		if _, ok := d.nodes[parent]; !ok && !isBootstrap(parent) {
			return fmt.Errorf("node %d: parent %d is not defined before it", id, parent)
		}
	}
	if _, ok := d.nodes[attr]; !ok && !isBootstrap(attr) {
		return fmt.Errorf("node %d: attribute %d is not defined before it", id, attr)
	}
	d.nodes[id] = &caliNode{attr: attr, data: data[0], parent: parent, hasParent: hasParent}
	return nil
}

func isBootstrap(id uint64) bool { return id <= 11 }

// attribute returns the attribute defined by node id: a node of attribute
// cali.attribute.name whose ancestors carry its type, properties, alias and
// unit.
func (d *caliDecoder) attribute(id uint64) (*attribute, error) {
	if a, ok := d.attrs[id]; ok {
		return a, nil
	}
	if id == attrName || id == attrType || id == attrProp {
		a := &attribute{name: map[uint64]string{attrName: "cali.attribute.name", attrType: "cali.attribute.type", attrProp: "cali.attribute.prop"}[id], typ: "string"}
		d.attrs[id] = a
		return a, nil
	}
	n, ok := d.nodes[id]
	if !ok || n.attr != attrName {
		return nil, fmt.Errorf("%d is not an attribute", id)
	}
	a := &attribute{name: n.data}
	for steps, p, has := 0, n.parent, n.hasParent; has; steps++ {
		if steps > len(d.nodes) {
			return nil, fmt.Errorf("attribute %d: its node chain loops", id)
		}
		if t, ok := bootstrapTypes[p]; ok && a.typ == "" {
			a.typ = t
			break
		}
		pn, ok := d.nodes[p]
		if !ok {
			break
		}
		d.attrMeta(a, pn)
		p, has = pn.parent, pn.hasParent
	}
	a.thread = isThreadAttr(a.name)
	a.value = a.numeric() && !a.thread
	d.attrs[id] = a
	return a, nil
}

// attrMeta takes what an ancestor node of an attribute node says about it.
func (d *caliDecoder) attrMeta(a *attribute, pn *caliNode) {
	switch pn.attr {
	case attrType:
		if a.typ == "" {
			a.typ = pn.data
		}
	case attrProp:
		a.prop, _ = strconv.ParseInt(pn.data, 10, 64)
	default:
		if an, ok := d.nodes[pn.attr]; ok && an.attr == attrName {
			switch an.data {
			case "attribute.alias":
				a.alias = pn.data
			case "attribute.unit":
				a.unit = pn.data
			}
		}
	}
}

// MaxChain is the longest chain of context-tree nodes (a node and its
// ancestors) read.
const MaxChain = 4096

// chain returns the entries of node id and its ancestors, root first.
func (d *caliDecoder) chain(id uint64) ([]entry, error) {
	var rev []entry
	for cur, has := id, true; has && !isBootstrap(cur); {
		n, ok := d.nodes[cur]
		if !ok {
			return nil, fmt.Errorf("reference to undefined node %d", cur)
		}
		if len(rev) == MaxChain {
			return nil, fmt.Errorf("node %d: its chain of parents is longer than %d", id, MaxChain)
		}
		a, err := d.attribute(n.attr)
		if err != nil {
			return nil, fmt.Errorf("node %d: %w", cur, err)
		}
		rev = append(rev, entry{attr: a, data: n.data})
		cur, has = n.parent, n.hasParent
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, nil
}

// entries returns the entries of the referenced node chains of a record.
func (d *caliDecoder) refEntries(ref []string) ([]entry, error) {
	var refs []entry
	for _, r := range ref {
		id, perr := strconv.ParseUint(r, 10, 64)
		if perr != nil {
			return nil, fmt.Errorf("ref %q is not a node id", r)
		}
		c, cerr := d.chain(id)
		if cerr != nil {
			return nil, cerr
		}
		refs = append(refs, c...)
	}
	return refs, nil
}

// immAttr returns the attribute of an immediate entry's attr value.
func (d *caliDecoder) immAttr(s string) (*attribute, error) {
	if a, ok := d.immCache[s]; ok {
		return a, nil
	}
	id, perr := strconv.ParseUint(s, 10, 64)
	if perr != nil {
		return nil, fmt.Errorf("attr %q is not an attribute id", s)
	}
	a, err := d.attribute(id)
	if err != nil {
		return nil, err
	}
	d.immCache[s] = a
	return a, nil
}

// immAttrs returns the attributes of a record's attr values. Records mostly
// repeat the attr list of the record before, so that list is kept and
// compared first, which saves a map lookup per value.
func (d *caliDecoder) immAttrs(ids []string) ([]*attribute, error) {
	if slices.Equal(ids, d.attrIDs) {
		return d.attrBuf, nil
	}
	d.attrIDs = append(d.attrIDs[:0], ids...)
	d.attrBuf = d.attrBuf[:0]
	for _, s := range ids {
		a, err := d.immAttr(s)
		if err != nil {
			d.attrIDs, d.attrBuf = d.attrIDs[:0], d.attrBuf[:0]
			return nil, err
		}
		d.attrBuf = append(d.attrBuf, a)
	}
	return d.attrBuf, nil
}

// refInfo is what the references of a ctx record say: the region context
// and the rank and thread attributes among them.
type refInfo struct {
	ctx          int
	rank, thread float64
	hasThread    bool
	threadPrio   int
}

// refs resolves the references of a ctx record, cached by the node id of
// a lone reference (in a table indexed by id, as ids count the nodes read),
// else by their text: the nested entries give the region path.
func (d *caliDecoder) refs(ref []string) (*refInfo, error) {
	id, single := uint64(0), false
	if len(ref) == 1 {
		id, single = parseID(ref[0])
	}
	// The table holds ids up to twice the nodes read, so it is bounded by
	// the input; larger ids go to the map.
	single = single && id < 2*uint64(len(d.nodes))+1024
	if single && id < uint64(len(d.refByID)) && d.refByID[id] != nil {
		return d.refByID[id], nil
	}
	if !single {
		d.refKey = d.refKey[:0]
		for i, r := range ref {
			if i > 0 {
				d.refKey = append(d.refKey, '=')
			}
			d.refKey = append(d.refKey, r...)
		}
		if ri, ok := d.refCache[string(d.refKey)]; ok {
			return ri, nil
		}
	}
	ri, err := d.resolveRefs(ref)
	if err != nil {
		return nil, err
	}
	if single {
		if n := uint64(len(d.refByID)); id >= n {
			d.refByID = append(d.refByID, make([]*refInfo, id+1-n)...)
		}
		d.refByID[id] = ri
	} else {
		d.refCache[string(d.refKey)] = ri
	}
	return ri, nil
}

// parseID parses a node id.
func parseID(s string) (uint64, bool) {
	id, err := strconv.ParseUint(s, 10, 64)
	return id, err == nil
}

// resolveRefs reads the node chains of a ctx record's references.
func (d *caliDecoder) resolveRefs(ref []string) (*refInfo, error) {
	entries, err := d.refEntries(ref)
	if err != nil {
		return nil, err
	}
	ri := &refInfo{ctx: -1, threadPrio: len(threadAttrs)}
	var path []string
	for _, e := range entries {
		switch {
		case e.attr.thread:
			if err := ri.take(e.attr.name, e.data); err != nil {
				return nil, err
			}
		case e.attr.prop&propNested != 0:
			path = append(path, e.data)
		}
	}
	for _, name := range path {
		if ri.ctx, err = d.s.tree.Child(ri.ctx, name); err != nil {
			return nil, err
		}
	}
	return ri, nil
}

// take records a rank or thread attribute's value.
func (ri *refInfo) take(attr, data string) error {
	v, err := parseNumber(data)
	if err != nil {
		return fmt.Errorf("%s %q is not a number", attr, data)
	}
	if attr == rankAttr {
		ri.rank = v
	} else if p := threadPriority(attr); p < ri.threadPrio {
		ri.thread, ri.hasThread, ri.threadPrio = v, true, p
	}
	return nil
}

// ctx handles a snapshot record: the nested entries of its references give
// the region path, mpi.rank and the thread attributes the thread, and every
// immediate numeric entry a metric value.
func (d *caliDecoder) ctx(r *rec) error {
	if len(r.attr) != len(r.data) {
		return fmt.Errorf("%d attr values but %d data values", len(r.attr), len(r.data))
	}
	cached, err := d.refs(r.ref)
	if err != nil {
		return err
	}
	ri := *cached
	attrs, err := d.immAttrs(r.attr)
	if err != nil {
		return err
	}
	for i, a := range attrs {
		if a.thread {
			if err := ri.take(a.name, r.data[i]); err != nil {
				return err
			}
		}
	}
	th, err := d.s.thread(ri.rank, ri.thread, ri.hasThread)
	if err != nil {
		return err
	}
	if ri.ctx < 0 {
		d.s.skipped++
		return nil
	}
	d.s.tree.MarkPresent(ri.ctx, th)
	for i, a := range attrs {
		if !a.value {
			continue
		}
		v, perr := parseNumber(r.data[i])
		if perr != nil {
			return fmt.Errorf("%s %q is not a number", a.name, r.data[i])
		}
		if a.metric == nil {
			m := d.s.metricOf(a.name)
			a.metric = &m
		}
		if a.metric.inclusive {
			d.s.tree.AddInclusive(ri.ctx, th, a.metric.index, v)
		} else {
			d.s.tree.AddExclusive(ri.ctx, th, a.metric.index, v)
		}
	}
	return nil
}

func threadPriority(attr string) int {
	for i, a := range threadAttrs {
		if a == attr {
			return i
		}
	}
	return len(threadAttrs)
}

// globals turns a globals record into trial metadata; an attribute given
// several times keeps its values joined by ",".
func (d *caliDecoder) globals(r *rec) error {
	refs, err := d.refEntries(r.ref)
	if err != nil {
		return err
	}
	if len(r.attr) != len(r.data) {
		return fmt.Errorf("%d attr values but %d data values", len(r.attr), len(r.data))
	}
	var imm []entry
	for i, s := range r.attr {
		a, err := d.immAttr(s)
		if err != nil {
			return err
		}
		imm = append(imm, entry{attr: a, data: r.data[i]})
	}
	for _, e := range append(refs, imm...) {
		if old, ok := d.s.meta[e.attr.name]; ok && old != e.data {
			d.s.meta[e.attr.name] = strings.Join([]string{old, e.data}, ",")
			continue
		}
		d.s.meta[e.attr.name] = e.data
	}
	return nil
}

// aliasOf returns the attribute.alias of the attribute named name, or "".
func (d *caliDecoder) aliasOf(name string) string {
	for _, a := range d.attrs {
		if a.name == name {
			if a.unit != "" {
				d.s.meta["Caliper unit of "+name] = a.unit
			}
			return a.alias
		}
	}
	return ""
}
