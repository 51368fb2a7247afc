package registry

import (
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"strconv"
)

// bindMetric declares the metric option every analysis has.
func bindMetric(b *Binder, p *string) {
	b.String(p, "metric", "", "metric name (default: the first time metric)")
}

// bindRules declares the rules option of every analysis that classifies
// regions: one rules file changes them all alike (docs/rules.md).
func bindRules(b *Binder, p *string) {
	b.String(p, "rules", "", "a YAML rules file that adds, overrides or removes region classification rules (docs/rules.md)")
}

// loadRules returns the rules a rules file makes of the defaults, or nil
// (the defaults) for path "". A bad file's error names it and the line.
func loadRules(path string) ([]classify.Rule, error) {
	if path == "" {
		return nil, nil
	}
	return classify.LoadRules(path)
}

// top maps a count option's 0 ("all") to analysis.All.
func top(n int) int {
	if n == 0 {
		return analysis.All
	}
	return n
}

// SeriesOptions are the options every analysis of a series shares: the
// metric, how a trial's threads make one value, how p is counted, and how
// regions are aligned across trials.
type SeriesOptions struct {
	// Metric is the metric's name; "" the first time metric.
	Metric string
	// Aggregate is how a trial's threads make one value: max (the slowest
	// thread sets the run time) or mean.
	Aggregate analysis.Aggregate
	// PFrom is how the number of processes p of a trial is counted (see
	// analysis.ProcessCount): "" distinct TAU node ranks, threads, nodes,
	// hosts or meta:KEY.
	PFrom string
	// ShortNames aligns regions across trials by short name.
	ShortNames bool
}

func (o *SeriesOptions) bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.Enum((*string)(&o.Aggregate), "aggregate", string(analysis.AggregateMax), []string{"max", "mean"}, "value over a trial's threads: max (the slowest thread sets the run time) or mean")
	b.String(&o.PFrom, "p-from", "", `the number of processes p of a trial: "" (distinct TAU node ranks = MPI ranks), threads, nodes, hosts, or meta:KEY`)
	b.Bool(&o.ShortNames, "short-names", false, "align regions across trials by short name (without source location)")
}

func (o *SeriesOptions) options() analysis.SeriesOptions {
	return analysis.SeriesOptions{Metric: o.Metric, Aggregate: o.Aggregate, ShortNames: o.ShortNames}
}

// quote returns s in double quotes, as %q does.
func quote(s string) string { return strconv.Quote(s) }
