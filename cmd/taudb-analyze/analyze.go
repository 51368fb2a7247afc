package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/metrics"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// analysisFlags are the flags every analysis command shares.
type analysisFlags struct {
	trial  string
	metric string
	noSave bool
	table  string
	// query is --query, on single-trial analyses only (register).
	query queryFlag
}

func (f *analysisFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.trial, "trial", "", "trial id or name; id:N or name:X when a name is also an id (default: the only trial in the database)")
	cmd.Flags().StringVar(&f.metric, "metric", "", "metric name (default: the first time metric)")
	cmd.Flags().BoolVar(&f.noSave, "no-save", false, "do not store the result in the database")
	cmd.Flags().StringVar(&f.table, "table", "", "with --format csv: the result table to print (default: the first)")
	f.query.register(cmd)
}

// loadedTrial is a trial read from the database with its id.
type loadedTrial struct {
	id    int64
	trial *drg.Trial
}

// loadTrial finds and loads the trial ref names; with ref "" the database
// must hold exactly one trial, which is used.
func (a *app) loadTrial(ctx context.Context, db *store.DB, ref string) (loadedTrial, error) {
	if ref == "" {
		infos, err := db.Trials(ctx)
		if err != nil {
			return loadedTrial{}, err
		}
		switch len(infos) {
		case 0:
			return loadedTrial{}, fmt.Errorf("the database %s holds no trial; load one with \"taudb-analyze load\"", db.URL())
		case 1:
			ref = fmt.Sprint(infos[0].ID)
		default:
			return loadedTrial{}, usagef("the database holds %d trials: choose one with --trial (see \"taudb-analyze trials\")", len(infos))
		}
	}
	id, err := db.FindTrial(ctx, ref)
	if err != nil {
		return loadedTrial{}, err
	}
	start := time.Now()
	t, err := db.LoadTrial(ctx, id)
	if err != nil {
		return loadedTrial{}, err
	}
	a.detail("read trial %d %q from the database in %v: %d threads, %d call-graph nodes, %d metrics", id, t.Name, since(start), len(t.Threads), len(t.Nodes), len(t.Metrics))
	return loadedTrial{id: id, trial: t}, nil
}

// runAnalysis opens the database, loads the trials refs name, runs fn,
// stores the result unless --no-save and prints it.
func (a *app) runAnalysis(cmd *cobra.Command, f *analysisFlags, refs []string, fn func(ts []*drg.Trial) (*analysis.Result, error)) error {
	ctx := cmd.Context()
	if err := f.query.parse(); err != nil {
		return err
	}
	db, err := a.openFor(ctx, !f.noSave)
	if err != nil {
		return err
	}
	defer db.Close()
	var ids []int64
	var trials []*drg.Trial
	var q queried
	for _, ref := range refs {
		lt, err := a.loadTrial(ctx, db, ref)
		if err != nil {
			return err
		}
		if q, err = f.query.restrictTrial(lt.trial); err != nil {
			return err
		}
		ids = append(ids, lt.id)
		trials = append(trials, q.trial)
	}
	start := time.Now()
	res, err := fn(trials)
	if err != nil {
		return flagError(err)
	}
	f.query.annotate(res, q)
	a.detail("%s computed in %v", res.Analysis, since(start))
	return a.storeAndPrint(ctx, db, res, ids, f.noSave, f.table, storeWith{})
}

// storeWith is what a command stores together with its result, in the
// result's one transaction (store.DB.SaveResultWith).
type storeWith struct {
	// images draws the result's pictures; called only when the result is
	// stored anew (not with --no-save, not when a stored one is reused).
	images func(res *analysis.Result) ([]store.ResultImage, error)
	// metric is a derived metric of the first trial to store: with the
	// result, or alone when the result is not stored.
	metric *store.NewMetric
}

