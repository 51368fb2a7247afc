package watch

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// The watch's rows go into taudb-analyze's own tables watch_interval and
// watch_anomaly (store/schema/ours_*.sql, where they are described), beside
// TAUdb's, which they never change: a row per interval and region, written
// as each interval closes; the trial (every rank's final cumulative
// profile) goes into TAUdb's tables through store.SaveTrial when the run
// ends, and deleting it deletes its watch rows.

// ProgramRegion is the region name of the program's row in watch_interval
// (the ranks' main inclusive time); other rows are regions' exclusive time.
const ProgramRegion = ".program"

// Saver stores a watch as it goes: each interval's rows in one
// transaction, then the trial.
type Saver struct {
	db  *store.DB
	run string
}

// NewSaver returns a saver of the watch named run (unique per watch: a
// name and a start time), adding taudb-analyze's own tables (store.Init)
// to a TAUdb that lacks them.
func NewSaver(ctx context.Context, db *store.DB, run string) (*Saver, error) {
	missing, err := db.MissingOwnTables(ctx)
	if err == nil && len(missing) > 0 {
		_, err = db.Init(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("prepare the watch tables: %w", err)
	}
	return &Saver{db: db, run: run}, nil
}

// execFunc runs one statement in the saver's transaction.
type execFunc func(q string, args ...any) error

// tx runs fn in a transaction of the database's dialect.
func (s *Saver) tx(ctx context.Context, fn func(exec execFunc) error) error {
	if p := s.db.Pool(); p != nil {
		return pgx.BeginFunc(ctx, p, func(tx pgx.Tx) error {
			return fn(func(q string, args ...any) error { _, err := tx.Exec(ctx, q, args...); return err })
		})
	}
	tx, err := s.db.SQL().BeginTx(ctx, &sql.TxOptions{})
	if err != nil {
		return err
	}
	if err := fn(func(q string, args ...any) error { _, err := tx.ExecContext(ctx, q, args...); return err }); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// intervalColumns are watch_interval's columns in insert order.
const intervalColumns = "run, interval_index, time_start, time_end, ranks, missing, region, ranks_present, calls, total, mean, minimum, maximum, stddev, min_rank, max_rank"

// rowsPerInsert bounds the rows of one INSERT (16 values each: well under
// SQLite's 32,766 parameters).
const rowsPerInsert = 500

// SaveInterval stores interval iv: a row for the program and one per
// region executed, and its anomalies, all or nothing.
func (s *Saver) SaveInterval(ctx context.Context, iv *Interval) error {
	rows := make([][]any, 0, len(iv.Regions)+1)
	add := func(region string, calls float64, st Stat) {
		rows = append(rows, []any{s.run, iv.Index, iv.Start, iv.End, iv.Ranks, len(iv.Missing), region, st.Count, calls,
			st.Sum, st.Mean, st.Min, st.Max, st.StdDev, st.MinRank.String(), st.MaxRank.String()})
	}
	add(ProgramRegion, 0, iv.Program)
	for _, r := range iv.Regions {
		add(r.Region, r.Calls, r.Stat)
	}
	err := s.tx(ctx, func(exec execFunc) error {
		for len(rows) > 0 {
			n := min(len(rows), rowsPerInsert)
			if err := exec(insertSQL("watch_interval", intervalColumns, 16, n), flatten(rows[:n])...); err != nil {
				return err
			}
			rows = rows[n:]
		}
		for i, a := range iv.Anomalies {
			err := exec(insertSQL("watch_anomaly", "run, interval_index, position, kind, rank, region, value, expected, message", 9, 1),
				s.run, iv.Index, i, a.Kind, a.Rank, a.Region, a.Value, a.Expected, a.Message)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store interval %d: %w", iv.Index, err)
	}
	return nil
}

// insertSQL is a multi-row INSERT with $n placeholders.
func insertSQL(table, cols string, width, rows int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", table, cols)
	for r := range rows {
		if r > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for c := range width {
			if c > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "$%d", r*width+c+1)
		}
		b.WriteByte(')')
	}
	return b.String()
}

func flatten(rows [][]any) []any {
	var out []any
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// SaveTrial stores the run as read so far (Watcher.Trial) as a TAUdb
// trial and ties the watch's rows to it; it returns the trial's id.
func (s *Saver) SaveTrial(ctx context.Context, w *Watcher, opt store.SaveOptions) (int64, error) {
	t, err := w.Trial(opt.Name)
	if err != nil {
		return 0, err
	}
	id, err := s.db.SaveTrial(ctx, t, opt)
	if err != nil {
		return 0, err
	}
	err = s.tx(ctx, func(exec execFunc) error {
		if err := exec("UPDATE watch_interval SET trial = $1 WHERE run = $2", id, s.run); err != nil {
			return err
		}
		return exec("UPDATE watch_anomaly SET trial = $1 WHERE run = $2", id, s.run)
	})
	if err != nil {
		return id, fmt.Errorf("tie the watch's intervals to trial %d: %w", id, err)
	}
	return id, nil
}
