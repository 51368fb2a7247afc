package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// Imbalance is the imbalance analysis (one trial): per region, the
// distribution of its exclusive (or inclusive) value over the n threads
// that executed it,
//
//	balance   = mean/max                         1 = balanced
//	imbalance = max/mean
//	severity  = (1 − mean/max)/(1 − 1/n)         0..1 (0 for n = 1)
//	max − mean                                   time balancing could save
//	cv        = stddev/mean
//
// and per thread the split of the main region into classes (analysis.Imbalance).
type Imbalance struct {
	// Metric is the metric's name; "" the first time metric.
	Metric string
	// Inclusive uses inclusive values (default exclusive).
	Inclusive bool
	// Callpath lists call-graph nodes instead of regions.
	Callpath bool
	// Rules is a YAML rules file changing the region classes ("": the
	// defaults).
	Rules string
}

func init() {
	Register(&Analysis{Name: "imbalance", Trials: Single, Sparse: true, New: func() Options { return new(Imbalance) },
		Use:   "imbalance [--trial T] [--metric M] [--inclusive] [--callpath] [--rules FILE]",
		Short: "Load imbalance per region: balance, severity, time balancing could save",
		Long: `imbalance lists, per region (flat view; --callpath: per call-graph node), the
distribution of its exclusive value (--inclusive: inclusive) over the threads
that executed it (n of them):

  mean, min, max, stddev   over those n threads (population stddev)
  balance = mean/max       PerfExplorer's LOAD_BALANCE, 1 = balanced
  imbalance = max/mean     Hatchet's imbalance
  severity = (1 − mean/max)/(1 − 1/n)   APART's severity, 0..1 (0 for n = 1)
  max − mean               time balancing the region could save
  cv = stddev/mean         coefficient of variation
  min_thread, max_thread   the threads (N.C.T) at the extremes

sorted by max − mean, and per thread the split of the main region's time
into computation, MPI, OpenMP, I/O and other (as PerfExplorer's
load-imbalance operation; regions are classified by the rules overhead and
summary use, --rules FILE changes them: docs/rules.md). Values are in the
metric's unit (microseconds for time).`,
		Example: `  taudb-analyze imbalance --trial cpi-4
  taudb-analyze imbalance --trial 3 --inclusive --callpath --format json`,
	})
}

// OnlyMetric is the metric whose values alone Run reads (OneMetric).
func (o *Imbalance) OnlyMetric() string { return o.Metric }

// ReadsNoCalls says that Run reads no call counts (CallsUnread).
func (o *Imbalance) ReadsNoCalls() {}

// Bind declares the options.
func (o *Imbalance) Bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.Bool(&o.Inclusive, "inclusive", false, "use inclusive values (default exclusive)")
	b.Bool(&o.Callpath, "callpath", false, "one row per call-graph node (tree view) instead of per region")
	bindRules(b, &o.Rules)
}

// Validate reads the rules file, so that a bad one is reported before any
// trial is read.
func (o *Imbalance) Validate() error {
	_, err := loadRules(o.Rules)
	return err
}

// Run computes analysis.Imbalance of the trial.
func (o *Imbalance) Run(ctx context.Context, in Input) (Output, error) {
	rules, err := loadRules(o.Rules)
	if err != nil {
		return Output{}, err
	}
	res, err := analysis.Imbalance(in.Trials[0], analysis.ImbalanceOptions{Metric: o.Metric, Inclusive: o.Inclusive, Callpath: o.Callpath, Rules: rules})
	return Output{Result: res}, err
}
