package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// ErrNoTrial is wrapped by the errors of LoadTrial, FindTrial, DeleteTrial
// and Stats when the trial does not exist.
var ErrNoTrial = errors.New("no such trial")

// readTx runs fn in a read-only transaction, so that the several queries of
// a load see one state of the database: REPEATABLE READ on PostgreSQL, a
// deferred (read) transaction on SQLite.
func (db *DB) readTx(ctx context.Context, fn func(r runner) error) error {
	switch {
	case db.pool != nil:
		tx, err := db.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
		if err != nil {
			return fmt.Errorf("begin a read transaction: %w", err)
		}
		defer tx.Rollback(ctx) //nolint:errcheck // read-only: nothing to keep
		if err := waitForDrops(ctx, pgxRunner{tx}); err != nil {
			return err
		}
		return fn(pgxRunner{tx})
	case db.sqlDB != nil:
		tx, err := db.sqlDB.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return fmt.Errorf("begin a read transaction: %w", err)
		}
		defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep
		return fn(sqlRunner{tx})
	}
	return fmt.Errorf("%s: the database is closed", db.display)
}

// formatOfSource gives the drg source format of a TAUdb data_source id:
// 0 ppk, 1 TAU profiles, 5 gprof, 8 CUBE, 9 HPCToolkit, 10 TAU snapshot
// XML, and 2, which TAU's
// own loader writes for XML (although the data_source table calls 2
// DynaProf).
func formatOfSource(ds int) string {
	switch ds {
	case 0:
		return "ppk"
	case 1:
		return "profile"
	case 2, 10:
		return "snapshot"
	case 5:
		return "gprof"
	case 8:
		return "cube"
	case 9:
		return "hpctoolkit"
	}
	return ""
}

// The queries of LoadTrial, one per table (two for the call data: the
// trial's profile, and the earlier snapshots). None of them is run per row.
const (
	loadTrialQuery   = `SELECT COALESCE(name, ''), COALESCE(data_source, -1) FROM trial WHERE id = $1`
	loadThreadsQuery = `SELECT id, node_rank, context_rank, thread_rank FROM thread
WHERE trial = $1 AND node_rank >= 0 AND context_rank >= 0 AND thread_rank >= 0 ORDER BY id`
	loadMetricsQuery = `SELECT id, name, COALESCE(derived, FALSE) FROM metric WHERE trial = $1 ORDER BY id`
	loadTimersQuery  = `SELECT id, name FROM timer WHERE trial = $1 ORDER BY id`
	loadGroupsQuery  = `SELECT g.timer, g.group_name FROM timer_group g JOIN timer t ON t.id = g.timer
WHERE t.trial = $1 ORDER BY g.timer, g.group_name`
	// loadValuesQuery reads the trial's timer_call_data and timer_value
	// rows within its id range ($1, $2; see readCallRange), the calls
	// repeated on each metric's row, without joining thread: rows of threads
	// that are not the trial's real threads (its derived threads, or another
	// trial's rows inside the range) are skipped as they are read. That
	// leaves a merge of two index ranges (see pinRangePlan).
	loadValuesQuery = `
SELECT tcd.timer_callpath, tcd.thread, COALESCE(tcd.calls, 0), COALESCE(tcd.subroutines, 0),
       COALESCE(tv.metric, 0), COALESCE(tv.inclusive_value, 0), COALESCE(tv.exclusive_value, 0)
FROM timer_call_data tcd
LEFT JOIN timer_value tv ON tv.timer_call_data = tcd.id AND tv.timer_call_data BETWEEN $1 AND $2
WHERE tcd.id BETWEEN $1 AND $2 AND tcd.time_range IS NULL`
	// loadSnapshotValuesQuery reads the entries of the earlier snapshots
	// within the same range, in snapshot order and entry order; entries of
	// time ranges that are not the trial's snapshots are skipped as read.
	loadSnapshotValuesQuery = `
SELECT tcd.time_range, tcd.id, tcd.timer_callpath, tcd.thread, COALESCE(tcd.calls, 0), COALESCE(tcd.subroutines, 0),
       COALESCE(tv.metric, 0), COALESCE(tv.inclusive_value, 0), COALESCE(tv.exclusive_value, 0)
FROM timer_call_data tcd
LEFT JOIN timer_value tv ON tv.timer_call_data = tcd.id AND tv.timer_call_data BETWEEN $1 AND $2
WHERE tcd.id BETWEEN $1 AND $2 AND tcd.time_range IS NOT NULL
ORDER BY tcd.time_range, tcd.id, tv.metric`
	loadCountersQuery      = `SELECT id, name FROM counter WHERE trial = $1 ORDER BY id`
	loadCounterValuesQuery = `
SELECT cv.counter, cv.thread, COALESCE(cv.sample_count, 0), COALESCE(cv.maximum_value, 0),
       COALESCE(cv.minimum_value, 0), COALESCE(cv.mean_value, 0), COALESCE(cv.standard_deviation, 0)
FROM counter_value cv
JOIN counter c ON c.id = cv.counter
WHERE c.trial = $1`
	loadPrimaryQuery = `SELECT name, COALESCE(value, '') FROM primary_metadata WHERE trial = $1`
	// loadSecondaryQuery reads the per-thread attributes and the snapshot
	// rows (those with a time_range), snapshots in time_range order.
	loadSecondaryQuery = `
SELECT sm.thread, COALESCE(sm.time_range, 0), sm.name, COALESCE(sm.value, ''), COALESCE(tr.time_start, 0)
FROM secondary_metadata sm
LEFT JOIN time_range tr ON tr.id = sm.time_range
WHERE sm.trial = $1 AND sm.thread IS NOT NULL
ORDER BY COALESCE(sm.time_range, 0)`
)

