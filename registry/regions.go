package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// Regions is the regions analysis (one trial): the top N regions by
// exclusive or inclusive value for one thread, one process or an
// aggregate over threads, with
//
//	percent       = 100 × value / main region's inclusive value (same scope)
//	value/call    = value / calls   (0 when calls are 0)
//
// and the children of the main node with their shares (analysis.Regions).
type Regions struct {
	// Metric is the metric's name; "" the first time metric.
	Metric string
	// Top is the number of regions; 0 lists all.
	Top int
	// Of is whose values: mean, max, total, a thread N.C.T or a process N.
	Of string
	// Inclusive ranks by inclusive value.
	Inclusive bool
	// Children names the call-graph node whose children are listed.
	Children string
}

func init() {
	Register(&Analysis{Name: "regions", Trials: Single, Sparse: true, New: func() Options { return new(Regions) },
		Use:   "regions [--trial T] [--top N] [--of mean|max|total|N.C.T|N] [--inclusive] [--children NODE]",
		Short: "Top regions by exclusive or inclusive value (SCALEA's inclusive/exclusive analysis)",
		Long: `regions lists the top N regions (--top 0: all) by exclusive value (--inclusive:
inclusive) for one thread (--of N.C.T), one process (--of N: sum over its
threads) or an aggregate over threads (--of mean, absent regions as 0; max;
total), with percentages of the main region's inclusive value of the same
scope, calls and values per call (0 when calls are 0). For a trial whose
callpaths form a complete tree it also lists the children of the main node
(or of --children NODE) with their shares of it, the node's own exclusive
share included, summing to 100% (SCALEA's "sub-regions of MAIN").`,
		Example: `  taudb-analyze regions --trial cpi-4 --top 5
  taudb-analyze regions --trial 3 --of 0.0.0 --inclusive`,
	})
}

// OnlyMetric is the metric whose values alone Run reads (OneMetric).
func (o *Regions) OnlyMetric() string { return o.Metric }

// Bind declares the options.
func (o *Regions) Bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.Int(&o.Top, "top", 10, "number of regions (0: all)")
	b.String(&o.Of, "of", "mean", "whose values: mean, max, total, a thread N.C.T or a process N")
	b.Bool(&o.Inclusive, "inclusive", false, "rank by inclusive value")
	b.String(&o.Children, "children", "", "list the children of this call-graph node")
}

// Validate accepts every combination; analysis.Regions checks --of.
func (o *Regions) Validate() error { return nil }

// Run computes analysis.Regions of the trial.
func (o *Regions) Run(ctx context.Context, in Input) (Output, error) {
	res, err := analysis.Regions(in.Trials[0], analysis.RegionsOptions{Metric: o.Metric, Top: top(o.Top), Of: o.Of, Inclusive: o.Inclusive, Children: o.Children})
	return Output{Result: res}, err
}