// storeAndPrint stores a result computed from the trials ids (unless
// noSave) together with what with gives, says under which id, and prints
// the result in the chosen --format.
func (a *app) storeAndPrint(ctx context.Context, db *store.DB, res *analysis.Result, ids []int64, noSave bool, table string, with storeWith) error {
	var id int64
	reused := false
	if !noSave && a.reuse {
		var err error
		if id, reused, err = db.FindResult(ctx, res, ids); err != nil {
			return err
		}
		if reused {
			a.info("already stored as result %d (same trials and parameters), reused", id)
		}
	}
	var err error
	if noSave || reused {
		err = a.saveMetricAlone(ctx, db, ids, with.metric)
	} else {
		id, err = a.saveResult(ctx, db, res, ids, with)
	}
	if err != nil {
		return err
	}
	if a.onResult != nil {
		a.onResult(id, res, reused)
	}
	return a.printResult(res, table)
}

// saveResult draws the pictures of with and stores them, its metric and
// the result in one transaction; it returns the result's id.
func (a *app) saveResult(ctx context.Context, db *store.DB, res *analysis.Result, ids []int64, with storeWith) (int64, error) {
	x := store.ResultExtras{Metric: with.metric}
	if with.images != nil {
		start := time.Now()
		var err error
		if x.Images, err = with.images(res); err != nil {
			return 0, fmt.Errorf("draw the pictures of the %s result: %w", res.Analysis, err)
		}
		a.detail("%d pictures drawn in %v", len(x.Images), since(start))
	}
	start := time.Now()
	saved, err := db.SaveResultWith(ctx, res, ids, x)
	if err != nil {
		return 0, err
	}
	a.detail("result stored in %v", since(start))
	if with.metric != nil {
		a.info("stored derived metric %q as metric %d of trial %d", with.metric.Trial.Metrics[with.metric.Index].Name, saved.Metric, ids[0])
	}
	a.info("stored as result %d (taudb-analyze results %d prints it again)", saved.ID, saved.ID)
	return saved.ID, nil
}

// saveMetricAlone stores the derived metric m (when not nil) of trial
// ids[0] when its result is not stored.
func (a *app) saveMetricAlone(ctx context.Context, db *store.DB, ids []int64, m *store.NewMetric) error {
	if m == nil {
		return nil
	}
	mid, err := db.SaveMetric(ctx, ids[0], m.Trial, m.Index)
	if err != nil {
		return err
	}
	a.info("stored derived metric %q as metric %d of trial %d", m.Trial.Metrics[m.Index].Name, mid, ids[0])
	return nil
}

// printResult prints a result in the chosen --format: the findings and
// every table as aligned text, one JSON document, or one table as CSV.
func (a *app) printResult(res *analysis.Result, tableName string) error {
	switch a.format {
	case "json":
		return res.WriteJSON(a.out)
	case "csv":
		if len(res.Tables) == 0 {
			return fmt.Errorf("the %s result has no table of numbers to print as CSV", res.Analysis)
		}
		t := &res.Tables[0]
		if tableName != "" {
			if t = res.Table(tableName); t == nil {
				var names []string
				for _, x := range res.Tables {
					names = append(names, x.Name)
				}
				return usagef("--table %q: the result has tables %s", tableName, strings.Join(names, ", "))
			}
		}
		tb := resultTable(t, true)
		return tb.writeCSV(a.out)
	case "junit":
		return writeJUnit(a.out, res, a.junitThreshold)
	}
	return writeResultText(a.out, res, a.rows)
}

