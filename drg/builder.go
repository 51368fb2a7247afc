package drg

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
)

// ThreadID names a thread by TAU's node, context and thread ranks.
type ThreadID struct {
	Node, Context, Thread int
}

// String returns "N.C.T", as in TAU's file names.
func (id ThreadID) String() string { return fmt.Sprintf("%d.%d.%d", id.Node, id.Context, id.Thread) }

// Builder assembles a Trial. Readers create one with the trial's threads,
// add metrics, nodes, values, counters and metadata in any order, then call
// Finish. Values of a (node, thread) cell added twice are summed, as TAU's
// loader does for duplicate names in one file. A Builder is not safe for
// concurrent use: readers parse in parallel and feed one Builder.
type Builder struct {
	t           *Trial
	column      map[ThreadID]int
	nodeByName  map[string]int
	nodeGroups  []string
	counterIdx  map[string]int
	counterSet  Bitmap
	threadMeta  []map[string]string
	contextKeys []map[string]bool
	// AggregateMetadata selects TAU's aggregateMetaData rule at Finish
	// (text profiles and XML). A ppk already holds the split, so its
	// reader turns this off and sets trial metadata directly.
	AggregateMetadata bool
	// Sparse lets the builder store node values sparsely (SparseValues)
	// instead of refusing a trial too sparse to store densely (see
	// CheckDensity): readers whose trials go only to code that reads
	// values through Trial.Col set it. User events stay dense and are
	// still refused when too sparse.
	Sparse        bool
	sparse        *sparseBuild
	negatives     int
	firstNegative string
	negMu         sync.Mutex
	density       density
	// err is the first error met while building (a trial too sparse to
	// store): from then on no column grows, values are dropped and Finish
	// returns it.
	err error
}

// Err returns the error that will stop Finish, if one was met while
// building, so that readers can stop reading.
func (b *Builder) Err() error { return b.err }

// checkGrowth records an error when adding one row (a node, or a user
// event when counters) would make the trial too sparse (see
// CheckDensity); it reports whether the columns may grow.
func (b *Builder) checkGrowth(counters bool) bool {
	if b.err != nil || (!counters && b.sparse != nil) {
		return false
	}
	rows, present, what := len(b.t.Nodes)+1, b.density.present, "call-graph nodes"
	if counters {
		rows, present, what = len(b.t.Counters)+1, b.density.counters, "user events"
	}
	if est := b.density.estimate(present); est >= 0 {
		floor, ratio := int64(DenseFloorCells), int64(MaxEmptyRatio)
		if b.Sparse && !counters {
			floor, ratio = SparseFloorCells, SparseEmptyRatio
		}
		b.err = checkDensity(what, rows, len(b.t.Threads), est, floor, ratio)
	}
	if b.err != nil && !counters && b.Sparse {
		b.err = nil
		b.StartSparse()
		return false
	}
	return b.err == nil
}

// NewBuilder returns a builder for a trial with the given threads, which
// are sorted into (node, context, thread) order. A thread listed twice is an
// error.
func NewBuilder(threads []ThreadID) (*Builder, error) {
	ids := append([]ThreadID(nil), threads...)
	sort.Slice(ids, func(i, j int) bool {
		a, b := ids[i], ids[j]
		if a.Node != b.Node {
			return a.Node < b.Node
		}
		if a.Context != b.Context {
			return a.Context < b.Context
		}
		return a.Thread < b.Thread
	})
	b := &Builder{
		t:                 &Trial{Metadata: map[string]string{}},
		column:            make(map[ThreadID]int, len(ids)),
		nodeByName:        map[string]int{},
		counterIdx:        map[string]int{},
		AggregateMetadata: true,
	}
	for i, id := range ids {
		if i > 0 && ids[i-1] == id {
			return nil, fmt.Errorf("thread %s given twice", id)
		}
		if id.Node < 0 || id.Context < 0 || id.Thread < 0 {
			return nil, fmt.Errorf("thread %s: negative rank", id)
		}
		b.column[id] = i
		b.t.Threads = append(b.t.Threads, Thread{Node: id.Node, Context: id.Context, Thread: id.Thread})
		b.threadMeta = append(b.threadMeta, map[string]string{})
		b.density.touched = append(b.density.touched, false)
		b.contextKeys = append(b.contextKeys, map[string]bool{})
	}
	return b, nil
}

