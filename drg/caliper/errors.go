package caliper

import (
	"errors"

	"github.com/taudb-analyze/taudb-analyze/drg/internal/fileerr"
)

// ErrNotCaliper is the cause of an Error for input that is neither a .cali
// record stream nor cali-query JSON.
var ErrNotCaliper = errors.New("not a Caliper file (.cali records or cali-query JSON)")

// Error is a problem found while reading a Caliper file. For a .cali file
// Line is the 1-based line of the record at fault; for JSON Offset is the
// byte offset in the file and Line is 0. It prints "path:line: cause" or
// "path: offset N: cause".
type Error = fileerr.Error
