// Package gctune keeps the Go garbage collector's memory headroom in
// proportion to what a big trial needs.
//
// With the default GOGC=100 the heap may grow to twice the live data before
// a collection: a 64k-thread × 1,000-region × 2-metric trial holds 3.1 GB of
// values, so the process would peak near 6.3 GB. Once Start is called, after
// every collection the GC percentage is set so that the headroom is
//
//	headroom = max(Floor, live/8)
//	GOGC     = clamp(100 · headroom / live, 12, 100)
//
// which leaves small runs (live below 800 MiB) at GOGC=100 and bounds a big
// run's peak near 1.125 × live. The values of a trial are pointer-free
// float64 columns, which the collector does not scan, so the extra
// collections cost little.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Floor is the smallest headroom in bytes (100 MiB).
const Floor = 100 << 20

// Percent returns the GOGC value for live bytes of live heap:
// clamp(100·max(Floor, live/8)/live, 12, 100); 100 for an empty heap.
func Percent(live uint64) int {
	if live == 0 {
		return 100
	}
	headroom := max(uint64(Floor), live/8)
	p := int(100 * headroom / live)
	return min(max(p, 12), 100)
}

// Start installs the adjustment, which then runs after every garbage
// collection for the life of the process. It does nothing when the user
// set GOGC in the environment: their choice wins.
func Start() {
	if os.Getenv("GOGC") != "" {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	onEveryGC(func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetGCPercent(Percent(sample[0].Value.Uint64()))
		}
	})
}

// sentinel is an object whose only purpose is to be collected: its
// finalizer runs once per garbage-collection cycle. It is larger than the
// tiny allocator's 16 bytes so that it is finalized on its own.
type sentinel struct{ _ [64]byte }

// onEveryGC calls f, on the finalizer goroutine, after each collection.
func onEveryGC(f func()) {
	var fin func(*sentinel)
	fin = func(s *sentinel) {
		f()
		runtime.SetFinalizer(s, fin)
	}
	runtime.SetFinalizer(new(sentinel), fin)
}
