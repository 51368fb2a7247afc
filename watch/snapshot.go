package watch

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// maxReadPerPoll bounds the bytes one poll reads from one growing file; the
// rest is read at the next poll.
const maxReadPerPoll = 256 << 20

// maxDocBytes bounds one <profile_xml> document: a file that holds this
// many bytes after its last complete document without closing one is
// reported as malformed.
const maxDocBytes = 1 << 30

var (
	docEnd   = []byte("</profile_xml>")
	tagStart = []byte("<")
)

// snapReader reads a growing snapshot.N.C.T file (TAU_PROFILE_FORMAT=
// snapshot): one <profile_xml> document per snapshot, appended. It reads
// from the end of the last complete document it parsed, and parses only
// complete documents (those whose </profile_xml> has been written), so a
// document being written is read at a later poll, whole.
type snapReader struct {
	root, path string
	// off is the file offset after the last complete document parsed;
	// line is the number of lines before it.
	off  int64
	line int
	// pending is the number of bytes after off at the last read when they
	// hold no complete document, −1 when complete documents were left
	// unparsed (the reader was told to read no more).
	pending int64
	// metric is the position of the time metric among the file's metric
	// ids (−1 until defined); metricName is its name.
	metricIDs  map[int]string
	metricName string
	// events maps the file's event ids to region indexes (−1 undefined).
	events []int32
	// grew is set when a read found new bytes (the watcher clears it);
	// seen is the size last noticed while the reader was held back.
	grew bool
	seen int64
}

// scratch is the memory one reading goroutine reuses from file to file:
// the bytes read and the dump parsed, so that memory holds one of each per
// goroutine, not one per file.
type scratch struct {
	buf []byte
	d   dump
}

// read parses at most max new complete documents and hands the dump of
// each to emit (valid only during the call); it returns how many it
// emitted.
func (s *snapReader) read(reg *regions, max int, sc *scratch, emit func(*dump)) (int, error) {
	if max <= 0 { // held back (MaxOpen): only notice that the file grows
		if st, err := os.Stat(s.path); err == nil && st.Size() != s.seen {
			s.seen, s.grew = st.Size(), true
		}
		return 0, nil
	}
	data, err := s.readNew(&sc.buf)
	if err != nil || len(data) == 0 {
		return 0, err
	}
	s.grew = true
	n := 0
	s.pending = -1 // complete documents may remain unparsed: read again
	for {
		end := bytes.Index(data, docEnd)
		if end < 0 {
			s.pending = int64(len(data))
			break
		}
		if n == max {
			break
		}
		doc := data[:end+len(docEnd)]
		sc.d.reset()
		has, err := s.parseDoc(doc, reg, &sc.d)
		if err != nil {
			return n, err
		}
		if has {
			emit(&sc.d)
			n++
		}
		s.off += int64(len(doc))
		s.line += bytes.Count(doc, []byte{'\n'})
		data = data[len(doc):]
	}
	if s.pending >= maxDocBytes {
		return n, fmt.Errorf("%s:%d: no </profile_xml> in the %d bytes after the last complete document", s.path, s.line+1, s.pending)
	}
	return n, nil
}

// readNew returns the bytes from off to the end of the file (at most
// maxReadPerPoll more than a document's worth).
func (s *snapReader) readNew(scratch *[]byte) ([]byte, error) {
	if st, err := os.Stat(s.path); err == nil && st.Mode().IsRegular() && st.Size() >= s.off && st.Size()-s.off == s.pending {
		return nil, nil // nothing written since the last read: not even opened
	}
	f, err := safefile.OpenIn(s.root, s.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size < s.off {
		return nil, fmt.Errorf("%s: the file shrank from %d to %d bytes while watched (was it rewritten by a new run?)", s.path, s.off, size)
	}
	avail := size - s.off
	if avail == 0 || avail == s.pending {
		return nil, nil // nothing written since the last read
	}
	n := min(avail, maxReadPerPoll+max(s.pending, 0))
	if int64(cap(*scratch)) < n {
		*scratch = make([]byte, n)
	}
	buf := (*scratch)[:n]
	if _, err := f.ReadAt(buf, s.off); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", s.path, err)
	}
	return buf, nil
}

// errAt returns an error at the line of doc that holds offset at.
func (s *snapReader) errAt(doc []byte, at int, format string, args ...any) error {
	line := s.line + 1 + bytes.Count(doc[:min(at, len(doc))], []byte{'\n'})
	return fmt.Errorf("%s:%d: %s", s.path, line, fmt.Sprintf(format, args...))
}

