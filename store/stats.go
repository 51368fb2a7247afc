package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// StatValue is one derived thread's row of one node and metric, as stored
// in timer_call_data and timer_value.
type StatValue struct {
	// Inclusive and Exclusive are the statistic of the metric's inclusive
	// and exclusive values, in the metric's unit (microseconds for time).
	Inclusive float64 `json:"inclusive"`
	Exclusive float64 `json:"exclusive"`
	// InclusivePercent and ExclusivePercent are percentages of the main
	// region's inclusive value (see the package documentation).
	InclusivePercent float64 `json:"inclusive_percent"`
	ExclusivePercent float64 `json:"exclusive_percent"`
	// Calls and Subroutines are the statistic of the calls, as stored
	// (TAUdb keeps them as integers).
	Calls       float64 `json:"calls"`
	Subroutines float64 `json:"subroutines"`
	// SumExclusiveSquared is Σ exclusive² over the real threads (nil when
	// the row has none, as in rows TAU's loader wrote).
	SumExclusiveSquared *float64 `json:"sum_exclusive_squared"`
	// Computed is true for a row the database lacks (TAU's loader leaves
	// out the STDDEV rows wherever all threads made the same number of
	// calls) that Stats computed from the real threads' rows.
	Computed bool `json:"computed,omitempty"`
}

// NodeStats holds the derived statistics of one call-graph node, read back
// from the derived threads' rows. A statistic is nil when the database has
// no row for it (TAU's own loader leaves some out).
type NodeStats struct {
	// Callpath is the timer_callpath id, Name the node's full name (a
	// region's name, or a callpath "A => B").
	Callpath int64  `json:"callpath"`
	Name     string `json:"name"`
	// Threads is the number of real threads that have a record of the node.
	Threads int `json:"threads"`
	// The seven derived threads: MEAN (−1, over the threads with a record),
	// TOTAL (−2), STDDEV (−3, population, over the threads with a record),
	// MIN (−4), MAX (−5), MEAN over all threads (−6, a missing record as 0)
	// and STDDEV over all threads (−7).
	Mean      *StatValue `json:"mean"`
	Total     *StatValue `json:"total"`
	StdDev    *StatValue `json:"stddev"`
	Min       *StatValue `json:"min"`
	Max       *StatValue `json:"max"`
	MeanAll   *StatValue `json:"mean_all"`
	StdDevAll *StatValue `json:"stddev_all"`
}

// Get returns the statistic of derived thread d, or nil.
func (n *NodeStats) Get(d drg.DerivedThread) *StatValue {
	switch d {
	case drg.Mean:
		return n.Mean
	case drg.Total:
		return n.Total
	case drg.StdDev:
		return n.StdDev
	case drg.Min:
		return n.Min
	case drg.Max:
		return n.Max
	case drg.MeanAll:
		return n.MeanAll
	case drg.StdDevAll:
		return n.StdDevAll
	}
	return nil
}

// set stores v as the statistic of derived thread d.
func (n *NodeStats) set(d drg.DerivedThread, v *StatValue) {
	switch d {
	case drg.Mean:
		n.Mean = v
	case drg.Total:
		n.Total = v
	case drg.StdDev:
		n.StdDev = v
	case drg.Min:
		n.Min = v
	case drg.Max:
		n.Max = v
	case drg.MeanAll:
		n.MeanAll = v
	case drg.StdDevAll:
		n.StdDevAll = v
	}
}

// TrialStats is what Stats returns: the derived statistics of one metric
// for every node that has any, in timer_callpath id order.
type TrialStats struct {
	// Trial and Name are the trial's id and name.
	Trial int64  `json:"trial"`
	Name  string `json:"name"`
	// Metric is the metric the statistics are of.
	Metric string `json:"metric"`
	// Nodes holds the nodes that have derived rows, in timer_callpath id
	// order (for a trial saved by SaveTrial, the trial's node order).
	Nodes []NodeStats `json:"nodes"`
}

