package registry

import (
	"context"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/overhead"
)

// Overhead is SCALEA's overhead breakdown of a series (overhead.Analyze):
// the total overhead of an experiment with p processes
//
//	T_o = T_p − T_s/p
//
// (T_p the main region's inclusive time of the average process, T_s the
// baseline's useful work) split by rules into data movement,
// synchronization, control of parallelism, additional computation and
// loss of parallelism, with unidentified = T_o − identified.
type Overhead struct {
	// Metric is the metric's name; "" the first time metric.
	Metric string
	// Aggregate is the processes the split describes: mean, max or min.
	Aggregate analysis.Aggregate
	// PFrom is how p is counted (see analysis.ProcessCount); "" counts
	// what Unit says: TAU node ranks, or threads.
	PFrom string
	// Baseline is the baseline trial's name; "" p = 1, else the smallest p.
	Baseline string
	// SequentialTime is T_s in µs when positive (overrides the baseline).
	SequentialTime float64
	// Rules is a YAML rules file changing the region classes.
	Rules string
	// Region restricts the region-to-overhead table to one region.
	Region string
	// Category restricts the overhead-to-region table to one category.
	Category string
	// Restrict restricts every figure to a process N or a thread N.C.T.
	Restrict string
	// Unit is what p counts: process or thread.
	Unit string
}

func init() {
	Register(&Analysis{Name: "overhead", Trials: Series, MinTrials: 1, New: func() Options { return new(Overhead) },
		Use:   "overhead --trials T1,T2,... | --where EXPR [--baseline T] [--rules FILE] [--region R | --category C]",
		Short: "SCALEA's overhead breakdown: data movement, synchronization, control of parallelism, ...",
		Long:  overheadHelp,
		Example: `  taudb-analyze overhead --trials mm-1,mm-2,mm-4,mm-8
  taudb-analyze overhead --where 'application == "matmult"' --rules site.yaml --category "data movement"`,
	})
}

// Bind declares the options.
func (o *Overhead) Bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.Enum((*string)(&o.Aggregate), "aggregate", string(analysis.AggregateMean), []string{"mean", "max", "min"}, "the processes the split describes: mean (the average process), max (the last to finish) or min")
	b.String(&o.PFrom, "p-from", "", `the number of processes p of a trial: "" (what --unit counts: distinct TAU node ranks, or threads), threads, nodes, hosts, or meta:KEY`)
	b.String(&o.Baseline, "baseline", "", "the baseline trial's name (default: p = 1, else the smallest p)")
	b.Float(&o.SequentialTime, "sequential-time", 0, "the sequential time T_s in µs (overrides the baseline)")
	bindRules(b, &o.Rules)
	b.String(&o.Region, "region", "", "region-to-overhead for this region only")
	b.String(&o.Category, "category", "", "overhead-to-region for this category only")
	b.String(&o.Restrict, "restrict", "", "restrict to a process N or a thread N.C.T")
	b.Enum(&o.Unit, "unit", "process", []string{"process", "thread"}, "what p counts: process, or thread (OpenMP/pthread runs)")
}

// Validate reads the rules file, so that a bad one is reported before any
// trial is read.
func (o *Overhead) Validate() error {
	_, err := loadRules(o.Rules)
	return err
}

// pFrom is how p is counted: PFrom, else what Unit counts (threads for
// UnitThread, TAU node ranks otherwise), so that p and the units the
// figures are made of are one count.
func (o *Overhead) pFrom() string {
	if o.PFrom == "" && strings.EqualFold(strings.TrimSpace(o.Unit), overhead.UnitThread) {
		return "threads"
	}
	return o.PFrom
}

// Run computes overhead.Analyze of the series.
func (o *Overhead) Run(ctx context.Context, in Input) (Output, error) {
	opt := overhead.Options{Metric: o.Metric, Aggregate: o.Aggregate, Baseline: o.Baseline, SequentialTime: o.SequentialTime,
		Region: o.Region, Category: o.Category, Restrict: o.Restrict, Unit: o.Unit}
	var err error
	if opt.Rules, err = loadRules(o.Rules); err != nil {
		return Output{}, err
	}
	series, err := analysis.NewSeries(in.Trials, o.pFrom(), "")
	if err != nil {
		return Output{}, err
	}
	if _, err := series.Baseline(o.Baseline); err != nil {
		return Output{}, &UsageError{Option: "baseline", Msg: "--baseline " + quote(o.Baseline) + " is not one of the selected trials"}
	}
	res, err := overhead.Analyze(series, opt)
	return Output{Result: res}, err
}

const overheadHelp = `overhead classifies the temporal overhead of each experiment as SCALEA does.
The total overhead of an experiment with p processes is

  T_o = T_p − T_s/p

with T_p the main region's inclusive time of the average process
(--aggregate max: of the process that finishes last; min: first) and T_s
the useful work of the baseline (the 1-process trial, else the smallest p;
--baseline chooses another): the sum over its processes of their time
outside MPI and the other rule categories, so that the baseline's own MPI
time is not counted as work; --sequential-time gives T_s. Experiments are
listed in increasing p. The regions are classified by rules on their names
and TAU groups into data movement, synchronization, control of parallelism
and additional computation; the same rules give imbalance, summary and
multiset their classes (MPI-IO is data movement here and I/O there).
--rules FILE, a YAML file, adds, overrides or removes rules; --list-rules
prints them in matching order (the first match wins):

  rules:
    - id: waitall-p2p          # add a rule ahead of the defaults
      match: MPI_Waitall       # exact, prefix "MPI_File_*" or /regexp/
      group: MPI               # optional TAU group (or /regexp/)
      category: data movement  # or synchronization, control of
                               # parallelism, additional computation,
                               # computation
      sub: MPI point-to-point
      class: mpi               # computation, mpi, openmp, io, other,
                               # sampled (required unless computation)
    - action: remove           # or override (keys given replace)
      id: unit-identification-mpi

Errors name the file and line; docs/rules.md has the whole format. Loss of parallelism comes from computation
regions run by q < p processes, λ = S/q − S/p (S their total time), paid
out of the synchronization time the other processes spent waiting for
them, and from code replicated on every process, paid out of the work in
excess of the ideal share. Then

  unidentified = T_o − identified

exactly, no category is negative, and unidentified is negative only when
the processes did less useful work than T_s/p (superlinear effects): a
finding says so. Trials that all have the same p are refused (exit 2): that
is a parameter study for multiset/multiregion. Tables:
the experiments (Figure 13 of the SCALEA paper), region-to-overhead
(--region R restricts it), overhead-to-region (--category C), each
restrictable to a process N or a thread N.C.T (--restrict).`
