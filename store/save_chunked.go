package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// TrialChunks is a trial read a run of threads at a time
// (profile.Reader.Chunks), for SaveTrials to save as it reads
// (PendingTrial.Chunks) with memory bounded by two chunks, whatever the
// trial's size.
type TrialChunks interface {
	// Threads returns every thread of the trial, in the order the chunks
	// hold them.
	Threads() []drg.ThreadID
	// Next returns a trial of the next run of threads, or io.EOF after the
	// last. Every chunk holds the same metrics in the same order.
	Next() (*drg.Trial, error)
}

// ErrChunksNeedPartitions is wrapped by the error of a save of
// PendingTrial.Chunks into a database without the partitioned layout
// (SQLite, or a PostgreSQL TAUdb that TAU's taudb_configure made): read the
// trial whole there.
var ErrChunksNeedPartitions = errors.New("saving a trial a chunk of threads at a time needs the partitioned PostgreSQL layout")

// chunkedSave is the state of one trial saved a chunk of threads at a
// time, in the partitioned layout. Each chunk's real threads' rows go into
// new tables of their own (stagePartition) as the chunk is read, with ids
// from the blocks reserved then; what needs every chunk (the trial's
// timers and call paths, the derived threads' statistics, user events,
// metadata) is gathered in a skeleton trial without values and written
// once the last chunk is read, after which the chunks' tables are attached
// as partitions. All of it is one transaction.
type chunkedSave struct {
	opt       SaveOptions
	keep      keptTables
	threads   []drg.ThreadID
	skel      *drg.Trial // regions, nodes, threads, counters; no values
	regionOf  map[string]int
	nodeOf    map[string]int
	counterOf map[string]int
	timerIDs  []int64 // skeleton region → timer id
	pathIDs   []int64 // skeleton node → timer_callpath id, 0 until reserved
	ids       [numSerial]int64
	merger    *drg.StatsMerger
	main      [][]float64 // [metric][thread]
	sumSq     [][]float64 // [metric][skeleton node]
	counterV  [][]drg.CounterValue
	counterP  []drg.Bitmap
	common    []chunkCommon
	parts     []stagedChunk
	bigCalls  []bigCall // offsets are absolute ids
	done      int       // threads saved
	rows      int64     // rows written, for Progress
	perThread float64   // rows per thread of the first chunk, for Progress
}

// chunkCommon is the trial-level metadata of one chunk (what its threads
// share) and its threads [lo, hi).
type chunkCommon struct {
	lo, hi int
	meta   map[string]string
}

// stagedChunk is one chunk's staged tables and its block of
// timer_call_data ids.
type stagedChunk struct {
	callData, values string
	block            idBlock
}

// saveChunked saves pt.Chunks (see chunkedSave) through conn in tx, in the
// partitioned layout, and returns the saved trial (or the stored one,
// NameReuse).
func (db *DB) saveChunked(ctx context.Context, conn *pgconn.PgConn, tx pgx.Tx, pt PendingTrial, keep keptTables) (SavedTrial, error) {
	r := pgxRunner{tx}
	opt := pt.Options
	if opt.Name != "" && opt.IfExists != NameAllowDuplicate {
		if saved, done, err := checkName(ctx, r, opt.Name, opt.IfExists); err != nil || done {
			return saved, err
		}
	}
	first, err := pt.Chunks.Next()
	if err != nil {
		return SavedTrial{}, readError{err}
	}
	if opt.Name == "" {
		opt.Name = first.Name
		if opt.IfExists != NameAllowDuplicate {
			if err := db.lockNames(ctx, r, "trial", opt.Name); err != nil {
				return SavedTrial{}, err
			}
			if saved, done, err := checkName(ctx, r, opt.Name, opt.IfExists); err != nil || done {
				return saved, err
			}
		}
	}
	cs := newChunkedSave(pt.Chunks.Threads(), first, opt)
	cs.keep = keep
	if err := cs.reserveTrial(ctx, tx); err != nil {
		return SavedTrial{}, err
	}
	if err := cs.writeTrial(ctx, tx); err != nil {
		return SavedTrial{}, err
	}
	if err := cs.readAll(ctx, conn, tx, first, pt.Chunks); err != nil {
		return SavedTrial{}, err
	}
	if err := cs.finish(ctx, conn, tx, keep); err != nil {
		return SavedTrial{}, err
	}
	return SavedTrial{ID: cs.ids[serialTrial], Name: opt.Name}, nil
}

