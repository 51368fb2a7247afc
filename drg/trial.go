package drg

import "strings"

// Trial is one TAU experiment: the profile of every thread of one run.
type Trial struct {
	// Name is the trial's name (TAUdb trial.name).
	Name string
	// Source describes where the trial was read from.
	Source Source
	// Metadata holds the trial-level attributes common to all threads
	// (TAUdb primary_metadata), after TAU's aggregateMetaData rule.
	Metadata map[string]string
	// Threads lists the real threads in (node, context, thread) order; the
	// position in this slice is the thread's column in every value array.
	Threads []Thread
	// Metrics lists the measured (or derived) metrics in trial order.
	Metrics []Metric
	// Regions lists the code regions (TAUdb timer), one per flat name.
	Regions []Region
	// Nodes lists the call-graph nodes (TAUdb timer_callpath). Node i's
	// values sit at index i*len(Threads)+thread of every value column.
	Nodes []Node
	// Values holds the inclusive and exclusive columns of each metric,
	// parallel to Metrics.
	Values []MetricValues
	// Calls and Subroutines count the calls of each node on each thread and
	// the calls it made to other timed regions, indexed like Values.
	Calls, Subroutines []float64
	// Present marks the (node, thread) cells for which the thread has a
	// profile record; an absent cell holds zeros.
	Present Bitmap
	// Sparse, when not nil, holds the node values instead of Values,
	// Calls, Subroutines and Present, which are then empty (see
	// SparseValues; read the values with Col, Has and RowLen).
	Sparse *SparseValues
	// Counters lists the user events (TAUdb counter).
	Counters []Counter
	// CounterValues holds the user-event statistics indexed
	// counter*len(Threads)+thread.
	CounterValues []CounterValue
	// CounterPresent marks the (counter, thread) cells that hold a record.
	CounterPresent Bitmap
	// Series holds earlier snapshots of threads, oldest first, when the
	// trial was read from snapshot XML with more than one snapshot per
	// thread. The trial's values are those of the final snapshot.
	Series []Snapshot
	// LongNames maps each name shortened by ShortName (a region, a user
	// event) to the full name, nil when no name was too long for TAUdb.
	LongNames map[string]string
	// Warnings lists the recoverable oddities met while reading (for example
	// negative times replaced by zero, as TAU's own loader does).
	Warnings []string
}

// Source says which file format and path a trial was read from.
type Source struct {
	// Format is "profile", "ppk" or "snapshot".
	Format string
	// Path is the file or directory that was read.
	Path string
	// DataSource is the TAUdb data_source id of the format
	// (0 ParaProf packed, 1 TAU profiles, 10 TAU snapshot XML).
	DataSource int
}

// Thread is one real thread of execution (TAUdb thread).
type Thread struct {
	// Node, Context and Thread are TAU's N, C and T ranks (MPI rank, context,
	// thread within the process).
	Node, Context, Thread int
	// Index is TAUdb's thread_index: N*(Cmax+1)*(Tmax+1) + C*(Tmax+1) + T,
	// where Cmax and Tmax are the largest context and thread ids of the trial.
	Index int
	// Metadata holds the attributes of this thread that are not common to
	// the whole trial (TAUdb secondary_metadata).
	Metadata map[string]string
}

// Metric is one measured quantity (TAUdb metric).
type Metric struct {
	// Name is the metric name as TAU wrote it (TIME, PAPI_FP_OPS, ...).
	Name string
	// Derived is true for metrics computed from other metrics.
	Derived bool
}

// IsTime reports whether the metric measures time (TIME, Time,
// P_WALL_CLOCK_TIME, P_VIRTUAL_TIME, ...); its values are in microseconds.
func (m Metric) IsTime() bool {
	return strings.Contains(strings.ToUpper(m.Name), "TIME")
}

// MetricValues holds one metric's inclusive and exclusive values, indexed
// node*threads+thread.
type MetricValues struct {
	Inclusive, Exclusive []float64
}

// NumThreads returns the number of real threads.
func (t *Trial) NumThreads() int { return len(t.Threads) }

// Cell returns the index of (node, thread) in the value columns.
func (t *Trial) Cell(node, thread int) int { return node*len(t.Threads) + thread }

// MetricIndex returns the index of the metric named name, or -1.
func (t *Trial) MetricIndex(name string) int {
	for i, m := range t.Metrics {
		if m.Name == name {
			return i
		}
	}
	return -1
}

// TimeMetric returns the index of the first time metric, or 0 when the trial
// has none (for example a trial of hardware counters only), or -1 when it
// has no metric at all.
func (t *Trial) TimeMetric() int {
	for i, m := range t.Metrics {
		if m.IsTime() {
			return i
		}
	}
	if len(t.Metrics) == 0 {
		return -1
	}
	return 0
}

// RegionIndex returns the index of the region with the given full name, or -1.
func (t *Trial) RegionIndex(name string) int {
	for i := range t.Regions {
		if t.Regions[i].Name == name {
			return i
		}
	}
	return -1
}

// NodeIndex returns the index of the node with the given full (callpath)
// name, or -1.
func (t *Trial) NodeIndex(name string) int {
	for i := range t.Nodes {
		if t.Nodes[i].Name == name {
			return i
		}
	}
	return -1
}

// ThreadIndex returns the position of thread (node, context, thread) in
// Threads, or -1.
func (t *Trial) ThreadIndex(node, context, thread int) int {
	for i, th := range t.Threads {
		if th.Node == node && th.Context == context && th.Thread == thread {
			return i
		}
	}
	return -1
}

// Layout returns TAUdb's trial counts: node_count (distinct node ids),
// contexts_per_node (most contexts on any node), threads_per_context (most
// threads in any context) and total_threads (number of real threads).
func (t *Trial) Layout() (nodes, contextsPerNode, threadsPerContext, total int) {
	type nc struct{ n, c int }
	ctxs := map[int]map[int]bool{}
	thr := map[nc]int{}
	for _, th := range t.Threads {
		if ctxs[th.Node] == nil {
			ctxs[th.Node] = map[int]bool{}
		}
		ctxs[th.Node][th.Context] = true
		thr[nc{th.Node, th.Context}]++
	}
	for _, c := range ctxs {
		contextsPerNode = max(contextsPerNode, len(c))
	}
	for _, n := range thr {
		threadsPerContext = max(threadsPerContext, n)
	}
	return len(ctxs), contextsPerNode, threadsPerContext, len(t.Threads)
}
