package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// MultiSet groups a series into sets by a metadata property or trial field
// and gives each set's series speedup and efficiency against its own
// baseline (SCALEA's multi-set analysis); with one p everywhere it is a
// parameter study, speedup = T at the smallest x / T at x
// (analysis.MultiSet). Table "split" gives each experiment's time per class.
type MultiSet struct {
	SeriesOptions
	// By is the metadata property (meta:KEY) or trial field that defines
	// the sets; required.
	By string
	// Weak selects weak scaling within each set.
	Weak bool
	// Rules is a YAML rules file changing the region classes.
	Rules string
}

func init() {
	Register(&Analysis{Name: "multiset", Trials: Series, New: func() Options { return new(MultiSet) },
		Use:   "multiset --by KEY --trials ... | --where EXPR",
		Short: "Experiments grouped into sets by a metadata property, one series per set",
		Long: `multiset groups the experiments into sets by the trial metadata property KEY
(problem size, network, power cap; several keys comma-separated; "meta:KEY"
says it is metadata) or by a trial field ("experiment", "application",
"trial"), and gives each set's series across p with speedup and efficiency
against the set's own baseline (SCALEA's multi-set analysis). When p is the
same everywhere it is a parameter study across the property (which must be
a number): x is its value, and speedup is T at the smallest x over T at x.
Table "split" gives every experiment's time by class (computation, MPI,
OpenMP, I/O, other; mean over the threads) and each class's share, as
PerfExplorer's power-cap study shows how a cap moves time between them
(--rules FILE changes the classification as for overhead, imbalance and
summary: docs/rules.md).`,
		Example: `  taudb-analyze multiset --by "Problem Size" --where 'application == "lulesh"'
  taudb-analyze multiset --by "meta:Power Cap" --where 'application == "lulesh" && threads == 27'
  taudb-analyze multiset --by experiment --where 'application == "lulesh"'`,
	})
}

// Bind declares the options.
func (o *MultiSet) Bind(b *Binder) {
	o.SeriesOptions.bind(b)
	b.String(&o.By, "by", "", "metadata property (meta:KEY) or trial field (experiment, application, trial) that defines the sets")
	b.Bool(&o.Weak, "weak", false, "weak scaling within each set")
	bindRules(b, &o.Rules)
	b.Required("by")
}

// Validate requires By and reads the rules file.
func (o *MultiSet) Validate() error {
	if o.By == "" {
		return &UsageError{Option: "by", Msg: "multiset needs --by KEY"}
	}
	_, err := loadRules(o.Rules)
	return err
}

// Run computes analysis.MultiSet of the series.
func (o *MultiSet) Run(ctx context.Context, in Input) (Output, error) {
	rules, err := loadRules(o.Rules)
	if err != nil {
		return Output{}, err
	}
	s, err := analysis.NewSeries(in.Trials, o.PFrom, o.By)
	if err != nil {
		return Output{}, err
	}
	so := o.options()
	so.Rules = rules
	res, err := analysis.MultiSet(s, o.By, analysis.MultiSetOptions{SeriesOptions: so, Weak: o.Weak})
	return Output{Result: res}, err
}
