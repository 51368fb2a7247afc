package snapshot

import (
	"errors"
	"fmt"
)

// Bounds on what one XML stream may hold, so that a small hostile file
// cannot make the reader run out of memory. TAU's own files stay far below
// them: their elements nest about six deep, and their largest piece of text
// is one thread's interval data block (a line per event).
const (
	// MaxDepth is the deepest nesting of elements accepted.
	MaxDepth = 256
	// MaxTokenBytes is the largest single piece of the stream the XML
	// decoder holds at once (a tag with its attributes, or a run of text
	// between two tags), and the largest text of one element kept, in
	// bytes (32 MiB; the interval data of one thread with 100,000 timers
	// takes about 10 MiB).
	MaxTokenBytes = 32 << 20
	// MaxInflated is the most bytes a gzip-compressed stream may
	// decompress to (4 GiB).
	MaxInflated = 4 << 30
)

// errTokenTooLarge is returned by the clean reader when one token of the
// XML decoder would pass MaxTokenBytes.
var errTokenTooLarge = errors.New("a tag or a run of text longer than the limit")

// tokenLimitError says how large a token was allowed to be.
func tokenLimitError() error {
	return fmt.Errorf("%w of %d bytes", errTokenTooLarge, int64(maxTokenBytes))
}

// maxTokenBytes and maxDepth are the limits in force; tests lower them.
var (
	maxTokenBytes int64 = MaxTokenBytes
	maxDepth            = MaxDepth
)
