package ppk

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// MaxPayload is the largest decompressed payload Decode accepts, in bytes
// (1 GiB). The payload is held in memory while the trial is built; real
// packed profiles are far smaller. A gzip file whose trailer states a
// larger size is refused before anything is decompressed, and one that
// inflates to more than its trailer states is refused as soon as it does.
const MaxPayload = 1 << 30

// payloadLimit is the limit in force: MaxPayload capped to what a slice can
// hold. Tests lower it.
var payloadLimit int64 = min(MaxPayload, math.MaxInt/2)

// magic is 'P','P','K' written with DataOutputStream.writeChar.
var magic = []byte{0, 'P', 0, 'P', 0, 'K'}

// Sizes of fixed records, in bytes.
const (
	threadMin = 20 // node, context, thread, nFP, nUEP
	fpFixed   = 20 // function id, calls, subrs; then 16 bytes per metric
	uepSize   = 40 // user-event id, numSamples, min, max, mean, sumSqr
)

// Decode reads a ParaProf packed profile (gzip-compressed or raw) from rd
// and returns the trial. name is the file name used in error messages and
// as Trial.Source.Path; the trial is named after its base name without
// extension. Every error is an *Error giving name and the byte offset in
// the decompressed payload.
//
// The whole decompressed payload (at most MaxPayload bytes) is read into
// memory first, so that every count can be checked against the bytes that
// remain before anything is allocated for it. The thread section is then
// read twice: once to check it and collect the thread ids that
// drg.NewBuilder needs, once to add the values.
func Decode(rd io.Reader, name string) (*drg.Trial, error) {
	buf, err := readPayload(rd, name)
	if err != nil {
		return nil, err
	}
	p, err := parse(buf, name)
	if err != nil {
		return nil, err
	}
	return p.build(trialName(name))
}

// trialName returns the base name of path without its extension.
func trialName(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// readPayload returns the decompressed payload of rd: gzip when it starts
// with 1f 8b, raw bytes otherwise. It reads at most payloadLimit bytes, and
// for a gzip file whose size is known at most what its trailer states.
func readPayload(rd io.Reader, name string) ([]byte, error) {
	br := bufio.NewReader(rd)
	var src io.Reader = br
	limit, why, over := payloadLimit, "the limit", false
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		if stated, ok := gzipStated(rd); ok {
			if over = stated > payloadLimit; over {
				why = fmt.Sprintf("the limit; its gzip trailer states %d", stated)
			} else {
				limit, why = stated, "the size its gzip trailer states"
			}
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				err = ErrTruncated
			}
			return nil, &Error{Path: name, Err: fmt.Errorf("gzip header: %w", err)}
		}
		// One member, as Java's GZIPOutputStream writes: the trailer read
		// above is that member's.
		zr.Multistream(false)
		src = zr
	}
	// Look at the magic before allocating for the whole payload, so that a
	// large file of another kind costs nothing.
	// The magic, the version and the compatible version: a file that is
	// not a packed profile this reader reads is refused on them.
	var first [14]byte
	n, err := io.ReadFull(src, first[:])
	if err != nil || !bytes.Equal(first[:6], magic) || !readable(first[:]) {
		if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
			return first[:n], nil // parse says what is wrong with it
		}
		return nil, readError(name, n, err)
	}
	if over {
		return nil, skimOver(src, name, int64(len(first)), limit, why)
	}
	return readRest(src, first[:], name, limit, why, sizeHint(rd))
}

// readable reports whether the version fields of a payload's first 14
// bytes are ones this reader takes: version at least 1, compatible version
// at most 2 (parse gives the error for the others).
func readable(head []byte) bool {
	version := int32(binary.BigEndian.Uint32(head[6:]))
	compatible := int32(binary.BigEndian.Uint32(head[10:]))
	return version >= 1 && compatible <= 2
}

// skimOver inflates the rest of a payload, of which done bytes are read,
// without keeping it. The error is that of a stream cut short or corrupt
// when it is one (the trailer of a cut file is garbage), else that of a
// payload over limit (why says where the limit comes from), given as soon
// as the limit is passed.
func skimOver(src io.Reader, name string, done, limit int64, why string) error {
	n, err := io.Copy(io.Discard, io.LimitReader(src, limit-done+1))
	n += done
	if err != nil {
		return readError(name, int(n), err)
	}
	if n > limit {
		return &Error{Path: name, Offset: limit, Err: fmt.Errorf("decompressed payload larger than %d bytes (%s)", limit, why)}
	}
	// The stream ended below the limit: its trailer is wrong, which the
	// gzip reader reports at the end.
	_, err = src.Read(make([]byte, 1))
	if err == nil || err == io.EOF {
		err = errors.New("gzip trailer does not match the data")
	}
	return readError(name, int(n), err)
}

