package gctune

import "syscall"

// addressSpaceLimit returns the soft RLIMIT_AS in bytes, and false when it
// is unlimited or cannot be read.
func addressSpaceLimit() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == infinity {
		return 0, false
	}
	return r.Cur, true
}

// infinity is RLIM_INFINITY as the uint64 of syscall.Rlimit.
const infinity = ^uint64(0)