// resultTable turns an analysis table into an output table: numbers in full
// precision (the shortest form that reads back exactly, as CSV), or (for a
// terminal) with 6 significant digits and "-" for an undefined number.
func resultTable(t *analysis.Table, precise bool) table {
	var tb table
	for _, c := range t.Columns {
		h := c.Name
		if c.Unit != "" {
			h += " [" + c.Unit + "]"
		}
		tb.header = append(tb.header, h)
	}
	for i := 0; i < t.NumRows(); i++ {
		row := make([]string, len(t.Columns))
		for j := range t.Columns {
			c := &t.Columns[j]
			switch {
			case precise || c.Kind == analysis.Text:
				row[j] = c.Format(i)
			case math.IsNaN(c.Num[i]) || math.IsInf(c.Num[i], 0):
				row[j] = "-" // undefined: 0/0, or a region one trial lacks
			default:
				row[j] = strconv.FormatFloat(c.Num[i], 'g', 6, 64)
			}
		}
		tb.add(row...)
	}
	return tb
}

func (a *app) imbalanceCmd() *cobra.Command {
	var f analysisFlags
	var opt analysis.ImbalanceOptions
	var rules rulesFlag
	cmd := &cobra.Command{
		Use:   "imbalance [--trial T] [--metric M] [--inclusive] [--callpath] [--rules FILE]",
		Short: "Load imbalance per region: balance, severity, time balancing could save",
		Long: `imbalance lists, per region (flat view; --callpath: per call-graph node), the
distribution of its exclusive value (--inclusive: inclusive) over the threads
that executed it (n of them):

  mean, min, max, stddev   over those n threads (population stddev)
  balance = mean/max       PerfExplorer's LOAD_BALANCE, 1 = balanced
  imbalance = max/mean     Hatchet's imbalance
  severity = (1 − mean/max)/(1 − 1/n)   APART's severity, 0..1 (0 for n = 1)
  max − mean               time balancing the region could save
  cv = stddev/mean         coefficient of variation
  min_thread, max_thread   the threads (N.C.T) at the extremes

sorted by max − mean, and per thread the split of the main region's time
into computation, MPI, OpenMP, I/O and other (as PerfExplorer's
load-imbalance operation; regions are classified by the rules overhead and
summary use, --rules FILE changes them: docs/rules.md). Values are in the
metric's unit (microseconds for time).`,
		Example: `  taudb-analyze imbalance --trial cpi-4
  taudb-analyze imbalance --trial 3 --inclusive --callpath --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Metric = f.metric
			var err error
			if opt.Rules, err = rules.load(); err != nil {
				return err
			}
			return a.runAnalysis(cmd, &f, []string{f.trial}, func(ts []*drg.Trial) (*analysis.Result, error) {
				return analysis.Imbalance(ts[0], opt)
			})
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&opt.Inclusive, "inclusive", false, "use inclusive values (default exclusive)")
	cmd.Flags().BoolVar(&opt.Callpath, "callpath", false, "one row per call-graph node (tree view) instead of per region")
	rules.register(cmd)
	return cmd
}

func (a *app) regionsCmd() *cobra.Command {
	var f analysisFlags
	var opt analysis.RegionsOptions
	cmd := &cobra.Command{
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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Metric = f.metric
			if opt.Top == 0 {
				opt.Top = analysis.All
			}
			return a.runAnalysis(cmd, &f, []string{f.trial}, func(ts []*drg.Trial) (*analysis.Result, error) {
				return analysis.Regions(ts[0], opt)
			})
		},
	}
	f.register(cmd)
	cmd.Flags().IntVar(&opt.Top, "top", 10, "number of regions (0: all)")
	cmd.Flags().StringVar(&opt.Of, "of", "mean", "whose values: mean, max, total, a thread N.C.T or a process N")
	cmd.Flags().BoolVar(&opt.Inclusive, "inclusive", false, "rank by inclusive value")
	cmd.Flags().StringVar(&opt.Children, "children", "", "list the children of this call-graph node")
	return cmd
}

func (a *app) summaryCmd() *cobra.Command {
	var f analysisFlags
	var opt analysis.SummaryOptions
	var rules rulesFlag
	cmd := &cobra.Command{
		Use:   "summary [--trial T] [--by node|process|thread] [--node NAME] [--rules FILE]",
		Short: "Execution summary: time per node, process or thread broken into MPI, OpenMP, I/O, computation",
		Long: `summary breaks the time of each computational node (--by node: machine, from
the threads' host metadata), process (TAU node rank) or thread into groups:
computation, MPI, OpenMP, I/O and other (exclusive values of the flat view
summed per group), and gives min, mean and max across the members of the
level (SCALEA's execution summary). --node NAME drills into one machine.
Regions are classified by the rules overhead and imbalance use (MPI-IO is
I/O); --rules FILE changes them (docs/rules.md).`,
		Example: `  taudb-analyze summary --trial cpi-4 --by process`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Metric = f.metric
			var err error
			if opt.Rules, err = rules.load(); err != nil {
				return err
			}
			return a.runAnalysis(cmd, &f, []string{f.trial}, func(ts []*drg.Trial) (*analysis.Result, error) {
				return analysis.Summary(ts[0], opt)
			})
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&opt.By, "by", "node", "level: node (machine), process or thread")
	cmd.Flags().StringVar(&opt.Node, "node", "", "restrict to one computational node (machine)")
	rules.register(cmd)
	return cmd
}

func (a *app) correlateCmd() *cobra.Command {
	var f analysisFlags
	var opt analysis.CorrelateOptions
	cmd := &cobra.Command{
		Use:   "correlate [--trial T] [--top K] [--max-regions N] [--include-ids] [--inclusive]",
		Short: "Pearson correlation across threads between regions, and with numeric metadata",
		Long: `correlate computes, across the threads that have both values, the Pearson
correlation r between every pair of regions' exclusive values (--inclusive:
inclusive), and between each region and each numeric per-thread metadata
key, with the least-squares line y = slope*x + intercept and n; strongest |r|
first. Pairs with a constant series (r undefined) or fewer than 3 threads
are skipped. Since the pairs grow as the square of the regions, only the
--max-regions regions with the largest mean value are paired (default 100,
0 for all; a finding says when some were left out), and --top pairs are
listed (default 20, 0 for all). Metadata keys that name identifiers or time
stamps (pid, tid, rank, id, "Starting Timestamp", dates...) are left out,
since their correlations reflect the launch order; --include-ids keeps them.`,
		Example: `  taudb-analyze correlate --trial cpi-4 --top 10`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Metric = f.metric
			if opt.Top == 0 {
				opt.Top = analysis.All
			}
			if opt.MaxRegions == 0 {
				opt.MaxRegions = analysis.All
			}
			return a.runAnalysis(cmd, &f, []string{f.trial}, func(ts []*drg.Trial) (*analysis.Result, error) {
				return analysis.Correlate(ts[0], opt)
			})
		},
	}
	f.register(cmd)
	cmd.Flags().IntVar(&opt.Top, "top", 20, "number of pairs (0: all)")
	cmd.Flags().IntVar(&opt.MaxRegions, "max-regions", analysis.DefaultCorrelateRegions, "regions paired, those with the largest mean value (0: all)")
	cmd.Flags().BoolVar(&opt.IncludeIDs, "include-ids", false, "also correlate metadata that names identifiers or time stamps")
	cmd.Flags().BoolVar(&opt.Inclusive, "inclusive", false, "use inclusive values")
	return cmd
}

func (a *app) compareCmd() *cobra.Command {
	var f analysisFlags
	var opt analysis.CompareOptions
	var refs []string
	var tolerance float64
	cmd := &cobra.Command{
		Use:   "compare --trial A --trial B [--inclusive] [--tolerance PCT]",
		Short: "Compare two trials region by region",
		Long: `compare lists, per region (aligned by name), its value in A and in B (mean
over threads, absent as 0), diff = B − A, ratio = B/A and whether B is
faster, slower or the same as A (within --tolerance percent; for metrics
other than time: lower/higher). Regions found in one trial only are listed
as "only in A" or "only in B".`,
		Example: `  taudb-analyze compare --trial run-v1 --trial run-v2`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(refs) != 2 {
				return usagef("compare needs --trial twice (A, then B), got %d", len(refs))
			}
			opt.Metric = f.metric
			opt.Tolerance = tolerance / 100
			if tolerance == 0 {
				opt.Tolerance = -1 // exact
			}
			return a.runAnalysis(cmd, &f, refs, func(ts []*drg.Trial) (*analysis.Result, error) {
				return analysis.Compare(ts[0], ts[1], opt)
			})
		},
	}
	cmd.Flags().StringArrayVar(&refs, "trial", nil, "trial A, then trial B (ids or names; id:N or name:X to be explicit)")
	cmd.Flags().StringVar(&f.metric, "metric", "", "metric name (default: the first time metric)")
	cmd.Flags().BoolVar(&f.noSave, "no-save", false, "do not store the result in the database")
	cmd.Flags().StringVar(&f.table, "table", "", "with --format csv: the result table to print")
	cmd.Flags().BoolVar(&opt.Inclusive, "inclusive", false, "use inclusive values")
	cmd.Flags().Float64Var(&tolerance, "tolerance", 5, "percent within which B counts as the same as A")
	return cmd
}

func (a *app) ratioCmd() *cobra.Command {
	var f analysisFlags
	var opt analysis.RatioOptions
	var saveMetric, list bool
	cmd := &cobra.Command{
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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if !list && (opt.Name == "" || opt.Expr == "") {
				return usagef("ratio needs --name NAME and --expr EXPR (or --list)")
			}
			if saveMetric && f.query.text != "" {
				return usagef("--save-metric stores the metric of the whole trial: leave out --query")
			}
			if err := f.query.parse(); err != nil {
				return err
			}
			db, err := a.openFor(ctx, saveMetric || !f.noSave)
			if err != nil {
				return err
			}
			defer db.Close()
			lt, err := a.loadTrial(ctx, db, f.trial)
			if err != nil {
				return err
			}
			if list {
				tb := table2("name", "expression", "unit", "what")
				for _, b := range metrics.Available(metrics.Names(lt.trial)) {
					tb.add(b.Name, b.Expr, b.Unit, b.Title)
				}
				if a.format == "csv" {
					return tb.writeCSV(a.out)
				}
				if a.format == "json" {
					return writeJSON(a.out, metrics.Available(metrics.Names(lt.trial)))
				}
				return tb.writeText(a.out)
			}
			q, err := f.query.restrictTrial(lt.trial)
			if err != nil {
				return err
			}
			res, err := analysis.Ratio(q.trial, opt)
			if err != nil {
				return err
			}
			f.query.annotate(res, q)
			var with storeWith
			if saveMetric {
				e, err := metrics.Compile(opt.Expr, metrics.Names(lt.trial))
				if err != nil {
					return err
				}
				m, err := metrics.AddDerived(lt.trial, opt.Name, e)
				if err != nil {
					return err
				}
				// Stored in the result's transaction: both or neither.
				with.metric = &store.NewMetric{Trial: lt.trial, Index: m}
			}
			return a.storeAndPrint(ctx, db, res, []int64{lt.id}, f.noSave, f.table, with)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&opt.Name, "name", "", "name of the derived metric")
	cmd.Flags().StringVar(&opt.Expr, "expr", "", "expression over metric names")
	cmd.Flags().BoolVar(&saveMetric, "save-metric", false, "store the derived metric in the database (metric.derived = true)")
	cmd.Flags().BoolVar(&list, "list", false, "list the built-in ratios available for the trial")
	return cmd
}

// flagError names the flag behind an analysis error where the error comes
// from a flag's value: an unknown metric is --metric's.
func flagError(err error) error {
	if errors.Is(err, analysis.ErrUnknownMetric) {
		return fmt.Errorf("--metric: %w", err)
	}
	return err
}
