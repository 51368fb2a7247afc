package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// Subqueries naming a trial's rows in the tables that have no trial column.
const (
	trialThreads   = `SELECT id FROM thread WHERE trial = $1`
	trialTimers    = `SELECT id FROM timer WHERE trial = $1`
	trialCallData  = `SELECT tcd.id FROM timer_call_data tcd JOIN thread th ON th.id = tcd.thread WHERE th.trial = $1`
	trialCallpaths = `SELECT cp.id FROM timer_callpath cp JOIN timer t ON t.id = cp.timer WHERE t.trial = $1`
	trialSettings  = `SELECT id FROM analysis_settings WHERE trial = $1 OR metric IN (SELECT id FROM metric WHERE trial = $1)
  OR id IN (SELECT analysis_settings FROM analysis_settings_trial WHERE trial = $1)`
)

// trialTimeRanges lists the time_range rows a trial's call data and
// metadata refer to.
const trialTimeRanges = `
SELECT tcd.time_range FROM timer_call_data tcd JOIN thread th ON th.id = tcd.thread
WHERE th.trial = $1 AND tcd.time_range IS NOT NULL
UNION
SELECT time_range FROM secondary_metadata WHERE trial = $1 AND time_range IS NOT NULL`

// deleteSteps are the DELETE statements of DeleteTrial, children before
// parents (TAUdb's foreign keys are NO ACTION). Each takes the trial id as
// $1. The analysis results of the trial's analysis_settings go first: the
// settings themselves go with the trial (ON DELETE CASCADE), but
// analysis_result has no foreign key to them.
var deleteSteps = []struct{ table, sql string }{
	{"analysis_result", `DELETE FROM analysis_result WHERE analysis_settings IN (` + trialSettings + `)`},
	{"analysis_settings", `DELETE FROM analysis_settings WHERE id IN (` + trialSettings + `)`},
	{"timer_value", `DELETE FROM timer_value WHERE timer_call_data IN (` + trialCallData + `)`},
	{"timer_call_data", `DELETE FROM timer_call_data WHERE thread IN (` + trialThreads + `)`},
	{"counter_value", `DELETE FROM counter_value WHERE counter IN (SELECT id FROM counter WHERE trial = $1) OR thread IN (` + trialThreads + `)`},
	{"counter", `DELETE FROM counter WHERE trial = $1`},
	{"secondary_metadata", `DELETE FROM secondary_metadata WHERE trial = $1`},
	{"timer_callpath_name", `DELETE FROM timer_callpath_name WHERE timer_callpath IN (` + trialCallpaths + `)`},
	{"timer_callpath", `DELETE FROM timer_callpath WHERE timer IN (` + trialTimers + `)`},
	{"timer_parameter", `DELETE FROM timer_parameter WHERE timer IN (` + trialTimers + `)`},
	{"timer_group", `DELETE FROM timer_group WHERE timer IN (` + trialTimers + `)`},
	{"timer", `DELETE FROM timer WHERE trial = $1`},
	{"metric", `DELETE FROM metric WHERE trial = $1`},
	{"thread", `DELETE FROM thread WHERE trial = $1`},
	{"primary_metadata", `DELETE FROM primary_metadata WHERE trial = $1`},
}

// Deleting the time ranges a trial used, once nothing refers to them any
// more; the ids are one parameter, a PostgreSQL array or a JSON array for
// SQLite.
const (
	deleteTimeRangesPostgres = `DELETE FROM time_range tr WHERE tr.id = ANY($1::bigint[])
  AND NOT EXISTS (SELECT 1 FROM timer_call_data c WHERE c.time_range = tr.id)
  AND NOT EXISTS (SELECT 1 FROM secondary_metadata s WHERE s.time_range = tr.id)`
	deleteTimeRangesSQLite = `DELETE FROM time_range WHERE id IN (SELECT value FROM json_each($1))
  AND NOT EXISTS (SELECT 1 FROM timer_call_data c WHERE c.time_range = time_range.id)
  AND NOT EXISTS (SELECT 1 FROM secondary_metadata s WHERE s.time_range = time_range.id)`
)