// readRest reads the rest of the payload after its first bytes, failing at
// once when it grows past limit (why says where the limit comes from).
func readRest(src io.Reader, first []byte, name string, limit int64, why string, hint int) ([]byte, error) {
	// One byte more than the expected size, so that the read that meets
	// the end of the data does not have to grow the buffer.
	buf := make([]byte, 0, min(max(hint, 16<<10-1), int(limit))+1)
	buf = append(buf, first...)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := min(int64(cap(buf)-len(buf)), limit+1-int64(len(buf)))
		n, err := src.Read(buf[len(buf) : len(buf)+int(room)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			if limit < payloadLimit {
				// Past what the trailer states: a cut file (whose trailer
				// is garbage) says so further on.
				if err := skimOver(src, name, int64(len(buf)), payloadLimit, why); errors.Is(err, ErrTruncated) {
					return nil, err
				}
			}
			return nil, &Error{Path: name, Offset: limit,
				Err: fmt.Errorf("decompressed payload larger than %d bytes (%s)", limit, why)}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, readError(name, len(buf), err)
		}
	}
}

// gzipStated returns the decompressed size that the gzip trailer of rd
// states, when rd is a file or a reader of known size (ISIZE is the size
// modulo 2³², exact below MaxPayload).
func gzipStated(rd io.Reader) (int64, bool) {
	ra, ok := rd.(io.ReaderAt)
	if !ok {
		return 0, false
	}
	size := readerSize(rd)
	if size < 18 {
		return 0, false
	}
	var tail [4]byte
	if _, err := ra.ReadAt(tail[:], size-4); err != nil {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint32(tail[:])), true
}

// readerSize returns the size of a *bytes.Reader or a regular file, or -1.
func readerSize(rd io.Reader) int64 {
	switch s := rd.(type) {
	case interface{ Size() int64 }:
		return s.Size()
	case interface{ Stat() (os.FileInfo, error) }:
		fi, err := s.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		return fi.Size()
	}
	return -1
}

// readError reports a failure to read or decompress the input after n
// bytes of payload.
func readError(name string, n int, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("gzip stream: %w", ErrTruncated)
	}
	return &Error{Path: name, Offset: int64(n), Err: fmt.Errorf("reading: %w", err)}
}

// sizeHint guesses the size of the payload when rd can tell its size and
// read at an offset, as *os.File and *bytes.Reader can; otherwise it
// returns 0. For raw input that is the input size; for gzip input, the
// ISIZE trailer (the size modulo 2³²) capped at 1032 times the input size,
// deflate's largest ratio, so that a corrupt trailer cannot make Decode
// allocate much.
func sizeHint(rd io.Reader) int {
	ra, ok := rd.(io.ReaderAt)
	size := readerSize(rd)
	if !ok || size < 0 {
		return 0
	}
	var head [2]byte
	if _, err := ra.ReadAt(head[:], 0); err != nil {
		return 0
	}
	if head[0] != 0x1f || head[1] != 0x8b {
		return int(min(size, payloadLimit))
	}
	stated, ok := gzipStated(rd)
	if !ok {
		return 0
	}
	return int(min(stated, size*1032, payloadLimit))
}

// decoder reads big-endian DataOutputStream fields from an in-memory
// payload, checking every read against end.
type decoder struct {
	buf  []byte
	off  int
	end  int // reads stop here: len(buf), or the end of the header block
	path string
}

// fail returns an *Error at payload offset off.
func (d *decoder) fail(off int, format string, args ...any) error {
	return &Error{Path: d.path, Offset: int64(off), Err: fmt.Errorf(format, args...)}
}

// need checks that n more bytes can be read for what.
func (d *decoder) need(n int64, what string) error {
	left := int64(d.end - d.off)
	if n <= left {
		return nil
	}
	if d.end < len(d.buf) {
		return d.fail(d.off, "%s (%d bytes) runs past the end of the header block at offset %d", what, n, d.end)
	}
	return d.fail(d.off, "%w reading %s (need %d bytes, %d left)", ErrTruncated, what, n, left)
}

