package caliper

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxLine is the longest .cali record line read (bytes).
const MaxLine = 16 << 20

// Caliper's bootstrap node ids: the type nodes and the three meta-attributes.
const (
	attrName = 8  // cali.attribute.name
	attrType = 9  // cali.attribute.type
	attrProp = 10 // cali.attribute.prop
)

// bootstrapTypes gives the type of Caliper's predefined type nodes.
var bootstrapTypes = map[uint64]string{0: "usr", 1: "int", 2: "uint", 3: "string", 4: "addr", 5: "double", 6: "bool", 7: "type", 11: "ptr"}

// propNested is CALI_ATTR_NESTED: the attribute is a region that nests.
const propNested = 256

type caliNode struct {
	attr      uint64
	data      string
	parent    uint64
	hasParent bool
}

type attribute struct {
	name, typ, alias, unit string
	prop                   int64
	// metric caches the sink's metric of a numeric attribute.
	metric *sinkMetric
	// thread: the attribute gives a record's rank or thread; value: it is
	// numeric and not a thread attribute, so a metric value (both set
	// once the attribute is complete).
	thread, value bool
}

func (a *attribute) numeric() bool { return a.typ == "int" || a.typ == "uint" || a.typ == "double" }

// entry is one (attribute, value) pair of a record.
type entry struct {
	attr *attribute
	data string
}

// caliDecoder reads a .cali stream.
type caliDecoder struct {
	nodes    map[uint64]*caliNode
	attrs    map[uint64]*attribute
	immCache map[string]*attribute
	refByID  []*refInfo          // by the node id of a lone reference
	refCache map[string]*refInfo // by the text of several references
	refKey   []byte
	attrIDs  []string     // the attr values of the last ctx record
	attrBuf  []*attribute // and their attributes
	parts    []string
	fields   []field
	s        *sink
	line     int
}

// decodeCali reads a native .cali record stream.
func decodeCali(r io.Reader, path string) (*sinkResult, error) {
	d := &caliDecoder{nodes: map[uint64]*caliNode{}, attrs: map[uint64]*attribute{},
		immCache: map[string]*attribute{}, refCache: map[string]*refInfo{}, s: newSink()}
	d.s.alias = d.aliasOf
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			d.line++
			if err == io.EOF {
				return nil, d.errorf(path, "the file ends inside a record (no final newline): truncated?")
			}
			if perr := d.record(line); perr != nil {
				return nil, &Error{Path: path, Line: d.line, Offset: -1, Err: perr}
			}
		} else if err == nil {
			d.line++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &Error{Path: path, Line: d.line + 1, Offset: -1, Err: err}
		}
	}
	if d.line == 0 {
		return nil, &Error{Path: path, Offset: -1, Err: errors.New("empty file")}
	}
	return &sinkResult{s: d.s, format: "cali"}, nil
}

func (d *caliDecoder) errorf(path, format string, args ...any) error {
	return &Error{Path: path, Line: d.line, Offset: -1, Err: fmt.Errorf(format, args...)}
}

// readLine returns the next line without its newline; err is io.EOF with a
// non-empty line when the input ends without a final newline.
func readLine(br *bufio.Reader) (string, error) {
	chunk, err := br.ReadSlice('\n')
	if err == nil { // the whole line is in the buffer
		return string(bytes.TrimSuffix(chunk[:len(chunk)-1], []byte{'\r'})), nil
	}
	var sb strings.Builder
	for {
		sb.Write(chunk)
		if sb.Len() > MaxLine {
			return "", fmt.Errorf("record longer than %d bytes", MaxLine)
		}
		if err != bufio.ErrBufferFull {
			break
		}
		chunk, err = br.ReadSlice('\n')
	}
	s := sb.String()
	if err == nil {
		return strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r"), nil
	}
	return s, err
}

// field is one key=value[=value...] item of a record line.
type field struct {
	key  string
	vals []string
}

