// Package cluster groups the threads of one or more TAU trials by their
// per-region profiles, as PerfExplorer's clustering does: a feature vector
// per thread, a normalization, a dimension reduction, then k-means (k given
// or chosen by the silhouette or the gap statistic), hierarchical
// agglomerative clustering with average linkage, or DBSCAN. Cluster returns
// an *analysis.Result holding sizes, per-cluster averages, minima and
// maxima, the membership of every thread, a PCA scatter and the regions
// that separate the clusters most.
package cluster

import (
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Matrix is a dense row-major n×d matrix of float64: row i (a thread) is
// X[i*D : (i+1)*D].
type Matrix struct {
	// N is the number of rows (threads) and D the number of columns
	// (dimensions).
	N, D int
	// X holds the N*D values row by row.
	X []float64
}

// Row returns row i (a slice of X, not a copy).
func (m Matrix) Row(i int) []float64 { return m.X[i*m.D : (i+1)*m.D] }

// clone returns a deep copy of m.
func (m Matrix) clone() Matrix {
	return Matrix{N: m.N, D: m.D, X: append([]float64(nil), m.X...)}
}

// Point identifies the thread a feature vector belongs to.
type Point struct {
	// Trial is the name of the thread's trial.
	Trial string
	// Node, Context and Thread are TAU's N, C and T ranks.
	Node, Context, Thread int
}

// FeatureOptions select the values Features takes.
type FeatureOptions struct {
	// Metric is the metric's name; "" selects the first time metric of the
	// first trial (drg.Trial.TimeMetric). Every trial must have it.
	Metric string
	// Inclusive takes inclusive values; the default is exclusive.
	Inclusive bool
	// Callpath adds one dimension per (non-derived) callpath node "A => B"
	// to the regions of the flat view. Callpath values repeat values of
	// the flat nodes, so sums over a vector then count time more than
	// once (this matters for the "Percentage of Total" normalization and
	// the "Over X Percent" reduction, which use such sums).
	Callpath bool
	// Regions, when not empty, keeps only the dimensions whose name matches
	// one of these patterns; Exclude drops those that match one of its
	// patterns. A pattern is a shell glob (path.Match: * ? [...]) matched
	// against the full name and against the name without TAU's source
	// location and parameters ("MPI_*", "*solve*", "compute*").
	Regions, Exclude []string
}

// selected reports whether a dimension named name passes the Regions and
// Exclude patterns.
func (o FeatureOptions) selected(name string) bool {
	match := func(pats []string) bool {
		short := shortRegion(name)
		for _, p := range pats {
			if ok, _ := path.Match(p, name); ok {
				return true
			}
			if ok, _ := path.Match(p, short); ok {
				return true
			}
		}
		return false
	}
	if len(o.Regions) > 0 && !match(o.Regions) {
		return false
	}
	return !match(o.Exclude)
}

// shortRegion drops TAU's " [{file} {l,c}]" suffix and a C/C++ return type
// and parameter list: "void compute(int) C [{a.c} {3,1}]" → "compute".
func shortRegion(name string) string {
	if i := strings.Index(name, " [{"); i >= 0 {
		name = name[:i]
	}
	if i := strings.IndexByte(name, '('); i > 0 {
		name = name[:i]
		if j := strings.LastIndexAny(name, " *&"); j >= 0 {
			name = name[j+1:]
		}
	}
	return strings.TrimSpace(name)
}

// checkPatterns refuses a malformed glob.
func (o FeatureOptions) checkPatterns() error {
	for _, p := range append(append([]string(nil), o.Regions...), o.Exclude...) {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("cluster: region pattern %q: %w", p, err)
		}
	}
	return nil
}

// FeatureSet is the thread × region matrix clustering works on.
type FeatureSet struct {
	// Metric is the metric the values are of.
	Metric string
	// Inclusive is true when the values are inclusive.
	Inclusive bool
	// Points lists the threads, one per row of Data, trial by trial in the
	// order the trials were given, each trial's threads in its order.
	Points []Point
	// Regions names the dimensions, one per column of Data: the regions of
	// the flat view (and callpath nodes with FeatureOptions.Callpath) of
	// all trials, aligned by full name, in order of first appearance.
	Regions []string
	// Data holds value(thread, region): the metric's exclusive (or
	// inclusive) value of the region on the thread; a region a thread
	// did not record, or its trial does not have, counts as 0.
	Data Matrix
}

