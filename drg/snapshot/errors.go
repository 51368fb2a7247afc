package snapshot

import "fmt"

// Error is a problem found in a snapshot XML stream, at a line of the
// (decompressed) file.
type Error struct {
	// Path is the file name given to Decode (the file's path, for
	// Reader.Read).
	Path string
	// Line is the 1-based line number in the decompressed stream; 0 when
	// the problem concerns the whole file.
	Line int
	// Err is the cause.
	Err error
}

// Error returns "path:line: cause", or "path: cause" without a line.
func (e *Error) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
