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
	p, err := planMetric(id, t, m)
	if err != nil {
		return 0, fmt.Errorf("save metric: %w", err)
	}
	var mid int64
	err = db.inTx(ctx, func(r runner) error {
		mid, err = db.saveMetricTx(ctx, r, p)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("save metric %q of trial %d: %w", p.name, id, err)
	}
	return mid, nil
}

// metricPlan is what SaveMetric computes before its transaction: the
// metric, the statistics of the trial and the maps from a stored call
// data row's thread and call path to the trial's thread and node.
type metricPlan struct {
	trial int64
	t     *drg.Trial
	m     int
	name  string
	st    *drg.Statistics
	sumSq []float64 // per node: the sum over threads of exclusive²
	col   map[drg.ThreadID]int
	node  map[string]int
}

// planMetric checks that metric m is one of t's and computes its plan.
func planMetric(id int64, t *drg.Trial, m int) (*metricPlan, error) {
	if m < 0 || m >= len(t.Metrics) {
		return nil, fmt.Errorf("no metric %d in trial %q", m, t.Name)
	}
	if err := t.MakeDense("save a metric"); err != nil {
		return nil, err
	}
	p := &metricPlan{trial: id, t: t, m: m, name: t.Metrics[m].Name, st: t.Statistics(),
		sumSq: make([]float64, len(t.Nodes)), col: map[drg.ThreadID]int{}, node: map[string]int{}}
	nt := len(t.Threads)
	for n := range t.Nodes {
		for _, v := range t.Values[m].Exclusive[n*nt : (n+1)*nt] {
			p.sumSq[n] += v * v
		}
	}
	for i, th := range t.Threads {
		p.col[drg.ThreadID{Node: th.Node, Context: th.Context, Thread: th.Thread}] = i
	}
	for i, n := range t.Nodes {
		p.node[n.Name] = i
	}
	return p, nil
}

// saveMetricTx writes the metric of p (see SaveMetric) in the transaction
// of r and returns its id.
func (db *DB) saveMetricTx(ctx context.Context, r runner, p *metricPlan) (int64, error) {
	id := p.trial
	if err := db.lockTrials(ctx, r, false, id); err != nil {
		return 0, err
	}
	if db.dialect == Postgres { // after the trial's lock: see sharePartitions
		if err := sharePartitions(ctx, r); err != nil {
			return 0, err
		}
	}
	if err := db.lockNames(ctx, r, fmt.Sprintf("metric/%d", id), p.name); err != nil {
		return 0, err
	}
	var have int64
	if err := r.query(ctx, `SELECT id FROM metric WHERE trial = $1 AND name = $2 ORDER BY id LIMIT 1`,
		func(scan func(...any) error) error { return scan(&have) }, id, p.name); err != nil {
		return 0, fmt.Errorf("look for a metric named %q: %w", p.name, err)
	}
	if have != 0 {
		return 0, &NameTakenError{Kind: "metric", Name: p.name, ID: have, Trial: id}
	}
	var mid int64
	if err := r.query(ctx, `INSERT INTO metric (trial, name, derived) VALUES ($1, $2, $3) RETURNING id`,
		func(scan func(...any) error) error { return scan(&mid) }, id, p.name, p.t.Metrics[p.m].Derived); err != nil {
		return 0, fmt.Errorf("insert metric: %w", err)
	}
	nodeOf, err := db.callpathNodes(ctx, r, p)
	if err != nil {
		return 0, err
	}
	rows, err := metricRows(ctx, r, p, nodeOf)
	if err != nil {
		return 0, err
	}
	beforeTable(ctx, "timer_value")
	return mid, insertMetricValues(ctx, r, mid, rows)
}

// callpathNodes maps the timer_callpath ids of the stored trial to the
// nodes of p's trial.
func (db *DB) callpathNodes(ctx context.Context, r runner, p *metricPlan) (map[int64]int, error) {
	_, names, err := readCallpaths(ctx, r, db.dialect, p.trial)
	if err != nil {
		return nil, err
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
		}, p.trial)
	if err != nil {
		return nil, fmt.Errorf("read callpaths: %w", err)
	}
	nodeOf := map[int64]int{}
	for i, cp := range cpIDs {
		if n, ok := p.node[names[i]]; ok {
			nodeOf[cp] = n
		}
	}
	return nodeOf, nil
}

// metricRow is the timer_value of one timer_call_data row.
type metricRow struct {
	cd                 int64
	incl, excl, sumSqr any
}

// metricRows reads the trial's timer_call_data rows and gives each the
// value of p's metric: its thread's, or for a derived thread the
// statistic.
func metricRows(ctx context.Context, r runner, p *metricPlan, nodeOf map[int64]int) ([]metricRow, error) {
	nt := len(p.t.Threads)
	vals := p.t.Values[p.m]
	var rows []metricRow
	err := r.query(ctx, `SELECT tcd.id, tcd.timer_callpath, th.node_rank, th.context_rank, th.thread_rank
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
			c, ok := p.col[drg.ThreadID{Node: nr, Context: cr, Thread: tr}]
			if !ok {
				return fmt.Errorf("call data %d: thread %d.%d.%d is not in the trial", cd, nr, cr, tr)
			}
			rows = append(rows, metricRow{cd, nullIfUndefined(vals.Inclusive[n*nt+c]), nullIfUndefined(vals.Exclusive[n*nt+c]), nil})
			return nil
		}
		d := drg.DerivedThread(nr)
		rows = append(rows, metricRow{cd, nullIfUndefined(p.st.Inclusive[p.m].Get(d)[n]), nullIfUndefined(p.st.Exclusive[p.m].Get(d)[n]), nullIfUndefined(p.sumSq[n])})
		return nil
	}, p.trial)
	if err != nil {
		return nil, fmt.Errorf("read call data: %w", err)
	}
	return rows, nil
}

// insertMetricValues writes rows as timer_value rows of metric mid, 500
// to an INSERT.
func insertMetricValues(ctx context.Context, r runner, mid int64, rows []metricRow) error {
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
}
