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
}

func init() {
	Register(&Analysis{Name: "multiregion", Trials: Series, MinTrials: 1, New: func() Options { return new(MultiRegion) },
		Use:   "multiregion --trials ... | --where EXPR [--regions PATTERN]",
		Short: "Chosen regions' values across the experiments (SCALEA's multi-region analysis)",
		Long: `multiregion lists, for the regions whose names match the regular expression
--regions (default: the top regions), their exclusive and inclusive values
and shares of the program in every experiment of the series, and the number
of processes that ran them.`,
		Example: `  taudb-analyze multiregion --trials mm-1,mm-8 --regions '^MPI_'`,
	})
}

// Bind declares the options.
func (o *MultiRegion) Bind(b *Binder) {
	o.SeriesOptions.bind(b)
	b.String(&o.Regions, "regions", "", "regular expression over region names")
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
	res, err := analysis.MultiRegion(s, o.Regions, analysis.MultiRegionOptions{SeriesOptions: o.options()})
	return Output{Result: res}, err
}
