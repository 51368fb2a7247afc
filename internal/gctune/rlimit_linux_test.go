package gctune

import (
	"math"
	"runtime/debug"
	"syscall"
	"testing"
)

// TestLimitToAddressSpace: under a soft address-space limit of 64 GiB
// (raised back afterwards) the runtime's soft memory limit becomes 0.6 of
// it; with GOMEMLIMIT set, or with no address-space limit, nothing is set.
func TestLimitToAddressSpace(t *testing.T) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &old); err != nil {
		t.Skip(err)
	}
	var as uint64 = 64 << 30
	if old.Max != infinity && old.Max < as {
		t.Skipf("hard address-space limit %d below 64 GiB", old.Max)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &old); err != nil {
			t.Fatal(err)
		}
	}()
	if old.Cur == infinity {
		t.Setenv("GOMEMLIMIT", "")
		if got := LimitToAddressSpace(); got != 0 {
			t.Errorf("no address-space limit: set %d", got)
		}
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: old.Max}); err != nil {
		t.Skip(err)
	}
	t.Setenv("GOMEMLIMIT", "")
	want := int64(float64(as) * AddressSpaceShare)
	if got := LimitToAddressSpace(); got != want || debug.SetMemoryLimit(-1) != want {
		t.Errorf("limit %d (runtime %d), want 0.6 × 64 GiB = %d", got, debug.SetMemoryLimit(-1), want)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "1GiB")
	if got := LimitToAddressSpace(); got != 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: LimitToAddressSpace set %d", got)
	}
}
