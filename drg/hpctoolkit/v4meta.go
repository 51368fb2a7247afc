package hpctoolkit

import (
	"path"
	"strconv"

	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
)

// meta4 is what meta.db says.
type meta4 struct {
	title   string
	kinds   []string // identifier kind names (RANK, THREAD, ...)
	metrics []metric4
	tree    cct.Tree
	// node maps a context id to its node; an instruction context maps to
	// -1 (its cost is in its parent's inclusive value); ids not in the map
	// are not in meta.db.
	node map[uint32]int
	// functions maps a context id of a function context to its node, for
	// checks against the execution-scope values.
	functions map[uint32]int
	// unknown counts the context ids with values that meta.db lacks.
	unknown int
}

// metric4 is one performance metric with the propagated metric id of its
// execution scope (its inclusive values) and the summary id of the sum of
// those over threads (-1 when absent).
type metric4 struct {
	name    string
	exec    int
	execSum int
}

// Context lexical types and scope types of meta.db.
const (
	lexFunction, lexLoop, lexLine = 0, 1, 2
	scopeExecution                = 2
)

// readMeta parses meta.db.
func readMeta(path string) (*meta4, error) {
	d, f, err := openDB4(path, "meta", 0)
	if err != nil {
		return nil, err
	}
	f.Close()
	m := &meta4{node: map[uint32]int{}, functions: map[uint32]int{}}
	_, gp := d.section(0, "General Properties")
	m.title = d.str(d.u64(gp, "title pointer"), "title")
	_, ip := d.section(1, "Identifier Names")
	pp, nk := d.u64(ip, "names"), d.u8(ip+8, "number of kinds")
	for k := uint64(0); k < uint64(nk) && d.err == nil; k++ {
		m.kinds = append(m.kinds, d.str(d.u64(pp+8*k, "kind name pointer"), "kind name"))
	}
	m.readMetrics(d)
	if d.err == nil {
		m.readContexts(d)
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(m.metrics) == 0 {
		return nil, errorf(path, -1, "no metric with an execution (inclusive) scope")
	}
	return m, nil
}

// readMetrics reads the Performance Metrics section: each metric's name,
// the propagated metric id of its execution scope and the summary id of
// that scope's sum over threads.
func (m *meta4) readMetrics(d *dbFile4) {
	_, p := d.section(2, "Performance Metrics")
	pm, n := d.u64(p, "metrics pointer"), uint64(d.u32(p+8, "number of metrics"))
	szM, szPSI, szSS := uint64(d.u8(p+0xc, "metric size")), uint64(d.u8(p+0xd, "scope instance size")), uint64(d.u8(p+0xe, "summary size"))
	if d.err == nil && (szM < 0x1c || szPSI < 0xa || szSS < 0x14 || n > d.size/szM) {
		d.fail(p, "metric structure sizes %d/%d/%d or count %d are impossible", szM, szPSI, szSS, n)
	}
	for i := uint64(0); i < n && d.err == nil; i++ {
		md := pm + i*szM
		mt := metric4{name: d.str(d.u64(md, "metric name pointer"), "metric name"), exec: -1, execSum: -1}
		psi, ns := d.u64(md+8, "scope instances"), uint64(d.u16(md+0x18, "number of scope instances"))
		for j := uint64(0); j < ns && d.err == nil; j++ {
			e := psi + j*szPSI
			typ := d.u8(d.u64(e, "scope pointer")+8, "scope type")
			id := int(d.u16(e+8, "propagated metric id"))
			if typ == scopeExecution {
				mt.exec = id
			}
		}
		ss, nss := d.u64(md+0x10, "summaries"), uint64(d.u16(md+0x1a, "number of summaries"))
		for j := uint64(0); j < nss && d.err == nil; j++ {
			e := ss + j*szSS
			typ := d.u8(d.u64(e, "scope pointer")+8, "scope type")
			formula, combine := d.str(d.u64(e+8, "formula pointer"), "formula"), d.u8(e+0x10, "combine")
			if typ == scopeExecution && combine == 0 && formula == "$$" {
				mt.execSum = int(d.u16(e+0x12, "summary metric id"))
			}
		}
		if mt.exec >= 0 {
			m.metrics = append(m.metrics, mt)
		}
	}
}

// ctxFrame is a context array still to be walked.
type ctxFrame struct {
	p, size uint64
	attach  int // the node the contexts of the array go under
}

// readContexts walks the context tree from its entry points. Entry points,
// functions, loops and source lines become nodes; an instruction makes no
// node, its children go under its parent.
func (m *meta4) readContexts(d *dbFile4) {
	secSize, sec := d.section(3, "Context Tree")
	pe, ne, sz := d.u64(sec, "entry points"), uint64(d.u16(sec+8, "number of entry points")), uint64(d.u8(sec+0xa, "entry point size"))
	if d.err == nil && sz < 0x20 {
		d.fail(sec+0xa, "entry point size %d is below 32", sz)
	}
	budget := secSize / 0x20 // no more contexts than fit in the section
	var stack []ctxFrame
	for i := uint64(0); i < ne && d.err == nil; i++ {
		e := pe + i*sz
		id := d.u32(e+0x10, "entry context id")
		name := d.str(d.u64(e+0x18, "entry name pointer"), "entry name")
		n := m.addNode(d, e, id, -1, name, "ENTRY")
		stack = append(stack, ctxFrame{p: d.u64(e+8, "children"), size: d.u64(e, "children size"), attach: n})
	}
	for len(stack) > 0 && d.err == nil {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if fr.size == 0 {
			continue
		}
		if fr.p < sec || fr.p > sec+secSize || fr.size > sec+secSize-fr.p {
			d.fail(fr.p, "context array of %d bytes lies outside the Context Tree section", fr.size)
			return
		}
		for c := fr.p; c < fr.p+fr.size && d.err == nil; {
			if budget == 0 {
				d.fail(c, "more contexts than the Context Tree section can hold (a loop in the tree?)")
				return
			}
			budget--
			next, child := m.context(d, c, fr)
			if child.size > 0 {
				stack = append(stack, child)
			}
			c = next
		}
	}
}

// context reads the context at c; it returns the offset of the next one and
// the frame of its children.
func (m *meta4) context(d *dbFile4, c uint64, fr ctxFrame) (uint64, ctxFrame) {
	id := d.u32(c+0x10, "context id")
	flags, lex, words := d.u8(c+0x14, "flags"), d.u8(c+0x16, "lexical type"), uint64(d.u8(c+0x17, "flex words"))
	fn, file, line := m.flex(d, c+0x20, flags, words)
	child := ctxFrame{p: d.u64(c+8, "children"), size: d.u64(c, "children size"), attach: fr.attach}
	switch lex {
	case lexFunction:
		name := "<unknown function>"
		if fn != 0 {
			if n := d.str(d.u64(fn, "function name pointer"), "function name"); n != "" {
				name = n
			}
		}
		child.attach = m.addNode(d, c, id, fr.attach, name, "PROCEDURE")
		m.functions[id] = child.attach
	case lexLoop:
		child.attach = m.addNode(d, c, id, fr.attach, "Loop@"+path.Base(file)+":"+strconv.Itoa(int(line)), "LOOP")
	case lexLine:
		child.attach = m.addNode(d, c, id, fr.attach, path.Base(file)+":"+strconv.Itoa(int(line)), "STATEMENT")
	default: // an instruction, or a type this reader does not know
		m.setNode(d, c, id, -1)
	}
	return c + 0x20 + 8*words, child
}

// flex reads a context's flexible fields that name it: the function, and
// the source file and line; words is the number of 8-byte words the
// context gives them, checked against what its flags announce.
func (m *meta4) flex(d *dbFile4, p uint64, flags uint8, words uint64) (fn uint64, file string, line uint32) {
	need := uint64(0)
	if flags&1 != 0 {
		need++
	}
	if flags&2 != 0 {
		need += 2
	}
	if flags&4 != 0 {
		need += 2
	}
	if need > words {
		d.fail(p, "context flags 0x%x need %d flex words, it has %d", flags, need, words)
		return
	}
	w := p
	if flags&1 != 0 {
		fn = d.u64(w, "function pointer")
		w += 8
	}
	if flags&2 != 0 {
		f := d.u64(w, "file pointer")
		file = d.str(d.u64(f+8, "file path pointer"), "file path")
		line = d.u32(w+8, "line")
	}
	return
}

// addNode adds a context's node under parent.
func (m *meta4) addNode(d *dbFile4, at uint64, id uint32, parent int, name, group string) int {
	n, err := m.tree.AddNode(int64(id), parent, name, group)
	if err != nil {
		d.fail(at, "%v", err)
		return -1
	}
	m.setNode(d, at, id, n)
	return n
}

func (m *meta4) setNode(d *dbFile4, at uint64, id uint32, n int) {
	if _, dup := m.node[id]; dup || id == 0 {
		d.fail(at, "context id %d given twice (or 0)", id)
	}
	m.node[id] = n
}
