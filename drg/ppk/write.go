package ppk

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// maxUTF is the most bytes one DataOutputStream.writeUTF string can hold:
// its length is an unsigned 16-bit number.
const maxUTF = 0xFFFF

// Write writes t to w as a ParaProf packed profile, the layout of
// DataSourceExport.writePacked: a gzip stream holding a big-endian
// DataOutputStream payload of
//
//	char×3 'P','P','K'; int version = 2; int compatible = 1
//	int H, the size of the header block that follows; in it:
//	  int 0 (no reserved bytes)
//	  int nTrialMeta; (UTF name, UTF value) × nTrialMeta
//	  int nThreads; per thread: int node, context, thread;
//	                int nMeta; (UTF name, UTF value) × nMeta
//	int nMetrics; UTF name × nMetrics
//	int nGroups; UTF name × nGroups
//	int nFunctions; per function: UTF name; int nG; int group id × nG
//	int nUserEvents; UTF name × nUserEvents
//	int nThreads; per thread: int node, context, thread;
//	  int nFP; per profile: int function id, double calls, double subrs,
//	           (double exclusive, double inclusive) × nMetrics
//	  int nUEP; per profile: int user-event id, int samples,
//	            double min, double max, double mean, double sum of squares
//
// Strings are Java's modified UTF-8 (NUL as C0 80, characters above U+FFFF
// as two 3-byte surrogates); invalid UTF-8 in a name becomes U+FFFD.
//
// What goes in follows ParaProf: the trial metadata and each thread's own
// metadata sorted by name (in UTF-16 code-unit order, Java's
// String.compareTo), every thread listed in the header even with no key;
// the groups sorted by name; every node as a function, a flat node with
// its region's groups, a callpath node with its leaf region's groups plus
// TAU_CALLPATH (and TAU_CALLPATH_DERIVED for a derived one); a function or
// user-event profile only where the Present or CounterPresent bit is set.
// Functions and user events are written in the trial's order rather than
// sorted by name (readers, ParaProf's included, do not depend on it), so
// that reading the file back gives the same node and counter indexes.
//
// The trial is checked before the first byte is written: a string longer
// than 65535 encoded bytes (Java's writeUTF refuses it too), a count or a
// rank beyond a Java int, a user event's sample count that is not a whole
// number a Java int holds, or value columns that do not match the trial's
// shape are errors, and then nothing is written. The payload is streamed:
// only the sorted metadata keys, the group table and each function's group
// ids are held in memory.
//
// A ppk cannot record Series (earlier snapshots), Metric.Derived, Warnings
// or Source; a reader sets "File Type Index" and "File Type Name" anew.
func Write(w io.Writer, t *drg.Trial) error {
	p, err := plan(t)
	if err != nil {
		return fmt.Errorf("write ppk: %w", err)
	}
	sink := &errWriter{w: w}
	out := bufio.NewWriterSize(sink, 64<<10)
	zw := gzip.NewWriter(out)
	e := &encoder{w: bufio.NewWriterSize(zw, 64<<10), sink: sink,
		buf: make([]byte, max(fpFixed+16*len(t.Metrics), uepSize))}
	if err := p.write(e); err != nil {
		return fmt.Errorf("write ppk: %w", err)
	}
	if err := e.w.Flush(); err != nil {
		return fmt.Errorf("write ppk: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write ppk: %w", err)
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("write ppk: %w", err)
	}
	return nil
}

// WriteFile writes t as a packed profile to path (mode 0644) through a
// temporary file in the same folder that is renamed over path once
// complete, so that a failure leaves the old file, or none, and never part
// of one; the temporary file is removed on failure.
func WriteFile(path string, t *drg.Trial) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := Write(fileWriter(f), t); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// fileWriter returns the writer WriteFile writes f through; tests replace
// it to simulate a full disk.
var fileWriter = func(f *os.File) io.Writer { return f }

