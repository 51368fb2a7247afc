package gprof

import (
	"errors"
	"fmt"
)

// ErrNotGprof is the cause of an Error for input that is neither gprof's
// text output nor a gprof2dot DOT graph.
var ErrNotGprof = errors.New("not gprof output (flat profile and call graph) or a gprof2dot DOT graph")

// Error is a problem found while reading gprof output or a DOT graph.
// Line is the 1-based line at fault (0 when unknown, with Offset -1).
type Error struct {
	// Path is the file name given to Decode (the path, for Reader.Read).
	Path string
	// Line is the 1-based line number, or 0.
	Line int
	// Offset is a byte offset, or -1.
	Offset int64
	// Err is the cause.
	Err error
}

// Error returns "path:line: cause" or "path: offset N: cause".
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	if e.Offset >= 0 {
		return fmt.Sprintf("%s: offset %d: %v", e.Path, e.Offset, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
