package safefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrInflated is wrapped by a *CapError.
var ErrInflated = errors.New("decompressed data larger than allowed")

// CapError is the error of a decompressed stream that outgrew its cap.
type CapError struct {
	// Limit is the cap in bytes; Why says where it comes from.
	Limit int64
	Why   string
}

// Error gives the cap and its reason.
func (e *CapError) Error() string {
	return fmt.Sprintf("decompresses to more than %d bytes (%s)", e.Limit, e.Why)
}

// Unwrap returns ErrInflated.
func (e *CapError) Unwrap() error { return ErrInflated }

// Cap returns a reader of r that fails with a *CapError (why says where
// the limit comes from) as soon as more than limit bytes would be read,
// instead of ending quietly as io.LimitReader does.
func Cap(r io.Reader, limit int64, why string) io.Reader {
	return &capReader{r: r, left: limit, limit: limit, why: why}
}

type capReader struct {
	r           io.Reader
	left, limit int64
	why         string
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, &CapError{Limit: c.limit, Why: c.why}
	}
	// Ask for one byte beyond the cap, so that reaching it exactly at the
	// end of the data is not an error.
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n + int(c.left), &CapError{Limit: c.limit, Why: c.why}
	}
	return n, err
}

// GzipSize returns the size a single-member gzip file f states in its
// trailer (ISIZE: the decompressed size modulo 2³²); ok is false when f is
// not a regular file or too short to be gzip.
func GzipSize(f *os.File) (size int64, ok bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() < 18 {
		return 0, false
	}
	var tail [4]byte
	if _, err := f.ReadAt(tail[:], st.Size()-4); err != nil {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint32(tail[:])), true
}