// layout is a checked trial with what Write computes before it streams:
// the sorted metadata keys, the group table and the header block size.
type layout struct {
	t          *drg.Trial
	trialKeys  []string
	threadKeys [][]string
	groups     []string
	fnGroups   [][]int32 // the group ids of each node's function
	header     int64
}

// plan checks t and prepares its layout.
func plan(t *drg.Trial) (*layout, error) {
	if err := checkShape(t); err != nil {
		return nil, err
	}
	p := &layout{t: t}
	if err := p.headerBlock(); err != nil {
		return nil, err
	}
	if err := p.nameTables(); err != nil {
		return nil, err
	}
	if err := checkSampleCounts(t); err != nil {
		return nil, err
	}
	return p, nil
}

// checkShape refuses a trial without threads or metrics, with counts a
// Java int cannot hold, or whose columns do not match its sizes.
func checkShape(t *drg.Trial) error {
	if t == nil {
		return errors.New("no trial")
	}
	nt, nn, nm, nc := len(t.Threads), len(t.Nodes), len(t.Metrics), len(t.Counters)
	switch {
	case nt == 0:
		return errors.New("trial has no thread")
	case nm == 0:
		return errors.New("trial has no metric")
	}
	for _, c := range []struct {
		what string
		n    int
	}{{"threads", nt}, {"nodes", nn}, {"metrics", nm}, {"user events", nc}, {"trial metadata keys", len(t.Metadata)}} {
		if int64(c.n) > math.MaxInt32 {
			return fmt.Errorf("%d %s: more than a Java int counts", c.n, c.what)
		}
	}
	cells := nn * nt
	if len(t.Values) != nm || len(t.Calls) != cells || len(t.Subroutines) != cells || t.Present.Len() < cells {
		return fmt.Errorf("trial's columns do not match %d nodes × %d threads and %d metrics", nn, nt, nm)
	}
	for m, v := range t.Values {
		if len(v.Inclusive) != cells || len(v.Exclusive) != cells {
			return fmt.Errorf("metric %q: %d inclusive and %d exclusive values for %d nodes × %d threads",
				t.Metrics[m].Name, len(v.Inclusive), len(v.Exclusive), nn, nt)
		}
	}
	if len(t.CounterValues) != nc*nt || t.CounterPresent.Len() < nc*nt {
		return fmt.Errorf("%d user-event values for %d user events × %d threads", len(t.CounterValues), nc, nt)
	}
	return nil
}

// headerBlock sorts the trial's and threads' metadata keys and sizes the
// header block: reserved size, trial metadata, thread metadata.
func (p *layout) headerBlock() error {
	t := p.t
	var err error
	p.trialKeys = slices.SortedFunc(maps.Keys(t.Metadata), compareUTF16)
	h := int64(4) // the reserved size
	if h, err = metaSize(h, t.Metadata, p.trialKeys); err != nil {
		return fmt.Errorf("trial metadata: %w", err)
	}
	h += 4 // the thread count
	p.threadKeys = make([][]string, len(t.Threads))
	var keys []string
	for i, th := range t.Threads {
		for _, r := range [3]int{th.Node, th.Context, th.Thread} {
			if r < 0 || r > math.MaxInt32 {
				return fmt.Errorf("thread %d.%d.%d: rank out of a Java int's range", th.Node, th.Context, th.Thread)
			}
		}
		if int64(len(th.Metadata)) > math.MaxInt32 {
			return fmt.Errorf("thread %d.%d.%d: %d metadata keys: more than a Java int counts", th.Node, th.Context, th.Thread, len(th.Metadata))
		}
		// One backing array for every thread's keys: no allocation per
		// thread.
		start := len(keys)
		for k := range th.Metadata {
			keys = append(keys, k)
		}
		p.threadKeys[i] = keys[start:len(keys):len(keys)]
		slices.SortFunc(p.threadKeys[i], compareUTF16)
		h += 12 // the ranks
		if h, err = metaSize(h, th.Metadata, p.threadKeys[i]); err != nil {
			return fmt.Errorf("thread %d.%d.%d metadata: %w", th.Node, th.Context, th.Thread, err)
		}
	}
	if h > math.MaxInt32 {
		return fmt.Errorf("metadata takes %d bytes: more than a Java int counts", h)
	}
	p.header = h
	return nil
}

