package main

import (
	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/overhead"
)

func (a *app) overheadCmd() *cobra.Command {
	var f seriesFlags
	var opt overhead.Options
	var baseline string
	var rules rulesFlag
	var showRules bool
	cmd := &cobra.Command{
		Use:   "overhead --trials T1,T2,... | --where EXPR [--baseline T] [--rules FILE] [--region R | --category C]",
		Short: "SCALEA's overhead breakdown: data movement, synchronization, control of parallelism, ...",
		Long: `overhead classifies the temporal overhead of each experiment as SCALEA does.
The total overhead of an experiment with p processes is

  T_o = T_p − T_s/p

with T_p the main region's inclusive time of the average process
(--aggregate max: of the process that finishes last; min: first) and T_s
the useful work of the baseline (the 1-process trial, else the smallest p;
--baseline chooses another): the sum over its processes of their time
outside MPI and the other rule categories, so that the baseline's own MPI
time is not counted as work; --sequential-time gives T_s. Experiments are
listed in increasing p. The regions are classified by rules on their names
and TAU groups into data movement, synchronization, control of parallelism
and additional computation; the same rules give imbalance, summary and
multiset their classes (MPI-IO is data movement here and I/O there).
--rules FILE, a YAML file, adds, overrides or removes rules; --list-rules
prints them in matching order (the first match wins):

  rules:
    - id: waitall-p2p          # add a rule ahead of the defaults
      match: MPI_Waitall       # exact, prefix "MPI_File_*" or /regexp/
      group: MPI               # optional TAU group (or /regexp/)
      category: data movement  # or synchronization, control of
                               # parallelism, additional computation,
                               # computation
      sub: MPI point-to-point
      class: mpi               # computation, mpi, openmp, io, other,
                               # sampled (required unless computation)
    - action: remove           # or override (keys given replace)
      id: unit-identification-mpi

Errors name the file and line; docs/rules.md has the whole format. Loss of parallelism comes from computation
regions run by q < p processes, λ = S/q − S/p (S their total time), paid
out of the synchronization time the other processes spent waiting for
them, and from code replicated on every process, paid out of the work in
excess of the ideal share. Then

  unidentified = T_o − identified

exactly, no category is negative, and unidentified is negative only when
the processes did less useful work than T_s/p (superlinear effects): a
finding says so. Trials that all have the same p are refused (exit 2): that
is a parameter study for multiset/multiregion. Tables:
the experiments (Figure 13 of the SCALEA paper), region-to-overhead
(--region R restricts it), overhead-to-region (--category C), each
restrictable to a process N or a thread N.C.T (--restrict).

` + whereHelp,
		Example: `  taudb-analyze overhead --trials mm-1,mm-2,mm-4,mm-8
  taudb-analyze overhead --where 'application == "matmult"' --rules site.yaml --category "data movement"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if showRules {
				rs, err := rules.list()
				if err != nil {
					return err
				}
				rt := overhead.RulesTable(rs)
				tb := resultTable(&rt, true)
				if a.format == "csv" {
					return tb.writeCSV(a.out)
				}
				return tb.writeText(a.out)
			}
			var err error
			if opt.Rules, err = rules.load(); err != nil {
				return err
			}
			opt.Metric, opt.Aggregate = f.metric, f.aggregate
			return a.runTrials(cmd, &f, 1, func(ts []*drg.Trial) (*analysis.Result, error) {
				series, err := analysis.NewSeries(ts, f.pFrom, "")
				if err != nil {
					return nil, err
				}
				p := series.Ps()
				if baseline != "" {
					for i, t := range ts {
						if t.Name == baseline {
							opt.Baseline = &i
						}
					}
					if opt.Baseline == nil {
						return nil, usagef("--baseline %q is not one of the selected trials", baseline)
					}
				}
				return overhead.Analyze(ts, p, opt)
			})
		},
	}
	f.sel.register(cmd)
	cmd.Flags().StringVar(&f.metric, "metric", "", "metric name (default: the first time metric)")
	cmd.Flags().StringVar(&f.aggregate, "aggregate", "mean", "the processes the split describes: mean (the average process), max (the last to finish) or min")
	cmd.Flags().StringVar(&f.pFrom, "p-from", "", `the number of processes p of a trial: "" (distinct TAU node ranks), threads, nodes, hosts, or meta:KEY`)
	cmd.Flags().BoolVar(&f.noSave, "no-save", false, "do not store the result in the database")
	cmd.Flags().StringVar(&f.table, "table", "", "with --format csv: the result table to print (default: the first)")
	cmd.Flags().StringVar(&baseline, "baseline", "", "the baseline trial's name (default: p = 1, else the smallest p)")
	cmd.Flags().Float64Var(&opt.SequentialTime, "sequential-time", 0, "the sequential time T_s in µs (overrides the baseline)")
	rules.register(cmd)
	cmd.Flags().BoolVar(&showRules, "list-rules", false, "print the classification rules (with --rules applied) and exit")
	cmd.Flags().StringVar(&opt.Region, "region", "", "region-to-overhead for this region only")
	cmd.Flags().StringVar(&opt.Category, "category", "", "overhead-to-region for this category only")
	cmd.Flags().StringVar(&opt.Restrict, "restrict", "", "restrict to a process N or a thread N.C.T")
	cmd.Flags().StringVar(&opt.Unit, "unit", "process", "what p counts: process, or thread (OpenMP/pthread runs)")
	return cmd
}
