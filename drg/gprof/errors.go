package gprof

import (
	"errors"

	"github.com/taudb-analyze/taudb-analyze/drg/internal/fileerr"
)

// ErrNotGprof is the cause of an Error for input that is neither gprof's
// text output nor a gprof2dot DOT graph.
var ErrNotGprof = errors.New("not gprof output (flat profile and call graph) or a gprof2dot DOT graph")

// Error is a problem found while reading gprof output or a DOT graph.
// Line is the 1-based line at fault (0 when unknown, with Offset -1). It
// prints "path:line: cause" or "path: offset N: cause".
type Error = fileerr.Error