// LoadTrial reads trial id back into a drg.Trial, built through
// drg.NewBuilder: threads, metrics, regions and their groups, call-graph
// nodes, values, presence, calls, counters, metadata and the earlier
// snapshots, and the full text of names shortened for TAUdb
// (drg.Trial.LongNames, from trial_long_name when the database has it). A
// trial saved by SaveTrial comes back as it was saved, except
// for what the package documentation lists (the order of a region's groups,
// the data of ParaProf-derived callpath nodes, Source.Path, Warnings).
// The derived threads' rows are not read: drg computes the statistics.
//
// It runs one streamed query per table, in one read-only transaction.
func (db *DB) LoadTrial(ctx context.Context, id int64) (*drg.Trial, error) {
	var t *drg.Trial
	err := db.readTx(ctx, func(r runner) error {
		var err error
		t, err = loadTrial(ctx, r, db.dialect, id, db.display)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load trial %d: %w", id, err)
	}
	return t, nil
}

// loader holds the id maps of one LoadTrial.
type loader struct {
	r       runner
	id      int64
	b       *drg.Builder
	threads map[int64]int // thread row → column
	metrics map[int64]int // metric row → index
	first   int64         // the first metric's row
	nodes   map[int64]int // timer_callpath row → builder node
	names   map[int64]string
	calls   callRange // the trial's timer_call_data ids
	exact   exactCounts
	d       Dialect
	// paged is set when the values came from the trial's pages
	// (readPages), which hold exact counts.
	paged bool
	// only, when not nil, holds the timer_callpath ids whose values are
	// read (LoadTrialPart).
	only map[int64]bool
	// metric, when not nil, says the one metric whose values are read
	// (LoadTrialMetric); skipped then holds the other metrics' rows.
	metric  *MetricRead
	skipped map[int64]bool
	picked  int // the index of the metric read alone among the trial's, in id order; -1 for all
	// name, ds and derived are the trial's name, data source and its
	// metrics' derived flags.
	name    string
	ds      int
	derived []bool
}

// loadTrial is LoadTrial inside a read transaction: the trial row, the
// threads (which make the builder), the metrics, every table of values and
// metadata, then the finished trial with its long names and snapshots.
func loadTrial(ctx context.Context, r runner, d Dialect, id int64, display string) (*drg.Trial, error) {
	return loadTrialOnly(ctx, r, d, id, display, loadScope{})
}

// loadScope limits what a load reads.
type loadScope struct {
	// only, when not nil, holds the timer_callpath ids whose values are
	// read (LoadTrialPart); snapshots are then not read.
	only map[int64]bool
	// metric, when not nil, says the metric whose values alone are read
	// (LoadTrialMetric).
	metric *MetricRead
}

// loadTrialOnly is loadTrial reading the values scope allows.
func loadTrialOnly(ctx context.Context, r runner, d Dialect, id int64, display string, scope loadScope) (*drg.Trial, error) {
	l, err := openLoader(ctx, r, d, id, scope.metric)
	if err != nil {
		return nil, err
	}
	l.only = scope.only
	series, err := l.readData(ctx)
	if err != nil {
		return nil, err
	}
	t, err := l.finish(ctx, display)
	if err != nil {
		return nil, err
	}
	l.addSeries(t, series)
	return t, nil
}

// openLoader reads the trial's row, threads, metrics and call-graph nodes
// (everything but values, user events, metadata and snapshots) into a
// builder. With metric not nil, the builder gets that metric alone
// (pickMetric).
func openLoader(ctx context.Context, r runner, d Dialect, id int64, metric *MetricRead) (*loader, error) {
	l := &loader{r: r, d: d, id: id, threads: map[int64]int{}, metrics: map[int64]int{}, nodes: map[int64]int{}, names: map[int64]string{},
		metric: metric, skipped: map[int64]bool{}}
	found := false
	if err := r.query(ctx, loadTrialQuery, func(scan func(...any) error) error {
		found = true
		return scan(&l.name, &l.ds)
	}, id); err != nil {
		return nil, fmt.Errorf("read trial: %w", err)
	}
	if !found {
		return nil, fmt.Errorf("%w: %d", ErrNoTrial, id)
	}
	if err := l.readThreads(ctx); err != nil {
		return nil, err
	}
	var err error
	if l.derived, err = l.readMetrics(ctx); err != nil {
		return nil, err
	}
	if l.calls, err = readCallRange(ctx, l.r, l.d, l.id); err != nil {
		return nil, err
	}
	if err := l.readNodes(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// finish builds the trial: its source names the database (display) and
// the trial id; the full text of shortened names comes back from
// trial_long_name.
func (l *loader) finish(ctx context.Context, display string) (*drg.Trial, error) {
	src := drg.Source{Format: formatOfSource(l.ds), Path: fmt.Sprintf("%s#trial=%d", display, l.id), DataSource: l.ds}
	t, err := l.b.Finish(l.name, src)
	if err != nil {
		return nil, err
	}
	for i := range l.derived {
		if i < len(t.Metrics) {
			t.Metrics[i].Derived = l.derived[i]
		}
	}
	// The trial keeps the short names TAUdb holds; the full ones go back
	// to LongNames, as the trial had them when saved.
	if t.LongNames, err = readLongNames(ctx, l.r, l.d, l.id); err != nil {
		return nil, err
	}
	return t, nil
}

// readThreads reads the trial's real threads and makes the builder of
// their columns.
func (l *loader) readThreads(ctx context.Context) error {
	var threadRows []int64
	var ids []drg.ThreadID
	if err := l.r.query(ctx, loadThreadsQuery, func(scan func(...any) error) error {
		var row int64
		var tid drg.ThreadID
		if err := scan(&row, &tid.Node, &tid.Context, &tid.Thread); err != nil {
			return err
		}
		threadRows = append(threadRows, row)
		ids = append(ids, tid)
		return nil
	}, l.id); err != nil {
		return fmt.Errorf("read thread: %w", err)
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		return fmt.Errorf("threads: %w", err)
	}
	b.AggregateMetadata = false
	b.Sparse = true
	l.b = b
	for i, row := range threadRows {
		l.threads[row] = b.Column(ids[i])
	}
	return nil
}

// readMetrics adds the trial's metrics to the builder in id order (only
// the one l.metric picks, when set) and returns whether each added metric
// is derived.
func (l *loader) readMetrics(ctx context.Context) ([]bool, error) {
	var rows []int64
	var all []drg.Metric
	var derived []bool
	if err := l.r.query(ctx, loadMetricsQuery, func(scan func(...any) error) error {
		var row int64
		var name string
		var d bool
		if err := scan(&row, &name, &d); err != nil {
			return err
		}
		rows, all, derived = append(rows, row), append(all, drg.Metric{Name: name}), append(derived, d)
		return nil
	}, l.id); err != nil {
		return nil, fmt.Errorf("read metric: %w", err)
	}
	if len(rows) > 0 {
		l.first = rows[0]
	}
	keep := pickMetric(all, l.metric)
	l.picked = keep
	var kept []bool
	for i, row := range rows {
		if keep >= 0 && i != keep {
			l.skipped[row] = true
			continue
		}
		l.metrics[row] = l.b.Metric(all[i].Name)
		kept = append(kept, derived[i])
	}
	return kept, nil
}

// readData reads the values, exact counts, counters and metadata into the
// builder (openLoader read the nodes), and returns the earlier snapshots
// (none when l.only limits the values).
func (l *loader) readData(ctx context.Context) ([]snapshotRow, error) {
	var err error
	if err := l.readValues(ctx); err != nil {
		return nil, err
	}
	if l.exact, err = l.readBigCounts(ctx); err != nil {
		return nil, err
	}
	if err := l.readCounters(ctx); err != nil {
		return nil, err
	}
	snaps, err := l.readMetadata(ctx)
	if err != nil || l.only != nil {
		return nil, err
	}
	return l.readSnapshots(ctx, snaps)
}

// addSeries gives the finished trial t its earlier snapshots. Finish may
// renumber nodes (a throttled parent folded into its twin): the snapshots
// name their nodes by name, resolved now.
func (l *loader) addSeries(t *drg.Trial, series []snapshotRow) {
	index := make(map[string]int, len(t.Nodes))
	for i, n := range t.Nodes {
		index[n.Name] = i
	}
	for _, s := range series {
		out := s.snap
		out.Nodes = make([]int, 0, len(s.callpaths))
		for _, cp := range s.callpaths {
			out.Nodes = append(out.Nodes, index[l.names[cp]])
		}
		t.Series = append(t.Series, out)
	}
}

// readNodes reads the timers, their groups and the callpath rows, and adds
// the nodes to the builder in id order, each under its full name. A flat
// node gets its timer's groups; a callpath node of a timer in group
// TAU_DERIVED is marked TAU_CALLPATH_DERIVED, as ParaProf marks it.
func (l *loader) readNodes(ctx context.Context) error {
	timers := map[int64]string{}
	var order []int64
	if err := l.r.query(ctx, loadTimersQuery, func(scan func(...any) error) error {
		var row int64
		var name string
		if err := scan(&row, &name); err != nil {
			return err
		}
		timers[row] = name
		order = append(order, row)
		return nil
	}, l.id); err != nil {
		return fmt.Errorf("read timer: %w", err)
	}
	groups := map[int64][]string{}
	if err := l.r.query(ctx, loadGroupsQuery, func(scan func(...any) error) error {
		var row int64
		var g string
		if err := scan(&row, &g); err != nil {
			return err
		}
		groups[row] = append(groups[row], g)
		return nil
	}, l.id); err != nil {
		return fmt.Errorf("read timer_group: %w", err)
	}
	rows, names, err := readCallpaths(ctx, l.r, l.d, l.id)
	if err != nil {
		return err
	}
	// The trial's timer_call_data ids bound the cells that hold values: a
	// trial too sparse to hold densely is stored sparsely from the start,
	// before its nodes are added (a database written by another tool may
	// pair thousands of threads with thousands of timers that each
	// measured one).
	if drg.CheckDensity("call-graph nodes", len(rows), len(l.threads), max(l.calls.Last-l.calls.First+1, 0)) != nil {
		l.b.StartSparse()
	}
	l.b.Reserve(len(rows))
	flat := map[int64]bool{}
	for i, c := range rows {
		n := l.b.Node(names[i])
		l.nodes[c.id] = n
		l.names[c.id] = names[i]
		switch {
		case c.parent == 0 && names[i] == c.timerName:
			l.b.SetGroups(n, strings.Join(groups[c.timer], "|"))
			flat[c.timer] = true
		case c.parent != 0 && slices.Contains(groups[c.timer], "TAU_DERIVED"):
			l.b.SetGroups(n, "TAU_CALLPATH_DERIVED")
		}
	}
	// A timer without a flat row (not written by SaveTrial or TAU) still
	// becomes a region.
	for _, row := range order {
		if !flat[row] {
			l.b.SetGroups(l.b.Node(timers[row]), strings.Join(groups[row], "|"))
		}
	}
	return nil
}

// readValues reads the real threads' records of the trial's profile: the
// rows of its id range whose thread is one of the trial's real threads.
func (l *loader) readValues(ctx context.Context) error {
	if l.only == nil {
		done, err := l.readPages(ctx)
		if err != nil || done {
			l.paged = done
			return err
		}
	}
	var cp, th, metric int64
	var calls, subrs, incl, excl float64
	row := func(scan func(...any) error) error {
		if err := scan(&cp, &th, &calls, &subrs, &metric, &incl, &excl); err != nil {
			return err
		}
		col, ok := l.threads[th]
		if !ok {
			return nil // a derived thread's row, or another trial's in the range
		}
		n, ok := l.nodes[cp]
		if !ok {
			return fmt.Errorf("timer_call_data of callpath %d, which is not the trial's", cp)
		}
		if l.only != nil && !l.only[cp] {
			return nil // LoadTrialPart: a node not asked for
		}
		if metric == 0 || metric == l.first {
			l.b.AddCalls(n, col, calls, subrs)
		}
		if metric != 0 && !l.skipped[metric] {
			m, ok := l.metrics[metric]
			if !ok {
				return fmt.Errorf("timer_value of metric %d, which is not the trial's", metric)
			}
			l.b.AddValues(n, col, m, excl, incl)
		}
		return nil
	}
	var err error
	if l.only != nil {
		err = l.readValuesOf(ctx, row)
	} else {
		err = withPlan(ctx, l.r, l.d, pinRangePlan, func() error {
			return l.r.query(ctx, loadValuesQuery, row, l.calls.First, l.calls.Last)
		})
	}
	if err != nil {
		return fmt.Errorf("read timer_call_data and timer_value: %w", err)
	}
	return nil
}

// readCounters reads the user events and their values.
func (l *loader) readCounters(ctx context.Context) error {
	counters := map[int64]int{}
	if err := l.r.query(ctx, loadCountersQuery, func(scan func(...any) error) error {
		var row int64
		var name string
		if err := scan(&row, &name); err != nil {
			return err
		}
		counters[row] = l.b.Counter(name)
		return nil
	}, l.id); err != nil {
		return fmt.Errorf("read counter: %w", err)
	}
	var c, th int64
	var v drg.CounterValue
	err := l.r.query(ctx, loadCounterValuesQuery, func(scan func(...any) error) error {
		if err := scan(&c, &th, &v.NumEvents, &v.Max, &v.Min, &v.Mean, &v.SumSquares); err != nil {
			return err
		}
		col, ok := l.threads[th]
		if !ok {
			return nil // a derived thread's row (TAU's loader writes none)
		}
		if n, big := l.exact.samples[[2]int64{c, th}]; big {
			v.NumEvents = n
		}
		l.b.AddCounter(counters[c], col, v)
		return nil
	}, l.id)
	if err != nil {
		return fmt.Errorf("read counter_value: %w", err)
	}
	return nil
}

// snapshotRow is an earlier snapshot as secondary_metadata describes it.
type snapshotRow struct {
	timeRange int64
	snap      drg.Snapshot
	callpaths []int64 // the timer_callpath of each entry
}

// readMetadata reads the trial attributes and the threads' attributes, and
// returns the snapshots the SnapshotKey rows describe, in time_range order.
// An attribute tied to a time_range by another tool (TAU's context
// attributes) is kept as a plain attribute of its thread.
func (l *loader) readMetadata(ctx context.Context) ([]snapshotRow, error) {
	if err := l.r.query(ctx, loadPrimaryQuery, func(scan func(...any) error) error {
		var k, v string
		if err := scan(&k, &v); err != nil {
			return err
		}
		l.b.TrialMetadata(k, v)
		return nil
	}, l.id); err != nil {
		return nil, fmt.Errorf("read primary_metadata: %w", err)
	}
	var snaps []snapshotRow
	err := l.r.query(ctx, loadSecondaryQuery, func(scan func(...any) error) error {
		var th, tr, ts int64
		var k, v string
		if err := scan(&th, &tr, &k, &v, &ts); err != nil {
			return err
		}
		col, ok := l.threads[th]
		if !ok {
			return nil
		}
		if tr != 0 && k == SnapshotKey {
			snaps = append(snaps, snapshotRow{timeRange: tr, snap: drg.Snapshot{Thread: col, Name: v, Timestamp: ts}})
			return nil
		}
		l.b.ThreadMetadata(col, k, v, false)
		return nil
	}, l.id)
	if err != nil {
		return nil, fmt.Errorf("read secondary_metadata: %w", err)
	}
	return snaps, nil
}

// readSnapshots fills the snapshots' entries from their timer_call_data and
// timer_value rows.
func (l *loader) readSnapshots(ctx context.Context, snaps []snapshotRow) ([]snapshotRow, error) {
	if len(snaps) == 0 {
		return nil, nil
	}
	nm := len(l.metrics)
	byRange := make(map[int64]int, len(snaps))
	for i := range snaps {
		s := &snaps[i].snap
		s.Inclusive = make([][]float64, nm)
		s.Exclusive = make([][]float64, nm)
		byRange[snaps[i].timeRange] = i
	}
	lastCD := int64(-1)
	var tr, cd, cp, th, metric int64
	var calls, subrs, incl, excl float64
	err := l.r.query(ctx, loadSnapshotValuesQuery, func(scan func(...any) error) error {
		if err := scan(&tr, &cd, &cp, &th, &calls, &subrs, &metric, &incl, &excl); err != nil {
			return err
		}
		i, ok := byRange[tr]
		if _, real := l.threads[th]; !ok || !real {
			return nil // a time range that is no snapshot of ours, or another trial's row
		}
		sr := &snaps[i]
		s := &sr.snap
		if cd != lastCD {
			lastCD = cd
			sr.callpaths = append(sr.callpaths, cp)
			if ex, big := l.exact.snapshot[cd]; big {
				calls, subrs = ex[0], ex[1]
			}
			s.Calls = append(s.Calls, calls)
			s.Subroutines = append(s.Subroutines, subrs)
			for m := range nm {
				s.Inclusive[m] = append(s.Inclusive[m], 0)
				s.Exclusive[m] = append(s.Exclusive[m], 0)
			}
		}
		if m, ok := l.metrics[metric]; ok {
			j := len(sr.callpaths) - 1
			s.Inclusive[m][j] = incl
			s.Exclusive[m][j] = excl
		}
		return nil
	}, l.calls.First, l.calls.Last)
	if err != nil {
		return nil, fmt.Errorf("read the snapshots' timer_call_data and timer_value: %w", err)
	}
	return snaps, nil
}

// TrialQuery is one query LoadTrial runs, with its arguments written in.
type TrialQuery struct {
	// SQL is the query, its arguments as integer literals.
	SQL string
	// Settings, when not empty, are the SET LOCAL statements LoadTrial runs
	// before the query in the same transaction (the pinned plan of the
	// range queries on PostgreSQL).
	Settings string
}

// valuesQuery returns the query LoadTrial reads trial id's values with:
// its pages' when it has pages (readPages), else the rows' within the id
// range, with the plan settings of either on PostgreSQL. paged says which:
// the pages' query takes the trial's id as $1, the rows' the range as $1
// and $2.
func valuesQuery(ctx context.Context, r runner, d Dialect, id int64) (q TrialQuery, paged bool, err error) {
	q = TrialQuery{SQL: loadValuesQuery}
	if d == Postgres {
		q.Settings = pinRangePlan
	}
	have, err := hasTable(ctx, r, d, pageTable)
	if err != nil || !have {
		return q, false, err
	}
	var n int64
	if err := r.query(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM trial_value_page WHERE trial = $1 LIMIT 1) p`,
		func(scan func(...any) error) error { return scan(&n) }, id); err != nil {
		return q, false, fmt.Errorf("look for pages: %w", err)
	}
	if n == 0 {
		return q, false, nil
	}
	q.SQL, q.Settings = loadPagesQuery, ""
	if d == Postgres {
		q.Settings = pinPagePlan
	}
	return q, true, nil
}

// TrialQueries returns the data queries LoadTrial runs for trial id, in its
// order, with the trial's id and timer_call_data id range written in as
// integer literals, so that a benchmark or EXPLAIN can run exactly those
// queries another way (COPY (query) TO STDOUT, say). The id range is the
// one LoadTrial would use (see the package documentation); the snapshots'
// query is among them only when the trial has snapshots, as in LoadTrial.
func (db *DB) TrialQueries(ctx context.Context, id int64) ([]TrialQuery, error) {
	var out []TrialQuery
	err := db.readTx(ctx, func(r runner) error {
		c, err := readCallRange(ctx, r, db.dialect, id)
		if err != nil {
			return err
		}
		var snaps int64
		if err := r.query(ctx, `SELECT COUNT(*) FROM secondary_metadata WHERE trial = $1 AND name = $2 AND time_range IS NOT NULL`,
			func(scan func(...any) error) error { return scan(&snaps) }, id, SnapshotKey); err != nil {
			return fmt.Errorf("count the snapshots: %w", err)
		}
		trial := strings.NewReplacer("$1", strconv.FormatInt(id, 10))
		ranged := strings.NewReplacer("$1", strconv.FormatInt(c.First, 10), "$2", strconv.FormatInt(c.Last, 10))
		for _, q := range []string{loadTrialQuery, loadThreadsQuery, loadMetricsQuery, loadTimersQuery, loadGroupsQuery, callpathsQuery} {
			out = append(out, TrialQuery{SQL: trial.Replace(q)})
		}
		values, paged, err := valuesQuery(ctx, r, db.dialect, id)
		if err != nil {
			return err
		}
		if paged {
			values.SQL = trial.Replace(values.SQL)
		} else {
			values.SQL = ranged.Replace(values.SQL)
		}
		out = append(out, values)
		for _, q := range []string{loadCountersQuery, loadCounterValuesQuery, loadPrimaryQuery, loadSecondaryQuery} {
			out = append(out, TrialQuery{SQL: trial.Replace(q)})
		}
		if snaps > 0 {
			out = append(out, TrialQuery{SQL: ranged.Replace(loadSnapshotValuesQuery)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("queries of trial %d: %w", id, err)
	}
	return out, nil
}
