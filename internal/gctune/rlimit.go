package gctune

import (
	"math"
	"os"
	"runtime/debug"
)

// AddressSpaceShare is the share of the process's address-space limit
// (RLIMIT_AS, `ulimit -v`) that LimitToAddressSpace gives the Go runtime as
// its soft memory limit: the rest holds the program's code, thread stacks
// and the address space the runtime reserves but does not use.
const AddressSpaceShare = 0.6

// LimitToAddressSpace sets the runtime's soft memory limit
// (debug.SetMemoryLimit) to AddressSpaceShare × the address-space limit
// when the process has one (HPC login and batch nodes often set `ulimit
// -v`) and the user set no GOMEMLIMIT. Without it the heap, garbage
// included, may grow into the hard limit before a collection, and the
// process dies of "out of memory" instead of finishing or refusing its
// input with a clear error. It returns the limit set in bytes, 0 when none
// was set.
func LimitToAddressSpace() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	as, ok := addressSpaceLimit()
	if !ok || as == 0 || as > math.MaxInt64 {
		return 0
	}
	limit := int64(float64(as) * AddressSpaceShare)
	debug.SetMemoryLimit(limit)
	return limit
}
