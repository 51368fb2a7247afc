package store

import (
	"context"
	"fmt"
	"math"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// taudb-analyze's tables of counts beyond TAUdb's 32-bit INT columns
// (schema/ours_*.sql): timer_call_data.calls and .subroutines, and
// counter_value.sample_count. SaveTrial writes such a count as
// math.MaxInt32 in TAU's column, which is what TAU's own tools read, and
// exactly in these tables; LoadTrial reads it back from them.
const (
	bigCallTable    = "timer_call_data_count"
	bigCounterTable = "counter_value_count"
)

// bigCall is a timer_call_data row whose calls or subroutines do not fit
// an INT: its position among the save's timer_call_data rows (its id less
// the block's first id) and the exact counts.
type bigCall struct {
	offset      int64
	calls, subs int64
}

// bigCounter is a counter_value whose sample count does not fit an INT.
type bigCounter struct {
	counter, thread int
	count           int64
}

// fitsInt32 reports whether count v, rounded, fits TAUdb's INT columns. NaN
// does (it is stored as 0).
func fitsInt32(v float64) bool {
	r := math.Round(v)
	return math.IsNaN(v) || (r <= math.MaxInt32 && r >= math.MinInt32)
}

// exactCount rounds count v to the nearest integer, or fails when it does
// not fit a BIGINT either (what says which count it is).
func exactCount(v float64, what func() string) (int64, error) {
	r := math.Round(v)
	if math.IsNaN(v) {
		return 0, nil
	}
	if r >= math.MaxInt64 || r < math.MinInt64 {
		return 0, fmt.Errorf("%s: %g does not fit a 64-bit integer column", what(), v)
	}
	return int64(r), nil
}

// callCounts returns the calls and subroutines of a timer_call_data row.
func (p *savePlan) callCounts(cd *callData) (calls, subs float64) {
	switch cd.kind {
	case cdReal:
		if sp := p.t.Sparse; sp != nil {
			return sp.Calls[cd.cell], sp.Subroutines[cd.cell]
		}
		return p.t.Calls[cd.cell], p.t.Subroutines[cd.cell]
	case cdDerived:
		d := derivedOrder[cd.col]
		return p.stats.Calls.Get(d)[cd.node], p.stats.Subroutines.Get(d)[cd.node]
	case cdSnapshot:
		s := &p.t.Series[cd.col]
		return s.Calls[cd.entry], s.Subroutines[cd.entry]
	}
	return 0, 0
}

// planBigCounts finds the counts that do not fit an INT (one pass over the
// call data and user-event values) and fails on one that does not fit a
// BIGINT either, naming the node and thread or event and thread.
func (p *savePlan) planBigCounts() error {
	c := p.cursor()
	for c.advance() {
		calls, subs := p.callCounts(&c.cur)
		if fitsInt32(calls) && fitsInt32(subs) {
			continue
		}
		cd := c.cur
		what := func() string { return "calls of " + p.describe(&cd) }
		ec, err := exactCount(calls, what)
		if err != nil {
			return err
		}
		es, err := exactCount(subs, what)
		if err != nil {
			return err
		}
		p.bigCalls = append(p.bigCalls, bigCall{offset: cd.id - p.ids[serialCallData], calls: ec, subs: es})
	}
	for k := range p.t.Counters {
		for th := range p.nt {
			i := k*p.nt + th
			if !p.t.CounterPresent.Get(i) || fitsInt32(p.t.CounterValues[i].NumEvents) {
				continue
			}
			n, err := exactCount(p.t.CounterValues[i].NumEvents, func() string {
				return fmt.Sprintf("samples of user event %q on thread %s", p.t.Counters[k].Name, threadName(&p.t.Threads[th]))
			})
			if err != nil {
				return err
			}
			p.bigCounters = append(p.bigCounters, bigCounter{counter: k, thread: th, count: n})
		}
	}
	return nil
}

// describe names the node and thread of a timer_call_data row, for errors.
func (p *savePlan) describe(cd *callData) string {
	node := fmt.Sprintf("%q", p.t.Nodes[cd.node].Name)
	switch cd.kind {
	case cdReal:
		return node + " on thread " + threadName(&p.t.Threads[cd.col])
	case cdDerived:
		return fmt.Sprintf("%s, derived thread %d", node, derivedOrder[cd.col])
	}
	s := &p.t.Series[cd.col]
	return fmt.Sprintf("%s on thread %s in snapshot %q", node, threadName(&p.t.Threads[s.Thread]), s.Name)
}

// threadName is "N.C.T".
func threadName(th *drg.Thread) string {
	return fmt.Sprintf("%d.%d.%d", th.Node, th.Context, th.Thread)
}

// checkBigTables fails, before anything is written, when the trial has
// counts beyond an INT and the database lacks the tables to keep them (a
// schema created by an earlier version or by TAU: "db init" adds them).
func (p *savePlan) checkBigTables(have bool) error {
	if have || (len(p.bigCalls) == 0 && len(p.bigCounters) == 0) {
		return nil
	}
	return fmt.Errorf("the trial has counts above 2147483647 (TAUdb's INT columns), which are kept exactly in the tables %s and %s; "+
		"the database lacks them: run \"taudb-analyze db init\" to add them, then load again", bigCallTable, bigCounterTable)
}

func (p *savePlan) bigCallRows() tableRows {
	cols := []string{"timer_call_data", "calls", "subroutines"}
	first := p.ids[serialCallData]
	return tableRows{bigCallTable, cols, len(p.bigCalls), gen(len(p.bigCalls), len(cols), func(i int, r []any) {
		b := p.bigCalls[i]
		r[0], r[1], r[2] = first+b.offset, b.calls, b.subs
	})}
}

func (p *savePlan) bigCounterRows() tableRows {
	cols := []string{"counter", "thread", "sample_count"}
	return tableRows{bigCounterTable, cols, len(p.bigCounters), gen(len(p.bigCounters), len(cols), func(i int, r []any) {
		b := p.bigCounters[i]
		r[0], r[1], r[2] = p.counterID(b.counter), p.threadID(b.thread), b.count
	})}
}

// loadBigCallsQuery reads the exact counts of the trial's profile rows
// within its timer_call_data id range, with the INT values TAU's columns
// hold, so that LoadTrial adds the difference to what it read there; and
// of its snapshot rows, by timer_call_data id.
const loadBigCallsQuery = `
SELECT b.timer_call_data, tcd.timer_callpath, tcd.thread, CASE WHEN tcd.time_range IS NULL THEN 0 ELSE 1 END,
       COALESCE(tcd.calls, 0), COALESCE(tcd.subroutines, 0), b.calls, b.subroutines
FROM timer_call_data_count b JOIN timer_call_data tcd ON tcd.id = b.timer_call_data
WHERE b.timer_call_data BETWEEN $1 AND $2`

// loadBigCountersQuery reads the exact sample counts of the trial's user
// events.
const loadBigCountersQuery = `
SELECT b.counter, b.thread, b.sample_count
FROM counter_value_count b JOIN counter c ON c.id = b.counter
WHERE c.trial = $1`

// exactCounts are the counts LoadTrial read from the tables of big counts.
type exactCounts struct {
	snapshot map[int64][2]float64 // snapshot timer_call_data id → calls, subroutines
	samples  map[[2]int64]float64 // (counter, thread) → sample count
}

// readBigCounts reads the exact counts of the trial, when the database has
// the tables: the profile's are added to the builder at once (the
// difference to the INT value already added), the snapshots' and the user
// events' are returned for readSnapshots and readCounters.
func (l *loader) readBigCounts(ctx context.Context) (exactCounts, error) {
	ex := exactCounts{snapshot: map[int64][2]float64{}, samples: map[[2]int64]float64{}}
	if have, err := hasTable(ctx, l.r, l.d, bigCallTable); err != nil || !have {
		return ex, err
	}
	var cd, cp, th, snap, c32, s32, calls, subs int64
	err := l.r.query(ctx, loadBigCallsQuery, func(scan func(...any) error) error {
		if err := scan(&cd, &cp, &th, &snap, &c32, &s32, &calls, &subs); err != nil {
			return err
		}
		col, real := l.threads[th]
		n, ours := l.nodes[cp]
		switch {
		case !real || !ours || (l.only != nil && !l.only[cp]):
			// a derived thread's row, or another trial's in the range, or
			// a node LoadTrialPart does not read
		case snap == 1:
			ex.snapshot[cd] = [2]float64{float64(calls), float64(subs)}
		case l.paged:
			// the pages hold the exact counts
		default:
			l.b.AddCalls(n, col, float64(calls-c32), float64(subs-s32))
		}
		return nil
	}, l.calls.First, l.calls.Last)
	if err != nil {
		return ex, fmt.Errorf("read %s: %w", bigCallTable, err)
	}
	var k int64
	var count int64
	err = l.r.query(ctx, loadBigCountersQuery, func(scan func(...any) error) error {
		if err := scan(&k, &th, &count); err != nil {
			return err
		}
		ex.samples[[2]int64{k, th}] = float64(count)
		return nil
	}, l.id)
	if err != nil {
		return ex, fmt.Errorf("read %s: %w", bigCounterTable, err)
	}
	return ex, nil
}
