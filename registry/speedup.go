package registry

import (
	"context"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// Speedup compares each trial of a series with the baseline b (the
// smallest p unless Baseline names a trial):
//
//	strong scaling   speedup = T_b/T_p, efficiency = (T_b·p_b)/(T_p·p)
//	weak scaling     efficiency = T_b/T_p, speedup = (p/p_b)·efficiency
//	ideal speedup    p/p_b
//
// for the program and every region (analysis.Speedup). With CompareSet it
// compares two versions instead: improvement = T_A/T_B and change =
// 100·(T_B − T_A)/T_A per p both have (analysis.Improvement).
type Speedup struct {
	SeriesOptions
	// Baseline names the baseline trial; "" the smallest p.
	Baseline string
	// Weak selects weak scaling.
	Weak bool
	// CompareSet names a second version's trials (T1,T2,...); the front
	// end selects them into Input.Compare.
	CompareSet string
}

func init() {
	Register(&Analysis{Name: "speedup", Trials: Series, New: func() Options { return new(Speedup) },
		Use:   "speedup --trials T1,T2,... | --where EXPR [--baseline T] [--weak]",
		Short: "Speedup and efficiency of the program and of every region across process counts",
		Long: `speedup compares each trial of a series with the baseline (the smallest
number of processes p_b unless --baseline names a trial):

  strong scaling   speedup = T_b/T_p, efficiency = (T_b*p_b)/(T_p*p)
  weak (--weak)    efficiency = T_b/T_p, speedup = (p/p_b)*efficiency
  ideal speedup    p/p_b

for the whole program (T = the main region's inclusive time, the max over
threads unless --aggregate mean) and for every region (exclusive and
inclusive). The baseline's speedup is exactly 1. p is the number of distinct
TAU node ranks (MPI processes) unless --p-from says otherwise.

--compare-set T1,T2,... compares two versions instead: for every p both sets
have, improvement = T_A/T_B and change = 100*(T_B−T_A)/T_A of the program
and of every region, A being the selected trials and B the compare set.`,
		Example: `  taudb-analyze speedup --trials mm-1,mm-2,mm-4,mm-8
  taudb-analyze speedup --where 'application == "matmult"' --format json`,
	})
}

// Bind declares the options.
func (o *Speedup) Bind(b *Binder) {
	o.SeriesOptions.bind(b)
	b.String(&o.Baseline, "baseline", "", "the baseline trial (default: the smallest p)")
	b.Bool(&o.Weak, "weak", false, "weak scaling (the work grows with p)")
	b.String(&o.CompareSet, "compare-set", "", "a second version's trials (T1,T2,...): improvement per p instead of speedup")
}

// Validate accepts every combination.
func (o *Speedup) Validate() error { return nil }

// SecondSet returns the trials of CompareSet, which the front end selects
// into Input.Compare.
func (o *Speedup) SecondSet() string { return o.CompareSet }

// Run computes analysis.Speedup of the series, or with a compare set
// analysis.Improvement of the two.
func (o *Speedup) Run(ctx context.Context, in Input) (Output, error) {
	if o.CompareSet == "" {
		s, err := analysis.NewSeries(in.Trials, o.PFrom, "")
		if err != nil {
			return Output{}, err
		}
		res, err := analysis.Speedup(s, analysis.SpeedupOptions{SeriesOptions: o.options(), Baseline: o.Baseline, Weak: o.Weak})
		return Output{Result: res}, err
	}
	if len(in.Compare) == 0 {
		return Output{}, fmt.Errorf("--compare-set: no trials selected")
	}
	sa, err := analysis.NewSeries(in.Trials, o.PFrom, "")
	if err != nil {
		return Output{}, err
	}
	sb, err := analysis.NewSeries(in.Compare, o.PFrom, "")
	if err != nil {
		return Output{}, err
	}
	res, err := analysis.Improvement(sa, sb, o.options())
	return Output{Result: res}, err
}
