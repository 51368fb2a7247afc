// Package fileerr is the error of the text readers (Caliper, gprof) that
// say where in a file the input went wrong: a line, or a byte offset.
package fileerr

import "fmt"

// Error is a problem found while reading a file: Line is the 1-based line
// at fault, or 0; Offset the byte offset at fault, or -1 (used when Line is
// 0, for input read as a whole such as JSON).
type Error struct {
	// Path is the file name given to the reader.
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
