package safefile

import (
	"errors"
	"fmt"
	"io"
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
