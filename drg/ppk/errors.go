package ppk

import (
	"errors"
	"fmt"
)

// ErrNotPPK is the cause of an Error for input that does not start with the
// packed profile magic ('P','P','K' as Java chars), either raw or after
// gzip decompression.
var ErrNotPPK = errors.New("not a ParaProf packed profile")

// ErrTruncated is the cause of an Error for input that ends inside a field.
var ErrTruncated = errors.New("unexpected end of data")

// Error is a problem found while decoding a packed profile. Offset is the
// byte offset in the decompressed payload (the DataOutputStream stream) of
// the field at fault; for a broken gzip stream it is the number of bytes
// decompressed before the failure.
type Error struct {
	// Path is the file name given to Decode (the path, for Reader.Read).
	Path string
	// Offset is the byte offset in the decompressed payload.
	Offset int64
	// Err is the cause.
	Err error
}

// Error returns "path: offset N: cause".
func (e *Error) Error() string {
	return fmt.Sprintf("%s: offset %d: %v", e.Path, e.Offset, e.Err)
}

// Unwrap returns the cause, so that errors.Is(err, ErrNotPPK) and
// errors.Is(err, ErrTruncated) work.
func (e *Error) Unwrap() error { return e.Err }
