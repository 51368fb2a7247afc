package analysis

import (
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"math"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// ImbalanceOptions select what Imbalance measures.
type ImbalanceOptions struct {
	// Metric is the metric's name; "" selects the trial's first time metric
	// (drg.Trial.TimeMetric).
	Metric string
	// Inclusive selects inclusive values; the default is exclusive.
	Inclusive bool
	// Callpath selects the tree view: one row per call-graph node reachable
	// from the tree's roots (drg.Trial.Tree) instead of one row per region
	// of the flat view. A trial without callpaths is an error.
	Callpath bool
	// Rules classify the regions for the class column and the "split"
	// table (classify.Default() when nil).
	Rules []classify.Rule
}

// Imbalance measures the load imbalance of every region (or call-graph
// node) across threads, PerfExplorer's and SCALEA's load imbalance analysis.
//
// Table "imbalance", one row per region (flat view) or node (callpath view)
// that at least one thread has a record for, sorted by max_minus_mean
// descending (then by name). Statistics are over the n threads that have a
// record for the region (nulls ignored, TAUdb's MEAN convention); n is
// n_present. For values x_1..x_n of the chosen metric (unit "us" for time):
//
//	mean            = Σx/n
//	min, max        = the extremes of x (min_thread, max_thread: the first
//	                  thread in trial order holding them, as "N.C.T")
//	stddev          = √(Σ(x−mean)²/n)              (population)
//	balance         = mean/max                     (PerfExplorer's LOAD_BALANCE;
//	                  1 = balanced; 1 when max = 0)
//	imbalance       = max/mean                     (Hatchet's imbalance;
//	                  1 = balanced; 1 when mean = 0)
//	severity        = (1 − mean/max)/(1 − 1/n)     (APART's load-imbalance
//	                  severity: 0 balanced, 1 when one thread does all the
//	                  work; 0 when n = 1 or max = 0)
//	max_minus_mean  = max − mean                   (time balancing could save
//	                  on the slowest thread)
//	saving_percent  = 100*(max−mean)/main          (main = mean over all
//	                  threads of the main region's inclusive value)
//	cv              = stddev/mean                  (coefficient of variation;
//	                  0 when mean = 0)
//
// mean, min, max and stddev equal drg.Trial.Statistics()'s Mean, Min, Max
// and StdDev of the same node.
//
// Table "split", one row per thread, PerfExplorer's computation versus
// communication split: the exclusive values of the metric over the flat
// view, summed per class of the rules of package classify (opt.Rules, the
// defaults when nil: computation, mpi, openmp, io, other; sampled regions
// are skipped because their time is inside their timers' exclusive time),
// the thread's main-region inclusive value (main_inclusive), each class as
// a percentage of it, and remainder = main_inclusive − (computation + mpi +
// openmp + io + other), which is 0 when the main region encloses
// every other timer of the thread. The split always uses exclusive values,
// whatever Inclusive says.
//
// Table "heatmap", the thread × region matrix in long form, one row per
// (thread, region), threads in trial order then regions in the order of
// the "imbalance" table: thread ("N.C.T"), region (the row's name in the
// "imbalance" table, a callpath in the callpath view) and value (the
// chosen exclusive or inclusive value of the region on the thread; NaN
// where the thread has no record). It holds the first HeatmapRegions rows
// of the "imbalance" table and the first HeatmapThreads threads; the title
// states the limits, and Params "heatmap_regions" / "heatmap_threads" give
// the counts kept when a limit leaves some out.
func Imbalance(t *drg.Trial, opt ImbalanceOptions) (*Result, error) {
	m, err := resolveMetric(t, opt.Metric)
	if err != nil {
		return nil, err
	}
	rules, err := prepareRules(opt.Rules)
	if err != nil {
		return nil, err
	}
	cls := regionClasses(t, rules)
	res := newResult("imbalance", t, m)
	res.Params["value"] = valueKind(opt.Inclusive)
	res.Params["view"] = "flat"
	if opt.Callpath {
		res.Params["view"] = "callpath"
	}
	nodes, err := imbalanceNodes(t, res, opt.Callpath)
	if err != nil {
		return nil, err
	}
	vals := trialValues(t, m, opt.Inclusive)
	rows := &imbalanceRows{}
	mainMean := drg.DerivedMain(t.MainInclusive(m), drg.Mean)
	for _, n := range nodes {
		if s := statsOver(t, vals, n); s.n > 0 {
			rows.add(t, n, s, cls, mainMean)
		}
	}
	label := "region"
	title := "Load imbalance per region across threads (flat view, " + valueKind(opt.Inclusive) + " " + t.Metrics[m].Name + ", nulls ignored)"
	if opt.Callpath {
		label = "node"
		title = "Load imbalance per call-graph node across threads (tree view, " + valueKind(opt.Inclusive) + " " + t.Metrics[m].Name + ", nulls ignored)"
	}
	tb, idx := rows.table(title, label, unitOf(t, m), opt.Callpath)
	res.AddTable(tb)
	split := threadSplit(t, m, cls)
	res.AddTable(split)
	top := make([]int, 0, min(HeatmapRegions, len(idx)))
	for _, i := range idx[:min(HeatmapRegions, len(idx))] {
		top = append(top, rows.kept[i])
	}
	res.AddTable(heatmapTable(t, m, vals, top, len(idx), opt.Inclusive, res))
	imbalanceFindings(res, t, m, label, &split)
	return res, nil
}

// imbalanceNodes returns the rows of the imbalance table: the flat view's
// nodes, or with callpath every node of the call tree in depth-first
// order (an error when the trial has no callpaths).
func imbalanceNodes(t *drg.Trial, res *Result, callpath bool) ([]int, error) {
	if !callpath {
		return t.Flat(), nil
	}
	tree := t.Tree()
	if tree.Kind == drg.NoCallpaths {
		return nil, fmt.Errorf("trial %q has no callpath data: run the imbalance analysis on the flat view", t.Name)
	}
	var nodes []int
	var walk func(n int)
	walk = func(n int) {
		nodes = append(nodes, n)
		for _, c := range tree.Children[n] {
			walk(c)
		}
	}
	for _, r := range tree.Roots {
		walk(r)
	}
	if tree.Kind == drg.PartialCallpaths {
		res.Findf("The callpaths are depth-limited (tree view %q): rows are the nodes of %d partial subtrees.", tree.Kind, len(tree.Roots))
	}
	return nodes, nil
}

// imbalanceRows collects the columns of the imbalance table, one entry per
// node present on some thread (kept: the node).
type imbalanceRows struct {
	kept                                                         []int
	names, classes, minTh, maxTh                                 []string
	depth                                                        []float64
	nPresent, mean, mn, mx, sd, bal, imb, sev, save, savePct, cv []float64
}

// add appends the row of node n with its statistics s over the threads.
func (r *imbalanceRows) add(t *drg.Trial, n int, s rowStats, cls []classify.Class, mainMean float64) {
	r.kept = append(r.kept, n)
	r.names = append(r.names, t.Nodes[n].Name)
	r.classes = append(r.classes, cls[t.Nodes[n].Region])
	r.depth = append(r.depth, float64(t.Nodes[n].Depth))
	r.nPresent = append(r.nPresent, float64(s.n))
	r.mean = append(r.mean, s.mean)
	r.mn = append(r.mn, s.min)
	r.mx = append(r.mx, s.max)
	r.sd = append(r.sd, s.sd)
	r.minTh = append(r.minTh, threadLabel(t, s.minTh))
	r.maxTh = append(r.maxTh, threadLabel(t, s.maxTh))
	r.bal = append(r.bal, Balance(s.mean, s.max))
	r.imb = append(r.imb, ratio(s.max, s.mean, 1))
	r.sev = append(r.sev, Severity(s.mean, s.max, s.n))
	r.save = append(r.save, s.max-s.mean)
	r.savePct = append(r.savePct, drg.Percent(s.max-s.mean, mainMean))
	r.cv = append(r.cv, ratio(s.sd, s.mean, 0))
}

// table builds the "imbalance" table, largest max − mean first (then by
// name), and returns it with the order of the rows (indices into r).
func (r *imbalanceRows) table(title, label, unit string, callpath bool) (Table, []int) {
	tb := Table{Name: "imbalance", Title: title}
	tb.AddText(label, r.names)
	if callpath {
		tb.AddNum("depth", "", r.depth)
	}
	tb.AddText("class", r.classes)
	tb.AddNum("n_present", "threads", r.nPresent)
	tb.AddNum("mean", unit, r.mean)
	tb.AddNum("min", unit, r.mn)
	tb.AddText("min_thread", r.minTh)
	tb.AddNum("max", unit, r.mx)
	tb.AddText("max_thread", r.maxTh)
	tb.AddNum("stddev", unit, r.sd)
	tb.AddNum("balance", "", r.bal)
	tb.AddNum("imbalance", "", r.imb)
	tb.AddNum("severity", "", r.sev)
	tb.AddNum("max_minus_mean", unit, r.save)
	tb.AddNum("saving_percent", "%", r.savePct)
	tb.AddNum("cv", "", r.cv)
	idx := order(len(r.names), func(i, j int) bool {
		if r.save[i] != r.save[j] {
			return r.save[i] > r.save[j]
		}
		return r.names[i] < r.names[j]
	})
	permuteTable(&tb, idx)
	return tb, idx
}

// imbalanceFindings names the regions whose balancing would save the
// most, and the threads' split of time between computation, MPI and
// OpenMP.
func imbalanceFindings(res *Result, t *drg.Trial, m int, label string, split *Table) {
	ib := res.Table("imbalance")
	for i := 0; i < min(3, ib.NumRows()); i++ {
		s := ib.Num("max_minus_mean", i)
		if s <= 0 {
			break
		}
		res.Findf("%s could save %s (%.1f%% of the main region) if balanced: balance %.2f, severity %.2f, max %s on %s, min %s on %s",
			ib.Text(label, i), formatValue(t, m, s), ib.Num("saving_percent", i), ib.Num("balance", i), ib.Num("severity", i),
			formatValue(t, m, ib.Num("max", i)), ib.Text("max_thread", i), formatValue(t, m, ib.Num("min", i)), ib.Text("min_thread", i))
	}
	if ib.NumRows() > 0 && ib.Num("max_minus_mean", 0) <= 0 {
		res.Findf("Every region is perfectly balanced across threads (max = mean).")
	}
	mpi := split.Col("mpi_percent").Num
	omp := split.Col("openmp_percent").Num
	comp := split.Col("computation_percent").Num
	if lo, hi := extremes(mpi); len(mpi) > 0 {
		res.Findf("On average per thread, computation takes %.1f%%, MPI %.1f%% and OpenMP %.1f%% of the main region's inclusive %s; the MPI share ranges from %.1f%% (%s) to %.1f%% (%s).",
			meanOf(comp), meanOf(mpi), meanOf(omp), t.Metrics[m].Name, mpi[lo], split.Text("thread", lo), mpi[hi], split.Text("thread", hi))
	}
}

// HeatmapRegions and HeatmapThreads bound Imbalance's "heatmap" table: the
// regions (or nodes) ranked first in the "imbalance" table, and the threads
// first in trial order.
const (
	HeatmapRegions = 25
	HeatmapThreads = 1024
)

// heatmapTable builds Imbalance's "heatmap" table over nodes (the first
// rows of the "imbalance" table, in its order; of nRanked) and the first
// HeatmapThreads threads. When a limit cuts the content, Params
// "heatmap_regions" and "heatmap_threads" give the counts kept.
func heatmapTable(t *drg.Trial, m int, vals drg.Vals, nodes []int, nRanked int, inclusive bool, res *Result) Table {
	nt := len(t.Threads)
	nth := min(nt, HeatmapThreads)
	what := "region"
	if res.Params["view"] == "callpath" {
		what = "call-graph node"
	}
	title := fmt.Sprintf("Thread × %s heat map: %s %s of the %s on the thread (NaN where the thread has no record); ", what,
		valueKind(inclusive), t.Metrics[m].Name, what)
	if nRanked > len(nodes) {
		title += fmt.Sprintf("the top %d of %d %ss of the imbalance table (limit %d)", len(nodes), nRanked, what, HeatmapRegions)
		res.Params["heatmap_regions"] = fmt.Sprint(len(nodes))
	} else {
		title += fmt.Sprintf("all %d %ss of the imbalance table", len(nodes), what)
	}
	if nt > nth {
		title += fmt.Sprintf(", the first %d of %d threads (limit %d)", nth, nt, HeatmapThreads)
		res.Params["heatmap_threads"] = fmt.Sprint(nth)
	} else {
		title += fmt.Sprintf(", all %d threads", nt)
	}
	rows := nth * len(nodes)
	ths := make([]string, 0, rows)
	regs := make([]string, 0, rows)
	vs := make([]float64, 0, rows)
	for th := 0; th < nth; th++ {
		label := threadLabel(t, th)
		for _, n := range nodes {
			ths = append(ths, label)
			regs = append(regs, t.Nodes[n].Name)
			v := math.NaN()
			if x, ok := vals.At(n, th); ok {
				v = x
			}
			vs = append(vs, v)
		}
	}
	tb := Table{Name: "heatmap", Title: title}
	tb.AddText("thread", ths)
	tb.AddText("region", regs)
	tb.AddNum("value", unitOf(t, m), vs)
	return tb
}

// Balance returns PerfExplorer's LOAD_BALANCE mean/max: 1 for a balanced
// region, 1/n when one of n threads does all the work; 1 when max is 0.
func Balance(mean, max float64) float64 { return ratio(mean, max, 1) }

// Severity returns APART's load-imbalance severity (1 − mean/max)/(1 − 1/n)
// over n threads: 0 when balanced, 1 when one thread does all the work. It is
// 0 when n ≤ 1 or max is 0.
func Severity(mean, max float64, n int) float64 {
	if n <= 1 || max == 0 {
		return 0
	}
	return (1 - mean/max) / (1 - 1/float64(n))
}

// rowStats are the statistics of one node's values over the threads that
// have a record for it.
type rowStats struct {
	n                  int
	mean, min, max, sd float64
	minTh, maxTh       int
}

// statsOver computes the statistics of node n's values (nulls ignored),
// with the standard deviation in two passes.
func statsOver(t *drg.Trial, vals drg.Vals, n int) rowStats {
	if d := vals.Dense(); d != nil {
		return statsOverDense(t, d, n)
	}
	s := rowStats{min: math.Inf(1), max: math.Inf(-1), minTh: -1, maxTh: -1}
	var sum float64
	for th, v := range vals.Row(n) {
		s.n++
		sum += v
		if v < s.min {
			s.min, s.minTh = v, th
		}
		if v > s.max {
			s.max, s.maxTh = v, th
		}
	}
	if s.n == 0 {
		return rowStats{minTh: -1, maxTh: -1}
	}
	s.mean = sum / float64(s.n)
	var ss float64
	for _, v := range vals.Row(n) {
		d := v - s.mean
		ss += d * d
	}
	s.sd = math.Sqrt(ss / float64(s.n))
	return s
}

// statsOverDense is statsOver on a dense trial's column vals, indexed
// node*threads+thread.
func statsOverDense(t *drg.Trial, vals []float64, n int) rowStats {
	nt := len(t.Threads)
	row := vals[n*nt : (n+1)*nt]
	s := rowStats{min: math.Inf(1), max: math.Inf(-1), minTh: -1, maxTh: -1}
	var sum float64
	for th, v := range row {
		if !t.Present.Get(n*nt + th) {
			continue
		}
		s.n++
		sum += v
		if v < s.min {
			s.min, s.minTh = v, th
		}
		if v > s.max {
			s.max, s.maxTh = v, th
		}
	}
	if s.n == 0 {
		return rowStats{minTh: -1, maxTh: -1}
	}
	s.mean = sum / float64(s.n)
	var ss float64
	for th, v := range row {
		if t.Present.Get(n*nt + th) {
			d := v - s.mean
			ss += d * d
		}
	}
	s.sd = math.Sqrt(ss / float64(s.n))
	return s
}

// threadSplit builds Imbalance's "split" table; cls is the class of every
// region of t.
func threadSplit(t *drg.Trial, m int, cls []classify.Class) Table {
	nt := len(t.Threads)
	classes := splitClasses
	sums := make(map[string][]float64, len(classes))
	for _, c := range classes {
		sums[c] = make([]float64, nt)
	}
	ex := t.Col(drg.ColExclusive, m)
	for _, f := range t.Flat() {
		c := cls[t.Nodes[f].Region]
		if c == classify.ClassSampled {
			continue
		}
		for th, v := range ex.Row(f) {
			sums[c][th] += v
		}
	}
	main := t.MainInclusive(m)
	labels := make([]string, nt)
	remainder := make([]float64, nt)
	for th := range labels {
		labels[th] = threadLabel(t, th)
		remainder[th] = main[th]
		for _, c := range classes {
			remainder[th] -= sums[c][th]
		}
	}
	unit := unitOf(t, m)
	tb := Table{Name: "split", Title: "Per thread: exclusive " + t.Metrics[m].Name + " of the flat regions summed per class (computation, MPI, OpenMP), and as a percentage of the main region's inclusive value"}
	tb.AddText("thread", labels)
	tb.AddNum("main_inclusive", unit, main)
	for _, c := range classes {
		tb.AddNum(c, unit, sums[c])
	}
	for _, c := range classes {
		pct := make([]float64, nt)
		for th := range pct {
			pct[th] = drg.Percent(sums[c][th], main[th])
		}
		tb.AddNum(c+"_percent", "%", pct)
	}
	tb.AddNum("remainder", unit, remainder)
	return tb
}

// extremes returns the positions of the smallest and largest value (the
// first ones on ties); 0, 0 for an empty slice.
func extremes(x []float64) (lo, hi int) {
	if len(x) == 0 {
		return 0, 0
	}
	for i, v := range x {
		if v < x[lo] {
			lo = i
		}
		if v > x[hi] {
			hi = i
		}
	}
	return lo, hi
}
