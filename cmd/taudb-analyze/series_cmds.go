package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// seriesFlags are the flags of the commands over a series of experiments.
type seriesFlags struct {
	sel       selection
	metric    string
	aggregate string
	pFrom     string
	by        string
	short     bool
	noSave    bool
	table     string
}

func (f *seriesFlags) register(cmd *cobra.Command) {
	f.sel.register(cmd)
	cmd.Flags().StringVar(&f.metric, "metric", "", "metric name (default: the first time metric)")
	cmd.Flags().StringVar(&f.aggregate, "aggregate", "max", "value over a trial's threads: max (the slowest thread sets the run time) or mean")
	cmd.Flags().StringVar(&f.pFrom, "p-from", "", `the number of processes p of a trial: "" (distinct TAU node ranks = MPI ranks), threads, nodes, hosts, or meta:KEY`)
	cmd.Flags().BoolVar(&f.short, "short-names", false, "align regions across trials by short name (without source location)")
	cmd.Flags().BoolVar(&f.noSave, "no-save", false, "do not store the result in the database")
	cmd.Flags().StringVar(&f.table, "table", "", "with --format csv: the result table to print (default: the first)")
}

func (f *seriesFlags) options() analysis.SeriesOptions {
	return analysis.SeriesOptions{Metric: f.metric, Aggregate: f.aggregate, ShortNames: f.short}
}

// runSeries selects and loads the trials, makes the experiment series,
// runs fn, stores the result unless --no-save and prints it.
func (a *app) runSeries(cmd *cobra.Command, f *seriesFlags, minimum int, fn func(analysis.Series) (*analysis.Result, error)) error {
	return a.runTrials(cmd, f, minimum, func(trials []*drg.Trial) (*analysis.Result, error) {
		series, err := analysis.NewSeries(trials, f.pFrom, f.by)
		if err != nil {
			return nil, err
		}
		return fn(series)
	})
}

// runTrials selects and loads the trials (at least minimum), runs fn,
// stores the result unless --no-save and prints it. Trials that share a
// name are told apart by their ids.
func (a *app) runTrials(cmd *cobra.Command, f *seriesFlags, minimum int, fn func([]*drg.Trial) (*analysis.Result, error)) error {
	return a.runTrialsThen(cmd, f, minimum, fn, storeWith{})
}

// runTrialsThen is runTrials storing with the result what with gives, in
// the result's transaction.
func (a *app) runTrialsThen(cmd *cobra.Command, f *seriesFlags, minimum int, fn func([]*drg.Trial) (*analysis.Result, error),
	with storeWith) error {
	ctx := cmd.Context()
	db, err := a.openFor(ctx, !f.noSave)
	if err != nil {
		return err
	}
	defer db.Close()
	ids, err := a.selectTrials(ctx, db, f.sel, minimum)
	if err != nil {
		return err
	}
	trials := make([]*drg.Trial, len(ids))
	names := map[string]int{}
	bar := a.progress(len(ids), "reading trials")
	for i, id := range ids {
		bar.step(fmt.Sprintf("reading trial %d", id))
		start := time.Now()
		if trials[i], err = db.LoadTrial(ctx, id); err != nil {
			bar.done()
			return err
		}
		a.detail("read trial %d %q from the database in %v: %d threads, %d call-graph nodes", id, trials[i].Name, since(start), len(trials[i].Threads), len(trials[i].Nodes))
		names[trials[i].Name]++
	}
	bar.done()
	for i, t := range trials {
		if names[t.Name] > 1 {
			t.Name = fmt.Sprintf("%s (trial %d)", t.Name, ids[i])
		}
	}
	start := time.Now()
	res, err := fn(trials)
	if err != nil {
		return flagError(err)
	}
	a.detail("%s computed in %v over %d trials", res.Analysis, since(start), len(trials))
	return a.storeAndPrint(ctx, db, res, ids, f.noSave, f.table, with)
}

func (a *app) speedupCmd() *cobra.Command {
	var f seriesFlags
	var opt analysis.SpeedupOptions
	var compareSet string
	cmd := &cobra.Command{
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
and of every region, A being the selected trials and B the compare set.

` + whereHelp,
		Example: `  taudb-analyze speedup --trials mm-1,mm-2,mm-4,mm-8
  taudb-analyze speedup --where 'application == "matmult"' --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.SeriesOptions = f.options()
			if compareSet == "" {
				return a.runSeries(cmd, &f, 2, func(s analysis.Series) (*analysis.Result, error) { return analysis.Speedup(s, opt) })
			}
			// Version A is the selection, version B the compare set: select
			// both, load them together, and split them again.
			ctx := cmd.Context()
			db, err := a.openFor(ctx, !f.noSave)
			if err != nil {
				return err
			}
			idsA, err := a.selectTrials(ctx, db, f.sel, 1)
			if err != nil {
				db.Close()
				return err
			}
			idsB, err := a.selectTrials(ctx, db, selection{trials: compareSet}, 1)
			db.Close()
			if err != nil {
				return err
			}
			nA := len(idsA)
			var refs []string
			for _, id := range append(idsA, idsB...) {
				refs = append(refs, fmt.Sprint(id))
			}
			both := f
			both.sel = selection{trials: strings.Join(refs, ",")}
			return a.runTrials(cmd, &both, 2, func(ts []*drg.Trial) (*analysis.Result, error) {
				if len(ts) != nA+len(idsB) {
					return nil, fmt.Errorf("--compare-set: a trial is in both sets")
				}
				sa, err := analysis.NewSeries(ts[:nA], f.pFrom, "")
				if err != nil {
					return nil, err
				}
				sb, err := analysis.NewSeries(ts[nA:], f.pFrom, "")
				if err != nil {
					return nil, err
				}
				return analysis.Improvement(sa, sb, opt.SeriesOptions)
			})
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&opt.Baseline, "baseline", "", "the baseline trial (default: the smallest p)")
	cmd.Flags().BoolVar(&opt.Weak, "weak", false, "weak scaling (the work grows with p)")
	cmd.Flags().StringVar(&compareSet, "compare-set", "", "a second version's trials (T1,T2,...): improvement per p instead of speedup")
	return cmd
}

