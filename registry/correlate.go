package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// Correlate is the correlation analysis (one trial): across the threads
// that have both values, the Pearson correlation
//
//	r = cov(x, y) / (σx σy)
//
// between every pair of regions and between each region and each numeric
// per-thread metadata key, with the least-squares line y = slope·x +
// intercept and n; strongest |r| first (analysis.Correlate).
type Correlate struct {
	// Metric is the metric's name; "" the first time metric.
	Metric string
	// Top is the number of pairs listed; 0 lists all.
	Top int
	// MaxRegions is how many regions (largest mean first) are paired; 0
	// pairs all.
	MaxRegions int
	// IncludeIDs keeps metadata that names identifiers or time stamps.
	IncludeIDs bool
	// Inclusive uses inclusive values.
	Inclusive bool
}

func init() {
	Register(&Analysis{Name: "correlate", Trials: Single, New: func() Options { return new(Correlate) },
		Use:   "correlate [--trial T] [--top K] [--max-regions N] [--include-ids] [--inclusive]",
		Short: "Pearson correlation across threads between regions, and with numeric metadata",
		Long: `correlate computes, across the threads that have both values, the Pearson
correlation r between every pair of regions' exclusive values (--inclusive:
inclusive), and between each region and each numeric per-thread metadata
key, with the least-squares line y = slope*x + intercept and n; strongest |r|
first. Pairs with a constant series (r undefined) or fewer than 3 threads
are skipped. Since the pairs grow as the square of the regions, only the
--max-regions regions with the largest mean value are paired (default 100,
0 for all; a finding says when some were left out), and --top pairs are
listed (default 20, 0 for all). Metadata keys that name identifiers or time
stamps (pid, tid, rank, id, "Starting Timestamp", dates...) are left out,
since their correlations reflect the launch order; --include-ids keeps them.`,
		Example: `  taudb-analyze correlate --trial cpi-4 --top 10`,
	})
}

// Bind declares the options.
func (o *Correlate) Bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.Int(&o.Top, "top", 20, "number of pairs (0: all)")
	b.Int(&o.MaxRegions, "max-regions", analysis.DefaultCorrelateRegions, "regions paired, those with the largest mean value (0: all)")
	b.Bool(&o.IncludeIDs, "include-ids", false, "also correlate metadata that names identifiers or time stamps")
	b.Bool(&o.Inclusive, "inclusive", false, "use inclusive values")
}

// Validate accepts every combination.
func (o *Correlate) Validate() error { return nil }

// Run computes analysis.Correlate of the trial.
func (o *Correlate) Run(ctx context.Context, in Input) (Output, error) {
	res, err := analysis.Correlate(in.Trials[0], analysis.CorrelateOptions{Metric: o.Metric, Top: top(o.Top), MaxRegions: top(o.MaxRegions), IncludeIDs: o.IncludeIDs, Inclusive: o.Inclusive})
	return Output{Result: res}, err
}