// DeleteTrial deletes trial id and every row that belongs to it, in every
// TAUdb table (and taudb-analyze's own), children first, in one
// transaction: it deletes the whole trial or nothing. Analysis settings of
// the trial and their results go too. A trial that does not exist gives an
// error wrapping ErrNoTrial.
//
// The trial's row is locked first (FOR UPDATE on PostgreSQL; SQLite's write
// lock): a SaveResult or SaveMetric of the trial that is under way finishes
// first and its rows are deleted with the trial, and one that comes later
// finds the trial gone and writes nothing (ErrNoTrial).
func (db *DB) DeleteTrial(ctx context.Context, id int64) error {
	err := db.inTx(ctx, func(r runner) error {
		if err := db.lockTrials(ctx, r, true, id); err != nil {
			return err
		}
		steps, rangesSQL, err := db.deletePlan(ctx, r, id)
		if err != nil {
			return err
		}
		var ranges []int64
		if err := r.query(ctx, rangesSQL, func(scan func(...any) error) error {
			var tr int64
			if err := scan(&tr); err != nil {
				return err
			}
			ranges = append(ranges, tr)
			return nil
		}, id); err != nil {
			return fmt.Errorf("read time_range: %w", err)
		}
		if err := steps.dropFirst(ctx, r, id); err != nil {
			return err
		}
		for _, s := range steps.sql {
			if _, err := r.execArgs(ctx, s.sql, id); err != nil {
				return fmt.Errorf("delete from %s: %w", s.table, err)
			}
		}
		if len(ranges) > 0 {
			var err error
			if db.dialect == Postgres {
				_, err = r.execArgs(ctx, deleteTimeRangesPostgres, ranges)
			} else {
				js, _ := json.Marshal(ranges)
				_, err = r.execArgs(ctx, deleteTimeRangesSQLite, string(js))
			}
			if err != nil {
				return fmt.Errorf("delete from time_range: %w", err)
			}
		}
		if _, err := r.execArgs(ctx, `DELETE FROM trial WHERE id = $1`, id); err != nil {
			return fmt.Errorf("delete from trial: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete trial %d: %w", id, err)
	}
	return nil
}

// deleteSteps of one DeleteTrial: the statements, and the trial's
// partitions to drop before them (partitioned layout only).
type trialDelete struct {
	sql        []struct{ table, sql string }
	partitions map[string][]string
}

// dropFirst drops the trial's partitions, if any.
func (d trialDelete) dropFirst(ctx context.Context, r runner, id int64) error {
	if d.partitions == nil {
		return nil
	}
	return dropPartitions(ctx, r, d.partitions)
}

// deletePlan returns the statements that delete trial id and the query of
// its time ranges: deleteSteps and trialTimeRanges as they are, or, in the
// partitioned layout, rewritten to read only the trial's partitions and the
// default ones (see onDefaults), with the partitions to drop.
func (db *DB) deletePlan(ctx context.Context, r runner, id int64) (trialDelete, string, error) {
	d := trialDelete{sql: deleteSteps}
	if db.dialect != Postgres {
		return d, trialTimeRanges, nil
	}
	part, err := isPartitioned(ctx, r)
	if err != nil || !part {
		return d, trialTimeRanges, err
	}
	if err := lockPartitions(ctx, r); err != nil {
		return d, "", err
	}
	if d.partitions, err = trialPartitions(ctx, r, id); err != nil {
		return d, "", err
	}
	callData := ""
	if slices.Contains(d.partitions["timer_call_data"], partitionName("timer_call_data", id)) {
		callData = partitionName("timer_call_data", id)
	}
	d.sql = make([]struct{ table, sql string }, len(deleteSteps))
	for i, s := range deleteSteps {
		d.sql[i] = s
		d.sql[i].sql = onDefaults(s.sql, "")
	}
	return d, onDefaults(trialTimeRanges, callData), nil
}