// i32 reads an int.
func (d *decoder) i32(what string) (int32, error) {
	if err := d.need(4, what); err != nil {
		return 0, err
	}
	v := int32(binary.BigEndian.Uint32(d.buf[d.off:]))
	d.off += 4
	return v, nil
}

// count reads the count of a list of what whose items take at least size
// bytes each, and checks that it is not negative and that the items fit in
// the bytes left.
func (d *decoder) count(what string, size int64) (int, error) {
	at := d.off
	if d.end-d.off < 4 {
		return 0, d.need(4, what+" count")
	}
	v := int64(int32(binary.BigEndian.Uint32(d.buf[d.off:])))
	d.off += 4
	if v < 0 {
		return 0, d.fail(at, "negative %s count %d", what, v)
	}
	if left := int64(d.end - d.off); size > 0 && v > left/size {
		if d.end < len(d.buf) {
			return 0, d.fail(at, "%s count %d needs at least %d bytes, %d left in the header block", what, v, v*size, left)
		}
		return 0, d.fail(at, "%w: %s count %d needs at least %d bytes, %d left", ErrTruncated, what, v, v*size, left)
	}
	return int(v), nil
}

// utf reads a string written by DataOutputStream.writeUTF.
func (d *decoder) utf(what string) (string, error) {
	at := d.off
	if d.end-d.off < 2 {
		return "", d.need(2, what+" length")
	}
	n := int(binary.BigEndian.Uint16(d.buf[d.off:]))
	if err := d.need(int64(2+n), what); err != nil {
		return "", err
	}
	s, i, err := decodeMUTF8(d.buf[at+2 : at+2+n])
	if err != nil {
		return "", d.fail(at+2+i, "invalid modified UTF-8 in %s: %v", what, err)
	}
	d.off += 2 + n
	return s, nil
}

// thread reads a (node, context, thread) triple.
func (d *decoder) thread(what string) (drg.ThreadID, error) {
	var r [3]int32
	for i := range r {
		at := d.off
		v, err := d.i32(what)
		if err != nil {
			return drg.ThreadID{}, err
		}
		if v < 0 {
			return drg.ThreadID{}, d.fail(at, "%s: negative rank %d", what, v)
		}
		r[i] = v
	}
	return drg.ThreadID{Node: int(r[0]), Context: int(r[1]), Thread: int(r[2])}, nil
}

// pairs reads n (name, value) metadata pairs and appends them to kv;
// nameWhat and valueWhat describe the strings in error messages.
func (d *decoder) pairs(n int, kv []string, nameWhat, valueWhat string) ([]string, error) {
	for range n {
		k, err := d.utf(nameWhat)
		if err != nil {
			return nil, err
		}
		v, err := d.utf(valueWhat)
		if err != nil {
			return nil, err
		}
		kv = append(kv, k, v)
	}
	return kv, nil
}

// function is one entry of the function table.
type function struct {
	name   string
	groups string // group names joined with "|"
}

// threadMeta holds the metadata of one thread from the header block.
type threadMeta struct {
	id drg.ThreadID
	kv []string // name, value, name, value, ...
}

// threadRecord locates one thread's profiles in the payload.
type threadRecord struct {
	id        drg.ThreadID
	fp, nFP   int // offset of the first function profile, and their number
	uep, nUEP int // offset of the first user-event profile, and their number
}

// payload is a checked packed profile, ready to be built into a trial.
type payload struct {
	buf        []byte
	path       string
	trialMeta  []string // name, value, name, value, ...
	threadMeta []threadMeta
	metrics    []string
	functions  []function
	userEvents []string
	threads    []threadRecord
	threadsAt  int // offset of the thread count
	end        int // offset just after the last thread record
}