// Features builds one vector per thread of the given trials (see
// FeatureSet): x[t][r] = value of region r on thread t of metric
// opt.Metric, exclusive unless opt.Inclusive, with regions aligned across
// trials by full name and missing regions counted as 0.
func Features(trials []*drg.Trial, opt FeatureOptions) (*FeatureSet, error) {
	if len(trials) == 0 {
		return nil, fmt.Errorf("cluster: no trial given")
	}
	metric := opt.Metric
	if metric == "" {
		m := trials[0].TimeMetric()
		if m < 0 {
			return nil, fmt.Errorf("cluster: trial %q has no metric", trials[0].Name)
		}
		metric = trials[0].Metrics[m].Name
	}
	if err := opt.checkPatterns(); err != nil {
		return nil, err
	}
	fs := &FeatureSet{Metric: metric, Inclusive: opt.Inclusive}
	per, err := featureColumns(fs, trials, opt)
	if err != nil {
		return nil, err
	}
	if len(fs.Regions) == 0 && (len(opt.Regions) > 0 || len(opt.Exclude) > 0) {
		return nil, fmt.Errorf("cluster: no region matches the patterns (regions %q, exclude %q)", opt.Regions, opt.Exclude)
	}
	d := len(fs.Regions)
	if d == 0 {
		return nil, fmt.Errorf("cluster: the trials have no region")
	}
	for ti, t := range trials {
		addTrialRows(fs, t, per[ti], opt.Inclusive)
	}
	fs.Data.N, fs.Data.D = len(fs.Points), d
	if fs.Data.N == 0 {
		return nil, fmt.Errorf("cluster: the trials have no thread")
	}
	if err := checkValues(fs); err != nil {
		return nil, err
	}
	return fs, nil
}

// trialColumns are the selected nodes of one trial and the feature column
// of each.
type trialColumns struct{ nodes, cols []int }

// featureColumns selects the nodes of every trial and gives each region
// name its column of fs (fs.Regions, in order of first appearance).
func featureColumns(fs *FeatureSet, trials []*drg.Trial, opt FeatureOptions) ([]trialColumns, error) {
	col := map[string]int{}
	per := make([]trialColumns, len(trials))
	for ti, t := range trials {
		if t.MetricIndex(fs.Metric) < 0 {
			return nil, fmt.Errorf("cluster: trial %q has no metric %q", t.Name, fs.Metric)
		}
		nodes := selectedNodes(t, opt)
		cols := make([]int, len(nodes))
		for j, nd := range nodes {
			name := t.Nodes[nd].Name
			c, ok := col[name]
			if !ok {
				c = len(fs.Regions)
				col[name] = c
				fs.Regions = append(fs.Regions, name)
			}
			cols[j] = c
		}
		per[ti] = trialColumns{nodes, cols}
	}
	return per, nil
}

// selectedNodes returns the flat nodes of t the options select, then (with
// Callpath) its selected call-path nodes.
func selectedNodes(t *drg.Trial, opt FeatureOptions) []int {
	var nodes []int
	for _, nd := range t.Flat() {
		if opt.selected(t.Nodes[nd].Name) {
			nodes = append(nodes, nd)
		}
	}
	if opt.Callpath {
		for i, n := range t.Nodes {
			if n.Parent >= 0 && !n.Derived && opt.selected(n.Name) {
				nodes = append(nodes, i)
			}
		}
	}
	return nodes
}

// addTrialRows appends one point and one feature row per thread of t:
// the metric's value of every selected node, 0 when absent or not finite.
func addTrialRows(fs *FeatureSet, t *drg.Trial, tc trialColumns, inclusive bool) {
	d := len(fs.Regions)
	mi := t.MetricIndex(fs.Metric)
	vals := t.Values[mi].Exclusive
	if inclusive {
		vals = t.Values[mi].Inclusive
	}
	nt := len(t.Threads)
	base := len(fs.Points)
	for _, th := range t.Threads {
		fs.Points = append(fs.Points, Point{Trial: t.Name, Node: th.Node, Context: th.Context, Thread: th.Thread})
	}
	fs.Data.X = append(fs.Data.X, make([]float64, nt*d)...)
	for j, nd := range tc.nodes {
		c := tc.cols[j]
		for th := 0; th < nt; th++ {
			cell := nd*nt + th
			if cell < len(vals) && t.Present.Get(cell) {
				v := vals[cell]
				if math.IsNaN(v) || math.IsInf(v, 0) {
					v = 0
				}
				fs.Data.X[(base+th)*d+c] = v
			}
		}
	}
}

// checkValues refuses a feature value that is not finite or exceeds
// drg.MaxValue in magnitude: squared distances of such values overflow to
// +Inf, and the nearest-neighbour search and silhouette then index with
// no neighbour found. A trial loaded by this tool never holds one; a TAUdb
// database written by another tool may.
func checkValues(fs *FeatureSet) error {
	for i, v := range fs.Data.X {
		if err := drg.CheckValue(v); err != nil {
			p := fs.Points[i/fs.Data.D]
			return fmt.Errorf("cluster: the value of %q on thread %d.%d.%d of trial %q: %w", fs.Regions[i%fs.Data.D], p.Node, p.Context, p.Thread, p.Trial, err)
		}
	}
	return nil
}
