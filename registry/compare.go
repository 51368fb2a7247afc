package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// Compare compares two trials A and B region by region (aligned by name):
//
//	diff  = B − A          (means over threads, absent as 0)
//	ratio = B / A
//
// and whether B is faster, slower or the same as A within Tolerance
// percent (analysis.Compare).
type Compare struct {
	// Metric is the metric's name; "" the first time metric.
	Metric string
	// Inclusive uses inclusive values.
	Inclusive bool
	// Tolerance is the percent within which B counts as the same as A; 0
	// asks for exact equality.
	Tolerance float64
}

func init() {
	Register(&Analysis{Name: "compare", Trials: Pair, Sparse: true, New: func() Options { return new(Compare) },
		Use:   "compare --trial A --trial B [--inclusive] [--tolerance PCT]",
		Short: "Compare two trials region by region",
		Long: `compare lists, per region (aligned by name), its value in A and in B (mean
over threads, absent as 0), diff = B − A, ratio = B/A and whether B is
faster, slower or the same as A (within --tolerance percent; for metrics
other than time: lower/higher). Regions found in one trial only are listed
as "only in A" or "only in B".`,
		Example: `  taudb-analyze compare --trial run-v1 --trial run-v2`,
	})
}

// Bind declares the options.
func (o *Compare) Bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.Bool(&o.Inclusive, "inclusive", false, "use inclusive values")
	b.Float(&o.Tolerance, "tolerance", 5, "percent within which B counts as the same as A")
}

// Validate accepts every combination.
func (o *Compare) Validate() error { return nil }

// Run computes analysis.Compare of A = in.Trials[0] and B = in.Trials[1].
func (o *Compare) Run(ctx context.Context, in Input) (Output, error) {
	opt := analysis.CompareOptions{Metric: o.Metric, Inclusive: o.Inclusive, Tolerance: o.Tolerance / 100}
	if o.Tolerance == 0 {
		opt.Tolerance = -1 // exact
	}
	res, err := analysis.Compare(in.Trials[0], in.Trials[1], opt)
	return Output{Result: res}, err
}