// parse checks the whole payload: the layout, every count against the bytes
// left and every id against its table. It reads the definitions and locates
// each thread's profiles.
func parse(buf []byte, path string) (*payload, error) {
	d := &decoder{buf: buf, end: len(buf), path: path}
	p := &payload{buf: buf, path: path}
	if !bytes.HasPrefix(buf, magic) {
		if bytes.HasPrefix(magic, buf) {
			return nil, d.need(int64(len(magic)), "magic")
		}
		return nil, d.fail(0, "%w: starts with % x, not 00 50 00 50 00 4b",
			ErrNotPPK, buf[:min(len(buf), len(magic))])
	}
	d.off = len(magic)

	at := d.off
	version, err := d.i32("version")
	if err != nil {
		return nil, err
	}
	if version < 1 {
		return nil, d.fail(at, "unsupported version %d", version)
	}
	at = d.off
	compatible, err := d.i32("compatible version")
	if err != nil {
		return nil, err
	}
	if compatible > 2 {
		return nil, d.fail(at, "the file needs a reader for version %d or later (this one reads versions 1 and 2)", compatible)
	}
	at = d.off
	h, err := d.i32("header block size")
	if err != nil {
		return nil, err
	}
	if h < 0 {
		return nil, d.fail(at, "negative header block size %d", h)
	}
	if int64(h) > int64(d.end-d.off) {
		return nil, d.fail(at, "%w: header block size %d, %d bytes left", ErrTruncated, h, d.end-d.off)
	}
	blockEnd := d.off + int(h)
	if version >= 2 {
		hd := &decoder{buf: buf, off: d.off, end: blockEnd, path: path}
		if err := p.header(hd); err != nil {
			return nil, err
		}
	}
	// Version 1 readers skip the block; later fields of the block are for
	// future versions. Either way the definitions start at its end.
	d.off = blockEnd

	if err := p.definitions(d); err != nil {
		return nil, err
	}
	if err := p.threadSection(d); err != nil {
		return nil, err
	}
	p.end = d.off
	return p, nil
}

// header reads the version-2 header block: the reserved bytes, the trial
// metadata and the per-thread metadata.
func (p *payload) header(d *decoder) error {
	at := d.off
	skip, err := d.i32("reserved size")
	if err != nil {
		return err
	}
	if skip < 0 || int64(skip) > int64(d.end-d.off) {
		return d.fail(at, "reserved size %d out of range (%d bytes left in the header block)", skip, d.end-d.off)
	}
	d.off += int(skip)

	n, err := d.count("trial metadata", 4)
	if err != nil {
		return err
	}
	if p.trialMeta, err = d.pairs(n, make([]string, 0, 2*n), "trial metadata name", "trial metadata value"); err != nil {
		return err
	}

	n, err = d.count("metadata thread", 16)
	if err != nil {
		return err
	}
	p.threadMeta = make([]threadMeta, 0, n)
	for range n {
		id, err := d.thread("metadata thread rank")
		if err != nil {
			return err
		}
		k, err := d.count("thread metadata", 4)
		if err != nil {
			return err
		}
		kv, err := d.pairs(k, make([]string, 0, 2*k), "thread metadata name", "thread metadata value")
		if err != nil {
			return err
		}
		p.threadMeta = append(p.threadMeta, threadMeta{id: id, kv: kv})
	}
	return nil
}

// definitions reads the metric, group, function and user-event tables.
func (p *payload) definitions(d *decoder) error {
	if err := p.metricTable(d); err != nil {
		return err
	}
	groups, err := groupTable(d)
	if err != nil {
		return err
	}
	if err := p.functionTable(d, groups); err != nil {
		return err
	}
	return p.userEventTable(d)
}

// metricTable reads the metric names: at least one, none twice.
func (p *payload) metricTable(d *decoder) error {
	at := d.off
	n, err := d.count("metric", 2)
	if err != nil {
		return err
	}
	if n == 0 {
		return d.fail(at, "no metric")
	}
	p.metrics = make([]string, 0, n)
	seen := make(map[string]int, n)
	for range n {
		at := d.off
		m, err := d.utf("metric name")
		if err != nil {
			return err
		}
		if first, dup := seen[m]; dup {
			return d.fail(at, "metric %q listed twice (first at offset %d)", m, first)
		}
		seen[m] = at
		p.metrics = append(p.metrics, m)
	}
	return nil
}

// groupTable reads the group names, which functions refer to by index.
func groupTable(d *decoder) ([]string, error) {
	n, err := d.count("group", 2)
	if err != nil {
		return nil, err
	}
	groups := make([]string, 0, n)
	for range n {
		g, err := d.utf("group name")
		if err != nil {
			return nil, err
		}
		groups = append(groups, g)
	}
	return groups, nil
}

