package hpctoolkit

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// metricDBMagic starts every metric-db file; a 5-byte version and an
// endianness byte ('b') follow, then the number of contexts and of
// metrics as big-endian uint32.
const metricDBMagic = "HPCPROF-metricdb__"

// metricDBHeader is the size of a metric-db file's header.
const metricDBHeader = 32

// fileName matches the end of a metric-db file name: -RANK-THREAD-HOST-PID-GEN.metric-db.
var fileName = regexp.MustCompile(`-(\d+)-(\d+)-([0-9A-Za-z]+)-(\d+)-\d+\.metric-db$`)

// dbFile is one metric-db file and the thread it holds.
type dbFile struct {
	path string
	id   drg.ThreadID
}

// listFiles finds the metric-db files of dir matching glob and the thread
// of each.
func listFiles(dir, glob string) ([]dbFile, error) {
	if glob == "" {
		glob = "*.metric-db"
	}
	paths, err := filepath.Glob(filepath.Join(dir, glob))
	if err != nil {
		return nil, fmt.Errorf("%s: metric-db glob %q: %w", dir, glob, err)
	}
	sort.Strings(paths)
	var out []dbFile
	for _, p := range paths {
		m := fileName.FindStringSubmatch(filepath.Base(p))
		if m == nil {
			return nil, errorf(p, -1, "name does not end in -RANK-THREAD-HOST-PID-N.metric-db")
		}
		rank, err1 := strconv.Atoi(m[1])
		thread, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil {
			return nil, errorf(p, -1, "rank or thread in the name is out of range")
		}
		out = append(out, dbFile{path: p, id: drg.ThreadID{Node: rank, Thread: thread}})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no metric-db files (%s)", dir, glob)
	}
	return out, nil
}

// column says where a metric-db column's values go: metric index and
// whether they are inclusive.
type column struct {
	metric int
	incl   bool
}

// readMetricDB reads one metric-db file into the tree's columns for
// thread th. cols maps each metric-db column to its destination; byID
// maps a context id to its node (rows of ids without a node are skipped).
func readMetricDB(f dbFile, th int, e *experiment, cols []column, scale []float64) error {
	fh, err := safefile.Open(f.path)
	if err != nil {
		return fmt.Errorf("hpctoolkit: %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return fmt.Errorf("hpctoolkit: %w", err)
	}
	br := bufio.NewReaderSize(fh, 1<<16)
	nodes, nmetrics, err := readHeader(br, f.path)
	if err != nil {
		return err
	}
	if nmetrics != len(cols) {
		return errorf(f.path, 28, "%d metrics, experiment.xml lists %d metric-db columns", nmetrics, len(cols))
	}
	want := int64(metricDBHeader) + int64(nodes)*int64(nmetrics)*8
	if st.Size() < want {
		return &Error{Path: f.path, Offset: st.Size(), Err: fmt.Errorf("%w: %d contexts × %d metrics need %d bytes, the file has %d", ErrTruncated, nodes, nmetrics, want, st.Size())}
	}
	if e.maxID > int64(nodes) {
		return errorf(f.path, 24, "%d contexts, but experiment.xml has context id %d", nodes, e.maxID)
	}
	return readRows(br, f.path, th, nodes, e, cols, scale)
}

// readHeader checks the magic and endianness and returns the numbers of
// contexts and metrics.
func readHeader(r io.Reader, name string) (nodes, nmetrics int, err error) {
	var h [metricDBHeader]byte
	if n, err := io.ReadFull(r, h[:]); err != nil {
		return 0, 0, &Error{Path: name, Offset: int64(n), Err: fmt.Errorf("%w: header", ErrTruncated)}
	}
	if string(h[:len(metricDBMagic)]) != metricDBMagic {
		return 0, 0, errorf(name, 0, "not a metric-db file (no %q magic)", metricDBMagic)
	}
	if h[23] != 'b' {
		return 0, 0, errorf(name, 23, "endianness %q, only big-endian ('b') metric-db files exist", h[23])
	}
	n, m := binary.BigEndian.Uint32(h[24:]), binary.BigEndian.Uint32(h[28:])
	if m == 0 || n > math.MaxInt32 || m > 1<<16 {
		return 0, 0, errorf(name, 24, "%d contexts × %d metrics is not a metric-db header", n, m)
	}
	return int(n), int(m), nil
}

// readRows reads the values, row i holding context id i+1, one row at a
// time.
func readRows(r io.Reader, name string, th, nodes int, e *experiment, cols []column, scale []float64) error {
	nt := len(e.tree.Threads)
	node := e.nodeOfID()
	row := make([]byte, 8*len(cols))
	off := int64(metricDBHeader)
	for id := 1; id <= nodes; id++ {
		if _, err := io.ReadFull(r, row); err != nil {
			return &Error{Path: name, Offset: off, Err: ErrTruncated}
		}
		n := -1
		if id < len(node) {
			n = node[id]
		}
		for c, col := range cols {
			v := math.Float64frombits(binary.BigEndian.Uint64(row[8*c:]))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return errorf(name, off+int64(8*c), "context %d, metric-db column %d: value %v is not finite", id, c, v)
			}
			if n < 0 {
				continue
			}
			v *= scale[col.metric]
			if col.incl {
				e.tree.Incl[col.metric][n*nt+th] = v
			} else {
				e.tree.Excl[col.metric][n*nt+th] = v
			}
		}
		off += int64(len(row))
	}
	return nil
}