// keptTables says which of taudb-analyze's own tables the database has
// (an earlier "db init", or TAU's schema file, made it without them).
type keptTables struct{ rangeTable, bigTables, longNames, pages bool }

// keptTablesOf looks the tables up.
func keptTablesOf(ctx context.Context, r runner, d Dialect) (keptTables, error) {
	var k keptTables
	var err error
	for _, t := range []struct {
		name string
		have *bool
	}{{callRangeTable, &k.rangeTable}, {bigCallTable, &k.bigTables}, {longNameTable, &k.longNames}, {pageTable, &k.pages}} {
		if *t.have, err = hasTable(ctx, r, d, t.name); err != nil {
			return k, err
		}
	}
	return k, nil
}

// newChunkedSave starts the save of the trial of threads whose first chunk
// is first.
func newChunkedSave(threads []drg.ThreadID, first *drg.Trial, opt SaveOptions) *chunkedSave {
	nm := len(first.Metrics)
	cs := &chunkedSave{opt: opt, threads: threads, regionOf: map[string]int{}, nodeOf: map[string]int{}, counterOf: map[string]int{},
		merger: drg.NewStatsMerger(0, nm), main: make([][]float64, nm), sumSq: make([][]float64, nm)}
	cs.skel = &drg.Trial{Name: opt.Name, Source: first.Source, Metrics: slices.Clone(first.Metrics), LongNames: map[string]string{},
		Threads: make([]drg.Thread, len(threads))}
	cmax, tmax := 0, 0
	for _, id := range threads {
		cmax, tmax = max(cmax, id.Context), max(tmax, id.Thread)
	}
	for i, id := range threads {
		cs.skel.Threads[i] = drg.Thread{Node: id.Node, Context: id.Context, Thread: id.Thread,
			Index: id.Node*(cmax+1)*(tmax+1) + id.Context*(tmax+1) + id.Thread}
	}
	return cs
}

// reserveTrial reserves the ids of the trial, its threads (real and
// derived) and its metrics.
func (cs *chunkedSave) reserveTrial(ctx context.Context, tx pgx.Tx) error {
	got, err := reserveBlocks(ctx, tx, map[int]int{serialTrial: 1, serialThread: len(cs.threads) + len(derivedOrder), serialMetric: len(cs.skel.Metrics)})
	if err != nil {
		return err
	}
	for s, first := range got {
		cs.ids[s] = first
	}
	return nil
}

// writeTrial writes the trial's row, which the chunks' pages refer to.
func (cs *chunkedSave) writeTrial(ctx context.Context, tx pgx.Tx) error {
	p := &savePlan{t: cs.skel, name: cs.opt.Name, ids: cs.ids}
	beforeTable(ctx, "trial")
	return copyRows(ctx, tx, p.trialRows())
}

// readAll saves first and every chunk after it, reading the next chunk
// while the current one is written.
func (cs *chunkedSave) readAll(ctx context.Context, conn *pgconn.PgConn, tx pgx.Tx, first *drg.Trial, src TrialChunks) error {
	type read struct {
		t   *drg.Trial
		err error
	}
	cur := first
	for k := 1; ; k++ {
		next := make(chan read, 1)
		go func() {
			t, err := src.Next()
			next <- read{t, err}
		}()
		err := cs.addChunk(ctx, conn, tx, cur, k)
		cur = nil
		got := <-next
		switch {
		case err != nil:
			return err
		case errors.Is(got.err, io.EOF):
			if cs.done != len(cs.threads) {
				return fmt.Errorf("the chunks held %d of the trial's %d threads", cs.done, len(cs.threads))
			}
			return nil
		case got.err != nil:
			return readError{got.err}
		}
		cur = got.t
	}
}