// Column returns the position of thread id in the trial, or -1.
func (b *Builder) Column(id ThreadID) int {
	if c, ok := b.column[id]; ok {
		return c
	}
	return -1
}

// NumThreads returns the number of threads.
func (b *Builder) NumThreads() int { return len(b.t.Threads) }

// NumNodes returns the number of nodes added so far.
func (b *Builder) NumNodes() int { return len(b.t.Nodes) }

// Metric returns the index of the metric named name, adding it if new.
func (b *Builder) Metric(name string) int {
	if i := b.t.MetricIndex(name); i >= 0 {
		return i
	}
	n := len(b.t.Nodes) * len(b.t.Threads)
	if b.err != nil || b.sparse != nil {
		n = 0
	}
	if s := b.sparse; s != nil {
		s.incl = append(s.incl, make([]float64, len(s.node)))
		s.excl = append(s.excl, make([]float64, len(s.node)))
	}
	b.t.Metrics = append(b.t.Metrics, Metric{Name: name})
	b.t.Values = append(b.t.Values, MetricValues{Inclusive: make([]float64, n), Exclusive: make([]float64, n)})
	return len(b.t.Metrics) - 1
}

// Node returns the index of the node with the given (callpath) name, adding
// it and its parent chain if new. The name is canonicalized first (runs of
// blanks collapsed, ends trimmed).
func (b *Builder) Node(name string) int {
	if i, ok := b.nodeByName[name]; ok {
		return i
	}
	canon := CanonicalName(name)
	if len(canon) > MaxNameBytes {
		canon = shortenCallpath(canon, b.longNames())
	}
	i := b.node(canon)
	b.nodeByName[name] = i
	return i
}

// longNames returns the trial's map of shortened names, made on first use.
func (b *Builder) longNames() map[string]string {
	if b.t.LongNames == nil {
		b.t.LongNames = map[string]string{}
	}
	return b.t.LongNames
}

// node is Node for a name that is already canonical, so that the prefixes
// of a deep callpath are not canonicalized again at every level.
func (b *Builder) node(canon string) int {
	if i, ok := b.nodeByName[canon]; ok {
		return i
	}
	parent := -1
	if p, _ := SplitCallpath(canon); p != "" {
		parent = b.node(p)
	}
	grow := b.checkGrowth(false)
	i := len(b.t.Nodes)
	b.t.Nodes = append(b.t.Nodes, Node{Name: canon, Parent: parent, Region: -1})
	b.nodeGroups = append(b.nodeGroups, "")
	b.nodeByName[canon] = i
	if !grow {
		return i
	}
	nt := len(b.t.Threads)
	for m := range b.t.Values {
		v := &b.t.Values[m]
		v.Inclusive = extend(v.Inclusive, nt)
		v.Exclusive = extend(v.Exclusive, nt)
	}
	b.t.Calls = extend(b.t.Calls, nt)
	b.t.Subroutines = extend(b.t.Subroutines, nt)
	b.t.Present.Grow(nt)
	return i
}

// extend appends n zeros to col. Within col's capacity it only reslices:
// the builder's columns are only ever grown, so the room Reserve made is
// still the zeros make gave it; not clearing it again leaves its pages
// untouched until values are written (by AddRow, perhaps in parallel).
func extend(col []float64, n int) []float64 {
	if cap(col)-len(col) >= n {
		return col[:len(col)+n]
	}
	return append(col, make([]float64, n)...)
}

// Reserve makes room for n more nodes in every value column, so that
// readers that know the number of nodes in advance (a ppk lists its
// functions first) avoid growing the columns node by node.
func (b *Builder) Reserve(n int) {
	nt := len(b.t.Threads)
	if b.err != nil || b.sparse != nil {
		return
	}
	grow := func(col []float64) []float64 {
		return append(make([]float64, 0, len(col)+n*nt), col...)
	}
	for m := range b.t.Values {
		b.t.Values[m].Inclusive = grow(b.t.Values[m].Inclusive)
		b.t.Values[m].Exclusive = grow(b.t.Values[m].Exclusive)
	}
	b.t.Calls = grow(b.t.Calls)
	b.t.Subroutines = grow(b.t.Subroutines)
}

