package overhead

import (
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"sort"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// The units of parallelism (Options.Unit).
const (
	// UnitProcess makes every TAU node rank N (an MPI process) one unit:
	// its value for a region is the sum over its threads, its execution
	// time the largest main-region inclusive value of its threads. The
	// default.
	UnitProcess = "process"
	// UnitThread makes every thread N.C.T one unit (for OpenMP or pthread
	// programs: give p as the number of threads).
	UnitThread = "thread"
)

// DefaultReplicatedThreshold is the default Options.ReplicatedThreshold.
const DefaultReplicatedThreshold = 0.5

// Options select how Analyze computes the overheads. The zero value selects
// every default.
type Options struct {
	// Baseline names the baseline experiment (its Name, else its trial's
	// name); "" selects the experiment with the smallest p, the 1-process
	// run when there is one: the rule of every analysis of a series
	// (analysis.Series.Baseline). The baseline gives T_s (see Analyze) and
	// the per-region reference times of the replicated-code test.
	Baseline string
	// SequentialTime, when positive, is T_s itself (in the metric's unit,
	// microseconds for time), overriding the baseline's T_s; the baseline
	// still serves the replicated-code test.
	SequentialTime float64
	// Metric is the metric's name; "" selects the first time metric of the
	// first trial (drg.Trial.TimeMetric). Every trial must have it.
	Metric string
	// Aggregate chooses the processes the figures describe (see Analyze):
	// analysis.AggregateMean (the default: the average process; only the
	// average splits T_o without one process's waiting standing for
	// another's work), analysis.AggregateMax (the process with the largest
	// T_k, which finishes last) or analysis.AggregateMin (the smallest).
	Aggregate analysis.Aggregate
	// Unit is the unit of parallelism whose count p gives: UnitProcess
	// (default) or UnitThread. With threads, a worker thread's top-level
	// timer (".TAU application") holds the time the worker was idle, for
	// instance while the master ran serial code s; when that matches the
	// baseline's serial time the region is reported as replicated code,
	// with the loss s*(p-1)/p that the master's serial code causes.
	Unit string
	// Rules classify the regions, first match wins; nil selects
	// classify.Default(). A non-nil empty slice classifies nothing (every
	// region is computation).
	Rules []classify.Rule
	// Restrict limits every figure to one process ("N", a TAU node rank)
	// or one thread ("N.C.T"); "" keeps all. T_s and the loss-of-
	// parallelism tests (which processes executed a region) always use
	// the whole trial.
	Restrict string
	// Region limits the regions table to the regions with this name: the
	// full name, or the name without TAU's decorations and with or without
	// "()" ("MPI_Send", "void compute(double **) C"). "" lists all.
	Region string
	// Category limits the category table to one overhead category ("" for
	// all five).
	Category string
	// Top limits the category table to the n regions with the largest
	// overhead per category and experiment; 0 lists all.
	Top int
	// ReplicatedThreshold is θ of the replicated-code test (see Analyze),
	// in [0, 1]; 0 selects DefaultReplicatedThreshold (0.5). A region is
	// replicated when its time per process shrank by less than the
	// fraction θ of the way from no change to perfect division.
	ReplicatedThreshold float64
}

// Analyze is SCALEA's overhead analysis over a series of experiments: each
// ran its trial with P processes (or threads, with Options.Unit =
// UnitThread; analysis.NewSeries counts them by analysis.ProcessCount, the
// one rule). The experiments are reported in increasing p (then trial
// name), whatever the order of the series.
//
// Definitions (values are the metric's, microseconds for time; k runs over
// the units of parallelism, processes by default):
//
//	T_k        = max over k's threads of the main region's inclusive value
//	t_k(r)     = Σ over k's threads of region r's exclusive value (flat
//	             view: no value counted twice; absent = 0)
//	O_k        = Σ t_k(r) over the regions a rule puts in data movement,
//	             synchronization, control of parallelism or additional
//	             computation; W_k = max(0, T_k − O_k), k's useful work
//	K          = the processes the figures describe, chosen once per
//	             experiment: all of them for Options.Aggregate = mean (the
//	             default: the average process), the one with the largest
//	             T_k for max (the process that finishes last), the smallest
//	             for min; the restricted one with Options.Restrict
//	A(v)       = (1/|K|) Σ_{k in K} v_k, so that every figure below is of
//	             the same processes and sums of aggregates are aggregates of
//	             sums: categories add up
//	T_p        = A(T_k);  T_max = max_k T_k is reported beside it
//	T_s        = Options.SequentialTime if given; else Σ_k W_k over every
//	             process of the baseline: its useful work, so that the
//	             baseline's own MPI time is not counted as work (with a
//	             1-process baseline, T_1 less its MPI and other rule time)
//	T_o        = T_p − T_s/p
//	C(c)       = A(Σ_{r in c} t_k(r)) for each rule category c
//	W, X       = W = T_p − Σ_c C(c), the useful work of K, and its excess
//	             over the ideal share, X = W − T_s/p; so T_o = Σ_c C(c) + X
//	S(r), q(r) = Σ_k t_k(r) over the whole trial, and the number of
//	             processes that executed r
//
// Loss of parallelism (computation regions only, p > 1). A region run by
// q < p processes (unparallelized for q = 1, partially parallelized
// otherwise) claims λ(r) = S(r)/q − S(r)/p, the time its executors spend
// beyond the ideal share, which the other processes spend waiting: for the
// mean over all processes and for a chosen process that did not run r, that
// claim is paid out of synchronization (the waiting was recorded there);
// for a chosen process that ran r the claim is A(t_k(r)) − S(r)/p, paid out
// of the work excess X. A region run by every process whose time per
// process did not shrink (the replicated-code test below) claims
// ρ(r) = A(t_k(r)) − S_b(r)/p (S_b: the baseline's S), paid out of X.
// The work claims are paid first, out of max(0, X); then the waiting
// claims out of C(sync) and, for what synchronization lacks, out of what is
// left of max(0, X) (waiting spent outside any rule region, in code TAU did
// not instrument); a source short of its claims pays them in proportion.
// Negative claims are 0. Then
//
//	C(loss)      = everything paid
//	C(sync)      = measured C(sync) − what it paid (its sub-categories
//	               scaled alike)
//	identified   = Σ of the five categories (each >= 0)
//	unidentified = X − what X paid = T_o − identified, exactly
//
// So identified + unidentified = T_o, no category is negative, and
// unidentified is negative only when X < 0: the chosen processes did less
// useful work than their ideal share T_s/p (superlinear effects such as
// caches, or T_s overstated: a baseline with p_b > 1 counts replicated code
// p_b times). The findings say so when it happens.
//
// The replicated-code test compares the mean time per executing process,
// m(r) = S(r)/q, with the baseline's m_b(r) (same region name): with
// perfect division m/m_b = p_b/p, with replication (every process doing the
// whole work) m/m_b = 1. r is replicated when p > p_b, m_b > 0 and
// m/m_b >= p_b/p + θ(1 − p_b/p), θ = Options.ReplicatedThreshold. Regions
// the baseline lacks, and every region when p <= p_b, are never replicated.
//
// Exactness: all the figures of one experiment are rounded to a common
// binary grid q = 2^(e−52), where 2^e exceeds twice the sum of their
// magnitudes (a change of at most q/2). On that grid every sum and
// difference above is exact, so identified + unidentified == T_o holds to
// the last bit in float64.
//
// With Options.Restrict every figure is the restricted process's or
// thread's; an experiment that lacks it gets undefined (NaN) figures.
//
// When every trial has the same p the analysis is refused with an
// *analysis.ConstantPError: a parameter study, not a scaling series.
//
// The result holds four tables:
//
//   - "experiments" (SCALEA's Figure 13): one row per category (with its
//     sub-category rows after it), then "total identified", "unidentified",
//     "total overhead" (T_o), "total execution time" (T_p) and "ideal time"
//     (T_s/p); text columns category and sub, then one number column per
//     experiment, named p<p> ("p8"; p<p>_<index> when two trials share a p).
//   - "totals": one row per experiment: experiment, trial, p, units,
//     baseline, t_p, t_max, ideal, t_o, identified, unidentified, one
//     column per category, speedup = T_s/T_p, efficiency = T_s/(p*T_p),
//     overhead_percent = 100*T_o/T_p.
//   - "regions" (region-to-overhead): one row per region and experiment in
//     which the region was executed: region, experiment, trial, p,
//     category, sub, rule, units (q), time (A(t_k(r))), overhead (its time
//     for a rule category, scaled for synchronization as C(sync) is; its
//     loss for computation), loss_kind, percent_of_overhead =
//     100*overhead/T_o. Sorted by the region's overhead summed over the
//     experiments, largest first.
//   - "category" (overhead-to-region): for each category and experiment,
//     the regions that cause it, largest overhead first.
//
// A percentage whose denominator is 0 is undefined (NaN).
func Analyze(s analysis.Series, opt Options) (*analysis.Result, error) {
	trials, p, b, err := inPOrder(s, opt.Baseline)
	if err != nil {
		return nil, err
	}
	c, err := newConfig(trials, p, b, opt)
	if err != nil {
		return nil, err
	}
	base := c.measure(c.baseline, false)
	c.baseSum, c.baseQ = base.sumByName, base.qByName
	if opt.SequentialTime > 0 {
		c.ts, c.tsRule = opt.SequentialTime, "given sequential time"
	} else {
		c.ts = base.usefulSum
		c.tsRule = fmt.Sprintf("the useful work of the baseline's %d process(es), Σ_k (T_k − O_k)", base.units)
	}
	exps := make([]*expStats, len(trials))
	for i := range trials {
		exps[i] = c.measure(i, true)
		c.claims(exps[i], true)
		c.finish(exps[i])
	}
	return c.result(exps)
}

// inPOrder sorts the series by p (then trial name, then the given order),
// refuses a series whose p never varies, and finds the baseline in the
// sorted series (analysis.Series.Baseline).
func inPOrder(s analysis.Series, baseline string) ([]*drg.Trial, []float64, int, error) {
	if len(s) == 0 {
		return nil, nil, -1, fmt.Errorf("overhead analysis needs at least one trial")
	}
	if err := analysis.CheckPVaries("overhead", s.Ps()); err != nil {
		return nil, nil, -1, err
	}
	name := func(e analysis.Experiment) string {
		if e.Trial == nil {
			return ""
		}
		return e.Trial.Name
	}
	sorted := append(analysis.Series(nil), s...)
	sort.SliceStable(sorted, func(a, b int) bool {
		if sorted[a].P != sorted[b].P {
			return sorted[a].P < sorted[b].P
		}
		return name(sorted[a]) < name(sorted[b])
	})
	b, err := sorted.Baseline(baseline)
	if err != nil {
		return nil, nil, -1, err
	}
	trials := make([]*drg.Trial, len(sorted))
	for i, e := range sorted {
		trials[i] = e.Trial
	}
	return trials, sorted.Ps(), b, nil
}
