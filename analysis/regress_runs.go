package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// HistoryRun is what Regress reads of one trial of a history: its place
// (P, Key), its name and metadata, and the chosen metric aggregated over
// its threads, for the program (the main region's inclusive value) and for
// every region of its flat view (the exclusive value; NaN where the region
// is listed without a record). Regress reduces every trial to a run first
// and works on the runs only, so that a longer history can reuse the runs
// a stored result kept (RegressRuns) instead of reading those trials again;
// both paths give the same numbers by construction.
type HistoryRun struct {
	// Index is the experiment's position in what ReduceHistory was given.
	Index int
	// Trial is the trial's name and Name the experiment's label.
	Trial, Name string
	// P is the point's rank in the history and Key its order value (see
	// NewHistory).
	P   float64
	Key string
	// Metadata is the trial's metadata (read by the explanation of a
	// change).
	Metadata map[string]string
	// Metric and Unit are the metric's name and unit.
	Metric, Unit string
	// Program is the program's value.
	Program float64
	// Regions are the region keys (full or short names, as
	// SeriesOptions.ShortNames says) in the trial's order, and Exclusive
	// their values, parallel.
	Regions   []string
	Exclusive []float64
}

// ReduceHistory reduces the experiments of a history to runs, in P order
// (experiments of equal P keep their order). The metric is resolved on the
// first experiment in that order, as every series analysis does, and read
// by that name in the others.
func ReduceHistory(exps []Experiment, opt SeriesOptions) ([]HistoryRun, error) {
	return ReduceHistoryMetric(exps, "", "", opt)
}

// ReduceHistoryMetric is ReduceHistory reading the metric named metric
// (with unit unit) in every experiment; metric "" resolves opt.Metric on
// the first experiment in P order, as ReduceHistory does. A history built
// on the runs of an earlier one reads the new trials by the earlier
// runs' metric.
func ReduceHistoryMetric(exps []Experiment, metric, unit string, opt SeriesOptions) ([]HistoryRun, error) {
	agg, err := checkExperiments(exps, opt)
	if err != nil {
		return nil, err
	}
	idx := order(len(exps), func(i, j int) bool { return exps[i].P < exps[j].P })
	if metric == "" {
		first := exps[idx[0]].Trial
		m0, err := resolveMetric(first, opt.Metric)
		if err != nil {
			return nil, fmt.Errorf("experiment %q: %w", exps[idx[0]].label(idx[0]), err)
		}
		metric, unit = first.Metrics[m0].Name, unitOf(first, m0)
	}
	runs := make([]HistoryRun, 0, len(exps))
	for _, i := range idx {
		r, err := reduceRun(exps[i], exps[i].label(i), metric, agg, opt.ShortNames)
		if err != nil {
			return nil, err
		}
		r.Index, r.Unit = i, unit
		runs = append(runs, r)
	}
	return runs, nil
}

// reduceRun reduces one experiment (see HistoryRun), reading metric by
// name.
func reduceRun(e Experiment, label, metric string, agg Aggregate, short bool) (HistoryRun, error) {
	t := e.Trial
	m, err := seriesMetric(t, metric)
	if err != nil {
		return HistoryRun{}, fmt.Errorf("experiment %q: %w", label, err)
	}
	name := t.Name
	if name == "" {
		name = label
	}
	r := HistoryRun{Trial: name, Name: label, P: e.P, Key: e.Key, Metadata: t.Metadata, Metric: metric,
		Program: aggregateMain(t.MainInclusive(m), agg)}
	keys, groups := flatGroups(t, short)
	for g, key := range keys {
		ex, _, _, present := reduceGroup(t, m, groups[g], agg)
		if !present {
			ex = math.NaN()
		}
		r.Regions = append(r.Regions, key)
		r.Exclusive = append(r.Exclusive, ex)
	}
	return r, nil
}

// RegressRuns is Regress on runs reduced before (ReduceHistory): they are
// sorted by P, runs of equal P (repetitions of a point) keeping the order
// given. Every run must have the same metric; names must be unique. A
// caller that puts together runs of different histories sets each run's P
// anew from all order values (HistoryRanks).
func RegressRuns(runs []HistoryRun, opt RegressOptions) (*Result, error) {
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	d, err := seriesOfRuns(runs, o.SeriesOptions)
	if err != nil {
		return nil, err
	}
	return regressData(d, o)
}

// seriesOfRuns makes the reduced series of runs: what collect makes of
// trials, with a stand-in trial holding each run's name and metadata.
func seriesOfRuns(runs []HistoryRun, opt SeriesOptions) (*seriesData, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("no experiment given")
	}
	agg, err := ParseAggregate(opt.Aggregate, AggregateMax, AggregateMean)
	if err != nil {
		return nil, err
	}
	sorted := append([]HistoryRun(nil), runs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].P < sorted[j].P })
	d := &seriesData{agg: agg, align: "name", metric: sorted[0].Metric, unit: sorted[0].Unit}
	if opt.ShortNames {
		d.align = "short_name"
	}
	seen := map[string]bool{}
	for _, r := range sorted {
		if err := checkRun(r, d.metric, seen); err != nil {
			return nil, err
		}
		d.exps = append(d.exps, Experiment{Trial: &drg.Trial{Name: r.Trial, Metadata: r.Metadata}, Name: r.Name, P: r.P, Key: r.Key})
		d.names = append(d.names, r.Name)
		d.trials = append(d.trials, r.Trial)
		d.main = append(d.main, r.Program)
	}
	d.addRunRegions(sorted)
	return d, nil
}

// checkRun checks a run's P, metric and name (unique: seen holds the names
// before it).
func checkRun(r HistoryRun, metric string, seen map[string]bool) error {
	switch {
	case !(r.P > 0) || math.IsInf(r.P, 0):
		return fmt.Errorf("experiment %q: parameter p = %v, want a finite number > 0", r.Name, r.P)
	case r.Metric != metric:
		return fmt.Errorf("experiment %q: metric %q, the others %q", r.Name, r.Metric, metric)
	case seen[r.Name]:
		return fmt.Errorf("two experiments are named %q: give each a unique Name", r.Name)
	case len(r.Regions) != len(r.Exclusive):
		return fmt.Errorf("experiment %q: %d regions but %d values", r.Name, len(r.Regions), len(r.Exclusive))
	}
	seen[r.Name] = true
	return nil
}

// addRunRegions fills the regions of d from the runs (in P order): one
// row per region key in order of first appearance, NaN where a run has no
// value, as collect does.
func (d *seriesData) addRunRegions(runs []HistoryRun) {
	n := len(runs)
	at := map[string]int{}
	for k, run := range runs {
		for i, key := range run.Regions {
			r, ok := at[key]
			if !ok {
				r = len(d.regions)
				at[key] = r
				d.regions = append(d.regions, key)
				d.excl = append(d.excl, nanRow(n))
				d.incl = append(d.incl, nanRow(n))
				d.procs = append(d.procs, make([]int, n))
			}
			if !math.IsNaN(run.Exclusive[i]) {
				d.excl[r][k] = run.Exclusive[i]
			}
		}
	}
}

// nanRow returns n NaNs.
func nanRow(n int) []float64 {
	row := make([]float64, n)
	for i := range row {
		row[i] = math.NaN()
	}
	return row
}
