// Package gprof reads GNU gprof's text output (the flat profile and the
// call graph) and the DOT call graphs that gprof2dot makes from gprof,
// callgrind and other profilers, as Hatchet's GprofDotReader reads them.
// See docs/formats/gprof.md.
//
// Both are call graphs, not calling-context trees: every function is a
// region whose flat node holds its own totals (gprof: self and self +
// children seconds and calls, stored as microseconds of metric TIME;
// gprof2dot: the inclusive and exclusive percentages of total time and the
// calls of its label, metric PERCENT_OF_TOTAL), and every caller => callee
// arc is a callpath node of depth 1 under the caller, as in a TAU profile
// with a callpath depth of 2. gprof's call graph gives an arc's self and
// children time; gprof2dot gives an arc's inclusive percentage only, and
// the reader derives its exclusive as the callee's exclusive times the
// arc's share of the callee's inclusive. One thread, 0.0.0.
//
// Bad input gives an *Error naming the file and the line.
package gprof

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// DataSource is the TAUdb data_source id of gprof output (5, "gprof").
const DataSource = 5

// Reader reads one gprof text file or gprof2dot DOT file.
type Reader struct {
	// Path is the file.
	Path string
}

// Read reads the file at r.Path into a trial named after the file's base
// name without extension, with Source{Format: "gprof", Path: r.Path,
// DataSource: 5}.
func (r Reader) Read() (*drg.Trial, error) {
	f, err := safefile.Open(r.Path)
	if err != nil {
		return nil, fmt.Errorf("gprof: %w", err)
	}
	defer f.Close()
	return Decode(f, r.Path)
}

// Decode reads gprof text or a DOT graph from r, told apart by the first
// bytes; path names the input in errors and in the trial's source.
func Decode(r io.Reader, path string) (*drg.Trial, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(4096)
	var t *cct.Collector
	var meta map[string]string
	var err error
	switch kindOf(head) {
	case "dot":
		t, meta, err = decodeDOT(br)
	case "text":
		t, meta, err = decodeText(br)
	default:
		err = &Error{Offset: 0, Err: ErrNotGprof}
	}
	if err != nil {
		return nil, withPath(err, path)
	}
	t.GivenFlat = true // a function's totals are its flat node; edges are callpaths
	src := drg.Source{Format: "gprof", Path: path, DataSource: DataSource}
	base := filepath.Base(path)
	tr, err := t.Build(strings.TrimSuffix(base, filepath.Ext(base)), src, meta)
	if err != nil {
		return nil, &Error{Path: path, Offset: -1, Err: err}
	}
	return tr, nil
}

func withPath(err error, path string) error {
	var e *Error
	if errors.As(err, &e) {
		e.Path = path
		return e
	}
	return &Error{Path: path, Offset: -1, Err: err}
}

// kindOf returns "dot", "text" or "".
func kindOf(head []byte) string {
	t := bytes.TrimLeft(head, " \t\r\n")
	for _, p := range []string{"digraph", "strict digraph", "graph"} {
		if bytes.HasPrefix(t, []byte(p)) {
			return "dot"
		}
	}
	if bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("/*")) {
		return "dot"
	}
	for _, p := range []string{"Flat profile:", "Call graph (explanation follows)", "index % time    self  children"} {
		if bytes.Contains(head, []byte(p)) {
			return "text"
		}
	}
	return ""
}

// Detect reports whether head, the first bytes of a file, is gprof text
// output or a DOT graph as gprof2dot writes it (a node label with a
// percentage line).
func Detect(head []byte) bool {
	switch kindOf(head) {
	case "text":
		return true
	case "dot":
		return bytes.Contains(head, []byte(`%\n(`))
	}
	return false
}