// functionTable reads the functions: a name and group ids into groups,
// joined with "|" as TAU writes them.
func (p *payload) functionTable(d *decoder, groups []string) error {
	n, err := d.count("function", 6)
	if err != nil {
		return err
	}
	p.functions = make([]function, 0, n)
	var names []string
	for range n {
		name, err := d.utf("function name")
		if err != nil {
			return err
		}
		k, err := d.count("function group", 4)
		if err != nil {
			return err
		}
		names = names[:0]
		for range k {
			at := d.off
			g := int32(binary.BigEndian.Uint32(d.buf[d.off:])) // in bounds: checked by count
			d.off += 4
			if g < 0 || int(g) >= len(groups) {
				return d.fail(at, "group id %d out of range (%d groups)", g, len(groups))
			}
			names = append(names, groups[g])
		}
		var joined string
		if len(names) == 1 {
			joined = names[0]
		} else {
			joined = strings.Join(names, "|")
		}
		p.functions = append(p.functions, function{name: name, groups: joined})
	}
	return nil
}

// userEventTable reads the user event names.
func (p *payload) userEventTable(d *decoder) error {
	n, err := d.count("user event", 2)
	if err != nil {
		return err
	}
	p.userEvents = make([]string, 0, n)
	for range n {
		u, err := d.utf("user event name")
		if err != nil {
			return err
		}
		p.userEvents = append(p.userEvents, u)
	}
	return nil
}

// threadSection checks the per-thread profiles and records where each
// thread's profiles are.
func (p *payload) threadSection(d *decoder) error {
	p.threadsAt = d.off
	n, err := d.count("thread", threadMin)
	if err != nil {
		return err
	}
	if n == 0 && len(p.threadMeta) == 0 {
		return d.fail(p.threadsAt, "no thread")
	}
	fpSize := fpFixed + 16*int64(len(p.metrics))
	p.threads = make([]threadRecord, 0, n)
	first := make(map[drg.ThreadID]int, n)
	for range n {
		at := d.off
		id, err := d.thread("thread rank")
		if err != nil {
			return err
		}
		if prev, dup := first[id]; dup {
			return d.fail(at, "thread %s listed twice (first at offset %d)", id, prev)
		}
		first[id] = at
		rec := threadRecord{id: id}

		if rec.nFP, err = d.count("function profile", fpSize); err != nil {
			return err
		}
		rec.fp = d.off
		for range rec.nFP {
			f := int32(binary.BigEndian.Uint32(d.buf[d.off:])) // in bounds: checked by count
			if f < 0 || int(f) >= len(p.functions) {
				return d.fail(d.off, "function id %d out of range (%d functions)", f, len(p.functions))
			}
			if err := d.checkDoubles(d.off+4, int(fpSize-4)/8); err != nil {
				return err
			}
			d.off += int(fpSize)
		}

		if rec.nUEP, err = d.count("user event profile", uepSize); err != nil {
			return err
		}
		rec.uep = d.off
		for range rec.nUEP {
			u := int32(binary.BigEndian.Uint32(d.buf[d.off:]))
			if u < 0 || int(u) >= len(p.userEvents) {
				return d.fail(d.off, "user event id %d out of range (%d user events)", u, len(p.userEvents))
			}
			if s := int32(binary.BigEndian.Uint32(d.buf[d.off+4:])); s < 0 {
				return d.fail(d.off+4, "negative sample count %d", s)
			}
			if err := d.checkDoubles(d.off+8, 4); err != nil {
				return err
			}
			d.off += uepSize
		}
		p.threads = append(p.threads, rec)
	}
	return nil
}

// checkDoubles checks the n doubles at offset off (in bounds) with
// drg.CheckValue.
func (d *decoder) checkDoubles(off, n int) error {
	for i := range n {
		o := off + 8*i
		if err := drg.CheckValue(math.Float64frombits(binary.BigEndian.Uint64(d.buf[o:]))); err != nil {
			return d.fail(o, "value %w", err)
		}
	}
	return nil
}

// f64 returns the double at offset off of a checked payload.
func (p *payload) f64(off int) float64 {
	return math.Float64frombits(binary.BigEndian.Uint64(p.buf[off:]))
}

// i32 returns the int at offset off of a checked payload.
func (p *payload) i32(off int) int {
	return int(int32(binary.BigEndian.Uint32(p.buf[off:])))
}

