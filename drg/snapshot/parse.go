package snapshot

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// state says what an open element is, for the parser.
type state uint8

const (
	sTop             state = iota // the synthetic root or a <profile_xml>
	sSkip                         // an element the reader ignores, with its content
	sThread                       // <thread>
	sMetadata                     // <thread><metadata>
	sAttribute                    // <metadata><attribute>
	sText                         // an element whose text is collected
	sValue                        // <attribute><value>
	sValueNested                  // an element inside <value>
	sDefs                         // <definitions>
	sMetric                       // <definitions><metric>
	sEvent                        // <definitions><event>
	sUserEvent                    // <definitions><userevent>
	sProfile                      // <profile>
	sInterval                     // <profile><interval_data>
	sAtomic                       // <profile><atomic_data>
	sDerived                      // <derivedprofile>, <min_no_null_derivedprofile>, ...
	sDerivedInterval              // <derivedinterval_data>
	sDerivedAtomic                // <derivedatomic_data>
)

// frame is one open element.
type frame struct {
	st   state
	name string // local name
	line int
}

// parser reads one stream into a stream value.
type parser struct {
	s     *stream
	clean *cleanReader
	dec   *xml.Decoder
	stack []frame
	text  []byte // text of the innermost sText or sValue element

	thread *threadState // the <thread>, <profile> or <definitions> owner
	scope  *defs        // the scope of the open <definitions>

	defID               int
	defName, defGroups  string
	hasName, hasGroups  bool
	attr                attribute
	attrName, attrValue bool

	prof  *profile
	der   *derivedProfile
	block *intervalBlock
	// prevRows and prevNums are the sizes of the last interval block read.
	prevRows, prevNums int
	lines              lineSplitter
	fields             [][]byte
}

// parseStream parses one snapshot XML stream (not compressed).
func parseStream(r io.Reader, path string) (*stream, error) {
	p := &parser{s: newStream(path), clean: newCleanReader(r)}
	p.dec = xml.NewDecoder(p.clean)
	// The stream is read as UTF-8 whatever an <?xml?> declaration says.
	p.dec.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	for {
		line, _ := p.dec.InputPos()
		p.clean.mark = p.dec.InputOffset()
		tok, err := p.dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, p.decodeError(err, line)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			err = p.start(t, line)
		case xml.EndElement:
			err = p.end(line)
		case xml.CharData:
			err = p.chars(t, line)
		}
		if err != nil {
			return nil, err
		}
	}
	p.s.size = p.clean.delivered
	return p.s, nil
}

// errAt returns an Error at line.
func (p *parser) errAt(line int, format string, args ...any) error {
	return &Error{Path: p.s.path, Line: line, Err: fmt.Errorf(format, args...)}
}

// decodeError turns an error of the XML decoder into an Error with the
// file's line; line is where the failing token started.
func (p *parser) decodeError(err error, line int) error {
	var se *xml.SyntaxError
	if !errors.As(err, &se) {
		cur, _ := p.dec.InputPos()
		return &Error{Path: p.s.path, Line: cur, Err: fmt.Errorf("reading: %w", err)}
	}
	msg := se.Msg
	switch {
	case strings.Contains(msg, "element <"+rootName+"> closed by"):
		msg = strings.Replace(msg, "element <"+rootName+"> closed by", "no open element for end tag", 1)
	case p.clean.truncated(p.dec.InputOffset()) || msg == "unexpected EOF":
		msg = "unexpected end of file"
		if open := p.innermost(); open != "" {
			msg += " inside <" + open + ">"
		}
	}
	return &Error{Path: p.s.path, Line: se.Line, Err: errors.New("malformed XML: " + msg)}
}

// innermost returns the name of the innermost open element of the file
// (not the synthetic root), or "".
func (p *parser) innermost() string {
	if len(p.stack) > 1 {
		return p.stack[len(p.stack)-1].name
	}
	return ""
}

func (p *parser) push(st state, name string, line int) {
	p.stack = append(p.stack, frame{st: st, name: name, line: line})
}