// statsQuery reads the derived threads' rows of one metric, found through
// the seven derived thread rows (TAUdb's index on timer_call_data(thread)).
const statsQuery = `
SELECT tcd.timer_callpath, th.thread_index, COALESCE(tcd.calls, 0), COALESCE(tcd.subroutines, 0),
       COALESCE(tv.inclusive_value, 0), COALESCE(tv.exclusive_value, 0),
       COALESCE(tv.inclusive_percent, 0), COALESCE(tv.exclusive_percent, 0), tv.sum_exclusive_squared
FROM timer_call_data tcd
JOIN thread th ON th.id = tcd.thread
JOIN timer_value tv ON tv.timer_call_data = tcd.id
WHERE th.trial = $1 AND th.thread_index < 0 AND tcd.time_range IS NULL AND tv.metric = $2`

// statsCountQuery counts the real threads with a record of each node,
// within the trial's timer_call_data id range ($2, $3), read as a range of
// the primary key and hash-joined with the trial's threads (pinCountPlan).
const statsCountQuery = `
SELECT tcd.timer_callpath, COUNT(*)
FROM timer_call_data tcd
JOIN thread th ON th.id = tcd.thread
WHERE th.trial = $1 AND th.node_rank >= 0 AND tcd.time_range IS NULL AND tcd.id BETWEEN $2 AND $3
GROUP BY tcd.timer_callpath`

