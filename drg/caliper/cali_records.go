package caliper

import (
	"fmt"
	"strconv"
	"strings"
)

// node stores a context-tree node record (id, attr, data, optional parent).
func (d *caliDecoder) node(kv map[string][]string) error {
	id, _, err := oneID(kv, "id", true)
	if err != nil {
		return err
	}
	attr, _, err := oneID(kv, "attr", true)
	if err != nil {
		return err
	}
	data, ok := kv["data"]
	if !ok || len(data) != 1 {
		return fmt.Errorf("node %d: want exactly one data value", id)
	}
	parent, hasParent, err := oneID(kv, "parent", false)
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

// chain returns the entries of node id and its ancestors, root first.
func (d *caliDecoder) chain(id uint64) ([]entry, error) {
	if c, ok := d.chains[id]; ok {
		return c, nil
	}
	n, ok := d.nodes[id]
	if !ok {
		return nil, fmt.Errorf("reference to undefined node %d", id)
	}
	var parent []entry
	if n.hasParent && !isBootstrap(n.parent) {
		var err error
		if parent, err = d.chain(n.parent); err != nil {
			return nil, err
		}
	}
	a, err := d.attribute(n.attr)
	if err != nil {
		return nil, fmt.Errorf("node %d: %w", id, err)
	}
	c := append(append([]entry(nil), parent...), entry{attr: a, data: n.data})
	d.chains[id] = c
	return c, nil
}

// entries returns the entries of a ctx or globals record: those of every
// referenced node chain, then the immediate attr=data pairs.
func (d *caliDecoder) entries(kv map[string][]string) (refs, imm []entry, err error) {
	for _, r := range kv["ref"] {
		id, perr := strconv.ParseUint(r, 10, 64)
		if perr != nil {
			return nil, nil, fmt.Errorf("ref %q is not a node id", r)
		}
		c, cerr := d.chain(id)
		if cerr != nil {
			return nil, nil, cerr
		}
		refs = append(refs, c...)
	}
	attrs, data := kv["attr"], kv["data"]
	if len(attrs) != len(data) {
		return nil, nil, fmt.Errorf("%d attr values but %d data values", len(attrs), len(data))
	}
	for i, s := range attrs {
		id, perr := strconv.ParseUint(s, 10, 64)
		if perr != nil {
			return nil, nil, fmt.Errorf("attr %q is not an attribute id", s)
		}
		a, aerr := d.attribute(id)
		if aerr != nil {
			return nil, nil, aerr
		}
		imm = append(imm, entry{attr: a, data: data[i]})
	}
	return refs, imm, nil
}

// ctx handles a snapshot record: the nested entries of its references give
// the region path, mpi.rank and the thread attributes the thread, and every
// immediate numeric entry a metric value.
func (d *caliDecoder) ctx(kv map[string][]string) error {
	refs, imm, err := d.entries(kv)
	if err != nil {
		return err
	}
	var path []string
	var rank, thread float64
	hasThread, threadPrio := false, len(threadAttrs)
	var vals []value
	for _, e := range append(refs, imm...) {
		switch {
		case e.attr.name == rankAttr || isThreadAttr(e.attr.name):
			v, perr := strconv.ParseFloat(e.data, 64)
			if perr != nil {
				return fmt.Errorf("%s %q is not a number", e.attr.name, e.data)
			}
			if e.attr.name == rankAttr {
				rank = v
			} else if p := threadPriority(e.attr.name); p < threadPrio {
				thread, hasThread, threadPrio = v, true, p
			}
		case e.attr.prop&propNested != 0:
			path = append(path, e.data)
		}
	}
	for _, e := range imm {
		if !e.attr.numeric() || isThreadAttr(e.attr.name) {
			continue
		}
		v, perr := strconv.ParseFloat(e.data, 64)
		if perr != nil {
			return fmt.Errorf("%s %q is not a number", e.attr.name, e.data)
		}
		vals = append(vals, value{attr: e.attr.name, v: v})
	}
	th, err := d.s.thread(rank, thread, hasThread)
	if err != nil {
		return err
	}
	d.s.add(path, th, vals)
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
func (d *caliDecoder) globals(kv map[string][]string) error {
	refs, imm, err := d.entries(kv)
	if err != nil {
		return err
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
