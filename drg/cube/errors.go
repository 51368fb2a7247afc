package cube

import (
	"errors"
	"fmt"
)

// ErrTruncated is the cause of an Error for an archive member or file that
// ends before what its header promises.
var ErrTruncated = errors.New("ends before the values its header promises")

// Error is a problem in a .cubex archive: in one member (anchor.xml, an
// index or data file) at a byte offset of that member, or in the archive
// itself.
type Error struct {
	// Path is the .cubex file.
	Path string
	// Member is the archive member at fault ("" for the archive itself).
	Member string
	// Offset is the byte offset in the member (in the archive when Member
	// is ""); -1 when the problem concerns the whole member.
	Offset int64
	// Err is the cause.
	Err error
}

// Error returns "path: member: byte N: cause" (parts that are unknown are
// left out).
func (e *Error) Error() string {
	s := e.Path
	if e.Member != "" {
		s += ": " + e.Member
	}
	if e.Offset >= 0 {
		s += fmt.Sprintf(": byte %d", e.Offset)
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func errorf(path, member string, off int64, format string, args ...any) *Error {
	return &Error{Path: path, Member: member, Offset: off, Err: fmt.Errorf(format, args...)}
}
