package hpctoolkit

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
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

// openMetricDB opens one metric-db file, checks its header and size
// against experiment.xml and returns a reader positioned at its values
// and the number of context rows; close closes the file.
func openMetricDB(f dbFile, e *experiment, ncols int) (r io.Reader, rows int, close func() error, err error) {
	fh, err := safefile.Open(f.path)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("hpctoolkit: %w", err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, 0, nil, fmt.Errorf("hpctoolkit: %w", err)
	}
	br := bufio.NewReaderSize(fh, 1<<16)
	nodes, nmetrics, err := readHeader(br, f.path)
	switch {
	case err != nil:
	case nmetrics != ncols:
		err = errorf(f.path, 28, "%d metrics, experiment.xml lists %d metric-db columns", nmetrics, ncols)
	case st.Size() < int64(metricDBHeader)+int64(nodes)*int64(nmetrics)*8:
		err = &Error{Path: f.path, Offset: st.Size(), Err: fmt.Errorf("%w: %d contexts × %d metrics need %d bytes, the file has %d", ErrTruncated, nodes, nmetrics, int64(metricDBHeader)+int64(nodes)*int64(nmetrics)*8, st.Size())}
	case e.maxID > int64(nodes):
		err = errorf(f.path, 24, "%d contexts, but experiment.xml has context id %d", nodes, e.maxID)
	}
	if err != nil {
		fh.Close()
		return nil, 0, nil, err
	}
	return br, nodes, fh.Close, nil
}

// blockThreads is the number of metric-db files (threads) read together:
// their values of one context are neighbours in the tree's columns
// (node*threads+thread), so writing them together fills whole cache lines.
const blockThreads = 8

// chunkRows is the number of context rows read from each file of a block
// at a time, which bounds the block's buffers.
const chunkRows = 4096

// readBlock reads the metric-db files of threads th0.. th0+len(files)-1
// into the tree's columns. cols maps each metric-db column to its
// destination; rows of context ids without a node are checked and
// skipped.
func readBlock(files []dbFile, th0 int, e *experiment, cols []column, scale []float64) error {
	readers := make([]io.Reader, len(files))
	rows := make([]int, len(files)) // each file's context rows
	most := 0
	for k, f := range files {
		r, n, closeFile, err := openMetricDB(f, e, len(cols))
		if err != nil {
			return err
		}
		defer closeFile()
		readers[k], rows[k] = r, n
		most = max(most, n)
	}
	rowBytes := 8 * len(cols)
	bufs := make([][]byte, len(files))
	for k := range bufs {
		bufs[k] = make([]byte, min(most, chunkRows)*rowBytes)
	}
	counts := make([]int, len(files))
	for first := 0; first < most; first += chunkRows {
		for k, r := range readers {
			counts[k] = max(0, min(chunkRows, rows[k]-first))
			if _, err := io.ReadFull(r, bufs[k][:counts[k]*rowBytes]); err != nil {
				return &Error{Path: files[k].path, Offset: metricDBHeader + int64(first)*int64(rowBytes), Err: ErrTruncated}
			}
		}
		if err := e.storeChunk(bufs, counts, files, th0, first, cols, scale); err != nil {
			return err
		}
	}
	return nil
}

// storeChunk stores rows first.. (context ids first+1..) of each file of
// a block, bufs[k] holding counts[k] rows of file k.
func (e *experiment) storeChunk(bufs [][]byte, counts []int, files []dbFile, th0, first int, cols []column, scale []float64) error {
	nt := len(e.tree.Threads)
	node := e.nodeOfID()
	rowBytes := 8 * len(cols)
	for r := 0; r < slices.Max(counts); r++ {
		id := first + r + 1
		nd := -1
		if id < len(node) {
			nd = node[id]
		}
		for c, col := range cols {
			dst := e.tree.Excl[col.metric]
			if col.incl {
				dst = e.tree.Incl[col.metric]
			}
			for k, b := range bufs {
				if r >= counts[k] {
					continue
				}
				v := math.Float64frombits(binary.BigEndian.Uint64(b[r*rowBytes+8*c:]))
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return errorf(files[k].path, metricDBHeader+int64(first+r)*int64(rowBytes)+int64(8*c), "context %d, metric-db column %d: value %v is not finite", id, c, v)
				}
				if nd >= 0 {
					dst[nd*nt+th0+k] = v * scale[col.metric]
				}
			}
		}
	}
	return nil
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
