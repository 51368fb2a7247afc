package registry

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/result"
)

// Regress finds performance regressions and improvements in a history of
// runs (analysis.Regress): the trials ordered by OrderBy, each point the
// median of its repetitions, change points by E-divisive means, whose
// energy statistic is
//
//	Q = m·k/(m+k)·(2/(m·k)·Σ|x−y| − mean |x−x'| − mean |y−y'|)
//
// kept when a permutation test gives p ≤ Significance; each change's
// shift = after/before − 1 with a 95% bootstrap interval. With FailOn a
// command line exits 3 when the newest point is in a regression of at
// least Threshold (Verdict).
type Regress struct {
	// Metric is the metric's name; "" the first time metric.
	Metric string
	// Aggregate is how a trial's threads make one value: max or mean.
	Aggregate analysis.Aggregate
	// ShortNames aligns regions across trials by short name.
	ShortNames bool
	// OrderBy orders the history: meta:KEY, name, id (load order, from
	// Input.IDs) or date.
	OrderBy string
	// FailOn is "regression" to fail (Verdict) on a regression at the
	// newest point, "" never.
	FailOn string
	// Threshold is the smallest regression that fails: "3%" or a fraction
	// such as 0.03; also the JUnit failures'.
	Threshold string
	// Significance, Permutations, MinSize and Seed tune the detection
	// (analysis.EDivisiveOptions).
	Significance float64
	Permutations int
	MinSize      int
	Seed         uint64
	// FullHistory reads every trial again instead of reusing the reduced
	// trials a stored result of the same reduction keeps (RunReusing).
	FullHistory bool
}

func init() {
	Register(&Analysis{Name: "regress", Trials: Series, New: func() Options { return new(Regress) },
		Use:   "regress --trials T1,T2,... | --where EXPR --order-by meta:KEY|name|id|date [--fail-on regression --threshold 3%]",
		Short: "Performance regressions across a history of runs (change points by E-divisive means), for CI",
		Long:  regressHelp,
		Example: `  taudb-analyze regress --where 'application == "lulesh"' --order-by 'meta:Commit Date'
  taudb-analyze --format junit regress --where 'application == "lulesh"' --order-by id --fail-on regression --threshold 3% > report.xml`,
	})
}

// Bind declares the options.
func (o *Regress) Bind(b *Binder) {
	bindMetric(b, &o.Metric)
	b.Enum((*string)(&o.Aggregate), "aggregate", string(analysis.AggregateMax), []string{"max", "mean"}, "value over a trial's threads: max or mean")
	b.Bool(&o.ShortNames, "short-names", false, "align regions across trials by short name (without source location)")
	b.String(&o.OrderBy, "order-by", "id", "the history's order: meta:KEY, name, id or date")
	b.Enum(&o.FailOn, "fail-on", "", []string{"", "regression"}, `"regression": exit 3 when the newest point is in a regression of at least --threshold`)
	b.String(&o.Threshold, "threshold", "3%", "smallest regression that fails (\"3%\" or a fraction such as 0.03); also the JUnit failures'")
	b.Float(&o.Significance, "significance", 0.005, "permutation test level: a change is kept when p ≤ this")
	b.Int(&o.Permutations, "permutations", 399, "most permutations per test (1 to 10000)")
	b.Int(&o.MinSize, "min-size", 3, "fewest points on each side of a change (≥ 2)")
	b.Uint64(&o.Seed, "seed", 1, "seed of the permutations and of the bootstrap")
	b.Bool(&o.FullHistory, "full-history", false, "read every trial again instead of reusing what a stored regress result of a shorter history kept of its trials")
}

// ThresholdFraction reads Threshold: "3%" or "0.03" give 0.03.
func (o *Regress) ThresholdFraction() (float64, error) {
	t := strings.TrimSpace(o.Threshold)
	pct := strings.HasSuffix(t, "%")
	x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	if err == nil && pct {
		x /= 100
	}
	if err != nil || !(x >= 0 && x < 100) || (!pct && x >= 1) {
		return 0, &UsageError{Option: "threshold", Msg: fmt.Sprintf(`--threshold %q: want a percentage ("3%%") or a fraction below 1 ("0.03")`, o.Threshold)}
	}
	return x, nil
}

// Validate checks the threshold and FailOn.
func (o *Regress) Validate() error {
	if _, err := o.ThresholdFraction(); err != nil {
		return err
	}
	if o.FailOn != "" && o.FailOn != "regression" {
		return &UsageError{Option: "fail-on", Msg: fmt.Sprintf(`--fail-on %q: want "regression"`, o.FailOn)}
	}
	return nil
}

// Run orders the trials by OrderBy, reduces each (analysis.ReduceHistory)
// and computes analysis.RegressRuns; with the trials' database ids the
// result keeps the reduced trials in its internal table "_runs", which a
// later run over a longer history reuses (RunReusing).
func (o *Regress) Run(ctx context.Context, in Input) (Output, error) {
	vals, err := o.orderValues(in.Trials, in.IDs)
	if err != nil {
		return Output{}, err
	}
	history, err := analysis.NewHistory(in.Trials, vals)
	if err != nil {
		return Output{}, err
	}
	runs, err := analysis.ReduceHistory(history, o.seriesOptions())
	if err != nil {
		return Output{}, err
	}
	var ids []int64
	if len(in.IDs) == len(in.Trials) {
		ids = in.IDs
	}
	return o.finish(runs, ids)
}