// splitInto splits a record line on unescaped ',' and '=' and removes the
// backslash escapes, reusing the given buffers (which the result may
// share). A line without a backslash is split without copying.
func splitInto(line string, parts []string, fields []field) ([]field, []string, error) {
	if strings.IndexByte(line, '\\') >= 0 {
		f, err := splitEscaped(line)
		return f, parts, err
	}
	// parts is reused from line to line and grows to the longest; a field
	// made before parts grew keeps the old array, whose items stay valid.
	parts, fields = parts[:0], fields[:0]
	for len(line) > 0 || len(fields) == 0 {
		item := line
		if i := strings.IndexByte(line, ','); i >= 0 {
			item, line = line[:i], line[i+1:]
		} else {
			line = ""
		}
		start := len(parts)
		for {
			j := strings.IndexByte(item, '=')
			if j < 0 {
				parts = append(parts, item)
				break
			}
			parts = append(parts, item[:j])
			item = item[j+1:]
		}
		if len(parts)-start < 2 {
			return nil, parts, fmt.Errorf("item %q has no '='", parts[start])
		}
		fields = append(fields, field{key: parts[start], vals: parts[start+1 : len(parts) : len(parts)]})
	}
	return fields, parts, nil
}

// splitEscaped is splitInto for a line with backslash escapes.
func splitEscaped(line string) ([]field, error) {
	var fields []field
	var cur []string
	var sb strings.Builder
	flush := func() {
		cur = append(cur, sb.String())
		sb.Reset()
	}
	endField := func() error {
		flush()
		if len(cur) < 2 {
			return fmt.Errorf("item %q has no '='", cur[0])
		}
		fields = append(fields, field{key: cur[0], vals: cur[1:]})
		cur = nil
		return nil
	}
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case '\\':
			if i+1 == len(line) {
				return nil, errors.New("line ends with a lone backslash")
			}
			i++
			sb.WriteByte(line[i])
		case '=':
			flush()
		case ',':
			if err := endField(); err != nil {
				return nil, err
			}
		default:
			sb.WriteByte(c)
		}
	}
	if err := endField(); err != nil {
		return nil, err
	}
	return fields, nil
}

// rec holds the items of one record line.
type rec struct {
	kind                        string
	id, attr, data, parent, ref []string
}

// record handles one line.
func (d *caliDecoder) record(line string) error {
	fields, parts, err := splitInto(line, d.parts, d.fields)
	if err != nil {
		return err
	}
	d.parts = parts
	if cap(fields) > cap(d.fields) {
		d.fields = fields
	}
	if fields[0].key != "__rec" || len(fields[0].vals) != 1 {
		return fmt.Errorf("line does not start with __rec=KIND")
	}
	r := rec{kind: fields[0].vals[0]}
	for _, f := range fields[1:] {
		var slot *[]string
		switch f.key {
		case "id":
			slot = &r.id
		case "attr":
			slot = &r.attr
		case "data":
			slot = &r.data
		case "parent":
			slot = &r.parent
		case "ref":
			slot = &r.ref
		default:
			continue // an item this reader does not use
		}
		if *slot != nil {
			return fmt.Errorf("item %q given twice", f.key)
		}
		*slot = f.vals
	}
	switch r.kind {
	case "node":
		return d.node(&r)
	case "ctx":
		return d.ctx(&r)
	case "globals":
		return d.globals(&r)
	default:
		return fmt.Errorf("unknown record kind %q (want node, ctx or globals)", r.kind)
	}
}

func oneID(v []string, key string, required bool) (uint64, bool, error) {
	if v == nil {
		if required {
			return 0, false, fmt.Errorf("node record without %s", key)
		}
		return 0, false, nil
	}
	if len(v) != 1 {
		return 0, false, fmt.Errorf("%s has %d values, want 1", key, len(v))
	}
	id, err := strconv.ParseUint(v[0], 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("%s %q is not a node id", key, v[0])
	}
	return id, true, nil
}