// SetGroups records the TAU group string of a node ("TAU_CALLPATH|MPI");
// the first one given wins. The groups of a flat node become its region's
// groups; of a callpath node only TAU_CALLPATH_DERIVED is kept (as
// Node.Derived), as TAU's loader does.
func (b *Builder) SetGroups(node int, groups string) {
	if b.nodeGroups[node] == "" {
		b.nodeGroups[node] = groups
	}
}

// AddCalls adds calls and subroutine calls of node on thread column th and
// marks the cell present.
func (b *Builder) AddCalls(node, th int, calls, subrs float64) {
	if b.err != nil {
		return
	}
	if b.sparse != nil {
		i := b.sparseCell(node, th)
		b.sparse.calls[i] += calls
		b.sparse.subrs[i] += subrs
		return
	}
	c := node*len(b.t.Threads) + th
	b.density.mark(th, !b.t.Present.Get(c))
	b.t.Present.Set(c)
	b.t.Calls[c] += calls
	b.t.Subroutines[c] += subrs
}

// AddValues adds the exclusive and inclusive value of metric m for node on
// thread column th and marks the cell present. A negative value is replaced
// by zero and reported in Trial.Warnings, as TAU's loader does.
func (b *Builder) AddValues(node, th, m int, excl, incl float64) {
	if excl < 0 || incl < 0 {
		b.negative(node, th)
		excl, incl = math.Max(excl, 0), math.Max(incl, 0)
	}
	if b.err != nil {
		return
	}
	if b.sparse != nil {
		i := b.sparseCell(node, th)
		b.sparse.excl[m][i] += excl
		b.sparse.incl[m][i] += incl
		return
	}
	c := node*len(b.t.Threads) + th
	b.density.mark(th, !b.t.Present.Get(c))
	b.t.Present.Set(c)
	b.t.Values[m].Exclusive[c] += excl
	b.t.Values[m].Inclusive[c] += incl
}

// formatCell names a (node, thread column) cell in warnings.
func formatCell(t *Trial, node, th int) string {
	return fmt.Sprintf("%q on thread %d.%d.%d", t.Nodes[node].Name,
		t.Threads[th].Node, t.Threads[th].Context, t.Threads[th].Thread)
}

// Counter returns the index of the user event with the given name, adding
// it if new. The name is canonicalized first.
func (b *Builder) Counter(name string) int {
	if i, ok := b.counterIdx[name]; ok {
		return i
	}
	canon := CanonicalName(name)
	if short := ShortName(canon); short != canon {
		b.longNames()[short] = canon
		canon = short
	}
	if i, ok := b.counterIdx[canon]; ok {
		b.counterIdx[name] = i
		return i
	}
	grow := b.checkGrowth(true)
	i := len(b.t.Counters)
	ev, ctx := splitCounterName(canon)
	b.t.Counters = append(b.t.Counters, Counter{Name: canon, Event: ev, Context: ctx, Node: -1})
	b.counterIdx[canon] = i
	b.counterIdx[name] = i
	if !grow {
		return i
	}
	b.t.CounterValues = append(b.t.CounterValues, make([]CounterValue, len(b.t.Threads))...)
	b.counterSet.Grow(len(b.t.Threads))
	return i
}

// AddCounter records a user event's statistics on thread column th; a second
// record for the same cell is merged with the first (counts and Σx² add,
// count-weighted mean, extreme max and min).
func (b *Builder) AddCounter(counter, th int, v CounterValue) {
	if b.err != nil {
		return
	}
	c := counter*len(b.t.Threads) + th
	if b.counterSet.Get(c) {
		v = b.t.CounterValues[c].merge(v)
	} else {
		b.density.counters++
		b.density.mark(th, false)
	}
	b.counterSet.Set(c)
	b.t.CounterValues[c] = v
}

// ThreadMetadata records an attribute of thread column th. Context
// attributes (recorded with a timer context) never become trial-level.
func (b *Builder) ThreadMetadata(th int, key, value string, context bool) {
	b.threadMeta[th][key] = value
	if context {
		b.contextKeys[th][key] = true
	}
}

// TrialMetadata records a trial-level attribute.
func (b *Builder) TrialMetadata(key, value string) { b.t.Metadata[key] = value }

