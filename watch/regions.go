package watch

import (
	"sync"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// regions gives every region (a flat or callpath timer name, canonical as
// TAU's loader makes it) a stable index, in order of first appearance. It
// is shared by the readers of all ranks.
type regions struct {
	mu     sync.Mutex
	names  []string
	groups []string
	idx    map[string]int32
}

func newRegions() *regions { return &regions{idx: map[string]int32{}} }

// index returns the index of the region named raw (canonicalized), adding
// it with its groups when new.
func (r *regions) index(raw, groups string) int32 {
	name := drg.CanonicalName(raw)
	r.mu.Lock()
	defer r.mu.Unlock()
	if i, ok := r.idx[name]; ok {
		return i
	}
	i := int32(len(r.names))
	r.idx[name] = i
	r.names = append(r.names, name)
	r.groups = append(r.groups, groups)
	return i
}

// count returns the number of regions.
func (r *regions) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.names)
}

// snapshot returns the names and groups known so far.
func (r *regions) snapshot() (names, groups []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.names[:len(r.names):len(r.names)], r.groups[:len(r.groups):len(r.groups)]
}

// dump is one cumulative profile of one rank: what TAU wrote at one
// TAU_PROFILE_SNAPSHOT or TAU_DB_DUMP call. Values are cumulative since
// the program started, in the time metric's unit (µs).
type dump struct {
	// timestamp is the time of the dump in µs since the epoch (0 unknown).
	timestamp int64
	// name is the snapshot's name, when TAU was given one.
	name string
	// region, calls, excl and incl are parallel: one entry per region the
	// rank had executed by then.
	region            []int32
	calls, excl, incl []float64
}

// reset empties d, keeping its memory.
func (d *dump) reset() {
	d.timestamp, d.name = 0, ""
	d.region, d.calls, d.excl, d.incl = d.region[:0], d.calls[:0], d.excl[:0], d.incl[:0]
}

func (d *dump) add(region int32, calls, excl, incl float64) {
	d.region = append(d.region, region)
	d.calls = append(d.calls, calls)
	d.excl = append(d.excl, excl)
	d.incl = append(d.incl, incl)
}
