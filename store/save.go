package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/google/uuid"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// SaveOptions names a trial being saved and files it, as the -n, -a and -x
// options of TAU's taudb_loadtrial do.
type SaveOptions struct {
	// Name is the trial's name (trial.name); "" keeps the trial's own name
	// (drg.Trial.Name).
	Name string
	// Application and Experiment, when not "", are stored as the trial
	// attributes (primary_metadata) "Application" and "Experiment",
	// replacing attributes of those names that the trial may already have.
	Application, Experiment string
	// IfExists says what to do when a stored trial bears the name already:
	// store another (the zero value, NameAllowDuplicate), refuse
	// (NameRefuse) or keep the stored one (NameReuse). The name is checked
	// under a lock, so concurrent savers of one name cannot both store it.
	IfExists NameRule
	// Progress, when not nil, is called as rows go out with the number of
	// rows written so far and the total SaveTrial will write (all tables),
	// about every 64k rows and once at the end, from the saving goroutine.
	Progress func(done, total int64)
}

// progressEvery is the number of rows between two SaveOptions.Progress calls.
const progressEvery = 1 << 16

// Metadata names under which SaveTrial files SaveOptions.Application and
// SaveOptions.Experiment, as TAU's loader does.
const (
	ApplicationKey = "Application"
	ExperimentKey  = "Experiment"
)

// SnapshotKey is the secondary_metadata name of the row that ties one
// earlier snapshot (drg.Trial.Series) to its thread and its time_range row;
// its value is the snapshot's name. See the package documentation.
const SnapshotKey = "TAU Snapshot"

// saveLockKey is the PostgreSQL advisory lock under which SaveTrial reserves
// ids from the sequences (an arbitrary constant, distinct from initLockKey).
const saveLockKey = 7_305_268_131_926_466_212

// SaveTrial writes t into the database as a new trial and returns its id.
// It writes every row TAU's own loader writes (see the package documentation
// for the mapping and for where it deliberately differs), all in one
// transaction: when it fails, for any reason, nothing of the trial remains.
// With opt.IfExists = NameReuse and the name taken, it writes nothing and
// returns the stored trial's id (SaveTrials tells the two cases apart).
//
// On PostgreSQL the ids of all rows are reserved from the tables' sequences
// in one statement and every table is written with COPY; on SQLite the
// whole trial is written in one BEGIN IMMEDIATE transaction with prepared,
// batched INSERTs.
func (db *DB) SaveTrial(ctx context.Context, t *drg.Trial, opt SaveOptions) (int64, error) {
	if t == nil {
		return 0, errors.New("save trial: nil trial")
	}
	saved, err := db.SaveTrials(ctx, []PendingTrial{{Trial: t, Options: opt}})
	if err != nil {
		return 0, err
	}
	return saved[0].ID, nil
}

// kv is one metadata attribute.
type kv struct{ key, value string }

// savePlan holds everything SaveTrial writes, computed from the trial before
// any row goes out, and the first id of every table once they are known.
type savePlan struct {
	t           *drg.Trial
	name        string
	nt, nn, nm  int
	meta        []kv   // primary_metadata, sorted by name
	regions     []int  // region indexes in timer-row order (sorted by name)
	regionPos   []int  // region index → position in regions
	stored      []int  // nodes that get a timer_callpath row, in node (= id) order
	rowOf       []int  // node → position in stored, or -1
	insert      []int  // positions in stored, parents before children
	hasData     []bool // node → gets timer_call_data rows
	names       []int  // positions in stored whose name TAU's tools would not rebuild
	stats       *drg.Statistics
	main        [][]float64      // [metric][thread] main-region inclusive value
	derivedMn   [][]float64      // [metric][derivedOrder position] what derived percentages are of
	sumSq       [][]float64      // [metric][node] Σ exclusive² over threads
	snapIter    []int            // per snapshot: its number among its thread's snapshots
	snapMain    [][]float64      // [snapshot][metric] largest inclusive value
	nCallData   int              // timer_call_data rows
	keepRange   bool             // the database has trial_call_data_range
	keepLong    bool             // the database has trial_long_name
	keepPages   bool             // the database has trial_value_page
	app, exp    string           // SaveOptions.Application, .Experiment: the load views
	bigCalls    []bigCall        // timer_call_data rows with counts beyond an INT
	bigCounters []bigCounter     // counter_value rows with counts beyond an INT
	nCounterV   int              // counter_value rows
	nThreadMD   int              // secondary_metadata rows of threads
	ids         [numSerial]int64 // first id of each serial table
	nGroups     int              // timer_group rows
	nParams     int              // timer_parameter rows
	progress    func(done, total int64)
	// nDerived is the number of derived threads' rows a node with data
	// gets: len(derivedOrder), or 0 for a chunk of a trial saved a chunk of
	// threads at a time (its statistics are the whole trial's, written
	// once all chunks are read: chunkedSave).
	nDerived int
	// timerIDs and callpathIDs, when not nil, give each region's timer id
	// and each node's timer_callpath id, in place of the blocks of ids:
	// the ids of a trial saved a chunk at a time are reserved as each chunk
	// brings regions and nodes.
	timerIDs, callpathIDs []int64
	// rangeIDs, when set, is the trial's row of trial_call_data_range
	// (first, last) in place of the block of timer_call_data ids.
	rangeIDs *[2]int64
}

