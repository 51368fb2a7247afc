//go:build !linux

package gctune

// addressSpaceLimit reports no limit where RLIMIT_AS is not read.
func addressSpaceLimit() (uint64, bool) { return 0, false }