// addChunk saves chunk k (from 1), the trial t of the next threads: its
// rows into staged tables, and what the skeleton needs.
func (cs *chunkedSave) addChunk(ctx context.Context, conn *pgconn.PgConn, tx pgx.Tx, t *drg.Trial, k int) error {
	if err := cs.checkChunk(t); err != nil {
		return err
	}
	t.Name = cs.opt.Name
	p, err := newChunkPlan(t, cs.keep)
	if err != nil {
		return err
	}
	regions, nodes := cs.mapRegions(t), cs.mapNodes(t)
	if err := cs.reserveChunk(ctx, tx, p, regions, nodes); err != nil {
		return err
	}
	if err := cs.stageChunk(ctx, conn, tx, p, k); err != nil {
		return err
	}
	cs.gather(t, p, nodes)
	cs.done += len(t.Threads)
	return nil
}

// checkChunk verifies that t holds the next threads and the first chunk's
// metrics.
func (cs *chunkedSave) checkChunk(t *drg.Trial) error {
	lo := cs.done
	if len(t.Threads) == 0 || lo+len(t.Threads) > len(cs.threads) {
		return fmt.Errorf("a chunk of %d threads after %d of %d", len(t.Threads), lo, len(cs.threads))
	}
	for i, th := range t.Threads {
		if want := cs.threads[lo+i]; (drg.ThreadID{Node: th.Node, Context: th.Context, Thread: th.Thread}) != want {
			return fmt.Errorf("a chunk holds thread %d.%d.%d where thread %s comes", th.Node, th.Context, th.Thread, want)
		}
	}
	if !slices.Equal(t.Metrics, cs.skel.Metrics) {
		return fmt.Errorf("threads %s to %s hold other metrics than the first ones (%d metrics, %d before)",
			cs.threads[lo], cs.threads[lo+len(t.Threads)-1], len(t.Metrics), len(cs.skel.Metrics))
	}
	if len(t.Series) > 0 {
		return errors.New("a trial with snapshots is saved whole, not a chunk at a time")
	}
	return nil
}

// newChunkPlan plans the rows of one chunk: its real threads'
// timer_call_data and timer_value rows, without derived threads.
func newChunkPlan(t *drg.Trial, keep keptTables) (*savePlan, error) {
	p := &savePlan{t: t, name: t.Name, nt: len(t.Threads), nn: len(t.Nodes), nm: len(t.Metrics), keepPages: keep.pages}
	if err := p.checkTrial(); err != nil {
		return nil, err
	}
	p.planRegions()
	p.planNodes()
	p.main = make([][]float64, p.nm)
	for m := range p.nm {
		p.main[m] = t.MainInclusive(m)
	}
	p.countCallData()
	if err := p.planBigCounts(); err != nil {
		return nil, err
	}
	return p, nil
}

// mapRegions returns the skeleton region of each of t's regions, adding
// the new ones.
func (cs *chunkedSave) mapRegions(t *drg.Trial) []int {
	out := make([]int, len(t.Regions))
	for i, r := range t.Regions {
		g, ok := cs.regionOf[r.Name]
		if !ok {
			g = len(cs.skel.Regions)
			cs.regionOf[r.Name] = g
			r.Flat = -1
			cs.skel.Regions = append(cs.skel.Regions, r)
			cs.timerIDs = append(cs.timerIDs, 0)
		}
		out[i] = g
	}
	return out
}