// givenStatistics are the statistics of a trial saved a chunk of threads
// at a time, merged from its chunks: the derived statistics, each metric's
// main inclusive value per thread and each node's Σ exclusive².
type givenStatistics struct {
	stats       *drg.Statistics
	main, sumSq [][]float64
}

// derivedOrder lists the derived threads in the order their thread rows are
// written (TAU's: −1, −3, −2, −5, −4, −6, −7).
var derivedOrder = drg.DerivedThreads

// The tables whose ids SaveTrial assigns, indexes into savePlan.ids.
const (
	serialTrial = iota
	serialThread
	serialMetric
	serialTimer
	serialCallpath
	serialTimeRange
	serialCallData
	serialCounter
	numSerial
)

// serialTables names the tables of the serial* constants.
var serialTables = [numSerial]string{"trial", "thread", "metric", "timer", "timer_callpath", "time_range", "timer_call_data", "counter"}

// newSavePlan checks the trial's shape and computes the rows' contents.
func newSavePlan(t *drg.Trial, opt SaveOptions) (*savePlan, error) {
	return buildPlan(t, opt, nil)
}

// buildPlan is newSavePlan, with the statistics given rather than computed
// from t when given is not nil.
func buildPlan(t *drg.Trial, opt SaveOptions, given *givenStatistics) (*savePlan, error) {
	p := &savePlan{t: t, name: opt.Name, nt: len(t.Threads), nn: len(t.Nodes), nm: len(t.Metrics), progress: opt.Progress,
		app: opt.Application, exp: opt.Experiment, nDerived: len(derivedOrder)}
	if p.name == "" {
		p.name = t.Name
	}
	if err := p.checkTrial(); err != nil {
		return nil, err
	}
	p.planMetadata(opt)
	p.planRegions()
	p.planNodes()
	if given == nil {
		p.planStatistics()
	} else {
		p.stats, p.main, p.sumSq = given.stats, given.main, given.sumSq
		p.planDerivedMain()
	}
	p.countCallData()
	p.planSnapshots()
	p.countRest()
	if err := p.planBigCounts(); err != nil {
		return nil, err
	}
	return p, nil
}

// checkTrial checks the trial's name, names, shape and values.
func (p *savePlan) checkTrial() error {
	t := p.t
	if p.name == "" {
		return errors.New("the trial has no name: give one")
	}
	if err := drg.CheckName("trial name", p.name); err != nil {
		return err
	}
	if err := t.CheckNames(); err != nil {
		return err
	}
	if err := p.check(); err != nil {
		return err
	}
	return t.CheckValues()
}

// planMetadata gathers the trial's metadata with the Application and
// Experiment of the options, sorted by key.
func (p *savePlan) planMetadata(opt SaveOptions) {
	meta := make(map[string]string, len(p.t.Metadata)+2)
	for k, v := range p.t.Metadata {
		meta[k] = v
	}
	if opt.Application != "" {
		meta[ApplicationKey] = opt.Application
	}
	if opt.Experiment != "" {
		meta[ExperimentKey] = opt.Experiment
	}
	p.meta = sortedKV(meta)
}

// planRegions orders the regions by name (the timer rows' order) and
// counts their group and parameter rows.
func (p *savePlan) planRegions() {
	t := p.t
	p.regions = make([]int, len(t.Regions))
	for i := range p.regions {
		p.regions[i] = i
	}
	sort.SliceStable(p.regions, func(i, j int) bool { return t.Regions[p.regions[i]].Name < t.Regions[p.regions[j]].Name })
	p.regionPos = make([]int, len(t.Regions))
	for pos, r := range p.regions {
		p.regionPos[r] = pos
		p.nGroups += len(t.Regions[r].Groups)
		p.nParams += len(t.Regions[r].Params)
	}
}

// planStatistics computes the derived statistics, each metric's main
// inclusive value per thread and per derived thread, and each node's sum
// of squared exclusive values.
func (p *savePlan) planStatistics() {
	t := p.t
	p.stats = t.Statistics()
	p.main = make([][]float64, p.nm)
	p.sumSq = make([][]float64, p.nm)
	for m := range p.nm {
		p.main[m] = t.MainInclusive(m)
		ss := make([]float64, p.nn)
		ex := t.Col(drg.ColExclusive, m)
		for n := range p.nn {
			var s float64
			for _, v := range ex.Row(n) {
				s += v * v
			}
			ss[n] = s
		}
		p.sumSq[m] = ss
	}
	p.planDerivedMain()
}

