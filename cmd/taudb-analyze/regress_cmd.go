package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// regressionFound is regress's error when --fail-on regression finds a
// regression at the newest point at least as large as the threshold: the
// command exits with code 3 after printing its output.
type regressionFound struct{ msg string }

func (e regressionFound) Error() string { return e.msg }

// ExitCode is the process exit code for this error: 3.
func (e regressionFound) ExitCode() int { return 3 }

// seriesFlags are the flags regress shares with the analyses of a series.
type seriesFlags struct {
	sel       selection
	metric    string
	aggregate string
	short     bool
	noSave    bool
	table     string
}

func (f *seriesFlags) options() analysis.SeriesOptions {
	return analysis.SeriesOptions{Metric: f.metric, Aggregate: f.aggregate, ShortNames: f.short}
}

// regressFlags are regress's flags.
type regressFlags struct {
	series    seriesFlags
	orderBy   string
	failOn    string
	threshold string
	opt       analysis.RegressOptions
}

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
command line, 3 a regression found with --fail-on regression.

`

func (a *app) regressCmd() *cobra.Command {
	var f regressFlags
	cmd := &cobra.Command{
		Use:   "regress --trials T1,T2,... | --where EXPR --order-by meta:KEY|name|id|date [--fail-on regression --threshold 3%]",
		Short: "Performance regressions across a history of runs (change points by E-divisive means), for CI",
		Long:  regressHelp + whereHelp,
		Example: `  taudb-analyze regress --where 'application == "lulesh"' --order-by 'meta:Commit Date'
  taudb-analyze --format junit regress --where 'application == "lulesh"' --order-by id --fail-on regression --threshold 3% > report.xml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return a.runRegress(cmd, &f) },
	}
	f.series.sel.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.series.metric, "metric", "", "metric name (default: the first time metric)")
	fl.StringVar(&f.series.aggregate, "aggregate", "max", "value over a trial's threads: max or mean")
	fl.BoolVar(&f.series.short, "short-names", false, "align regions across trials by short name (without source location)")
	fl.BoolVar(&f.series.noSave, "no-save", false, "do not store the result in the database")
	fl.StringVar(&f.series.table, "table", "", "with --format csv: the result table to print (default: the first)")
	fl.StringVar(&f.orderBy, "order-by", "id", "the history's order: meta:KEY, name, id or date")
	fl.StringVar(&f.failOn, "fail-on", "", `"regression": exit 3 when the newest point is in a regression of at least --threshold`)
	fl.StringVar(&f.threshold, "threshold", "3%", "smallest regression that fails (\"3%\" or a fraction such as 0.03); also the JUnit failures'")
	fl.Float64Var(&f.opt.Detect.Significance, "significance", 0.005, "permutation test level: a change is kept when p ≤ this")
	fl.IntVar(&f.opt.Detect.Permutations, "permutations", 399, "most permutations per test (1 to 10000)")
	fl.IntVar(&f.opt.Detect.MinSize, "min-size", 3, "fewest points on each side of a change (≥ 2)")
	fl.Uint64Var(&f.opt.Detect.Seed, "seed", 1, "seed of the permutations and of the bootstrap")
	return cmd
}

// parseThreshold reads "3%" or "0.03" as 0.03.
func parseThreshold(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	if err == nil && pct {
		x /= 100
	}
	if err != nil || !(x >= 0 && x < 100) || (!pct && x >= 1) {
		return 0, usagef(`--threshold %q: want a percentage ("3%%") or a fraction below 1 ("0.03")`, s)
	}
	return x, nil
}

// runRegress selects, loads and orders the trials, runs the analysis,
// stores and prints it, and decides the exit code.
func (a *app) runRegress(cmd *cobra.Command, f *regressFlags) error {
	threshold, err := parseThreshold(f.threshold)
	if err != nil {
		return err
	}
	if f.failOn != "" && f.failOn != "regression" {
		return usagef(`--fail-on %q: want "regression"`, f.failOn)
	}
	a.junitThreshold = threshold
	ctx := cmd.Context()
	db, err := a.openFor(ctx, !f.series.noSave)
	if err != nil {
		return err
	}
	defer db.Close()
	ids, err := a.selectTrials(ctx, db, f.series.sel, 2)
	if err != nil {
		return err
	}
	start := time.Now()
	trials, err := a.loadHistory(ctx, db, ids)
	if err != nil {
		return err
	}
	a.detail("read %d trials in %v", len(trials), since(start))
	start = time.Now()
	res, err := regressTrials(trials, ids, f)
	if err != nil {
		return flagError(err)
	}
	a.detail("regress computed in %v over %d trials", since(start), len(trials))
	if _, _, err := a.storeAndPrint(ctx, db, res, ids, f.series.noSave, f.series.table, storeWith{}); err != nil {
		return err
	}
	return failOn(res, f.failOn, threshold)
}

// loadWorkers is how many trials regress reads at once: reading a trial
// mostly waits on the database, which is safe for concurrent use.
const loadWorkers = 4

// loadHistory reads the trials of ids, loadWorkers at a time; on the first
// error it stops the others and returns that error.
func (a *app) loadHistory(ctx context.Context, db *store.DB, ids []int64) ([]*drg.Trial, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	trials := make([]*drg.Trial, len(ids))
	next, finished := make(chan int), make(chan error, len(ids)) // buffered: a worker never waits to report
	for range min(loadWorkers, len(ids)) {
		go func() {
			for i := range next {
				var err error
				if trials[i], err = db.LoadTrial(ctx, ids[i]); err != nil {
					err = fmt.Errorf("reading trial %d: %w", ids[i], err)
				}
				finished <- err
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range ids {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	bar := a.progress(len(ids), "reading trials")
	defer bar.done()
	for range ids {
		if err := <-finished; err != nil {
			return nil, err // the deferred cancel stops the other workers
		}
		bar.step("")
	}
	return trials, nil
}

// regressTrials names the trials apart, orders them and runs Regress.
func regressTrials(trials []*drg.Trial, ids []int64, f *regressFlags) (*analysis.Result, error) {
	seen := map[string]int{}
	for _, t := range trials {
		seen[t.Name]++
	}
	vals := make([]string, len(trials))
	for i, t := range trials {
		if seen[t.Name] > 1 {
			t.Name = fmt.Sprintf("%s (trial %d)", t.Name, ids[i])
		}
		if strings.EqualFold(strings.TrimSpace(f.orderBy), "id") {
			vals[i] = strconv.FormatInt(ids[i], 10)
			continue
		}
		v, err := analysis.OrderValue(t, f.orderBy)
		if err != nil {
			return nil, usagef("--order-by: %v", err)
		}
		vals[i] = v
	}
	series, err := analysis.NewHistory(trials, vals)
	if err != nil {
		return nil, err
	}
	opt := f.opt
	opt.SeriesOptions = f.series.options()
	opt.OrderBy = f.orderBy
	return analysis.Regress(series, opt)
}

// failOn returns regressionFound when --fail-on regression is given and a
// series' newest point is in a regression of at least threshold.
func failOn(res *analysis.Result, mode string, threshold float64) error {
	if mode == "" {
		return nil
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
	return regressionFound{fmt.Sprintf("%d regression(s) of at least %g%% at the newest point: %s%s",
		len(found), 100*threshold, strings.Join(parts, "; "), more)}
}