// mapNodes returns the skeleton node of each of t's nodes, adding the new
// ones (with their region and parent in the skeleton's numbering).
func (cs *chunkedSave) mapNodes(t *drg.Trial) []int {
	out := make([]int, len(t.Nodes))
	var added []int
	for i, n := range t.Nodes {
		g, ok := cs.nodeOf[n.Name]
		if !ok {
			g = len(cs.skel.Nodes)
			cs.nodeOf[n.Name] = g
			cs.skel.Nodes = append(cs.skel.Nodes, n)
			cs.pathIDs = append(cs.pathIDs, 0)
			added = append(added, i)
		}
		out[i] = g
	}
	for _, i := range added {
		g := &cs.skel.Nodes[out[i]]
		g.Region = cs.regionOf[t.Regions[t.Nodes[i].Region].Name]
		if g.Parent >= 0 {
			g.Parent = out[g.Parent]
		}
	}
	for _, reg := range t.Regions {
		if g := &cs.skel.Regions[cs.regionOf[reg.Name]]; g.Flat < 0 && reg.Flat >= 0 {
			g.Flat = out[reg.Flat]
		}
	}
	cs.merger.Grow(len(cs.skel.Nodes))
	for m := range cs.sumSq {
		cs.sumSq[m] = append(cs.sumSq[m], make([]float64, len(cs.skel.Nodes)-len(cs.sumSq[m]))...)
	}
	return out
}

// reserveChunk reserves the ids of the chunk's new timers and call paths
// (in the order a whole save numbers them: timers by name, call paths in
// node order) and of its timer_call_data rows, and gives p its ids.
func (cs *chunkedSave) reserveChunk(ctx context.Context, tx pgx.Tx, p *savePlan, regions, nodes []int) error {
	var newTimers, newPaths []int
	for _, r := range p.regions {
		if g := regions[r]; cs.timerIDs[g] == 0 {
			newTimers = append(newTimers, g)
		}
	}
	for _, n := range p.stored {
		if g := nodes[n]; cs.pathIDs[g] == 0 {
			newPaths = append(newPaths, g)
		}
	}
	got, err := reserveBlocks(ctx, tx, map[int]int{serialTimer: len(newTimers), serialCallpath: len(newPaths), serialCallData: p.nCallData})
	if err != nil {
		return err
	}
	for i, g := range newTimers {
		cs.timerIDs[g] = got[serialTimer] + int64(i)
	}
	for i, g := range newPaths {
		cs.pathIDs[g] = got[serialCallpath] + int64(i)
	}
	p.ids = cs.ids
	p.ids[serialThread] += int64(cs.done)
	p.ids[serialCallData] = got[serialCallData]
	p.timerIDs = make([]int64, len(regions))
	for r, g := range regions {
		p.timerIDs[r] = cs.timerIDs[g]
	}
	p.callpathIDs = make([]int64, len(nodes))
	for n, g := range nodes {
		p.callpathIDs[n] = cs.pathIDs[g]
	}
	return nil
}

// stageChunk writes chunk k's timer_call_data and timer_value rows into
// tables of their own (attached in finish) and keeps its exact counts.
func (cs *chunkedSave) stageChunk(ctx context.Context, conn *pgconn.PgConn, tx pgx.Tx, p *savePlan, k int) error {
	r := pgxRunner{tx}
	if pr := p.pageRows(cs.done); pr.rows > 0 {
		beforeTable(ctx, pageTable)
		if err := copyRows(ctx, tx, pr); err != nil {
			return err
		}
	}
	if p.nCallData == 0 {
		return nil
	}
	trial := cs.ids[serialTrial]
	sc := stagedChunk{callData: chunkPartitionName("timer_call_data", trial, k), values: chunkPartitionName("timer_value", trial, k)}
	sc.block, _ = p.partitionBlock("timer_call_data")
	beforeTable(ctx, "timer_call_data")
	if err := stagePartition(ctx, conn, r, sc.callData, p.callDataRows()); err != nil {
		return err
	}
	beforeTable(ctx, "timer_value")
	if err := stagePartition(ctx, conn, r, sc.values, p.valueRows()); err != nil {
		return err
	}
	cs.parts = append(cs.parts, sc)
	for _, b := range p.bigCalls {
		b.offset += p.ids[serialCallData]
		cs.bigCalls = append(cs.bigCalls, b)
	}
	cs.rows += int64(p.nCallData) * int64(1+p.nm)
	cs.report(len(p.t.Threads))
	return nil
}

