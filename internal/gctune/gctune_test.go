package gctune

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 100},
		{10 * mib, 100},  // headroom 100 MiB ≥ live: capped at 100
		{100 * mib, 100}, // headroom = live
		{400 * mib, 25},  // 100 MiB of 400
		{800 * mib, 12},  // live/8 = 100 MiB: 12.5 → 12
		{3200 * mib, 12}, // live/8
		{1000 * mib, 12}, // 125 MiB of 1000 = 12.5 → 12
		{200 * mib, 50},  // 100 MiB of 200
		{1 << 40, 12},    // never below 12
	} {
		if got := Percent(c.live); got != c.want {
			t.Errorf("Percent(%d MiB) = %d, want %d", c.live/mib, got, c.want)
		}
	}
}

// TestStartLowersGOGCForABigHeap holds 400 MiB live and checks that after
// a collection the GC percentage is the one Percent gives for it.
func TestStartLowersGOGCForABigHeap(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	Start()
	live := make([]float64, 400<<20/8)
	for i := range live {
		live[i] = float64(i)
	}
	// The finalizer runs on its own goroutine after a cycle: give it time.
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	got := 100
	for i := 0; i < 200 && got > 30; i++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		metrics.Read(s)
		got = int(s[0].Value.Uint64())
	}
	if got > 30 || got < 12 {
		t.Errorf("GOGC with 400 MiB live = %d, want about 25 (Percent gives %d)", got, Percent(400<<20))
	}
	runtime.KeepAlive(live)
}