// build feeds the checked payload to a drg.Builder and finishes the trial.
func (p *payload) build(name string) (*drg.Trial, error) {
	ids := p.threadIDs()
	b, err := drg.NewBuilder(ids)
	if err != nil {
		return nil, &Error{Path: p.path, Offset: int64(p.threadsAt), Err: err}
	}
	b.AggregateMetadata = false
	b.Sparse = true
	p.addMetadata(b)
	sparse, err := p.checkDensity(len(ids))
	if err != nil {
		return nil, err
	}
	if sparse {
		b.StartSparse()
	}
	// Nodes before metrics: the builder then allocates each metric's
	// columns once, at their full size, instead of growing them per node.
	node := make([]int, len(p.functions))
	for i, f := range p.functions {
		node[i] = b.Node(f.name)
		if f.groups != "" {
			b.SetGroups(node[i], f.groups)
		}
	}
	metric := make([]int, len(p.metrics))
	for i, m := range p.metrics {
		metric[i] = b.Metric(m)
	}
	counter := make([]int, len(p.userEvents))
	for i, u := range p.userEvents {
		counter[i] = b.Counter(u)
	}
	p.addProfiles(b, node, metric, counter)
	if extra := len(p.buf) - p.end; extra > 0 {
		b.Warn("%s: %d bytes after the last thread record (offset %d) ignored", p.path, extra, p.end)
	}
	t, err := b.Finish(name, drg.Source{Format: "ppk", Path: p.path, DataSource: 0})
	if err != nil {
		return nil, &Error{Path: p.path, Offset: int64(p.end), Err: err}
	}
	return t, nil
}

// threadIDs lists the trial's threads: those with profiles, then those
// that have metadata but no profiles (still threads of the trial, as in
// ParaProf).
func (p *payload) threadIDs() []drg.ThreadID {
	ids := make([]drg.ThreadID, 0, len(p.threads)+len(p.threadMeta))
	have := make(map[drg.ThreadID]bool, cap(ids))
	for _, r := range p.threads {
		have[r.id] = true
		ids = append(ids, r.id)
	}
	for _, m := range p.threadMeta {
		if !have[m.id] {
			have[m.id] = true
			ids = append(ids, m.id)
		}
	}
	return ids
}

// addMetadata gives b the trial's and the threads' metadata.
func (p *payload) addMetadata(b *drg.Builder) {
	for i := 0; i < len(p.trialMeta); i += 2 {
		b.TrialMetadata(p.trialMeta[i], p.trialMeta[i+1])
	}
	for _, m := range p.threadMeta {
		col := b.Column(m.id)
		for i := 0; i < len(m.kv); i += 2 {
			b.ThreadMetadata(col, m.kv[i], m.kv[i+1], false)
		}
	}
}

// checkDensity reports whether the payload's function profiles are too
// sparse for the dense model of threads threads (drg.CheckDensity), so
// that the trial is stored sparsely (drg.SparseValues), and refuses
// user-event profiles too sparse, which are only stored densely.
func (p *payload) checkDensity(threads int) (sparse bool, err error) {
	var fps, ueps int64
	for _, r := range p.threads {
		fps, ueps = fps+int64(r.nFP), ueps+int64(r.nUEP)
	}
	if err := drg.CheckDensity("user events", len(p.userEvents), threads, ueps); err != nil {
		return false, &Error{Path: p.path, Offset: int64(p.threadsAt), Err: err}
	}
	return drg.CheckDensity("functions", len(p.functions), threads, fps) != nil, nil
}

// addProfiles gives b every thread's function and user-event profiles;
// node, metric and counter map the payload's indexes to the builder's.
func (p *payload) addProfiles(b *drg.Builder, node, metric, counter []int) {
	fpSize := fpFixed + 16*len(p.metrics)
	for _, r := range p.threads {
		col := b.Column(r.id)
		for j, o := 0, r.fp; j < r.nFP; j, o = j+1, o+fpSize {
			n := node[p.i32(o)]
			b.AddCalls(n, col, p.f64(o+4), p.f64(o+12))
			v := o + fpFixed
			for _, m := range metric {
				b.AddValues(n, col, m, p.f64(v), p.f64(v+8))
				v += 16
			}
		}
		for j, o := 0, r.uep; j < r.nUEP; j, o = j+1, o+uepSize {
			b.AddCounter(counter[p.i32(o)], col, drg.CounterValue{
				NumEvents:  float64(p.i32(o + 4)),
				Min:        p.f64(o + 8),
				Max:        p.f64(o + 16),
				Mean:       p.f64(o + 24),
				SumSquares: p.f64(o + 32),
			})
		}
	}
}