// planDerivedMain computes, per metric, what the derived threads'
// percentages are of, from the main inclusive values per thread.
func (p *savePlan) planDerivedMain() {
	p.derivedMn = make([][]float64, p.nm)
	for m := range p.nm {
		p.derivedMn[m] = make([]float64, len(derivedOrder))
		for k, d := range derivedOrder {
			p.derivedMn[m][k] = drg.DerivedMain(p.main[m], d)
		}
	}
}

// countCallData counts the timer_call_data rows of the stored nodes: a
// row per present cell, and the derived threads' rows of a node with data.
func (p *savePlan) countCallData() {
	for _, n := range p.stored {
		if !p.hasData[n] {
			continue
		}
		p.nCallData += p.t.RowLen(n)
		if p.nDerived > 0 && p.stats.Count[n] > 0 {
			p.nCallData += p.nDerived
		}
	}
}

// planSnapshots numbers each thread's snapshots, takes each snapshot's
// main value per metric, and counts their timer_call_data rows.
func (p *savePlan) planSnapshots() {
	t := p.t
	perThread := make([]int, p.nt)
	p.snapIter = make([]int, len(t.Series))
	p.snapMain = make([][]float64, len(t.Series))
	for si := range t.Series {
		s := &t.Series[si]
		p.snapIter[si] = perThread[s.Thread]
		perThread[s.Thread]++
		p.snapMain[si] = make([]float64, p.nm)
		for j, n := range s.Nodes {
			if p.hasData[n] && p.rowOf[n] >= 0 {
				p.nCallData++
			}
			for m := range p.nm {
				p.snapMain[si][m] = math.Max(p.snapMain[si][m], s.Inclusive[m][j])
			}
		}
	}
}

// countRest counts the counter_value rows and the threads' metadata rows.
func (p *savePlan) countRest() {
	t := p.t
	for c := range len(t.Counters) * p.nt {
		if t.CounterPresent.Get(c) {
			p.nCounterV++
		}
	}
	for _, th := range t.Threads {
		p.nThreadMD += len(th.Metadata)
	}
}

// check verifies that the trial's columns have the sizes its dimensions
// imply, so that writing it cannot index out of range.
func (p *savePlan) check() error {
	t := p.t
	switch {
	case p.nt == 0:
		return errors.New("the trial has no thread")
	case p.nm == 0:
		return errors.New("the trial has no metric")
	case len(t.Values) != p.nm:
		return fmt.Errorf("malformed trial: %d value columns for %d metrics", len(t.Values), p.nm)
	case len(t.CounterValues) != len(t.Counters)*p.nt:
		return fmt.Errorf("malformed trial: %d counter values for %d counters × %d threads", len(t.CounterValues), len(t.Counters), p.nt)
	}
	if err := p.checkColumns(); err != nil {
		return err
	}
	for i, n := range t.Nodes {
		if n.Region < 0 || n.Region >= len(t.Regions) || n.Parent >= p.nn || n.Parent == i {
			return fmt.Errorf("malformed trial: node %q has region %d and parent %d", n.Name, n.Region, n.Parent)
		}
	}
	for _, th := range t.Threads {
		if th.Node < 0 || th.Context < 0 || th.Thread < 0 {
			return fmt.Errorf("malformed trial: thread %d.%d.%d has a negative rank", th.Node, th.Context, th.Thread)
		}
	}
	for si, s := range t.Series {
		if s.Thread < 0 || s.Thread >= p.nt || len(s.Calls) != len(s.Nodes) || len(s.Subroutines) != len(s.Nodes) ||
			len(s.Inclusive) != p.nm || len(s.Exclusive) != p.nm {
			return fmt.Errorf("malformed trial: snapshot %d (thread %d) has inconsistent columns", si, s.Thread)
		}
		for m := range p.nm {
			if len(s.Inclusive[m]) != len(s.Nodes) || len(s.Exclusive[m]) != len(s.Nodes) {
				return fmt.Errorf("malformed trial: snapshot %d has inconsistent values of metric %q", si, t.Metrics[m].Name)
			}
		}
		for _, n := range s.Nodes {
			if n < 0 || n >= p.nn {
				return fmt.Errorf("malformed trial: snapshot %d names node %d of %d", si, n, p.nn)
			}
		}
	}
	return nil
}

// checkColumns verifies the sizes of the node values' columns, dense or
// sparse.
func (p *savePlan) checkColumns() error {
	t := p.t
	if sp := t.Sparse; sp != nil {
		return checkSparse(sp, p.nn, p.nt, p.nm)
	}
	cells := p.nn * p.nt
	switch {
	case len(t.Calls) != cells || len(t.Subroutines) != cells:
		return fmt.Errorf("malformed trial: %d calls and %d subroutines for %d nodes × %d threads", len(t.Calls), len(t.Subroutines), p.nn, p.nt)
	case t.Present.Len() < cells:
		return fmt.Errorf("malformed trial: presence bitmap of %d bits for %d cells", t.Present.Len(), cells)
	}
	for m, v := range t.Values {
		if len(v.Inclusive) != cells || len(v.Exclusive) != cells {
			return fmt.Errorf("malformed trial: metric %q has %d inclusive and %d exclusive values for %d cells", t.Metrics[m].Name, len(v.Inclusive), len(v.Exclusive), cells)
		}
	}
	return nil
}

