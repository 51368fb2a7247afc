package store

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// nullIfUndefined gives NULL for an undefined (NaN or infinite) value.
func nullIfUndefined(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// SaveMetric adds metric m of t, a trial already stored as trial id (loaded
// with LoadTrial, so its nodes and threads are the stored ones), to the
// database as a new TAUdb metric: a metric row with derived = true (when
// t.Metrics[m].Derived), and a timer_value row for every timer_call_data row
// of the trial's real threads and seven derived threads (statistics of the
// new metric as drg.Statistics computes them, sum_exclusive_squared
// included). Undefined values (NaN: a ratio's division by zero) are stored
// as NULL. The percentage columns are NULL: a derived metric such as a ratio
// has no share of a main region. One transaction; it returns the metric id.
//
// Metric names are unique within a trial, also between concurrent savers:
// the name is checked after taking a lock on it (an advisory lock on
// PostgreSQL, SQLite's write lock), so of two savers of one name the second
// fails with a *NameTakenError (ErrNameTaken). The trial is locked against
// deletion meanwhile (see DeleteTrial); a trial deleted first gives
// ErrNoTrial.
func (db *DB) SaveMetric(ctx context.Context, id int64, t *drg.Trial, m int) (int64, error) {
	if m < 0 || m >= len(t.Metrics) {
		return 0, fmt.Errorf("save metric: no metric %d in trial %q", m, t.Name)
	}
	name := t.Metrics[m].Name
	st := t.Statistics()
	nt := len(t.Threads)
	sumSq := make([]float64, len(t.Nodes))
	for n := range t.Nodes {
		for _, v := range t.Values[m].Exclusive[n*nt : (n+1)*nt] {
			sumSq[n] += v * v
		}
	}
	col := map[drg.ThreadID]int{}
	for i, th := range t.Threads {
		col[drg.ThreadID{Node: th.Node, Context: th.Context, Thread: th.Thread}] = i
	}
	node := map[string]int{}
	for i, n := range t.Nodes {
		node[n.Name] = i
	}
	var mid int64
	err := db.inTx(ctx, func(r runner) error {
		if err := db.lockTrials(ctx, r, false, id); err != nil {
			return err
		}
		if err := db.lockNames(ctx, r, fmt.Sprintf("metric/%d", id), name); err != nil {
			return err
		}
		var have int64
		if err := r.query(ctx, `SELECT id FROM metric WHERE trial = $1 AND name = $2 ORDER BY id LIMIT 1`,
			func(scan func(...any) error) error { return scan(&have) }, id, name); err != nil {
			return fmt.Errorf("look for a metric named %q: %w", name, err)
		}
		if have != 0 {
			return &NameTakenError{Kind: "metric", Name: name, ID: have, Trial: id}
		}
		if err := r.query(ctx, `INSERT INTO metric (trial, name, derived) VALUES ($1, $2, $3) RETURNING id`,
			func(scan func(...any) error) error { return scan(&mid) }, id, name, t.Metrics[m].Derived); err != nil {
			return fmt.Errorf("insert metric: %w", err)
		}
		_, names, err := readCallpaths(ctx, r, db.dialect, id)
		if err != nil {
			return err
		}
		var cpIDs []int64
		err = r.query(ctx, `SELECT cp.id FROM timer_callpath cp JOIN timer t ON t.id = cp.timer WHERE t.trial = $1 ORDER BY cp.id`,
			func(scan func(...any) error) error {
				var x int64
				if err := scan(&x); err != nil {
					return err
				}
				cpIDs = append(cpIDs, x)
				return nil
			}, id)
		if err != nil {
			return fmt.Errorf("read callpaths: %w", err)
		}
		nodeOf := map[int64]int{}
		for i, cp := range cpIDs {
			if n, ok := node[names[i]]; ok {
				nodeOf[cp] = n
			}
		}
		type row struct {
			cd                 int64
			incl, excl, sumSqr any
		}
		var rows []row
		err = r.query(ctx, `SELECT tcd.id, tcd.timer_callpath, th.node_rank, th.context_rank, th.thread_rank
FROM timer_call_data tcd JOIN thread th ON th.id = tcd.thread
WHERE th.trial = $1 AND tcd.time_range IS NULL ORDER BY tcd.id`, func(scan func(...any) error) error {
			var cd, cp int64
			var nr, cr, tr int
			if err := scan(&cd, &cp, &nr, &cr, &tr); err != nil {
				return err
			}
			n, ok := nodeOf[cp]
			if !ok {
				return fmt.Errorf("call data %d: callpath %d is not a node of the trial", cd, cp)
			}
			if nr >= 0 {
				c, ok := col[drg.ThreadID{Node: nr, Context: cr, Thread: tr}]
				if !ok {
					return fmt.Errorf("call data %d: thread %d.%d.%d is not in the trial", cd, nr, cr, tr)
				}
				rows = append(rows, row{cd, nullIfUndefined(t.Values[m].Inclusive[n*nt+c]), nullIfUndefined(t.Values[m].Exclusive[n*nt+c]), nil})
				return nil
			}
			d := drg.DerivedThread(nr)
			rows = append(rows, row{cd, nullIfUndefined(st.Inclusive[m].Get(d)[n]), nullIfUndefined(st.Exclusive[m].Get(d)[n]), nullIfUndefined(sumSq[n])})
			return nil
		}, id)
		if err != nil {
			return fmt.Errorf("read call data: %w", err)
		}
		const batch = 500
		for lo := 0; lo < len(rows); lo += batch {
			part := rows[lo:min(lo+batch, len(rows))]
			var b strings.Builder
			b.WriteString(`INSERT INTO timer_value (timer_call_data, metric, inclusive_value, exclusive_value, inclusive_percent, exclusive_percent, sum_exclusive_squared) VALUES `)
			args := make([]any, 0, 5*len(part))
			for i, x := range part {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "($%d, $%d, $%d, $%d, NULL, NULL, $%d)", 5*i+1, 5*i+2, 5*i+3, 5*i+4, 5*i+5)
				args = append(args, x.cd, mid, x.incl, x.excl, x.sumSqr)
			}
			if _, err := r.execArgs(ctx, b.String(), args...); err != nil {
				return fmt.Errorf("insert timer_value: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("save metric %q of trial %d: %w", name, id, err)
	}
	return mid, nil
}
