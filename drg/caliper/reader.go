// Package caliper reads profiles written by LLNL's Caliper: the native
// .cali record stream and the JSON that cali-query writes (json-split, and
// plain JSON records). See docs/formats/caliper.md for what is read and how
// it maps onto the trial model and TAUdb.
//
// Nested region attributes (Caliper's "path": function, loop, annotation,
// mpi.function, ...) become the call graph: a record at path a/b/c is the
// callpath node "a => b => c", and every region also gets TAU's flat node
// (exclusive summed over its contexts, inclusive over its outermost ones).
// mpi.rank gives the thread's node rank and omp.thread.id, thread.id or
// pthread.id its thread rank. Every numeric attribute of a record is a
// metric; "inclusive#X" is the inclusive side of metric X. A metric
// recorded only one way gets the other derived from the tree
// (inclusive = exclusive + children's inclusive, exclusive = inclusive −
// children's inclusive); the trial metadata says which, per metric, under
// "<metric> (inclusive)" and "<metric> (exclusive)". Caliper globals (and
// json-split's top-level run data) become trial metadata. Values keep
// Caliper's units (seconds for time.duration in Caliper 2.x profiles).
//
// Bad input gives an *Error naming the file and the line (.cali) or byte
// offset (JSON). Memory grows with the records read, at a few words per
// value; the JSON reader streams the data rows.
package caliper

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// DataSource is the TAUdb data_source id of a Caliper trial: 999, "Other",
// as TAUdb's data_source table has no Caliper entry.
const DataSource = 999

// Reader reads one Caliper file.
type Reader struct {
	// Path is the .cali or JSON file.
	Path string
}

// Read reads the file at r.Path into a trial named after the file's base
// name without extension, with Source{Format: "caliper", Path: r.Path,
// DataSource: 999}.
func (r Reader) Read() (*drg.Trial, error) {
	f, err := safefile.Open(r.Path)
	if err != nil {
		return nil, fmt.Errorf("caliper: %w", err)
	}
	defer f.Close()
	return Decode(f, r.Path)
}

// sinkResult is what a decoder produced: the records and the format name.
type sinkResult struct {
	s      *sink
	format string
}

// Decode reads a Caliper file from r; path names it in errors and in the
// trial's source. The kind (.cali records or JSON) is told by the first
// non-blank byte.
func Decode(r io.Reader, path string) (*drg.Trial, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(512)
	var res *sinkResult
	var err error
	switch kindOf(head) {
	case "cali":
		res, err = decodeCali(br, path)
	case "json":
		res, err = decodeJSON(br, path)
	default:
		return nil, &Error{Path: path, Offset: 0, Err: ErrNotCaliper}
	}
	if err != nil {
		return nil, err
	}
	t, err := res.s.finish(path, res.format)
	if err != nil {
		return nil, &Error{Path: path, Offset: -1, Err: err}
	}
	return t, nil
}

// kindOf returns "cali", "json" or "".
func kindOf(head []byte) string {
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case bytes.HasPrefix(head, []byte("__rec=")):
		return "cali"
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '['):
		return "json"
	}
	return ""
}

// Detect reports whether head, the first bytes of a file, looks like a
// Caliper file: a .cali record ("__rec=") or JSON that mentions one of
// cali-query's json-split sections or Caliper attribute names.
func Detect(head []byte) bool {
	switch kindOf(head) {
	case "cali":
		return true
	case "json":
		s := string(head)
		if strings.Contains(s, `"traceEvents"`) {
			return false // a Chrome trace
		}
		for _, k := range []string{`"column_metadata"`, `"nodes"`, `"columns"`, `#time.duration`, `"mpi.rank"`, `"cali.`, `"path"`} {
			if strings.Contains(s, k) {
				return true
			}
		}
		// json-split writes "data" first: a document starting with a
		// data array of numbers is told by the sections after it.
		compact := strings.Join(strings.Fields(s), "")
		return strings.Contains(compact, `"data":[[`)
	}
	return false
}

// trialName is the file's base name without extension.
func trialName(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}