// report calls SaveOptions.Progress with the rows written so far and the
// total that the first chunk's rows per thread predict.
func (cs *chunkedSave) report(threads int) {
	if cs.perThread == 0 {
		cs.perThread = float64(cs.rows) / float64(threads)
	}
	if cs.opt.Progress != nil {
		total := max(int64(cs.perThread*float64(len(cs.threads))), cs.rows+1)
		cs.opt.Progress(cs.rows, total)
	}
}

// gather adds the chunk's statistics, main values, Σ exclusive², user
// events, metadata and long names to the skeleton's.
func (cs *chunkedSave) gather(t *drg.Trial, p *savePlan, nodes []int) {
	cs.merger.Add(t.Statistics(), nodes, len(t.Threads))
	for m := range cs.main {
		cs.main[m] = append(cs.main[m], p.main[m]...)
		ex := t.Col(drg.ColExclusive, m)
		for n, g := range nodes {
			ss := cs.sumSq[m][g]
			for _, v := range ex.Row(n) {
				ss += v * v
			}
			cs.sumSq[m][g] = ss
		}
	}
	cs.gatherCounters(t, nodes)
	cs.common = append(cs.common, chunkCommon{lo: cs.done, hi: cs.done + len(t.Threads), meta: t.Metadata})
	for i := range t.Threads {
		cs.skel.Threads[cs.done+i].Metadata = t.Threads[i].Metadata
	}
	maps.Copy(cs.skel.LongNames, t.LongNames)
}

// gatherCounters keeps the chunk's user events' values, per event and
// thread of the whole trial.
func (cs *chunkedSave) gatherCounters(t *drg.Trial, nodes []int) {
	nt, ntc := len(cs.threads), len(t.Threads)
	for k, c := range t.Counters {
		g, ok := cs.counterOf[c.Name]
		if !ok {
			g = len(cs.skel.Counters)
			cs.counterOf[c.Name] = g
			if c.Node >= 0 {
				c.Node = nodes[c.Node]
			}
			cs.skel.Counters = append(cs.skel.Counters, c)
			cs.counterV = append(cs.counterV, make([]drg.CounterValue, nt))
			cs.counterP = append(cs.counterP, drg.NewBitmap(nt))
		}
		for th := range ntc {
			if i := k*ntc + th; t.CounterPresent.Get(i) {
				cs.counterV[g][cs.done+th] = t.CounterValues[i]
				cs.counterP[g].Set(cs.done + th)
			}
		}
	}
}

// finishMetadata sets the skeleton's trial metadata: what every chunk's
// threads share, as Builder.Finish keeps what every thread shares (a key
// some chunk's threads lack stays shared; one they hold with another value,
// or per thread, does not). What a chunk shared beyond it goes to each of
// the chunk's threads.
func (cs *chunkedSave) finishMetadata() {
	shared := maps.Clone(cs.common[0].meta)
	for _, c := range cs.common[1:] {
		for k, v := range shared {
			if w, ok := c.meta[k]; ok && w != v {
				delete(shared, k)
				continue
			}
			for th := c.lo; th < c.hi; th++ {
				if _, ok := cs.skel.Threads[th].Metadata[k]; ok {
					delete(shared, k)
					break
				}
			}
		}
	}
	for _, c := range cs.common {
		for k, v := range c.meta {
			if w, ok := shared[k]; ok && w == v {
				continue
			}
			for th := c.lo; th < c.hi; th++ {
				md := &cs.skel.Threads[th].Metadata
				if *md == nil {
					*md = map[string]string{}
				}
				(*md)[k] = v
			}
		}
	}
	cs.skel.Metadata = shared
}

// finishSkeleton gives the skeleton its metadata, user-event values and
// empty value columns.
func (cs *chunkedSave) finishSkeleton() {
	cs.finishMetadata()
	t, nt, nm := cs.skel, len(cs.threads), len(cs.skel.Metrics)
	t.CounterValues = make([]drg.CounterValue, 0, len(t.Counters)*nt)
	t.CounterPresent = drg.NewBitmap(len(t.Counters) * nt)
	for k := range t.Counters {
		t.CounterValues = append(t.CounterValues, cs.counterV[k]...)
		for th := range nt {
			if cs.counterP[k].Get(th) {
				t.CounterPresent.Set(k*nt + th)
			}
		}
	}
	cs.counterV, cs.counterP = nil, nil
	t.Values = make([]drg.MetricValues, nm)
	t.Sparse = &drg.SparseValues{Start: make([]int, len(t.Nodes)+1), Inclusive: make([][]float64, nm), Exclusive: make([][]float64, nm)}
}