// Stats reads the derived statistics of trial id for the metric named
// metric from the derived threads' rows (thread_index −1 … −7), per node.
// An empty metric picks the trial's first time metric (a name holding
// "TIME"), or its first metric. Nodes without any derived row are left out.
func (db *DB) Stats(ctx context.Context, id int64, metric string) (*TrialStats, error) {
	var out *TrialStats
	err := db.readTx(ctx, func(r runner) error {
		var err error
		out, err = readStats(ctx, r, db.dialect, id, metric)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("statistics of trial %d: %w", id, err)
	}
	return out, nil
}

// readStats is Stats inside a read transaction: the trial's name, the
// metric picked, then the derived rows and thread counts of every node.
func readStats(ctx context.Context, r runner, d Dialect, id int64, metric string) (*TrialStats, error) {
	out := &TrialStats{Trial: id}
	if err := readTrialName(ctx, r, id, &out.Name); err != nil {
		return nil, err
	}
	metricID, name, err := pickStatsMetric(ctx, r, id, metric)
	if err != nil {
		return nil, err
	}
	out.Metric = name
	rows, names, err := readCallpaths(ctx, r, d, id)
	if err != nil {
		return nil, err
	}
	at := make(map[int64]int, len(rows))
	nodes := make([]NodeStats, len(rows))
	for i, c := range rows {
		at[c.id] = i
		nodes[i] = NodeStats{Callpath: c.id, Name: names[i]}
	}
	calls, err := readCallRange(ctx, r, d, id)
	if err != nil {
		return nil, err
	}
	has, err := readDerivedRows(ctx, r, d, id, metricID, at, nodes)
	if err != nil {
		return nil, err
	}
	if err := readThreadCounts(ctx, r, d, id, calls, at, nodes); err != nil {
		return nil, err
	}
	out.Nodes, err = completeStats(ctx, r, id, metricID, calls, nodes, has)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readTrialName sets *name to trial id's name, or says that there is no
// such trial (ErrNoTrial).
func readTrialName(ctx context.Context, r runner, id int64, name *string) error {
	found := false
	if err := r.query(ctx, `SELECT COALESCE(name, '') FROM trial WHERE id = $1`, func(scan func(...any) error) error {
		found = true
		return scan(name)
	}, id); err != nil {
		return fmt.Errorf("read trial: %w", err)
	}
	if !found {
		return fmt.Errorf("%w: %d", ErrNoTrial, id)
	}
	return nil
}

// pickStatsMetric returns the id and name of the trial's metric named
// metric, or, when metric is empty, of its first time metric (else its
// first metric).
func pickStatsMetric(ctx context.Context, r runner, id int64, metric string) (int64, string, error) {
	type metricRow struct {
		id   int64
		name string
	}
	var metrics []metricRow
	if err := r.query(ctx, `SELECT id, name FROM metric WHERE trial = $1 ORDER BY id`, func(scan func(...any) error) error {
		var m metricRow
		if err := scan(&m.id, &m.name); err != nil {
			return err
		}
		metrics = append(metrics, m)
		return nil
	}, id); err != nil {
		return 0, "", fmt.Errorf("read metric: %w", err)
	}
	if len(metrics) == 0 {
		return 0, "", fmt.Errorf("the trial has no metric")
	}
	for _, m := range metrics {
		if (metric != "" && m.name == metric) || (metric == "" && (drg.Metric{Name: m.name}).IsTime()) {
			return m.id, m.name, nil
		}
	}
	if metric != "" {
		names := make([]string, len(metrics))
		for i, m := range metrics {
			names[i] = m.name
		}
		return 0, "", fmt.Errorf("no metric %q in the trial (it has %s)", metric, strings.Join(names, ", "))
	}
	return metrics[0].id, metrics[0].name, nil
}

// readDerivedRows sets the derived threads' values of metric on nodes (at
// maps a callpath id to its node) and says which nodes have any.
func readDerivedRows(ctx context.Context, r runner, d Dialect, id, metric int64, at map[int64]int, nodes []NodeStats) ([]bool, error) {
	has := make([]bool, len(nodes))
	var cp, code int64
	err := withPlan(ctx, r, d, pinDerivedPlan, func() error {
		return r.query(ctx, statsQuery, func(scan func(...any) error) error {
			v := &StatValue{}
			if err := scan(&cp, &code, &v.Calls, &v.Subroutines, &v.Inclusive, &v.Exclusive,
				&v.InclusivePercent, &v.ExclusivePercent, &v.SumExclusiveSquared); err != nil {
				return err
			}
			if i, ok := at[cp]; ok {
				nodes[i].set(drg.DerivedThread(code), v)
				has[i] = true
			}
			return nil
		}, id, metric)
	})
	if err != nil {
		return nil, fmt.Errorf("read the derived threads' timer_value: %w", err)
	}
	return has, nil
}

// readThreadCounts sets each node's number of real threads with a
// timer_call_data row: from the layouts of the trial's pages when it has
// pages that cover its threads (pageThreadCounts), else by counting the
// rows of the trial's id range calls.
func readThreadCounts(ctx context.Context, r runner, d Dialect, id int64, calls callRange, at map[int64]int, nodes []NodeStats) error {
	if counted, err := pageThreadCounts(ctx, r, d, id, at, nodes); err != nil || counted {
		return err
	}
	var cp, n int64
	count := func() error {
		return r.query(ctx, statsCountQuery, func(scan func(...any) error) error {
			if err := scan(&cp, &n); err != nil {
				return err
			}
			if i, ok := at[cp]; ok {
				nodes[i].Threads = int(n)
			}
			return nil
		}, id, calls.First, calls.Last)
	}
	if err := withPlan(ctx, r, d, pinCountPlan, count); err != nil {
		return fmt.Errorf("count the threads' timer_call_data: %w", err)
	}
	return nil
}

// completeStats keeps the nodes that have derived rows (has) and fills in
// the STDDEV rows the database lacks (fillStdDevs).
func completeStats(ctx context.Context, r runner, id, metric int64, calls callRange, nodes []NodeStats, has []bool) ([]NodeStats, error) {
	var threads int
	if err := r.query(ctx, `SELECT COUNT(*) FROM thread WHERE trial = $1 AND thread_index >= 0`,
		func(scan func(...any) error) error { return scan(&threads) }, id); err != nil {
		return nil, fmt.Errorf("count the threads: %w", err)
	}
	var out []NodeStats
	at := map[int64]int{}
	for i := range nodes {
		if has[i] {
			at[nodes[i].Callpath] = len(out)
			out = append(out, nodes[i])
		}
	}
	if err := fillStdDevs(ctx, r, id, metric, calls, threads, out, at); err != nil {
		return nil, err
	}
	return out, nil
}