// parseDoc parses one complete <profile_xml> document: definitions extend
// the file's ids, a <profile> is parsed into d (has is false when the
// document has none).
func (s *snapReader) parseDoc(doc []byte, reg *regions, d *dump) (bool, error) {
	has, pos := false, 0
	for {
		i := bytes.Index(doc[pos:], tagStart)
		if i < 0 {
			return has, nil
		}
		pos += i
		rest := doc[pos:]
		var err error
		switch {
		case bytes.HasPrefix(rest, []byte("<thread ")), bytes.HasPrefix(rest, []byte("<thread>")):
			pos, err = s.skipTo(doc, pos, "</thread>")
		case bytes.HasPrefix(rest, []byte("<definitions")):
			pos, err = s.definitions(doc, pos, reg)
		case bytes.HasPrefix(rest, []byte("<profile ")), bytes.HasPrefix(rest, []byte("<profile>")):
			if has {
				return false, s.errAt(doc, pos, "two <profile> elements in one document")
			}
			has = true
			pos, err = s.profile(doc, pos, d)
		default:
			pos++
		}
		if err != nil {
			return false, err
		}
	}
}

// skipTo returns the offset after the end tag end, searched from pos.
func (s *snapReader) skipTo(doc []byte, pos int, end string) (int, error) {
	j := bytes.Index(doc[pos:], []byte(end))
	if j < 0 {
		return 0, s.errAt(doc, pos, "no %s before </profile_xml>", end)
	}
	return pos + j + len(end), nil
}

// element returns the text of <tag>…</tag> searched in doc[pos:lim] and
// the offset after it; ok is false when there is none.
func element(doc []byte, pos, lim int, tag string) (text []byte, next int, ok bool) {
	open := "<" + tag + ">"
	i := bytes.Index(doc[pos:lim], []byte(open))
	if i < 0 {
		return nil, pos, false
	}
	start := pos + i + len(open)
	j := bytes.Index(doc[start:lim], []byte("</"+tag+">"))
	if j < 0 {
		return nil, pos, false
	}
	return doc[start : start+j], start + j + len(tag) + 3, true
}

// idAttr parses the id="N" attribute of the start tag at doc[pos:].
func idAttr(doc []byte, pos int) (int, bool) {
	end := bytes.IndexByte(doc[pos:], '>')
	if end < 0 {
		return 0, false
	}
	tag := doc[pos : pos+end]
	i := bytes.Index(tag, []byte(`id="`))
	if i < 0 {
		return 0, false
	}
	v := tag[i+4:]
	j := bytes.IndexByte(v, '"')
	if j < 0 {
		return 0, false
	}
	return parseInt(v[:j])
}

// xmlText decodes the text of an element: CDATA sections and the entities
// TAU writes (&amp; &lt; &gt; &quot; &apos; and numeric ones).
func xmlText(b []byte) string {
	if bytes.HasPrefix(b, []byte("<![CDATA[")) && bytes.HasSuffix(b, []byte("]]>")) {
		return string(b[9 : len(b)-3])
	}
	if bytes.IndexByte(b, '&') < 0 {
		return string(b)
	}
	return entityReplacer.Replace(string(b))
}

var entityReplacer = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&#xa;", "\n", "&#xA;", "\n", "&#10;", "\n")

// definitions parses a <definitions> element at pos: metrics and events
// (user events are not watched).
func (s *snapReader) definitions(doc []byte, pos int, reg *regions) (int, error) {
	end, err := s.skipTo(doc, pos, "</definitions>")
	if err != nil {
		return 0, err
	}
	lim := end - len("</definitions>")
	for p := pos + 1; ; {
		i := bytes.IndexByte(doc[p:lim], '<')
		if i < 0 {
			return end, nil
		}
		p += i
		rest := doc[p:lim]
		switch {
		case bytes.HasPrefix(rest, []byte("<metric ")):
			p, err = s.metricDef(doc, p, lim)
		case bytes.HasPrefix(rest, []byte("<event ")):
			p, err = s.eventDef(doc, p, lim, reg)
		default:
			p++
		}
		if err != nil {
			return 0, err
		}
	}
}

func (s *snapReader) metricDef(doc []byte, p, lim int) (int, error) {
	id, ok := idAttr(doc, p)
	if !ok {
		return 0, s.errAt(doc, p, "<metric> without a numeric id")
	}
	name, next, ok := element(doc, p, lim, "name")
	if !ok {
		return 0, s.errAt(doc, p, "<metric id=\"%d\"> without <name>", id)
	}
	if s.metricIDs == nil {
		s.metricIDs = map[int]string{}
	}
	s.metricIDs[id] = strings.TrimSpace(xmlText(name))
	return next, nil
}

func (s *snapReader) eventDef(doc []byte, p, lim int, reg *regions) (int, error) {
	id, ok := idAttr(doc, p)
	if !ok || id > 1<<24 {
		return 0, s.errAt(doc, p, "<event> without a numeric id (at most 2^24)")
	}
	end := bytes.Index(doc[p:lim], []byte("</event>"))
	if end < 0 {
		return 0, s.errAt(doc, p, "<event id=\"%d\"> without </event>", id)
	}
	end += p
	name, _, ok := element(doc, p, end, "name")
	if !ok {
		return 0, s.errAt(doc, p, "<event id=\"%d\"> without <name>", id)
	}
	group, _, _ := element(doc, p, end, "group")
	for len(s.events) <= id {
		s.events = append(s.events, -1)
	}
	s.events[id] = reg.index(xmlText(name), xmlText(group))
	return end + len("</event>"), nil
}