// finish writes the skeleton's rows, attaches the chunks' tables and
// writes the derived threads' rows and the rest.
func (cs *chunkedSave) finish(ctx context.Context, conn *pgconn.PgConn, tx pgx.Tx, keep keptTables) error {
	cs.finishSkeleton()
	opt := cs.opt
	opt.Progress = nil
	p, err := buildPlan(cs.skel, opt, &givenStatistics{stats: cs.merger.Statistics(), main: cs.main, sumSq: cs.sumSq})
	if err != nil {
		return err
	}
	p.keepRange, p.keepLong = keep.rangeTable, keep.longNames
	if err := cs.reserveFinal(ctx, tx, p); err != nil {
		return err
	}
	if err := p.checkBigTables(keep.bigTables); err != nil {
		return err
	}
	r := pgxRunner{tx}
	attached := false
	for _, tr := range p.tables() {
		if !attached && tr.table == "time_range" {
			if err := cs.attachChunks(ctx, r); err != nil {
				return err
			}
			attached = true
		}
		if tr.rows == 0 || tr.table == "trial" {
			continue // the trial's row went first (writeTrial)
		}
		beforeTable(ctx, tr.table)
		if b, ok := p.partitionBlock(tr.table); ok {
			err = copyPartition(ctx, conn, r, p.trialID(), b, tr)
		} else {
			err = copyRows(ctx, tx, tr)
		}
		if err != nil {
			return err
		}
	}
	if cs.opt.Progress != nil {
		cs.opt.Progress(cs.rows, cs.rows)
	}
	return ensureLoadViews(ctx, r, Postgres, p.app, p.exp)
}

// reserveFinal reserves the ids of the user events and of the derived
// threads' timer_call_data rows, and gives p every id: the skeleton's
// regions and nodes are numbered as the chunks reserved them.
func (cs *chunkedSave) reserveFinal(ctx context.Context, tx pgx.Tx, p *savePlan) error {
	got, err := reserveBlocks(ctx, tx, map[int]int{serialCounter: len(cs.skel.Counters), serialCallData: p.nCallData})
	if err != nil {
		return err
	}
	p.ids = cs.ids
	p.ids[serialCounter], p.ids[serialCallData] = got[serialCounter], got[serialCallData]
	p.timerIDs, p.callpathIDs = cs.timerIDs, cs.pathIDs
	for _, n := range p.stored {
		if cs.pathIDs[n] == 0 {
			return fmt.Errorf("node %q has no timer_callpath id: no chunk stored it", cs.skel.Nodes[n].Name)
		}
	}
	for _, b := range cs.bigCalls {
		b.offset -= p.ids[serialCallData]
		p.bigCalls = append(p.bigCalls, b)
	}
	lo, hi := p.ids[serialCallData], p.ids[serialCallData]+int64(p.nCallData)
	if p.nCallData == 0 && len(cs.parts) > 0 {
		lo, hi = cs.parts[0].block.lo, cs.parts[0].block.hi
	}
	for _, c := range cs.parts {
		lo, hi = min(lo, c.block.lo), max(hi, c.block.hi)
	}
	if hi > lo {
		p.rangeIDs = &[2]int64{lo, hi - 1}
	}
	return nil
}

// attachChunks makes each chunk's staged tables partitions of
// timer_call_data and timer_value.
func (cs *chunkedSave) attachChunks(ctx context.Context, r runner) error {
	for _, c := range cs.parts {
		if err := attachPartition(ctx, r, "timer_call_data", c.callData, "", c.block); err != nil {
			return err
		}
		if err := attachPartition(ctx, r, "timer_value", c.values, c.callData, c.block); err != nil {
			return err
		}
	}
	return nil
}
