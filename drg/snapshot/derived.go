package snapshot

import (
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Derived holds the statistics TAU precomputed into a merged profile
// (TAU_PRECOMPUTE=on): one derived profile per entity, over all ranks and
// threads. They are not threads of the trial. TAU's Java loader stores them
// as they are instead of computing its own; here they are aligned with the
// trial read from the same file so that they can be compared with
// drg.Trial.Statistics.
//
// TAU computes them as follows (TauCollate.cpp), for each column of each
// event: N is the number of threads, k the number with calls > 0 (for a
// user event, numevents > 0); mean_all = Σx/N, mean_no_null = Σx/k,
// stddev_all = √|Σx²/N − mean_all²|, stddev_no_null = √|Σx²/k −
// mean_no_null²| (0 when the count is 0), min_no_null = the smallest x
// that is > 0 (-1 when no x is), max_no_null = the largest x.
type Derived struct {
	// Threads lists the derived threads the file holds, in file order:
	// entity "total" is drg.Total, "mean_all" drg.MeanAll, "mean_no_null"
	// drg.Mean, "stddev_all" drg.StdDevAll, "stddev_no_null" drg.StdDev,
	// "min_no_null" drg.Min and "max_no_null" drg.Max.
	Threads []drg.DerivedThread
	// Stats holds the file's interval values in the layout of
	// drg.Statistics: Calls, Subroutines and, per trial metric, Inclusive
	// and Exclusive, with one value per trial node in each statistic
	// (Column.Get(d) gives derived thread d). Nodes the file has no line
	// for, and derived threads it lacks, are 0. Count is nil: the file does
	// not give it.
	Stats drg.Statistics
	// Counters holds, for each derived thread with user-event data, one
	// value per trial counter. Each field is the statistic of that field
	// over the threads: the Mean of Counters[drg.Max] is the largest mean
	// of any thread. Counters the file has no line for are zero; when
	// several user-event ids share a name, the last line wins, as for the
	// threads' values.
	Counters map[drg.DerivedThread][]drg.CounterValue
}

// Has reports whether the file holds derived thread dt.
func (d *Derived) Has(dt drg.DerivedThread) bool {
	for _, x := range d.Threads {
		if x == dt {
			return true
		}
	}
	return false
}

// entityThreads maps TAU's derived entity ids to drg's derived threads.
var entityThreads = map[string]drg.DerivedThread{
	"total":          drg.Total,
	"mean_all":       drg.MeanAll,
	"mean_no_null":   drg.Mean,
	"stddev_all":     drg.StdDevAll,
	"stddev_no_null": drg.StdDev,
	"min_no_null":    drg.Min,
	"max_no_null":    drg.Max,
}

// buildDerived aligns the derived profiles of streams with t; it returns
// nil when there are none. Unknown entities and events that are not nodes
// of t are reported in t.Warnings.
func buildDerived(t *drg.Trial, streams []*stream) *Derived {
	found := false
	for _, s := range streams {
		found = found || len(s.derived) > 0
	}
	if !found {
		return nil
	}
	b := newDerivedBuilder(t)
	for _, s := range streams {
		b.addStream(s)
	}
	if b.missing > 0 {
		t.Warnings = append(t.Warnings, fmtWarning(streams[0].path, 0,
			"%d derived lines name events no thread measured, ignored (first: %q)", b.missing, b.firstMissing))
	}
	return b.d
}

// derivedBuilder fills a Derived from the derived profiles of streams,
// looking nodes and user events up by name in t, and counts the derived
// lines that name an event t lacks.
type derivedBuilder struct {
	t                   *drg.Trial
	d                   *Derived
	nodeIdx, counterIdx map[string]int
	missing             int
	firstMissing        string
}

// newDerivedBuilder makes an empty Derived of t's size and its name maps.
func newDerivedBuilder(t *drg.Trial) *derivedBuilder {
	nn := len(t.Nodes)
	d := &Derived{
		Stats:    drg.Statistics{Calls: newColumn(nn), Subroutines: newColumn(nn)},
		Counters: map[drg.DerivedThread][]drg.CounterValue{},
	}
	for range t.Metrics {
		d.Stats.Inclusive = append(d.Stats.Inclusive, newColumn(nn))
		d.Stats.Exclusive = append(d.Stats.Exclusive, newColumn(nn))
	}
	b := &derivedBuilder{t: t, d: d, nodeIdx: make(map[string]int, nn), counterIdx: make(map[string]int, len(t.Counters))}
	for i, n := range t.Nodes {
		b.nodeIdx[n.Name] = i
	}
	for i, c := range t.Counters {
		b.counterIdx[c.Name] = i
	}
	return b
}

// miss counts one derived line naming an event t lacks.
func (b *derivedBuilder) miss(name string) {
	if b.missing == 0 {
		b.firstMissing = name
	}
	b.missing++
}

// addStream adds the derived profiles of one stream; an unknown entity is
// a warning.
func (b *derivedBuilder) addStream(s *stream) {
	metric := make([]int, len(s.metrics))
	for i, name := range s.metrics {
		metric[i] = b.t.MetricIndex(name)
	}
	evName := canonicalNames(len(s.events), func(i int) string { return s.events[i].name })
	ueName := canonicalNames(len(s.userEvents), func(i int) string { return s.userEvents[i] })
	for _, dp := range s.derived {
		dt, ok := entityThreads[dp.entity]
		if !ok {
			b.t.Warnings = append(b.t.Warnings, fmtWarning(s.path, dp.line, "derived entity %q unknown, ignored", dp.entity))
			continue
		}
		if !b.d.Has(dt) {
			b.d.Threads = append(b.d.Threads, dt)
		}
		for _, blk := range dp.intervals {
			b.addIntervals(dt, blk, evName, metric)
		}
		if len(dp.atomics) > 0 {
			b.addAtomics(dt, dp.atomics, ueName)
		}
	}
}

// addIntervals sets derived thread dt's calls, subroutines and values of
// one interval block; metric maps the stream's metrics to t's.
func (b *derivedBuilder) addIntervals(dt drg.DerivedThread, blk *intervalBlock, evName func(int) string, metric []int) {
	st := &b.d.Stats
	w := blk.width()
	for r, ev := range blk.events {
		name := evName(int(ev))
		n, ok := b.nodeIdx[name]
		if !ok {
			b.miss(name)
			continue
		}
		row := blk.nums[r*w : (r+1)*w]
		set(&st.Calls, dt, n, row[0])
		set(&st.Subroutines, dt, n, row[1])
		for j, sm := range blk.metrics {
			m := metric[sm]
			set(&st.Exclusive[m], dt, n, row[2+2*j])
			set(&st.Inclusive[m], dt, n, row[3+2*j])
		}
	}
}

// addAtomics sets derived thread dt's user-event values; a row of an
// event t lacks counts as missing unless it is all zero.
func (b *derivedBuilder) addAtomics(dt drg.DerivedThread, rows []atomicRow, ueName func(int) string) {
	vals := b.d.Counters[dt]
	if vals == nil {
		vals = make([]drg.CounterValue, len(b.t.Counters))
		b.d.Counters[dt] = vals
	}
	for _, row := range rows {
		name := ueName(int(row.event))
		if k, ok := b.counterIdx[name]; ok {
			vals[k] = row.value
		} else if row.value != (drg.CounterValue{}) {
			b.miss(name)
		}
	}
}

// canonicalNames returns a function giving the canonical form of name(i),
// computed once per index.
func canonicalNames(n int, name func(int) string) func(int) string {
	memo := make([]string, n)
	done := make([]bool, n)
	return func(i int) string {
		if !done[i] {
			memo[i], done[i] = drg.CanonicalName(name(i)), true
		}
		return memo[i]
	}
}

func newColumn(n int) drg.Column {
	return drg.Column{
		Mean: make([]float64, n), Total: make([]float64, n), StdDev: make([]float64, n),
		Min: make([]float64, n), Max: make([]float64, n),
		MeanAll: make([]float64, n), StdDevAll: make([]float64, n),
	}
}

// set stores v as statistic dt of node n in c.
func set(c *drg.Column, dt drg.DerivedThread, n int, v float64) {
	c.Get(dt)[n] = v
}

// fmtWarning formats a warning that names the file and, when known, the
// line.
func fmtWarning(path string, line int, format string, args ...any) string {
	return (&Error{Path: path, Line: line, Err: fmt.Errorf(format, args...)}).Error()
}