// AddSnapshot records an earlier snapshot of a thread.
func (b *Builder) AddSnapshot(s Snapshot) { b.t.Series = append(b.t.Series, s) }

// Warn records a recoverable problem met while reading.
func (b *Builder) Warn(format string, args ...any) {
	b.t.Warnings = append(b.t.Warnings, fmt.Sprintf(format, args...))
}

// fileTypes gives TAU's "File Type Index" / "File Type Name" metadata for
// each source format.
var fileTypes = map[string][2]string{
	"profile":  {"1", "TAU profiles"},
	"ppk":      {"0", "ParaProf Packed Profile"},
	"snapshot": {"2", "TAU Snapshot"},
}

// Finish resolves regions, parents, counters' contexts, thread indexes and
// metadata, and returns the trial. The builder must not be used afterwards.
func (b *Builder) Finish(name string, src Source) (*Trial, error) {
	if b.err != nil {
		return nil, b.err
	}
	t := b.t
	if n := len(t.LongNames); n > 0 {
		longest := ""
		for _, full := range t.LongNames {
			if len(full) > len(longest) || (len(full) == len(longest) && full < longest) {
				longest = full
			}
		}
		b.Warn("%d names longer than TAUdb's %d bytes shortened, each to its start and a hash of the whole (the longest, of %d bytes: %q); the full names are kept in taudb-analyze's table trial_long_name",
			n, MaxNameBytes, len(longest), clipName(longest))
	}
	t.Name = name
	t.Source = src
	if len(t.Threads) == 0 {
		return nil, fmt.Errorf("trial has no thread")
	}
	if len(t.Metrics) == 0 {
		return nil, fmt.Errorf("trial has no metric")
	}
	b.mergeThrottledParents()
	b.resolveRegions()
	if b.sparse != nil {
		b.finishSparse()
	}
	for i := range t.Counters {
		c := &t.Counters[i]
		if c.Context != "" {
			if n, ok := b.nodeByName[c.Context]; ok {
				c.Node = n
			}
		}
	}
	t.CounterPresent = b.counterSet
	b.indexThreads()
	b.finishMetadata()
	if b.negatives > 0 {
		b.Warn("%d negative values replaced by 0 (first: %s)", b.negatives, b.firstNegative)
	}
	return t, nil
}

// mergeThrottledParents handles TAU's throttling: a throttled timer's flat
// name gets " [THROTTLED]" while callpaths keep the old name, so a callpath
// "f => g" may have created an empty flat node "f" next to the measured
// "f [THROTTLED]". Such a node is folded into the throttled one.
func (b *Builder) mergeThrottledParents() {
	t := b.t
	nt := len(t.Threads)
	remap := make([]int, len(t.Nodes))
	drop := false
	var rowCounts []int
	if b.sparse != nil {
		rowCounts = b.sparseRowCounts()
	}
	for i := range t.Nodes {
		remap[i] = i
		n := &t.Nodes[i]
		if n.Parent >= 0 || (rowCounts != nil && rowCounts[i] > 0) || (rowCounts == nil && t.Present.Count(i*nt, (i+1)*nt) > 0) {
			continue
		}
		if j, ok := b.nodeByName[n.Name+" [THROTTLED]"]; ok && t.Nodes[j].Parent < 0 {
			remap[i] = j
			drop = true
		}
	}
	if !drop {
		return
	}
	// Compact: keep nodes that map to themselves, renumber the rest.
	newIdx := make([]int, len(t.Nodes))
	k := 0
	for i := range t.Nodes {
		if remap[i] == i {
			newIdx[i] = k
			k++
		}
	}
	for i := range t.Nodes {
		if remap[i] != i {
			newIdx[i] = newIdx[remap[i]]
		}
	}
	if b.sparse != nil {
		b.renumberSparse(newIdx)
	} else {
		b.compactDense(remap, k)
	}
	var nodes []Node
	var groups []string
	for i, n := range t.Nodes {
		if remap[i] != i {
			continue
		}
		if n.Parent >= 0 {
			n.Parent = newIdx[n.Parent]
		}
		nodes = append(nodes, n)
		groups = append(groups, b.nodeGroups[i])
	}
	for name, i := range b.nodeByName {
		b.nodeByName[name] = newIdx[i]
	}
	for si := range t.Series {
		t.Series[si].renumber(newIdx)
	}
	t.Nodes, b.nodeGroups = nodes, groups
}

