package snapshot

import (
	"io"
	"unicode/utf8"
)

// rootName is the synthetic element that wraps the whole stream, because a
// snapshot file is a sequence of <profile_xml> documents and encoding/xml
// wants a single root.
const rootName = "tau-snapshot-stream"

var (
	rootOpen  = []byte("<" + rootName + ">")
	rootClose = []byte("</" + rootName + ">")
)

// plain marks the bytes that pass through cleanReader unchanged: printable
// ASCII, tab, line feed and carriage return.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = true
	}
	t['\t'], t['\n'], t['\r'] = true, true, true
	return t
}()

// replacement is U+FFFD in UTF-8, written for a byte that is not UTF-8 and
// for the non-characters U+FFFE and U+FFFF, which XML forbids.
var replacement = []byte("\uFFFD")

// cleanReader turns a snapshot stream into one XML document for
// encoding/xml: it writes the synthetic root's start tag first and its end
// tag at the end, drops NUL bytes (merged files end each rank's buffer with
// one), replaces the other control characters XML forbids by a blank (as
// TAU's Java reader does) and each byte that is not part of valid UTF-8 by
// U+FFFD. Valid UTF-8 is passed unchanged, and so are line feeds, so the
// decoder's line numbers are those of the input.
type cleanReader struct {
	r       io.Reader
	buf     []byte // raw input, valid in buf[lo:hi]
	lo, hi  int
	err     error  // the error of r, once it returned one
	pending []byte // output not yet delivered (tags, a replaced rune)
	closed  bool   // the end tag has been queued
	// delivered counts the bytes returned by Read; end is the count before
	// the root's end tag.
	delivered, end int64
	// mark is delivered when the decoder last returned a token: bytes
	// read past it belong to the token being read, at most maxTokenBytes.
	mark    int64
	empty   int // consecutive reads of r that returned nothing
	runeBuf [utf8.UTFMax]byte
}

func newCleanReader(r io.Reader) *cleanReader {
	return &cleanReader{r: r, buf: make([]byte, 64<<10), pending: rootOpen}
}

// Read implements io.Reader.
func (c *cleanReader) Read(p []byte) (int, error) {
	if c.delivered-c.mark > maxTokenBytes {
		return 0, tokenLimitError()
	}
	n, err := c.read(p)
	c.delivered += int64(n)
	return n, err
}

// truncated reports whether a reader of the output that has consumed
// offset bytes has reached the end of the input (the end tag of the
// synthetic root): if it fails there, the input ended too early.
func (c *cleanReader) truncated(offset int64) bool {
	return c.closed && offset >= c.end
}

func (c *cleanReader) read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(c.pending) > 0 {
			k := copy(p[n:], c.pending)
			c.pending = c.pending[k:]
			n += k
			continue
		}
		if c.lo == c.hi || (c.err == nil && !utf8.FullRune(c.buf[c.lo:c.hi]) && c.buf[c.lo] >= 0x80) {
			if n > 0 {
				return n, nil
			}
			if c.err != nil { // all input delivered (transform replaced an incomplete last rune)
				if c.err == io.EOF && !c.closed {
					c.closed = true
					c.end = c.delivered
					c.pending = rootClose
					continue
				}
				return 0, c.err
			}
			c.fill()
			continue
		}
		n += c.transform(p[n:])
	}
	return n, nil
}

// fill moves the unread input to the front of buf and reads more.
func (c *cleanReader) fill() {
	if c.lo > 0 {
		c.hi = copy(c.buf, c.buf[c.lo:c.hi])
		c.lo = 0
	}
	k, err := c.r.Read(c.buf[c.hi:])
	c.hi += k
	switch {
	case err != nil:
		c.err = err
	case k > 0:
		c.empty = 0
	default:
		if c.empty++; c.empty >= 100 {
			c.err = io.ErrNoProgress
		}
	}
}

// transform cleans input from buf[lo:hi] into p and returns the number of
// bytes written. It stops before an incomplete rune at the end of the
// input read so far, and queues a replaced or multi-byte rune that does not
// fit in p.
func (c *cleanReader) transform(p []byte) int {
	n := 0
	for c.lo < c.hi && n < len(p) {
		b := c.buf[c.lo]
		if plain[b] {
			// Copy the whole run of plain bytes at once.
			j := c.lo + 1
			lim := min(c.hi, c.lo+len(p)-n)
			for j < lim && plain[c.buf[j]] {
				j++
			}
			n += copy(p[n:], c.buf[c.lo:j])
			c.lo = j
			continue
		}
		switch {
		case b == 0:
			c.lo++
		case b < 0x80: // a C0 control character other than tab, LF, CR
			p[n] = ' '
			n++
			c.lo++
		default:
			rest := c.buf[c.lo:c.hi]
			if !utf8.FullRune(rest) && c.err == nil {
				return n // wait for the rest of the rune
			}
			r, size := utf8.DecodeRune(rest)
			out := rest[:size]
			if r == utf8.RuneError && size == 1 || r == 0xFFFE || r == 0xFFFF {
				out = replacement
			}
			c.lo += size
			if k := copy(p[n:], out); k < len(out) {
				// out may point into buf, which the next fill overwrites.
				m := copy(c.runeBuf[:], out[k:])
				c.pending = c.runeBuf[:m]
				return n + k
			}
			n += len(out)
		}
	}
	return n
}
