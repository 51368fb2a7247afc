package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// LoadTrialPart reads trial id as LoadTrial does, but the values of only
// some call-graph nodes: pick receives the trial's structure (as
// LoadCallGraph gives it: every node, region and group, no value) and
// returns the nodes (indexes into its Nodes) whose values to read. Only
// their timer_call_data and timer_value rows are read, through TAUdb's
// index on timer_call_data(timer_callpath); the other nodes keep no record
// (Trial.Has is false). User events and metadata are read whole; earlier
// snapshots are not read.
//
// It serves a call-path query naming no metric on a stored trial: the
// query picks the nodes from the structure, and an analysis restricted to
// them (callquery.Restrict) needs only their values, and those of the
// main region (docs/query.md says when this is faster than LoadTrial).
// pick's error is returned as is.
func (db *DB) LoadTrialPart(ctx context.Context, id int64, pick func(shape *drg.Trial) ([]int, error)) (*drg.Trial, error) {
	var t *drg.Trial
	var pickErr error
	err := db.readTx(ctx, func(r runner) error {
		l, err := openLoader(ctx, r, db.dialect, id, nil)
		if err != nil {
			return err
		}
		shape, err := l.finish(ctx, db.display)
		if err != nil {
			return err
		}
		keep, err := pick(shape)
		if err != nil {
			pickErr = err
			return err
		}
		names := make(map[string]bool, len(keep))
		for _, n := range keep {
			if n >= 0 && n < len(shape.Nodes) {
				names[shape.Nodes[n].Name] = true
			}
		}
		only := make(map[int64]bool, len(keep))
		for cp, name := range l.names {
			if names[drg.CanonicalName(name)] {
				only[cp] = true
			}
		}
		t, err = loadTrialOnly(ctx, r, db.dialect, id, db.display, loadScope{only: only})
		return err
	})
	if pickErr != nil {
		return nil, pickErr
	}
	if err != nil {
		return nil, fmt.Errorf("load part of trial %d: %w", id, err)
	}
	return t, nil
}

// pinPartPlan leaves PostgreSQL nested loops over index lookups for
// readValuesOf (timer_call_data by timer_callpath, then timer_value by
// timer_value_index): without statistics it may scan timer_value once per
// row, and with them it hashes the whole table (12x slower than the
// lookups on 256 threads × 501 nodes × 2 metrics).
const pinPartPlan = `SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off;
SET LOCAL enable_seqscan = off`

// loadPartValuesPostgres and loadPartValuesSQLite read the records of the
// timer_callpath ids of $1 (PostgreSQL: a bigint array; SQLite: a JSON
// array, through json_each), as loadValuesQuery reads all of them.
const (
	loadPartValuesPostgres = `
SELECT tcd.timer_callpath, tcd.thread, COALESCE(tcd.calls, 0), COALESCE(tcd.subroutines, 0),
       COALESCE(tv.metric, 0), COALESCE(tv.inclusive_value, 0), COALESCE(tv.exclusive_value, 0)
FROM timer_call_data tcd
LEFT JOIN timer_value tv ON tv.timer_call_data = tcd.id
WHERE tcd.timer_callpath = ANY($1::bigint[]) AND tcd.time_range IS NULL`
	loadPartValuesSQLite = `
SELECT tcd.timer_callpath, tcd.thread, COALESCE(tcd.calls, 0), COALESCE(tcd.subroutines, 0),
       COALESCE(tv.metric, 0), COALESCE(tv.inclusive_value, 0), COALESCE(tv.exclusive_value, 0)
FROM timer_call_data tcd
LEFT JOIN timer_value tv ON tv.timer_call_data = tcd.id
WHERE tcd.timer_callpath IN (SELECT value FROM json_each($1)) AND tcd.time_range IS NULL`
)

// readValuesOf reads the real threads' records of the nodes of l.only.
func (l *loader) readValuesOf(ctx context.Context, row func(scan func(...any) error) error) error {
	ids := make([]int64, 0, len(l.only))
	for cp := range l.only {
		ids = append(ids, cp)
	}
	slices.Sort(ids)
	if l.d == Postgres {
		return withPlan(ctx, l.r, l.d, pinPartPlan, func() error {
			return l.r.query(ctx, loadPartValuesPostgres, row, ids)
		})
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	return l.r.query(ctx, loadPartValuesSQLite, row, string(list))
}