// nameTables checks every name (metrics, nodes, groups, user events) and
// sets the sorted group table and the group ids of every function.
func (p *layout) nameTables() error {
	t := p.t
	for _, m := range t.Metrics {
		if err := checkUTF(m.Name, "metric name"); err != nil {
			return err
		}
	}
	set := map[string]bool{}
	names := make([][]string, len(t.Nodes))
	for i, n := range t.Nodes {
		if err := checkUTF(n.Name, "node name"); err != nil {
			return err
		}
		if n.Region < 0 || n.Region >= len(t.Regions) {
			return fmt.Errorf("node %q: region %d out of range (%d regions)", n.Name, n.Region, len(t.Regions))
		}
		names[i] = p.functionGroups(i)
		for _, g := range names[i] {
			set[g] = true
		}
	}
	p.groups = slices.SortedFunc(maps.Keys(set), compareUTF16)
	id := make(map[string]int32, len(p.groups))
	for i, g := range p.groups {
		if err := checkUTF(g, "group name"); err != nil {
			return err
		}
		id[g] = int32(i)
	}
	p.fnGroups = make([][]int32, len(t.Nodes))
	for i, gs := range names {
		p.fnGroups[i] = make([]int32, len(gs))
		for j, g := range gs {
			p.fnGroups[i][j] = id[g]
		}
	}
	for _, c := range t.Counters {
		if err := checkUTF(c.Name, "user event name"); err != nil {
			return err
		}
	}
	return nil
}

// checkSampleCounts refuses a user event's sample count that is not a
// whole number a Java int holds (its type in the file).
func checkSampleCounts(t *drg.Trial) error {
	nt := len(t.Threads)
	for c := range t.Counters {
		for th := range nt {
			k := c*nt + th
			if !t.CounterPresent.Get(k) {
				continue
			}
			if n := t.CounterValues[k].NumEvents; n < 0 || n > math.MaxInt32 || n != math.Trunc(n) {
				return fmt.Errorf("user event %q on thread %d.%d.%d: sample count %v is not a whole number a Java int holds",
					t.Counters[c].Name, t.Threads[th].Node, t.Threads[th].Context, t.Threads[th].Thread, n)
			}
		}
	}
	return nil
}

// functionGroups returns the groups written for node i: its region's, and
// for a callpath node also TAU_CALLPATH and, when derived,
// TAU_CALLPATH_DERIVED, as ParaProf's callpath functions carry them.
func (p *layout) functionGroups(i int) []string {
	n := &p.t.Nodes[i]
	gs := p.t.Regions[n.Region].Groups
	if n.IsFlat() {
		return gs
	}
	extra := make([]string, 0, 2)
	if !slices.Contains(gs, "TAU_CALLPATH") {
		extra = append(extra, "TAU_CALLPATH")
	}
	if n.Derived && !slices.Contains(gs, "TAU_CALLPATH_DERIVED") {
		extra = append(extra, "TAU_CALLPATH_DERIVED")
	}
	if len(extra) == 0 {
		return gs
	}
	return append(slices.Clip(gs), extra...)
}

// metaSize adds to h the encoded size of a metadata list (its count and its
// pairs) and checks every string.
func metaSize(h int64, m map[string]string, keys []string) (int64, error) {
	h += 4
	for _, k := range keys {
		nk, err := utfSize(k, "name")
		if err != nil {
			return 0, err
		}
		nv, err := utfSize(m[k], "value")
		if err != nil {
			return 0, fmt.Errorf("key %q: %w", k, err)
		}
		h += int64(4 + nk + nv)
	}
	return h, nil
}