func (a *app) scalabilityCmd() *cobra.Command {
	var f seriesFlags
	var opt analysis.ScalabilityOptions
	cmd := &cobra.Command{
		Use:   "scalability --trials ... | --where EXPR [--predict P]",
		Short: "Per-region efficiency, Karp-Flatt, Amdahl fit and a fitted scaling model",
		Long: `scalability studies every region across the series: efficiency, the
Karp-Flatt serial fraction e = (1/S − 1/p')/(1 − 1/p') with p' = p/p_b, an
Amdahl fit T(p) = T_1(f + (1−f)/p), and a performance model in the spirit of
Extra-P, c0 + c1*p^i*log2(p)^j, (c0 + c1*p^i*log2(p)^j)/p, or two terms from
5 points on, with i in {-3, ..., -1/4, 0, 1/4, ..., 3} and j in {-2, ..., 2},
fitted on relative errors and chosen by leave-one-out error (docs/models.md),
never negative, with its fit error and a prediction at --predict P (default
twice the largest p). It ranks
the regions that stop scaling first (efficiency below --threshold) and those
whose share of the time grows fastest.

` + whereHelp,
		Example: `  taudb-analyze scalability --trials mm-1,mm-2,mm-4,mm-8 --predict 64`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.SeriesOptions = f.options()
			return a.runSeries(cmd, &f, 2, func(s analysis.Series) (*analysis.Result, error) { return analysis.Scalability(s, opt) })
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&opt.Baseline, "baseline", "", "the baseline trial (default: the smallest p)")
	cmd.Flags().BoolVar(&opt.Weak, "weak", false, "weak scaling")
	cmd.Flags().BoolVar(&opt.Inclusive, "inclusive", false, "model inclusive values (default exclusive)")
	cmd.Flags().Float64Var(&opt.Threshold, "threshold", 0.5, "efficiency below which a region has stopped scaling")
	cmd.Flags().Float64Var(&opt.Predict, "predict", 0, "predict the time at this p (default: twice the largest p)")
	return cmd
}

func (a *app) multiregionCmd() *cobra.Command {
	var f seriesFlags
	var opt analysis.MultiRegionOptions
	var pattern string
	cmd := &cobra.Command{
		Use:   "multiregion --trials ... | --where EXPR [--regions PATTERN]",
		Short: "Chosen regions' values across the experiments (SCALEA's multi-region analysis)",
		Long: `multiregion lists, for the regions whose names match the regular expression
--regions (default: the top regions), their exclusive and inclusive values
and shares of the program in every experiment of the series, and the number
of processes that ran them.

` + whereHelp,
		Example: `  taudb-analyze multiregion --trials mm-1,mm-8 --regions '^MPI_'`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.SeriesOptions = f.options()
			return a.runSeries(cmd, &f, 1, func(s analysis.Series) (*analysis.Result, error) { return analysis.MultiRegion(s, pattern, opt) })
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&pattern, "regions", "", "regular expression over region names")
	return cmd
}

func (a *app) multisetCmd() *cobra.Command {
	var f seriesFlags
	var opt analysis.MultiSetOptions
	var rules rulesFlag
	cmd := &cobra.Command{
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
summary: docs/rules.md).

` + whereHelp,
		Example: `  taudb-analyze multiset --by "Problem Size" --where 'application == "lulesh"'
  taudb-analyze multiset --by "meta:Power Cap" --where 'application == "lulesh" && threads == 27'
  taudb-analyze multiset --by experiment --where 'application == "lulesh"'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.by == "" {
				return usagef("multiset needs --by KEY")
			}
			opt.SeriesOptions = f.options()
			var err error
			if opt.Rules, err = rules.load(); err != nil {
				return err
			}
			return a.runSeries(cmd, &f, 2, func(s analysis.Series) (*analysis.Result, error) { return analysis.MultiSet(s, f.by, opt) })
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&f.by, "by", "", "metadata property (meta:KEY) or trial field (experiment, application, trial) that defines the sets")
	cmd.Flags().BoolVar(&opt.Weak, "weak", false, "weak scaling within each set")
	rules.register(cmd)
	return cmd
}
