package store

import (
	"context"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// LoadCallGraph reads the structure of trial id: its threads, metrics,
// regions with their groups, and call-graph nodes, but no value: it reads
// the small tables (trial, thread, metric, timer, timer_group,
// timer_callpath) and none of timer_call_data and timer_value, which hold
// threads × nodes × metrics rows. The trial's values are all 0 and no
// thread has a record (Present is empty); user events, metadata and
// snapshots are left out.
//
// It answers a call-path query that names no metric (callquery's
// Query.NeedsValues is false: names, files, groups, lines, depth, leaves)
// with the same nodes as the whole trial, in a fraction of the time
// (docs/performance.md).
func (db *DB) LoadCallGraph(ctx context.Context, id int64) (*drg.Trial, error) {
	var t *drg.Trial
	err := db.readTx(ctx, func(r runner) error {
		l, err := openLoader(ctx, r, db.dialect, id, nil)
		if err != nil {
			return err
		}
		t, err = l.finish(ctx, db.display)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load the call graph of trial %d: %w", id, err)
	}
	return t, nil
}