// checkSparse verifies a sparse trial's cells: nn+1 ascending starts, a
// thread below nt and ascending within each node, and every column as
// long as the cells.
func checkSparse(sp *drg.SparseValues, nn, nt, nm int) error {
	k := sp.Cells()
	if len(sp.Start) != nn+1 || sp.Start[0] != 0 || sp.Start[nn] != k {
		return fmt.Errorf("malformed sparse trial: %d row starts for %d nodes and %d cells", len(sp.Start), nn, k)
	}
	if len(sp.Calls) != k || len(sp.Subroutines) != k || len(sp.Inclusive) != nm || len(sp.Exclusive) != nm {
		return fmt.Errorf("malformed sparse trial: columns of %d calls, %d subroutines and %d/%d metrics for %d cells and %d metrics",
			len(sp.Calls), len(sp.Subroutines), len(sp.Inclusive), len(sp.Exclusive), k, nm)
	}
	for m := range nm {
		if len(sp.Inclusive[m]) != k || len(sp.Exclusive[m]) != k {
			return fmt.Errorf("malformed sparse trial: metric %d has %d inclusive and %d exclusive values for %d cells", m, len(sp.Inclusive[m]), len(sp.Exclusive[m]), k)
		}
	}
	for n := range nn {
		if sp.Start[n+1] < sp.Start[n] {
			return fmt.Errorf("malformed sparse trial: node %d's cells start after the next node's", n)
		}
		for i := sp.Start[n]; i < sp.Start[n+1]; i++ {
			if th := int(sp.Thread[i]); th < 0 || th >= nt || (i > sp.Start[n] && sp.Thread[i-1] >= sp.Thread[i]) {
				return fmt.Errorf("malformed sparse trial: node %d has thread %d out of order or beyond %d threads", n, th, nt)
			}
		}
	}
	return nil
}

// planNodes decides which nodes get a timer_callpath row and which get
// data. Nodes ParaProf derived (Node.Derived, TAU_CALLPATH_DERIVED) get no
// data, as in TAU's loader; one gets a row, without data, only when it is
// the ancestor of a stored node (TAU's loader creates that row too when it
// resolves the child's parent). Every other node gets a row, data or not.
func (p *savePlan) planNodes() {
	t := p.t
	keep := make([]bool, p.nn)
	p.hasData = make([]bool, p.nn)
	for i := range t.Nodes {
		if t.Nodes[i].Derived {
			continue
		}
		p.hasData[i] = true
		for j, steps := i, 0; j >= 0 && !keep[j] && steps <= p.nn; j, steps = t.Nodes[j].Parent, steps+1 {
			keep[j] = true
		}
	}
	p.rowOf = make([]int, p.nn)
	depth := make([]int, 0, p.nn)
	for i := range t.Nodes {
		p.rowOf[i] = -1
		if !keep[i] {
			continue
		}
		p.rowOf[i] = len(p.stored)
		p.stored = append(p.stored, i)
		d := 0
		for j := t.Nodes[i].Parent; j >= 0 && d <= p.nn; j = t.Nodes[j].Parent {
			d++
		}
		depth = append(depth, d)
	}
	p.insert = make([]int, len(p.stored))
	for i := range p.insert {
		p.insert[i] = i
	}
	sort.SliceStable(p.insert, func(a, b int) bool { return depth[p.insert[a]] < depth[p.insert[b]] })
	for pos, n := range p.stored {
		node := &t.Nodes[n]
		if node.Name != rebuiltName(t, n) {
			p.names = append(p.names, pos)
		}
	}
}

// rebuiltName is the name TAU's tools give node n from the TAUdb rows: its
// region's name for a node without parent, else its parent's name, " => "
// and its region's name.
func rebuiltName(t *drg.Trial, n int) string {
	node := &t.Nodes[n]
	leaf := t.Regions[node.Region].Name
	if node.Parent < 0 {
		return leaf
	}
	return t.Nodes[node.Parent].Name + drg.CallpathSeparator + leaf
}

