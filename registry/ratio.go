package registry

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/metrics"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// Ratio evaluates a derived metric, an expression over the trial's metric
// names such as PAPI_TOT_INS / PAPI_TOT_CYC (IPC), on every call-graph node
// and thread (analysis.Ratio); a division by zero gives an undefined value.
// With SaveMetric the derived metric is stored with the result.
type Ratio struct {
	// Name is the derived metric's name.
	Name string
	// Expr is the expression over metric names.
	Expr string
	// Metric is accepted as every analysis accepts it, and unused: the
	// expression names its metrics.
	Metric string
	// SaveMetric stores the derived metric in the database (derived =
	// true), in the result's transaction.
	SaveMetric bool
}

func init() {
	Register(&Analysis{Name: "ratio", Trials: Single, New: func() Options { return new(Ratio) },
		Use:   "ratio [--trial T] --name NAME --expr EXPR [--save-metric]",
		Short: "Derived metric from an expression over metric names (metric ratio analysis)",
		Long: `ratio evaluates a derived metric, an expression over the trial's metric
names, on every call-graph node and thread, inclusive and exclusive, and lists
per region its mean, min and max over threads, and per thread the value of
the main region. Examples: PAPI_FP_OPS / TIME (FLOP per µs = MFLOP/s),
PAPI_TOT_INS / PAPI_TOT_CYC (IPC), PAPI_L2_TCM / PAPI_L2_TCA.

The language: numbers, metric names, CALLS and SUBROUTINES (pseudo-metrics),
+ - * / ^, comparisons, && || !, c ? a : b, and the functions min, max, abs,
sqrt, log, log2, log10, exp, floor, ceil. A metric whose name is not an
identifier is written metric("PAPI_NATIVE:cycles") or in backquotes.
Any division by zero (and log of 0, sqrt of a negative number, overflow)
gives an undefined value: shown as NaN or null, stored as NULL, left out of
the means; guard it with "b == 0 ? 0 : a / b" to get 0 instead.

--save-metric stores the derived metric in the database as a TAUdb metric
(derived = true) with values for every thread and the derived threads, so
that TAU's tools and the compatibility views see it like a measured one.
--list prints the built-in ratios the trial's metrics allow.`,
		Example: `  taudb-analyze ratio --trial xgc --name IPC --expr "PAPI_TOT_INS / PAPI_TOT_CYC"
  taudb-analyze ratio --trial xgc --name FP_PER_CYCLE --expr 'PAPI_FP_INS / metric("PAPI_TOT_CYC")' --save-metric
  taudb-analyze ratio --trial xgc --list`,
	})
}

// Bind declares the options.
func (o *Ratio) Bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.String(&o.Name, "name", "", "name of the derived metric")
	b.String(&o.Expr, "expr", "", "expression over metric names")
	b.Bool(&o.SaveMetric, "save-metric", false, "store the derived metric in the database (metric.derived = true)")
	b.Required("name", "expr")
}

// Validate requires the name and the expression.
func (o *Ratio) Validate() error {
	if o.Name == "" || o.Expr == "" {
		return usagef("ratio needs --name NAME and --expr EXPR (or --list)")
	}
	return nil
}

// SavesMetric says the analysis writes a metric even when its result is
// not stored.
func (o *Ratio) SavesMetric() bool { return o.SaveMetric }

// Run computes analysis.Ratio of the trial and, with SaveMetric, adds the
// derived metric to the trial for the store.
func (o *Ratio) Run(ctx context.Context, in Input) (Output, error) {
	t := in.Trials[0]
	res, err := analysis.Ratio(t, analysis.RatioOptions{Name: o.Name, Expr: o.Expr})
	if err != nil || !o.SaveMetric {
		return Output{Result: res}, err
	}
	e, err := metrics.Compile(o.Expr, metrics.Names(t))
	if err != nil {
		return Output{}, err
	}
	m, err := metrics.AddDerived(t, o.Name, e)
	if err != nil {
		return Output{}, err
	}
	return Output{Result: res, Metric: &store.NewMetric{Trial: t, Index: m}}, nil
}