// orderValues returns each trial's order value (OrderBy; "id" takes ids).
func (o *Regress) orderValues(trials []*drg.Trial, ids []int64) ([]string, error) {
	byID := strings.EqualFold(strings.TrimSpace(o.OrderBy), "id")
	if byID && len(ids) != len(trials) {
		return nil, &UsageError{Option: "order-by", Msg: "--order-by id: the trials have no database ids"}
	}
	vals := make([]string, len(trials))
	for i, t := range trials {
		if byID {
			vals[i] = strconv.FormatInt(ids[i], 10)
			continue
		}
		v, err := analysis.OrderValue(t, o.OrderBy)
		if err != nil {
			return nil, &UsageError{Option: "order-by", Msg: fmt.Sprintf("--order-by: %v", err)}
		}
		vals[i] = v
	}
	return vals, nil
}

// seriesOptions are the options of the reduction of each trial.
func (o *Regress) seriesOptions() analysis.SeriesOptions {
	return analysis.SeriesOptions{Metric: o.Metric, Aggregate: o.Aggregate, ShortNames: o.ShortNames}
}

// regressOptions are analysis.Regress's options.
func (o *Regress) regressOptions() analysis.RegressOptions {
	return analysis.RegressOptions{SeriesOptions: o.seriesOptions(),
		Detect: analysis.EDivisiveOptions{Significance: o.Significance, Permutations: o.Permutations, MinSize: o.MinSize, Seed: o.Seed}, OrderBy: o.OrderBy}
}

// Verdict returns a *RegressionFound when FailOn is "regression" and a
// series' newest point of res is in a regression of at least Threshold.
func (o *Regress) Verdict(res *result.Result) error {
	if o.FailOn == "" {
		return nil
	}
	threshold, err := o.ThresholdFraction()
	if err != nil {
		return err
	}
	found, err := analysis.NewestRegressions(res, threshold)
	if err != nil || len(found) == 0 {
		return err
	}
	var parts []string
	for _, r := range found {
		parts = append(parts, fmt.Sprintf("%s %+.1f%% since point %d (%s)", r.Series, 100*r.Shift, r.Point, r.OrderValue))
	}
	more := ""
	if len(parts) > 5 {
		more = fmt.Sprintf(" and %d more", len(parts)-5)
		parts = parts[:5]
	}
	return &RegressionFound{Msg: fmt.Sprintf("%d regression(s) of at least %g%% at the newest point: %s%s",
		len(found), 100*threshold, strings.Join(parts, "; "), more)}
}

// RegressionFound is Regress's verdict when FailOn finds a regression at
// the newest point: a command line exits 3 after printing its output.
type RegressionFound struct{ Msg string }

func (e *RegressionFound) Error() string { return e.Msg }

// ExitCode is the process exit code for this error: 3.
func (e *RegressionFound) ExitCode() int { return 3 }

const regressHelp = `regress finds performance regressions and improvements in a history of
runs: the selected trials ordered by --order-by, trials with the same order
value being repetitions of one point (their spread is the noise). For the
program (main region's inclusive time, max over threads unless --aggregate
mean) and for every region (exclusive time), each point is reduced to the
median of its repetitions, and change points are found by E-divisive means
(Matteson & James 2014, the method of MongoDB's signal-processing-algorithms
and Hunter): the split of a segment maximizing the energy statistic (α = 1)

  Q = m·k/(m+k)·(2/(m·k)·Σ|x−y| − mean within-X |x−x'| − mean within-Y |y−y'|)

is kept when a permutation test (seeded, --permutations at most, stopping
early) gives p ≤ --significance, then each segment is split again. It suits
noisy performance data: no distribution is assumed (run-to-run noise is
skewed, with outliers), whole segments are compared rather than neighbouring
runs, any number of changes is found, and significance comes from the data
rather than a hand-tuned threshold. A change needs --min-size points on each
side (so a regression shows once that many runs have it).

Each change: the point, the medians before and after (the two sides reach the
neighbouring changes), shift = after/before − 1 with a 95% bootstrap interval,
and the verdict (up = regression). A program change is explained by the
regions whose own shifts cover 80% of it (largest first) and by the metadata
whose values differ between the two sides.

--order-by: meta:KEY (a metadata value: numbers compare as numbers, other
text as text, so ISO dates sort by time), name, id (load order) or date (TAU's
"Starting Timestamp").

--fail-on regression --threshold 3%: exit 3 when the newest point is in a
regression of at least 3% (the last change of the program or of a region).
--format junit writes a JUnit XML report (one testcase per series, a failure
per such regression) for CI systems.

Exit codes: 0 no regression (or no --fail-on), 1 the work failed, 2 a wrong
command line, 3 a regression found with --fail-on regression.`
