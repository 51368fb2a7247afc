package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// MultiRegion lists chosen regions' exclusive and inclusive values and
// shares of the program (share = 100 × value / program) in every
// experiment of a series (SCALEA's multi-region analysis,
// analysis.MultiRegion).
type MultiRegion struct {
	SeriesOptions
	// Regions is a regular expression over region names; "" the top
	// regions.
	Regions string
	// By places the experiments along a trial property instead of p
	// (analysis.MultiRegionOptions.By).
	By string
}

func init() {
	Register(&Analysis{Name: "multiregion", Trials: Series, MinTrials: 1, New: func() Options { return new(MultiRegion) },
		Use:   "multiregion --trials ... | --where EXPR [--regions PATTERN]",
		Short: "Chosen regions' values across the experiments (SCALEA's multi-region analysis)",
		Long: `multiregion lists, for the regions whose names match the regular expression
--regions (default: the top regions), their exclusive and inclusive values
and shares of the program in every experiment of the series, and the number
of processes that ran them. --by KEY places the experiments along a trial
property instead of p, for a parameter study (a power cap, a problem size,
a network): a metadata key (meta:KEY) or a trial field (experiment,
application, trial); x is the property's value when every experiment's is a
positive number, else the rank of its text.`,
		Example: `  taudb-analyze multiregion --trials mm-1,mm-8 --regions '^MPI_'
  taudb-analyze multiregion --where 'application == "lulesh"' --by "meta:Power Cap"`,
	})
}

// Bind declares the options.
func (o *MultiRegion) Bind(b *Binder) {
	o.SeriesOptions.bind(b)
	b.String(&o.Regions, "regions", "", "regular expression over region names")
	b.String(&o.By, "by", "", "place the experiments along a metadata property (meta:KEY) or trial field (experiment, application, trial) instead of p")
}

// Validate accepts every combination; analysis.MultiRegion checks the
// expression.
func (o *MultiRegion) Validate() error { return nil }

// Run computes analysis.MultiRegion of the series.
func (o *MultiRegion) Run(ctx context.Context, in Input) (Output, error) {
	s, err := analysis.NewSeries(in.Trials, o.PFrom, "")
	if err != nil {
		return Output{}, err
	}
	res, err := analysis.MultiRegion(s, o.Regions, analysis.MultiRegionOptions{SeriesOptions: o.options(), By: o.By})
	return Output{Result: res}, err
}
