package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// Scalability studies every region across a series (analysis.Scalability):
// efficiency, the Karp-Flatt serial fraction
//
//	e = (1/S − 1/p')/(1 − 1/p'),   p' = p/p_b
//
// an Amdahl fit T(p) = T_1(f + (1−f)/p), and a model c0 + c1·p^i·log2(p)^j
// chosen by AICc, evaluated at Predict.
type Scalability struct {
	SeriesOptions
	// Baseline names the baseline trial; "" the smallest p.
	Baseline string
	// Weak selects weak scaling.
	Weak bool
	// Inclusive models inclusive values (default exclusive).
	Inclusive bool
	// Threshold is the efficiency below which a region stopped scaling.
	Threshold float64
	// Predict is the p the models are evaluated at; 0 twice the largest p.
	Predict float64
}

func init() {
	Register(&Analysis{Name: "scalability", Trials: Series, New: func() Options { return new(Scalability) },
		Use:   "scalability --trials ... | --where EXPR [--predict P]",
		Short: "Per-region efficiency, Karp-Flatt, Amdahl fit and a fitted scaling model",
		Long: `scalability studies every region across the series: efficiency, the
Karp-Flatt serial fraction e = (1/S − 1/p')/(1 − 1/p') with p' = p/p_b, an
Amdahl fit T(p) = T_1(f + (1−f)/p), and a performance model in the spirit of
Extra-P, c0 + c1*p^i*log2(p)^j (two terms from 5 points on), with i in
{-1, -1/2, 0, 1/4, ..., 3} and j in {0, 1, 2}, chosen by AICc, with its fit
error and a prediction at --predict P (default twice the largest p). It ranks
the regions that stop scaling first (efficiency below --threshold) and those
whose share of the time grows fastest.`,
		Example: `  taudb-analyze scalability --trials mm-1,mm-2,mm-4,mm-8 --predict 64`,
	})
}

// Bind declares the options.
func (o *Scalability) Bind(b *Binder) {
	o.SeriesOptions.bind(b)
	b.String(&o.Baseline, "baseline", "", "the baseline trial (default: the smallest p)")
	b.Bool(&o.Weak, "weak", false, "weak scaling")
	b.Bool(&o.Inclusive, "inclusive", false, "model inclusive values (default exclusive)")
	b.Float(&o.Threshold, "threshold", 0.5, "efficiency below which a region has stopped scaling")
	b.Float(&o.Predict, "predict", 0, "predict the time at this p (default: twice the largest p)")
}

// Validate accepts every combination.
func (o *Scalability) Validate() error { return nil }

// Run computes analysis.Scalability of the series.
func (o *Scalability) Run(ctx context.Context, in Input) (Output, error) {
	s, err := analysis.NewSeries(in.Trials, o.PFrom, "")
	if err != nil {
		return Output{}, err
	}
	res, err := analysis.Scalability(s, analysis.ScalabilityOptions{SeriesOptions: o.options(), Baseline: o.Baseline, Weak: o.Weak,
		Inclusive: o.Inclusive, Threshold: o.Threshold, Predict: o.Predict})
	return Output{Result: res}, err
}