// sortedKV returns the attributes of m sorted by name.
func sortedKV(m map[string]string) []kv {
	out := make([]kv, 0, len(m))
	for k, v := range m {
		out = append(out, kv{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// count returns how many ids table s needs.
func (p *savePlan) count(s int) int {
	switch s {
	case serialTrial:
		return 1
	case serialThread:
		return p.nt + len(derivedOrder)
	case serialMetric:
		return p.nm
	case serialTimer:
		return len(p.t.Regions)
	case serialCallpath:
		return len(p.stored)
	case serialTimeRange:
		return len(p.t.Series)
	case serialCallData:
		return p.nCallData
	case serialCounter:
		return len(p.t.Counters)
	}
	return 0
}

func (p *savePlan) trialID() int64        { return p.ids[serialTrial] }
func (p *savePlan) threadID(th int) int64 { return p.ids[serialThread] + int64(th) }
func (p *savePlan) derivedID(k int) int64 { return p.ids[serialThread] + int64(p.nt+k) }
func (p *savePlan) metricID(m int) int64  { return p.ids[serialMetric] + int64(m) }
func (p *savePlan) timerID(region int) int64 {
	if p.timerIDs != nil {
		return p.timerIDs[region]
	}
	return p.ids[serialTimer] + int64(p.regionPos[region])
}

func (p *savePlan) callpathID(node int) int64 {
	if p.callpathIDs != nil {
		return p.callpathIDs[node]
	}
	return p.ids[serialCallpath] + int64(p.rowOf[node])
}
func (p *savePlan) timeRangeID(snap int) int64 { return p.ids[serialTimeRange] + int64(snap) }
func (p *savePlan) counterID(c int) int64      { return p.ids[serialCounter] + int64(c) }

// tableRows is one table's rows as SaveTrial writes them: the columns, the
// number of rows, and a generator of the rows in order.
type tableRows struct {
	table   string
	columns []string
	rows    int
	// next returns the next row, or false after the last one. The slice is
	// reused: the caller must use it before calling next again.
	next func() ([]any, bool)
}

// beforeTableKey is the context key of a func(table string) that SaveTrial
// calls before writing each table, and SaveResult before the
// analysis_result row and the cells of each result table. Only tests set it (see export_test.go),
// to make one save fail at a chosen point instead of after a guessed time;
// being carried by the save's context, it cannot touch other saves.
type beforeTableKey struct{}

// beforeTable calls the hook that ctx carries under beforeTableKey, if any.
func beforeTable(ctx context.Context, table string) {
	if hook, ok := ctx.Value(beforeTableKey{}).(func(string)); ok {
		hook(table)
	}
}

// tables lists every table SaveTrial writes, in an order that respects the
// foreign keys, with generators of their rows. The ids must be set.
func (p *savePlan) tables() []tableRows {
	all := []tableRows{
		p.trialRows(),
		p.threadRows(),
		p.metricRows(),
		p.timerRows(),
		p.groupRows(),
		p.paramRows(),
		p.callpathRows(),
		p.nameRows(),
		p.timeRangeRows(),
		p.callDataRows(),
		p.valueRows(),
		p.bigCallRows(),
		p.rangeRows(),
		p.pageRows(0),
		p.longNameRows(),
		p.counterRows(),
		p.counterValueRows(),
		p.bigCounterRows(),
		p.primaryRows(),
		p.secondaryRows(),
	}
	if p.progress != nil {
		reportProgress(all, p.progress)
	}
	return all
}

// reportProgress wraps the tables' generators so that report is called
// with the rows produced so far and their total, every progressEvery rows
// and after the last row.
func reportProgress(tables []tableRows, report func(done, total int64)) {
	var done, total int64
	for _, tr := range tables {
		total += int64(tr.rows)
	}
	for i := range tables {
		next := tables[i].next
		tables[i].next = func() ([]any, bool) {
			row, ok := next()
			if ok {
				done++
				if done%progressEvery == 0 || done == total {
					report(done, total)
				}
			}
			return row, ok
		}
	}
}

// gen makes a generator from a count and a function filling row i.
func gen(n, width int, fill func(i int, row []any)) func() ([]any, bool) {
	row := make([]any, width)
	i := 0
	return func() ([]any, bool) {
		if i >= n {
			return nil, false
		}
		fill(i, row)
		i++
		return row, true
	}
}

func (p *savePlan) trialRows() tableRows {
	nodes, ctxs, thr, total := p.t.Layout()
	cols := []string{"id", "name", "data_source", "node_count", "contexts_per_node", "threads_per_context", "total_threads"}
	return tableRows{"trial", cols, 1, gen(1, len(cols), func(_ int, r []any) {
		r[0], r[1], r[2] = p.trialID(), p.name, int64(p.t.Source.DataSource)
		r[3], r[4], r[5], r[6] = int64(nodes), int64(ctxs), int64(thr), int64(total)
	})}
}

func (p *savePlan) threadRows() tableRows {
	cols := []string{"id", "trial", "node_rank", "context_rank", "thread_rank", "thread_index"}
	n := p.nt + len(derivedOrder)
	return tableRows{"thread", cols, n, gen(n, len(cols), func(i int, r []any) {
		r[1] = p.trialID()
		if i < p.nt {
			th := &p.t.Threads[i]
			r[0], r[2], r[3], r[4], r[5] = p.threadID(i), int64(th.Node), int64(th.Context), int64(th.Thread), int64(th.Index)
			return
		}
		code := int64(derivedOrder[i-p.nt])
		r[0], r[2], r[3], r[4], r[5] = p.derivedID(i-p.nt), code, code, code, code
	})}
}

func (p *savePlan) metricRows() tableRows {
	cols := []string{"id", "trial", "name", "derived"}
	return tableRows{"metric", cols, p.nm, gen(p.nm, len(cols), func(i int, r []any) {
		r[0], r[1], r[2], r[3] = p.metricID(i), p.trialID(), p.t.Metrics[i].Name, p.t.Metrics[i].Derived
	})}
}

func (p *savePlan) timerRows() tableRows {
	cols := []string{"id", "trial", "name", "short_name", "source_file", "line_number", "line_number_end", "column_number", "column_number_end"}
	return tableRows{"timer", cols, len(p.regions), gen(len(p.regions), len(cols), func(i int, r []any) {
		reg := &p.t.Regions[p.regions[i]]
		r[0], r[1], r[2], r[3] = p.timerID(p.regions[i]), p.trialID(), reg.Name, reg.ShortName
		r[4] = nullString(reg.SourceFile)
		r[5], r[6], r[7], r[8] = int64(reg.LineStart), int64(reg.LineEnd), int64(reg.ColumnStart), int64(reg.ColumnEnd)
	})}
}

func (p *savePlan) groupRows() tableRows {
	cols := []string{"timer", "group_name"}
	pos, g := 0, 0
	return tableRows{"timer_group", cols, p.nGroups, gen(p.nGroups, len(cols), func(_ int, r []any) {
		for g >= len(p.t.Regions[p.regions[pos]].Groups) {
			pos, g = pos+1, 0
		}
		reg := p.regions[pos]
		r[0], r[1] = p.timerID(reg), p.t.Regions[reg].Groups[g]
		g++
	})}
}

func (p *savePlan) paramRows() tableRows {
	cols := []string{"timer", "parameter_name", "parameter_value"}
	pos, k := 0, 0
	return tableRows{"timer_parameter", cols, p.nParams, gen(p.nParams, len(cols), func(_ int, r []any) {
		for k >= len(p.t.Regions[p.regions[pos]].Params) {
			pos, k = pos+1, 0
		}
		reg := p.regions[pos]
		par := p.t.Regions[reg].Params[k]
		r[0], r[1], r[2] = p.timerID(reg), par.Name, par.Value
		k++
	})}
}

func (p *savePlan) callpathRows() tableRows {
	cols := []string{"id", "timer", "parent"}
	return tableRows{"timer_callpath", cols, len(p.stored), gen(len(p.stored), len(cols), func(i int, r []any) {
		n := p.stored[p.insert[i]]
		node := &p.t.Nodes[n]
		r[0], r[1], r[2] = p.callpathID(n), p.timerID(node.Region), nil
		if node.Parent >= 0 {
			r[2] = p.callpathID(node.Parent)
		}
	})}
}

func (p *savePlan) nameRows() tableRows {
	cols := []string{"timer_callpath", "name"}
	return tableRows{"timer_callpath_name", cols, len(p.names), gen(len(p.names), len(cols), func(i int, r []any) {
		n := p.stored[p.names[i]]
		r[0], r[1] = p.callpathID(n), p.t.Nodes[n].Name
	})}
}

func (p *savePlan) timeRangeRows() tableRows {
	cols := []string{"id", "iteration_start", "iteration_end", "time_start", "time_end"}
	n := len(p.t.Series)
	return tableRows{"time_range", cols, n, gen(n, len(cols), func(i int, r []any) {
		s := &p.t.Series[i]
		r[0], r[1], r[2], r[3], r[4] = p.timeRangeID(i), int64(p.snapIter[i]), int64(p.snapIter[i]), s.Timestamp, s.Timestamp
	})}
}

// The kinds of timer_call_data rows.
const (
	cdReal     = iota // a real thread's record of a node
	cdDerived         // a derived thread's statistic of a node
	cdSnapshot        // an entry of an earlier snapshot
)

// callData is one timer_call_data row, as the cursor walks them.
type callData struct {
	id   int64
	kind int
	node int
	// col is the thread column (cdReal), the position in derivedOrder
	// (cdDerived) or the snapshot's index in Trial.Series (cdSnapshot).
	col int
	// entry is the position in the snapshot's Nodes (cdSnapshot).
	entry int
	// cell is the position of a real thread's values in the trial's
	// columns: node*threads+thread, or the cell of a sparse trial.
	cell int
}

// cdCursor walks the timer_call_data rows in id order: for each stored node
// with data, the real threads that have a record, then the seven derived
// threads if any real thread has one; then each snapshot's entries.
type cdCursor struct {
	p     *savePlan
	stage int // 0 nodes, 1 snapshots, 2 done
	i, j  int
	cur   callData
	next  int64
}

func (p *savePlan) cursor() *cdCursor {
	return &cdCursor{p: p, next: p.ids[serialCallData]}
}

// advance moves to the next row and reports whether there is one.
func (c *cdCursor) advance() bool {
	p := c.p
	for {
		switch c.stage {
		case 0:
			if c.i >= len(p.stored) {
				c.stage, c.i, c.j = 1, 0, 0
				continue
			}
			n := p.stored[c.i]
			real := p.nt
			if sp := p.t.Sparse; sp != nil {
				real = sp.Start[n+1] - sp.Start[n]
			}
			if !p.hasData[n] || c.j >= real+p.nDerived {
				c.i, c.j = c.i+1, 0
				continue
			}
			j := c.j
			c.j++
			if j < real {
				if !c.real(n, j) {
					continue
				}
			} else {
				if p.stats.Count[n] == 0 {
					c.j = real + p.nDerived
					continue
				}
				c.cur = callData{kind: cdDerived, node: n, col: j - real}
			}
		case 1:
			if c.i >= len(p.t.Series) {
				c.stage = 2
				continue
			}
			s := &p.t.Series[c.i]
			if c.j >= len(s.Nodes) {
				c.i, c.j = c.i+1, 0
				continue
			}
			j := c.j
			c.j++
			n := s.Nodes[j]
			if !p.hasData[n] || p.rowOf[n] < 0 {
				continue
			}
			c.cur = callData{kind: cdSnapshot, node: n, col: c.i, entry: j}
		default:
			return false
		}
		c.cur.id = c.next
		c.next++
		return true
	}
}

// real makes the j-th real row of node n current (the j-th thread column
// of a dense trial, the j-th cell of the node in a sparse one) and reports
// whether that thread has a record.
func (c *cdCursor) real(n, j int) bool {
	p := c.p
	if sp := p.t.Sparse; sp != nil {
		i := sp.Start[n] + j
		c.cur = callData{kind: cdReal, node: n, col: int(sp.Thread[i]), cell: i}
		return true
	}
	if !p.t.Present.Get(n*p.nt + j) {
		return false
	}
	c.cur = callData{kind: cdReal, node: n, col: j, cell: n*p.nt + j}
	return true
}

// cellValues returns the inclusive and exclusive value of metric m in a
// real thread's cell (callData.cell).
func (p *savePlan) cellValues(m, cell int) (incl, excl float64) {
	if sp := p.t.Sparse; sp != nil {
		return sp.Inclusive[m][cell], sp.Exclusive[m][cell]
	}
	return p.t.Values[m].Inclusive[cell], p.t.Values[m].Exclusive[cell]
}

// callRow fills a timer_call_data row: id, timer_callpath, thread, calls,
// subroutines, time_range.
func (p *savePlan) callRow(cd *callData, r []any) {
	r[0], r[1], r[5] = cd.id, p.callpathID(cd.node), nil
	calls, subs := p.callCounts(cd)
	r[3], r[4] = count32(calls), count32(subs)
	switch cd.kind {
	case cdReal:
		r[2] = p.threadID(cd.col)
	case cdDerived:
		r[2] = p.derivedID(cd.col)
	case cdSnapshot:
		s := &p.t.Series[cd.col]
		r[2], r[5] = p.threadID(s.Thread), p.timeRangeID(cd.col)
	}
}

// valueRow fills a timer_value row of metric m: timer_call_data, metric,
// inclusive_value, exclusive_value, inclusive_percent, exclusive_percent,
// sum_exclusive_squared.
func (p *savePlan) valueRow(cd *callData, m int, r []any) {
	var incl, excl, main float64
	r[0], r[1], r[6] = cd.id, p.metricID(m), nil
	switch cd.kind {
	case cdReal:
		incl, excl = p.cellValues(m, cd.cell)
		main = p.main[m][cd.col]
	case cdDerived:
		d := derivedOrder[cd.col]
		incl, excl = p.stats.Inclusive[m].Get(d)[cd.node], p.stats.Exclusive[m].Get(d)[cd.node]
		main = p.derivedMn[m][cd.col]
		r[6] = p.sumSq[m][cd.node]
	case cdSnapshot:
		s := &p.t.Series[cd.col]
		incl, excl, main = s.Inclusive[m][cd.entry], s.Exclusive[m][cd.entry], p.snapMain[cd.col][m]
	}
	r[2], r[3], r[4], r[5] = incl, excl, drg.Percent(incl, main), drg.Percent(excl, main)
}

func (p *savePlan) callDataRows() tableRows {
	cols := []string{"id", "timer_callpath", "thread", "calls", "subroutines", "time_range"}
	c := p.cursor()
	row := make([]any, len(cols))
	return tableRows{"timer_call_data", cols, p.nCallData, func() ([]any, bool) {
		if !c.advance() {
			return nil, false
		}
		p.callRow(&c.cur, row)
		return row, true
	}}
}

func (p *savePlan) valueRows() tableRows {
	cols := []string{"timer_call_data", "metric", "inclusive_value", "exclusive_value", "inclusive_percent", "exclusive_percent", "sum_exclusive_squared"}
	c := p.cursor()
	row := make([]any, len(cols))
	m := p.nm
	return tableRows{"timer_value", cols, p.nCallData * p.nm, func() ([]any, bool) {
		if m == p.nm {
			if !c.advance() {
				return nil, false
			}
			m = 0
		}
		p.valueRow(&c.cur, m, row)
		m++
		return row, true
	}}
}

// rangeRows is the trial's row of trial_call_data_range: its
// timer_call_data ids are the block [first, first+nCallData−1] reserved for
// this save. None when the database lacks the table (created by an earlier
// version: "db init" adds it) or the trial has no call data; LoadTrial then
// computes the range.
func (p *savePlan) rangeRows() tableRows {
	cols := []string{"trial", "first_id", "last_id"}
	n := 0
	if p.keepRange && p.nCallData > 0 {
		n = 1
	}
	first, last := p.ids[serialCallData], p.ids[serialCallData]+int64(p.nCallData)-1
	if p.rangeIDs != nil {
		first, last = p.rangeIDs[0], p.rangeIDs[1]
		n = 0
		if p.keepRange {
			n = 1
		}
	}
	return tableRows{callRangeTable, cols, n, gen(n, len(cols), func(_ int, r []any) {
		r[0], r[1], r[2] = p.trialID(), first, last
	})}
}

// longNameRows maps the trial's shortened names back to the full ones
// (drg.Trial.LongNames), in the order of the short names. None when the
// database lacks the table (created by an earlier version: "db init" adds
// it); the trial then keeps only the short names.
func (p *savePlan) longNameRows() tableRows {
	cols := []string{"trial", "short_name", "full_name"}
	var short []string
	if p.keepLong {
		for s := range p.t.LongNames {
			short = append(short, s)
		}
		sort.Strings(short)
	}
	return tableRows{longNameTable, cols, len(short), gen(len(short), len(cols), func(i int, r []any) {
		r[0], r[1], r[2] = p.trialID(), short[i], p.t.LongNames[short[i]]
	})}
}

func (p *savePlan) counterRows() tableRows {
	cols := []string{"id", "trial", "name"}
	n := len(p.t.Counters)
	return tableRows{"counter", cols, n, gen(n, len(cols), func(i int, r []any) {
		r[0], r[1], r[2] = p.counterID(i), p.trialID(), p.t.Counters[i].Name
	})}
}

func (p *savePlan) counterValueRows() tableRows {
	cols := []string{"counter", "timer_callpath", "thread", "sample_count", "maximum_value", "minimum_value", "mean_value", "standard_deviation"}
	c := -1
	return tableRows{"counter_value", cols, p.nCounterV, gen(p.nCounterV, len(cols), func(_ int, r []any) {
		for c++; !p.t.CounterPresent.Get(c); c++ {
		}
		v := &p.t.CounterValues[c]
		k, th := c/p.nt, c%p.nt
		r[0], r[1], r[2], r[3] = p.counterID(k), nil, p.threadID(th), count32(v.NumEvents)
		// standard_deviation holds Σx², as TAU's loader writes it.
		r[4], r[5], r[6], r[7] = v.Max, v.Min, v.Mean, v.SumSquares
	})}
}

func (p *savePlan) primaryRows() tableRows {
	cols := []string{"trial", "name", "value"}
	return tableRows{"primary_metadata", cols, len(p.meta), gen(len(p.meta), len(cols), func(i int, r []any) {
		r[0], r[1], r[2] = p.trialID(), p.meta[i].key, p.meta[i].value
	})}
}

func (p *savePlan) secondaryRows() tableRows {
	cols := []string{"id", "trial", "thread", "timer_callpath", "time_range", "parent", "name", "value", "is_array"}
	n := p.nThreadMD + len(p.t.Series)
	th := 0
	var keys []kv
	return tableRows{"secondary_metadata", cols, n, gen(n, len(cols), func(i int, r []any) {
		r[0], r[1], r[3], r[4], r[5], r[8] = uuid.NewString(), p.trialID(), nil, nil, nil, false
		if i >= p.nThreadMD {
			si := i - p.nThreadMD
			s := &p.t.Series[si]
			r[2], r[4], r[6], r[7] = p.threadID(s.Thread), p.timeRangeID(si), SnapshotKey, s.Name
			return
		}
		for len(keys) == 0 {
			keys = sortedKV(p.t.Threads[th].Metadata)
			th++
		}
		r[2], r[6], r[7] = p.threadID(th-1), keys[0].key, keys[0].value
		keys = keys[1:]
	})}
}

// count32 stores a count (calls, subroutines, samples) in an INT column:
// rounded to the nearest integer and held within the 32-bit range (NaN
// becomes 0). A count beyond that range is kept exactly in
// taudb-analyze's own tables as well (see bigcount.go), so the clamped
// value is only what TAU's own tools see.
func count32(v float64) int64 {
	switch {
	case math.IsNaN(v):
		return 0
	case v >= math.MaxInt32:
		return math.MaxInt32
	case v <= math.MinInt32:
		return math.MinInt32
	}
	return int64(math.Round(v))
}

// nullString is s, or NULL for "".
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