// profile parses a <profile> element at pos into d. The element's end is
// searched from the end of the document (TAU writes one profile per
// document, its data last), so the data lines are scanned once.
func (s *snapReader) profile(doc []byte, pos int, d *dump) (int, error) {
	e := bytes.LastIndex(doc[pos:], []byte("</profile>"))
	if e < 0 {
		return 0, s.errAt(doc, pos, "no </profile> before </profile_xml>")
	}
	end := pos + e + len("</profile>")
	head := end
	i := bytes.Index(doc[pos:end], []byte("<interval_data"))
	if i >= 0 {
		head = pos + i
	}
	if name, _, ok := element(doc, pos, head, "name"); ok {
		d.name = xmlText(name)
	}
	if ts, _, ok := element(doc, pos, head, "timestamp"); ok {
		v, err := parseNum(bytes.TrimSpace(ts))
		if err != nil {
			return 0, s.errAt(doc, pos, "bad <timestamp>: %v", err)
		}
		d.timestamp = int64(v)
	}
	if i < 0 {
		return end, nil
	}
	i += pos
	col, err := s.metricColumn(doc, i)
	if err != nil {
		return 0, err
	}
	tagEnd := bytes.IndexByte(doc[i:end], '>')
	j := bytes.LastIndex(doc[i:end], []byte("</interval_data>"))
	if tagEnd < 0 || j < 0 {
		return 0, s.errAt(doc, i, "<interval_data> not closed inside <profile>")
	}
	return end, s.intervalLines(doc, i+tagEnd+1, i+j, col, d)
}

// metricColumn returns the position of the time metric in the metrics
// attribute of the <interval_data> tag at i: the first metric whose name
// holds TIME, else the first.
func (s *snapReader) metricColumn(doc []byte, i int) (col, error) {
	tag := doc[i : i+max(bytes.IndexByte(doc[i:], '>'), 0)]
	a := bytes.Index(tag, []byte(`metrics="`))
	if a < 0 {
		return col{}, s.errAt(doc, i, "<interval_data> without metrics attribute")
	}
	v := tag[a+9:]
	v = v[:max(bytes.IndexByte(v, '"'), 0)]
	c := col{n: 0, at: -1}
	for _, f := range bytes.Fields(v) {
		id, ok := parseInt(f)
		name, known := s.metricIDs[id]
		if !ok || !known {
			return col{}, s.errAt(doc, i, "<interval_data>: unknown metric id %q", clip(f))
		}
		if c.at < 0 && strings.Contains(strings.ToUpper(name), "TIME") {
			c.at, s.metricName = c.n, name
		}
		c.n++
	}
	if c.n == 0 {
		return col{}, s.errAt(doc, i, "<interval_data> lists no metric")
	}
	if c.at < 0 {
		c.at = 0
	}
	return c, nil
}

// col says where the watched metric's pair is on an interval line: n
// metrics per line, the watched one at position at.
type col struct{ n, at int }

// intervalLines parses "eventId calls subrs (excl incl)×n" lines of
// doc[from:to] into d, field by field without splitting the line first.
func (s *snapReader) intervalLines(doc []byte, from, to int, c col, d *dump) error {
	want := 3 + 2*c.n
	for p := from; p < to; {
		lineEnd := to
		if nl := bytes.IndexByte(doc[p:to], '\n'); nl >= 0 {
			lineEnd = p + nl
		}
		var v [3]float64
		id, n := -1, 0
		line := doc[p:lineEnd]
		for q := 0; q < len(line); {
			for q < len(line) && isBlank(line[q]) {
				q++
			}
			f := q
			for q < len(line) && !isBlank(line[q]) {
				q++
			}
			if q == f {
				break
			}
			if err := s.field(doc, p, line[f:q], n, c, &id, &v); err != nil {
				return err
			}
			n++
		}
		if n > 0 {
			if n != want {
				return s.errAt(doc, p, "interval line has %d fields, want %d", n, want)
			}
			d.add(s.events[id], v[0], v[1], v[2])
		}
		p = lineEnd + 1
	}
	return nil
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\r' }

// field parses field n of an interval line (at offset p of doc): the
// event id, or a number kept in v when it is the calls or the watched
// metric's exclusive or inclusive value.
func (s *snapReader) field(doc []byte, p int, f []byte, n int, c col, id *int, v *[3]float64) error {
	if n == 0 {
		i, ok := parseInt(f)
		if !ok || i >= len(s.events) || s.events[i] < 0 {
			return s.errAt(doc, p, "unknown event id %q", clip(f))
		}
		*id = i
		return nil
	}
	x, err := parseNum(f)
	if err != nil {
		return s.errAt(doc, p, "%v", err)
	}
	switch n {
	case 1:
		v[0] = x
	case 3 + 2*c.at:
		v[1] = x
	case 4 + 2*c.at:
		v[2] = x
	}
	return nil
}