// attr returns the value of attribute name of t.
func attr(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// start handles a start tag at line, by the state of the enclosing
// element.
func (p *parser) start(t xml.StartElement, line int) error {
	name := t.Name.Local
	if len(p.stack) > maxDepth {
		return p.errAt(line, "elements nested more than %d deep", maxDepth)
	}
	if len(p.stack) == 0 {
		p.push(sTop, name, line) // the synthetic root
		return nil
	}
	switch top := p.stack[len(p.stack)-1].st; top {
	case sTop:
		return p.startInTop(t, line)
	case sThread:
		p.pushIf(name == "metadata", sMetadata, name, line)
	case sMetadata:
		if name == "attribute" {
			p.attr, p.attrName, p.attrValue = attribute{}, false, false
		}
		p.pushIf(name == "attribute", sAttribute, name, line)
	case sAttribute:
		p.startInAttribute(name, line)
	case sValue, sValueNested:
		// A structured value (arrays, objects): keep the text after the
		// last nested start tag, as TAU's Java loader does.
		p.text = p.text[:0]
		p.push(sValueNested, name, line)
	case sText:
		p.push(sText, name, line)
	case sDefs:
		return p.startInDefinitions(t, line)
	case sMetric, sEvent, sUserEvent:
		if name == "name" || (name == "group" && top == sEvent) {
			p.text = p.text[:0]
			p.push(sText, name, line)
		} else {
			p.push(sSkip, name, line)
		}
	case sProfile:
		return p.startInProfile(t, line)
	case sDerived:
		return p.startInDerived(t, line)
	case sInterval, sAtomic, sDerivedInterval, sDerivedAtomic:
		return p.errAt(line, "unexpected element <%s> in <%s>", name, p.stack[len(p.stack)-1].name)
	default:
		p.push(sSkip, name, line)
	}
	return nil
}

// startInTop handles a start tag outside any thread, definitions or
// profile: <profile_xml> and the elements it holds.
func (p *parser) startInTop(t xml.StartElement, line int) error {
	name := t.Name.Local
	switch {
	case name == "profile_xml":
		p.push(sTop, name, line)
	case name == "thread":
		return p.startThread(t, line)
	case name == "definitions":
		return p.startDefinitions(t, line)
	case name == "profile":
		return p.startProfile(t, line)
	case strings.HasSuffix(name, "derivedprofile"):
		p.startDerived(t, line)
	default:
		p.push(sSkip, name, line)
	}
	return nil
}

// startInAttribute handles a start tag inside a metadata <attribute>.
func (p *parser) startInAttribute(name string, line int) {
	switch name {
	case "name":
		p.text = p.text[:0]
		p.push(sText, name, line)
	case "value":
		p.text = p.text[:0]
		p.push(sValue, name, line)
	case "timer_context":
		p.attr.context = true
		p.push(sSkip, name, line)
	default:
		p.push(sSkip, name, line)
	}
}

// startInDefinitions handles a <metric>, <event> or <userevent>
// definition (which must carry an id) inside <definitions>.
func (p *parser) startInDefinitions(t xml.StartElement, line int) error {
	name := t.Name.Local
	var st state
	switch name {
	case "metric":
		st = sMetric
	case "event":
		st = sEvent
	case "userevent":
		st = sUserEvent
	default:
		p.push(sSkip, name, line)
		return nil
	}
	v, ok := attr(t, "id")
	if !ok {
		return p.errAt(line, "<%s> without id", name)
	}
	id, err := parseID([]byte(v))
	if err != nil {
		return p.errAt(line, "<%s>: %v", name, err)
	}
	p.defID, p.hasName, p.hasGroups, p.defName, p.defGroups = id, false, false, "", ""
	p.push(st, name, line)
	return nil
}

// startInProfile handles a start tag inside a thread's <profile>.
func (p *parser) startInProfile(t xml.StartElement, line int) error {
	name := t.Name.Local
	switch name {
	case "name", "timestamp":
		p.text = p.text[:0]
		p.push(sText, name, line)
	case "interval_data":
		b, err := p.intervalBlock(t, line, p.thread)
		if err != nil {
			return err
		}
		p.prof.intervals = append(p.prof.intervals, b)
		p.push(sInterval, name, line)
	case "atomic_data":
		p.push(sAtomic, name, line)
	default:
		p.push(sSkip, name, line)
	}
	return nil
}

// startInDerived handles a start tag inside a derived profile.
func (p *parser) startInDerived(t xml.StartElement, line int) error {
	name := t.Name.Local
	switch name {
	case "derivedinterval_data":
		b, err := p.intervalBlock(t, line, nil)
		if err != nil {
			return err
		}
		p.der.intervals = append(p.der.intervals, b)
		p.push(sDerivedInterval, name, line)
	case "derivedatomic_data":
		p.push(sDerivedAtomic, name, line)
	default:
		p.push(sSkip, name, line)
	}
	return nil
}

// pushIf pushes st when cond holds, else an ignored element.
func (p *parser) pushIf(cond bool, st state, name string, line int) {
	if !cond {
		st = sSkip
	}
	p.push(st, name, line)
}

func (p *parser) startThread(t xml.StartElement, line int) error {
	var ranks [3]int
	for i, a := range [3]string{"node", "context", "thread"} {
		v, ok := attr(t, a)
		if !ok {
			return p.errAt(line, "<thread> without %s attribute", a)
		}
		n, err := parseID([]byte(strings.TrimSpace(v)))
		if err != nil {
			return p.errAt(line, "<thread> %s: %v", a, err)
		}
		ranks[i] = n
	}
	id, ok := attr(t, "id")
	if !ok {
		return p.errAt(line, "<thread> without id attribute")
	}
	tid := drg.ThreadID{Node: ranks[0], Context: ranks[1], Thread: ranks[2]}
	ts := p.s.byID[id]
	switch {
	case ts != nil && ts.id != tid:
		return p.errAt(line, "thread %q given as %s here and as %s on line %d", id, tid, ts.id, ts.line)
	case ts == nil && p.s.byRank[tid] != nil:
		ts = p.s.byRank[tid]
		p.s.byID[id] = ts
	case ts == nil:
		ts = &threadState{id: tid, line: line, metaIdx: map[string]int{}}
		p.s.byID[id] = ts
		p.s.byRank[tid] = ts
		p.s.threads = append(p.s.threads, ts)
	}
	p.thread = ts
	p.push(sThread, "thread", line)
	return nil
}

// threadAttr returns the thread named by the thread attribute of t.
func (p *parser) threadAttr(t xml.StartElement, line int) (*threadState, error) {
	v, ok := attr(t, "thread")
	if !ok {
		return nil, p.errAt(line, "<%s> without thread attribute", t.Name.Local)
	}
	ts := p.s.byID[v]
	if ts == nil {
		return nil, p.errAt(line, "<%s>: unknown thread id %q (no <thread> element defines it before)", t.Name.Local, v)
	}
	return ts, nil
}

func (p *parser) startDefinitions(t xml.StartElement, line int) error {
	if v, _ := attr(t, "thread"); v == "*" {
		p.thread, p.scope = nil, &p.s.global
	} else {
		ts, err := p.threadAttr(t, line)
		if err != nil {
			return err
		}
		p.thread, p.scope = ts, &ts.defs
	}
	p.push(sDefs, "definitions", line)
	return nil
}

func (p *parser) startProfile(t xml.StartElement, line int) error {
	ts, err := p.threadAttr(t, line)
	if err != nil {
		return err
	}
	p.thread = ts
	p.prof = &profile{line: line}
	ts.profiles = append(ts.profiles, p.prof)
	p.push(sProfile, "profile", line)
	return nil
}

func (p *parser) startDerived(t xml.StartElement, line int) {
	entity, ok := attr(t, "derivedentity")
	if !ok {
		entity = strings.TrimSuffix(strings.TrimSuffix(t.Name.Local, "derivedprofile"), "_")
	}
	p.der = &derivedProfile{line: line, entity: entity}
	p.s.derived = append(p.s.derived, p.der)
	p.push(sDerived, t.Name.Local, line)
}

// intervalBlock starts the lines of an interval data element; ts is the
// thread whose definitions apply, or nil for derived data (global ids).
func (p *parser) intervalBlock(t xml.StartElement, line int, ts *threadState) (*intervalBlock, error) {
	v, ok := attr(t, "metrics")
	if !ok {
		return nil, p.errAt(line, "<%s> without metrics attribute", t.Name.Local)
	}
	b := &intervalBlock{}
	for _, f := range splitFields([]byte(strings.ReplaceAll(v, "\n", " ")), p.fields[:0]) {
		id, err := parseID(f)
		if err != nil {
			return nil, p.errAt(line, "<%s> metrics: %v", t.Name.Local, err)
		}
		m, ok := p.lookup(ts, func(d *defs) *idMap { return &d.metrics }, id)
		if !ok {
			return nil, p.errAt(line, "<%s>: unknown metric id %d", t.Name.Local, id)
		}
		b.metrics = append(b.metrics, m)
	}
	// Reserve as much as the previous block held (the threads and
	// snapshots of a file are alike), but no more than a line per event in
	// scope: what is reserved never exceeds what the input has held.
	rows := p.s.global.events.n
	if ts != nil {
		rows += ts.defs.events.n
	}
	rows = min(rows, p.prevRows)
	b.events = make([]int32, 0, rows)
	b.nums = make([]float64, 0, min(rows*b.width(), p.prevNums))
	p.block = b
	return b, nil
}

// lookup resolves id in the scope of thread ts (its own definitions, then
// the global ones) or, for ts == nil, in the global scope.
func (p *parser) lookup(ts *threadState, which func(*defs) *idMap, id int) (int, bool) {
	if ts != nil {
		if v, ok := which(&ts.defs).get(id); ok {
			return v, true
		}
	}
	return which(&p.s.global).get(id)
}

// chars handles character data that starts at line.
func (p *parser) chars(data []byte, line int) error {
	switch p.stack[len(p.stack)-1].st {
	case sText, sValue, sValueNested:
		if int64(len(p.text)+len(data)) > maxTokenBytes {
			return p.errAt(line, "text of <%s> longer than %d bytes", p.stack[len(p.stack)-1].name, maxTokenBytes)
		}
		p.text = append(p.text, data...)
	case sInterval, sDerivedInterval:
		return p.lines.feed(data, line, p.intervalLine)
	case sAtomic, sDerivedAtomic:
		return p.lines.feed(data, line, p.atomicLine)
	}
	return nil
}

// end handles an end tag at line.
func (p *parser) end(line int) error {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	switch f.st {
	case sText:
		return p.endText(f)
	case sValue:
		p.attr.value, p.attrValue = string(p.text), true
	case sAttribute:
		if !p.attrName {
			return p.errAt(f.line, "metadata <attribute> without <name>")
		}
		if !p.attrValue {
			return p.errAt(f.line, "metadata attribute %q without <value>", p.attr.name)
		}
		p.thread.setMeta(p.attr)
	case sMetric:
		if !p.hasName {
			return p.errAt(f.line, "<metric id=\"%d\"> without <name>", p.defID)
		}
		m, ok := p.s.metricIdx[p.defName]
		if !ok {
			m = len(p.s.metrics)
			p.s.metricIdx[p.defName] = m
			p.s.metrics = append(p.s.metrics, p.defName)
		}
		p.scope.metrics.set(p.defID, m)
	case sEvent:
		if !p.hasName {
			return p.errAt(f.line, "<event id=\"%d\"> without <name>", p.defID)
		}
		p.scope.events.set(p.defID, len(p.s.events))
		p.s.events = append(p.s.events, eventDef{name: p.defName, groups: p.defGroups, hasGroups: p.hasGroups})
		p.s.eventUsed = append(p.s.eventUsed, false)
	case sUserEvent:
		if !p.hasName {
			return p.errAt(f.line, "<userevent id=\"%d\"> without <name>", p.defID)
		}
		p.scope.userEvents.set(p.defID, len(p.s.userEvents))
		p.s.userEvents = append(p.s.userEvents, p.defName)
		p.s.userEventsUsed = append(p.s.userEventsUsed, false)
	case sInterval, sDerivedInterval:
		err := p.lines.flush(p.intervalLine)
		p.prevRows, p.prevNums = len(p.block.events), len(p.block.nums)
		p.block = nil
		return err
	case sAtomic, sDerivedAtomic:
		return p.lines.flush(p.atomicLine)
	case sProfile:
		p.prof = nil
	case sDerived:
		p.der = nil
	case sDefs:
		p.scope = nil
	}
	return nil
}

// endText stores the text of a closed sText element where its parent
// wants it.
func (p *parser) endText(f frame) error {
	switch parent := p.stack[len(p.stack)-1].st; parent {
	case sAttribute:
		p.attr.name, p.attrName = string(p.text), true
	case sMetric, sEvent, sUserEvent:
		if f.name == "group" {
			p.defGroups, p.hasGroups = string(p.text), true
		} else {
			p.defName, p.hasName = string(p.text), true
		}
	case sProfile:
		if f.name == "name" {
			p.prof.name = string(p.text)
			return nil
		}
		ts, err := strconv.ParseInt(strings.TrimSpace(string(p.text)), 10, 64)
		if err != nil {
			return p.errAt(f.line, "bad <timestamp> %q", clip(p.text))
		}
		p.prof.timestamp = ts
	}
	return nil
}

// intervalLine parses "eventId calls subrs (excl incl)×k" at line.
func (p *parser) intervalLine(text []byte, line int) error {
	p.fields = splitFields(text, p.fields[:0])
	if len(p.fields) == 0 {
		return nil
	}
	b := p.block
	k := len(b.metrics)
	if len(p.fields) != 3+2*k {
		return p.errAt(line, "interval line has %d fields, want %d (event id, calls, subroutines, then exclusive and inclusive for each of %d metrics)", len(p.fields), 3+2*k, k)
	}
	id, err := parseID(p.fields[0])
	if err != nil {
		return p.errAt(line, "event %v", err)
	}
	derived := p.stack[len(p.stack)-1].st == sDerivedInterval
	var ts *threadState
	if !derived {
		ts = p.thread
	}
	ev, ok := p.lookup(ts, func(d *defs) *idMap { return &d.events }, id)
	if !ok {
		return p.errAt(line, "unknown event id %d", id)
	}
	for _, f := range p.fields[1:] {
		v, err := parseNumber(f)
		if err != nil {
			return p.errAt(line, "%v", err)
		}
		b.nums = append(b.nums, v)
	}
	b.events = append(b.events, int32(ev))
	if !derived {
		p.s.eventUsed[ev] = true
	}
	return nil
}

// atomicLine parses "userEventId numevents max min mean sumsqr" at line.
func (p *parser) atomicLine(text []byte, line int) error {
	p.fields = splitFields(text, p.fields[:0])
	if len(p.fields) == 0 {
		return nil
	}
	if len(p.fields) != 6 {
		return p.errAt(line, "atomic line has %d fields, want 6 (user event id, numevents, max, min, mean, sumsqr)", len(p.fields))
	}
	id, err := parseID(p.fields[0])
	if err != nil {
		return p.errAt(line, "user event %v", err)
	}
	derived := p.stack[len(p.stack)-1].st == sDerivedAtomic
	var ts *threadState
	if !derived {
		ts = p.thread
	}
	ue, ok := p.lookup(ts, func(d *defs) *idMap { return &d.userEvents }, id)
	if !ok {
		return p.errAt(line, "unknown user event id %d", id)
	}
	var v [5]float64
	for i, f := range p.fields[1:] {
		if v[i], err = parseNumber(f); err != nil {
			return p.errAt(line, "%v", err)
		}
	}
	row := atomicRow{event: int32(ue), value: drg.CounterValue{NumEvents: v[0], Max: v[1], Min: v[2], Mean: v[3], SumSquares: v[4]}}
	if derived {
		p.der.atomics = append(p.der.atomics, row)
	} else {
		p.prof.atomics = append(p.prof.atomics, row)
		p.s.userEventsUsed[ue] = true
	}
	return nil
}
