package caliper

import (
	"errors"
	"fmt"
)

// ErrNotCaliper is the cause of an Error for input that is neither a .cali
// record stream nor cali-query JSON.
var ErrNotCaliper = errors.New("not a Caliper file (.cali records or cali-query JSON)")

// Error is a problem found while reading a Caliper file. For a .cali file
// Line is the 1-based line of the record at fault; for JSON Offset is the
// byte offset in the file and Line is 0.
type Error struct {
	// Path is the file name given to Decode (the path, for Reader.Read).
	Path string
	// Line is the 1-based line number (.cali), or 0.
	Line int
	// Offset is the byte offset (JSON), or -1.
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
