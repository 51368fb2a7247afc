package store

import (
	"context"
	"fmt"
)

// callRange is the range of timer_call_data ids that holds every row of one
// trial: First <= id <= Last for each of the trial's rows (real, derived
// and snapshot threads). Rows of other trials may lie inside the range too
// (a loader that interleaved with another): the range only bounds the scan,
// it never decides which rows belong to the trial. LoadTrial skips the rows
// whose thread is not one of the trial's real threads as it reads them, and
// Stats joins thread on the trial. An empty trial has First > Last.
type callRange struct {
	First, Last int64
}

// callRangeQuery finds the range from the trial's threads: the rows whose
// thread lies between the trial's first and last thread row, through
// TAUdb's index on timer_call_data(thread), joined with the trial's
// threads. The thread ids are bounds rather than a list: PostgreSQL
// rechecks a lossy bitmap against a list value by value, which grows with
// the square of the trial's size. id + 0 keeps PostgreSQL from answering
// MIN and MAX by walking the primary key from either end, which crosses
// every other trial's rows first.
const callRangeQuery = `
SELECT COALESCE(MIN(tcd.id + 0), 1), COALESCE(MAX(tcd.id + 0), 0)
FROM timer_call_data tcd JOIN thread th ON th.id = tcd.thread
WHERE th.trial = $1
  AND tcd.thread BETWEEN (SELECT MIN(id) FROM thread WHERE trial = $1) AND (SELECT MAX(id) FROM thread WHERE trial = $1)`

// callRangeTable is taudb-analyze's table of the trials' ranges
// (schema/ours_*.sql).
const callRangeTable = "trial_call_data_range"

// storedCallRangeQuery reads the range SaveTrial wrote.
const storedCallRangeQuery = `SELECT first_id, last_id FROM trial_call_data_range WHERE trial = $1`

// hasTable reports whether the database has a table of that name, without
// failing (and so, on PostgreSQL, without aborting the transaction r runs
// in) when it has not.
func hasTable(ctx context.Context, r runner, d Dialect, name string) (bool, error) {
	q := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1`
	if d == Postgres {
		q = `SELECT COUNT(*) FROM (SELECT to_regclass($1) AS t) c WHERE c.t IS NOT NULL`
	}
	var n int64
	if err := r.query(ctx, q, func(scan func(...any) error) error { return scan(&n) }, name); err != nil {
		return false, fmt.Errorf("look for table %s: %w", name, err)
	}
	return n > 0, nil
}

// readCallRange returns the timer_call_data id range of trial id: the one
// SaveTrial stored in trial_call_data_range, or else (a trial TAU's own
// loader wrote, or a database without the table) the one callRangeQuery
// finds.
//
// Why it exists: the trial's rows of timer_value are found through
// timer_call_data. Joined by the trial alone, PostgreSQL hashes the trial's
// timer_call_data rows and scans all of timer_value, every trial's, and
// once the hash outgrows work_mem it spills both sides to temporary files;
// a 64k-thread trial then reads back much slower than linearly. Bounded by
// the range, both tables are read as ranges of their indexes (the primary
// key of timer_call_data, timer_value_index on (timer_call_data, metric))
// and merged in id order: time linear in the trial's rows, whatever else the
// database holds.
func readCallRange(ctx context.Context, r runner, d Dialect, id int64) (callRange, error) {
	var c callRange
	stored, err := hasTable(ctx, r, d, callRangeTable)
	if err != nil {
		return c, err
	}
	found := false
	if stored {
		if err := r.query(ctx, storedCallRangeQuery, func(scan func(...any) error) error {
			found = true
			return scan(&c.First, &c.Last)
		}, id); err != nil {
			return c, fmt.Errorf("read %s: %w", callRangeTable, err)
		}
	}
	if found {
		return c, nil
	}
	if err := r.query(ctx, callRangeQuery, func(scan func(...any) error) error {
		return scan(&c.First, &c.Last)
	}, id); err != nil {
		return c, fmt.Errorf("find the range of the trial's timer_call_data ids: %w", err)
	}
	return c, nil
}

// The planner settings that pin, for the queries bounded by a callRange,
// one plan whose cost is linear in the trial's rows. PostgreSQL's estimates
// for a range of a table just loaded (no statistics yet, or a range
// spanning most of the table) otherwise lead it to hash one table whole and
// scan the other, spilling to temporary files once the trial outgrows
// work_mem, or, with no statistics at all, to probe the whole range once
// per thread: time quadratic in the trial.
//
// pinRangePlan leaves a merge join of two index ranges (timer_call_data's
// primary key and timer_value_index) for LoadTrial's values query;
// pinCountPlan a hash join of the trial's few thread rows with the range of
// timer_call_data's primary key for Stats' count.
const (
	pinRangePlan = `SET LOCAL enable_hashjoin = off; SET LOCAL enable_nestloop = off;
SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off`
	pinCountPlan = `SET LOCAL enable_mergejoin = off; SET LOCAL enable_nestloop = off;
SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off`
	// pinPagePlan reads a trial's pages as a range of the primary key, in
	// its order: without statistics (right after a load) the planner
	// otherwise picks a bitmap scan and sorts the gigabytes of pages of a
	// large trial (24 s instead of 11 s for 6.2 GB), and compiles the query
	// (JIT).
	pinPagePlan = `SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off; SET LOCAL jit = off`
	// pinDerivedPlan looks Stats' few derived threads' rows up by index:
	// timer_call_data by thread, then timer_value by timer_call_data.
	// Without statistics (right after a load) PostgreSQL otherwise scans
	// and hashes every timer_value row of the trial: 35.7 s instead of
	// 0.07 s on the 131,072-thread trial.
	pinDerivedPlan = `SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off; SET LOCAL enable_seqscan = off; SET LOCAL jit = off`
	unpinPlan      = `SET LOCAL enable_hashjoin TO DEFAULT; SET LOCAL enable_mergejoin TO DEFAULT;
SET LOCAL enable_nestloop TO DEFAULT; SET LOCAL enable_seqscan TO DEFAULT; SET LOCAL enable_sort TO DEFAULT;
SET LOCAL enable_bitmapscan TO DEFAULT; SET LOCAL jit TO DEFAULT`
)

// withPlan runs fn with the planner settings pin (pinRangePlan or
// pinCountPlan) on PostgreSQL; SQLite's planner already reads an id range
// of an INTEGER PRIMARY KEY and looks rows up by the indexes. The settings
// last until fn returns, within the read transaction r runs in.
func withPlan(ctx context.Context, r runner, d Dialect, pin string, fn func() error) error {
	if d != Postgres {
		return fn()
	}
	if err := r.exec(ctx, pin); err != nil {
		return fmt.Errorf("pin the plan: %w", err)
	}
	if err := fn(); err != nil {
		return err
	}
	if err := r.exec(ctx, unpinPlan); err != nil {
		return fmt.Errorf("unpin the plan: %w", err)
	}
	return nil
}