// checkUTF checks that s fits a writeUTF string.
func checkUTF(s, what string) error {
	_, err := utfSize(s, what)
	return err
}

// utfSize returns the modified-UTF-8 size of s without its length prefix,
// or an error naming what when it is above 65535 bytes.
func utfSize(s, what string) (int, error) {
	n := 0
	for _, r := range s {
		switch {
		case r == 0:
			n += 2
		case r < 0x80:
			n++
		case r < 0x800:
			n += 2
		case r < 0x10000:
			n += 3
		default:
			n += 6
		}
	}
	if n > maxUTF {
		short := s
		if len(short) > 40 {
			short = short[:40] + "…"
		}
		return 0, fmt.Errorf("%s %q takes %d bytes in modified UTF-8, more than the format's 65535", what, short, n)
	}
	return n, nil
}

// compareUTF16 orders strings as Java's String.compareTo does: by UTF-16
// code units. It differs from Go's byte order only where a character above
// U+FFFF (a surrogate, D800–DBFF) meets one in E000–FFFF.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ka, kb := unit(ra), unit(rb)
			if ka != kb {
				return cmpInt(ka, kb)
			}
			return cmpInt(ra, rb)
		}
		a, b = a[na:], b[nb:]
	}
	return cmpInt(len(a), len(b))
}

// unit returns the first UTF-16 code unit of r.
func unit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

func cmpInt[T int | rune](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// encoder writes DataOutputStream fields through a scratch buffer, so that
// no value allocates.
type encoder struct {
	w    *bufio.Writer
	sink *errWriter // the destination, which remembers its first error
	buf  []byte     // at least fpFixed + 16 × metrics and uepSize bytes
}

// errWriter remembers the first error of w, so that a long write stops at
// the next thread once the destination fails.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	e.err = err
	return n, err
}

func (e *encoder) i32(v int32) {
	binary.BigEndian.PutUint32(e.buf[:4], uint32(v))
	e.w.Write(e.buf[:4])
}

// utf writes s with writeUTF; its size was checked by plan.
func (e *encoder) utf(s string) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		binary.BigEndian.PutUint16(e.buf[:2], uint16(len(s)))
		e.w.Write(e.buf[:2])
		e.w.WriteString(s)
		return
	}
	n, _ := utfSize(s, "")
	binary.BigEndian.PutUint16(e.buf[:2], uint16(n))
	e.w.Write(e.buf[:2])
	for _, r := range s {
		b := e.buf[:0]
		switch {
		case r >= 0x01 && r < 0x80:
			b = append(b, byte(r))
		case r < 0x800: // and U+0000
			b = append(b, 0xC0|byte(r>>6), 0x80|byte(r&0x3F))
		case r < 0x10000:
			b = append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
		default:
			r -= 0x10000
			for _, u := range [2]rune{0xD800 + r>>10, 0xDC00 + r&0x3FF} {
				b = append(b, 0xE0|byte(u>>12), 0x80|byte(u>>6&0x3F), 0x80|byte(u&0x3F))
			}
		}
		e.w.Write(b)
	}
}

// meta writes a metadata list.
func (e *encoder) meta(m map[string]string, keys []string) {
	e.i32(int32(len(keys)))
	for _, k := range keys {
		e.utf(k)
		e.utf(m[k])
	}
}

// write streams the payload. Once a write to the destination fails every
// later one does (bufio and gzip keep the first error), so the error is
// looked at once per thread; the caller's Flush and Close report it too.
func (p *layout) write(e *encoder) error {
	t := p.t
	p.writeHeader(e)
	p.writeDefinitions(e)
	if e.sink.err != nil {
		return e.sink.err
	}
	e.i32(int32(len(t.Threads)))
	rec := e.buf[:fpFixed+16*len(t.Metrics)]
	for th := range t.Threads {
		p.writeThread(e, th, rec)
		if e.sink.err != nil {
			return e.sink.err
		}
	}
	return nil
}

