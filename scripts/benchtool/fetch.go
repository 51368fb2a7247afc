package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// loadQueries are the queries LoadTrial runs (copied from store/load.go;
// keep them in step), $1 being the trial's id.
var loadQueries = []string{
	`SELECT COALESCE(name, ''), COALESCE(data_source, -1) FROM trial WHERE id = $1`,
	`SELECT id, node_rank, context_rank, thread_rank FROM thread
WHERE trial = $1 AND node_rank >= 0 AND context_rank >= 0 AND thread_rank >= 0 ORDER BY id`,
	`SELECT id, name, COALESCE(derived, FALSE) FROM metric WHERE trial = $1 ORDER BY id`,
	`SELECT id, name FROM timer WHERE trial = $1 ORDER BY id`,
	`SELECT g.timer, g.group_name FROM timer_group g JOIN timer t ON t.id = g.timer
WHERE t.trial = $1 ORDER BY g.timer, g.group_name`,
	`SELECT tcd.timer_callpath, tcd.thread, COALESCE(tcd.calls, 0), COALESCE(tcd.subroutines, 0),
       COALESCE(tv.metric, 0), COALESCE(tv.inclusive_value, 0), COALESCE(tv.exclusive_value, 0)
FROM timer_call_data tcd
JOIN thread th ON th.id = tcd.thread
LEFT JOIN timer_value tv ON tv.timer_call_data = tcd.id
WHERE th.trial = $1 AND th.node_rank >= 0 AND tcd.time_range IS NULL`,
	`SELECT tcd.time_range, tcd.id, tcd.timer_callpath, COALESCE(tcd.calls, 0), COALESCE(tcd.subroutines, 0),
       COALESCE(tv.metric, 0), COALESCE(tv.inclusive_value, 0), COALESCE(tv.exclusive_value, 0)
FROM timer_call_data tcd
JOIN thread th ON th.id = tcd.thread
LEFT JOIN timer_value tv ON tv.timer_call_data = tcd.id
WHERE th.trial = $1 AND th.node_rank >= 0 AND tcd.time_range IS NOT NULL
ORDER BY tcd.time_range, tcd.id, tv.metric`,
	`SELECT id, name FROM counter WHERE trial = $1 ORDER BY id`,
	`SELECT cv.counter, cv.thread, COALESCE(cv.sample_count, 0), COALESCE(cv.maximum_value, 0),
       COALESCE(cv.minimum_value, 0), COALESCE(cv.mean_value, 0), COALESCE(cv.standard_deviation, 0)
FROM counter_value cv
JOIN counter c ON c.id = cv.counter
WHERE c.trial = $1`,
	`SELECT name, COALESCE(value, '') FROM primary_metadata WHERE trial = $1`,
	`SELECT sm.thread, COALESCE(sm.time_range, 0), sm.name, COALESCE(sm.value, ''), COALESCE(tr.time_start, 0)
FROM secondary_metadata sm
LEFT JOIN time_range tr ON tr.id = sm.time_range
WHERE sm.trial = $1 AND sm.thread IS NOT NULL
ORDER BY COALESCE(sm.time_range, 0)`,
}

// fetch measures row 4: the rows of LoadTrial's queries per second of
// LoadTrial, against the same queries' rows per second of COPY (query) TO
// STDOUT (text format, discarded) on one pgx connection.
func (b *bench) fetch(ctx context.Context, db *store.DB, conn *pgconn.PgConn, id int64) error {
	start := time.Now()
	tr, err := db.LoadTrial(ctx, id)
	if err != nil {
		return fmt.Errorf("load the trial: %w", err)
	}
	load := time.Since(start).Seconds()

	var rows int64
	start = time.Now()
	for _, q := range loadQueries {
		q = strings.ReplaceAll(q, "$1", strconv.FormatInt(id, 10))
		tag, err := conn.CopyTo(ctx, io.Discard, "COPY ("+q+") TO STDOUT")
		if err != nil {
			return fmt.Errorf("COPY TO of LoadTrial's query %q: %w", q, err)
		}
		rows += tag.RowsAffected()
	}
	copyTo := time.Since(start).Seconds()
	n := float64(rows)
	b.add(Row{Step: 4, Figure: "fetch from PostgreSQL: LoadTrial into the model, " + b.mode.Ingest.String(), Value: n / load, Unit: "rows/s",
		Ref: n / copyTo, RefUnit: "rows/s", RefWhat: "`COPY (LoadTrial's queries) TO STDOUT` through pgx",
		Notes: fmt.Sprintf("%s rows, %s values; load %.2f s, COPY TO %.2f s", Num(n), Num(float64(values(tr))), load, copyTo)})
	return nil
}
