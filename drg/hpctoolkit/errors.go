package hpctoolkit

import (
	"errors"
	"fmt"
)

// ErrTruncated is the cause of an Error for a metric-db file shorter than
// its header promises.
var ErrTruncated = errors.New("file ends before the values its header promises")

// Error is a problem in one file of an HPCToolkit database, at a byte
// offset of that file.
type Error struct {
	// Path is the file at fault (experiment.xml or a metric-db file).
	Path string
	// Offset is the byte offset in the file of the element or field at
	// fault; -1 when the problem concerns the whole file or database.
	Offset int64
	// Err is the cause.
	Err error
}

// Error returns "path: byte N: cause", or "path: cause" without an offset.
func (e *Error) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s: byte %d: %v", e.Path, e.Offset, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func errorf(path string, off int64, format string, args ...any) *Error {
	return &Error{Path: path, Offset: off, Err: fmt.Errorf(format, args...)}
}