// writeHeader writes the magic, the versions and the header block: the
// trial's and every thread's metadata.
func (p *layout) writeHeader(e *encoder) {
	t := p.t
	e.w.Write(magic)
	e.i32(2) // version
	e.i32(1) // compatible: version-1 readers skip the header block
	e.i32(int32(p.header))
	e.i32(0) // no reserved bytes
	e.meta(t.Metadata, p.trialKeys)
	e.i32(int32(len(t.Threads)))
	for i, th := range t.Threads {
		e.i32(int32(th.Node))
		e.i32(int32(th.Context))
		e.i32(int32(th.Thread))
		e.meta(th.Metadata, p.threadKeys[i])
	}
}

// writeDefinitions writes the metric, group, function and user-event
// tables.
func (p *layout) writeDefinitions(e *encoder) {
	t := p.t
	e.i32(int32(len(t.Metrics)))
	for _, m := range t.Metrics {
		e.utf(m.Name)
	}
	e.i32(int32(len(p.groups)))
	for _, g := range p.groups {
		e.utf(g)
	}
	e.i32(int32(len(t.Nodes)))
	for i, n := range t.Nodes {
		e.utf(n.Name)
		e.i32(int32(len(p.fnGroups[i])))
		for _, g := range p.fnGroups[i] {
			e.i32(g)
		}
	}
	e.i32(int32(len(t.Counters)))
	for _, c := range t.Counters {
		e.utf(c.Name)
	}
}

// writeThread writes thread th's record: its ranks, then its function
// profiles and user-event profiles, each count first; rec is the scratch
// buffer of one function profile (its capacity holds a user-event one).
func (p *layout) writeThread(e *encoder, th int, rec []byte) {
	t := p.t
	nt := len(t.Threads)
	be := binary.BigEndian
	thr := t.Threads[th]
	e.i32(int32(thr.Node))
	e.i32(int32(thr.Context))
	e.i32(int32(thr.Thread))
	nfp := 0
	for n := range t.Nodes {
		if t.Present.Get(n*nt + th) {
			nfp++
		}
	}
	e.i32(int32(nfp))
	for n := range t.Nodes {
		k := n*nt + th
		if !t.Present.Get(k) {
			continue
		}
		be.PutUint32(rec[0:], uint32(n))
		be.PutUint64(rec[4:], math.Float64bits(t.Calls[k]))
		be.PutUint64(rec[12:], math.Float64bits(t.Subroutines[k]))
		o := fpFixed
		for m := range t.Values {
			be.PutUint64(rec[o:], math.Float64bits(t.Values[m].Exclusive[k]))
			be.PutUint64(rec[o+8:], math.Float64bits(t.Values[m].Inclusive[k]))
			o += 16
		}
		e.w.Write(rec)
	}
	p.writeUserEvents(e, th, rec[:uepSize])
}

// writeUserEvents writes thread th's user-event profiles, count first,
// through the scratch buffer u of one record.
func (p *layout) writeUserEvents(e *encoder, th int, u []byte) {
	t := p.t
	nt := len(t.Threads)
	be := binary.BigEndian
	nuep := 0
	for c := range t.Counters {
		if t.CounterPresent.Get(c*nt + th) {
			nuep++
		}
	}
	e.i32(int32(nuep))
	for c := range t.Counters {
		k := c*nt + th
		if !t.CounterPresent.Get(k) {
			continue
		}
		v := t.CounterValues[k]
		be.PutUint32(u[0:], uint32(c))
		be.PutUint32(u[4:], uint32(int32(v.NumEvents)))
		be.PutUint64(u[8:], math.Float64bits(v.Min))
		be.PutUint64(u[16:], math.Float64bits(v.Max))
		be.PutUint64(u[24:], math.Float64bits(v.Mean))
		be.PutUint64(u[32:], math.Float64bits(v.SumSquares))
		e.w.Write(u)
	}
}