// renumberSparse moves the sparse cells to the nodes' new numbers.
func (b *Builder) renumberSparse(newIdx []int) {
	s := b.sparse
	nt := len(b.t.Threads)
	clear(s.slot)
	for i := range s.node {
		s.node[i] = int32(newIdx[s.node[i]])
		s.slot[int64(s.node[i])*int64(nt)+int64(s.thread[i])] = int32(i)
	}
}

// compactDense keeps the dense columns' rows of the k nodes that map to
// themselves in remap.
func (b *Builder) compactDense(remap []int, k int) {
	t := b.t
	nt := len(t.Threads)
	keep := func(col []float64) []float64 {
		out := col[:0]
		for i := range t.Nodes {
			if remap[i] == i {
				out = append(out, col[i*nt:(i+1)*nt]...)
			}
		}
		return out
	}
	for m := range t.Values {
		t.Values[m].Inclusive = keep(t.Values[m].Inclusive)
		t.Values[m].Exclusive = keep(t.Values[m].Exclusive)
	}
	t.Calls = keep(t.Calls)
	t.Subroutines = keep(t.Subroutines)
	present := NewBitmap(k * nt)
	row := 0
	for i := range t.Nodes {
		if remap[i] != i {
			continue
		}
		for th := 0; th < nt; th++ {
			if t.Present.Get(i*nt + th) {
				present.Set(row*nt + th)
			}
		}
		row++
	}
	t.Present = present
}

// resolveRegions makes one region per flat node and points every node at
// the region of its leaf (trying "leaf [THROTTLED]" as TAU's loader does).
func (b *Builder) resolveRegions() {
	t := b.t
	// Every callpath leaf needs a flat node; create the missing ones first.
	for i := 0; i < len(t.Nodes); i++ {
		n := t.Nodes[i]
		if n.Parent < 0 {
			continue
		}
		_, leaf := SplitCallpath(n.Name)
		if _, ok := b.nodeByName[leaf]; ok {
			continue
		}
		if j, ok := b.nodeByName[leaf+" [THROTTLED]"]; ok && t.Nodes[j].Parent < 0 {
			continue
		}
		b.Node(leaf)
	}
	regionOf := make(map[int]int)
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.Parent >= 0 {
			continue
		}
		r := Region{Name: n.Name, Groups: SplitGroups(b.nodeGroups[i]), Flat: i}
		parseRegionName(&r)
		n.Region = len(t.Regions)
		regionOf[i] = n.Region
		t.Regions = append(t.Regions, r)
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.Parent < 0 {
			continue
		}
		n.Depth = t.Nodes[n.Parent].Depth + 1
		_, leaf := SplitCallpath(n.Name)
		j, ok := b.nodeByName[leaf]
		if !ok || t.Nodes[j].Parent >= 0 {
			j = b.nodeByName[leaf+" [THROTTLED]"]
		}
		n.Region = regionOf[j]
		n.Derived = strings.Contains(b.nodeGroups[i], "TAU_CALLPATH_DERIVED")
	}
}

// indexThreads computes TAUdb's thread_index for every thread.
func (b *Builder) indexThreads() {
	cmax, tmax := 0, 0
	for _, th := range b.t.Threads {
		cmax = max(cmax, th.Context)
		tmax = max(tmax, th.Thread)
	}
	for i := range b.t.Threads {
		th := &b.t.Threads[i]
		th.Index = th.Node*(cmax+1)*(tmax+1) + th.Context*(tmax+1) + th.Thread
	}
}

func (b *Builder) finishMetadata() {
	t := b.t
	for _, m := range b.threadMeta {
		delete(m, MetricNameKey)
	}
	delete(t.Metadata, MetricNameKey)
	if b.AggregateMetadata {
		for k, v := range aggregateMetadata(b.threadMeta, b.contextKeys) {
			if _, set := t.Metadata[k]; !set {
				t.Metadata[k] = v
			}
		}
	}
	for i := range t.Threads {
		t.Threads[i].Metadata = b.threadMeta[i]
	}
	if ft, ok := fileTypes[t.Source.Format]; ok {
		t.Metadata["File Type Index"] = ft[0]
		t.Metadata["File Type Name"] = ft[1]
	}
}
