package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// statsColumns are the derived threads in the order stats prints them, with
// their column headings.
var statsColumns = []struct {
	d    drg.DerivedThread
	head string
}{
	{drg.Mean, "MEAN"}, {drg.Total, "TOTAL"}, {drg.StdDev, "STDDEV"}, {drg.Min, "MIN"}, {drg.Max, "MAX"},
	{drg.MeanAll, "MEAN(all)"}, {drg.StdDevAll, "STDDEV(all)"},
}

func (a *app) statsCmd() *cobra.Command {
	var ref, metric string
	var inclusive bool
	cmd := &cobra.Command{
		Use:   "stats --trial T [--metric M]",
		Short: "Per node derived statistics of a stored trial",
		Long: `stats prints, for each call-graph node of trial T (an id or a unique name),
the statistics across threads stored with the trial (TAUdb's derived
threads), for metric M (default: the first time metric):

  MEAN         Σx/k over the k threads that have a record of the node (−1)
  TOTAL        Σx (−2)
  STDDEV       √(Σ(x−mean)²/k), population form, over those k threads (−3)
  MIN, MAX     smallest and largest x over those k threads (−4, −5)
  MEAN(all)    Σx/N over all N threads, a missing record counting 0 (−6)
  STDDEV(all)  √(Σ(x−Σx/N)²/N) over all N threads (−7)

The table shows exclusive values (--inclusive: inclusive values) in the
metric's unit (microseconds for time), and "threads" is k. --format json
gives every column of every statistic (inclusive, exclusive, their
percentages of the main region, calls, subroutines, Σ exclusive²);
--format csv one row per node and statistic with those columns.

TAU's own loader stores no STDDEV rows where all threads made the same
number of calls; stats then computes them from the threads' rows and marks
them ("computed": true in JSON and CSV, a * in the table; their percentages
are undefined). Undefined numbers (TAU stores NaN percentages in some rows)
print as "-" in tables and null in JSON. The calls and subroutines of the
statistics are whole numbers in TAUdb (INT columns): a mean of 2.5 calls is
stored as 2 by TAU's loader (truncated) and 3 by taudb-analyze (rounded).`,
		Example: `  taudb-analyze stats --trial cpi-4
  taudb-analyze stats --trial 3 --metric PAPI_FP_OPS --inclusive
  taudb-analyze --format json stats --trial 3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if ref == "" {
				return usagef("stats needs --trial T (an id or a name)")
			}
			ctx := cmd.Context()
			db, err := a.openRead(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			id, err := db.FindTrial(ctx, ref)
			if err != nil {
				return err
			}
			st, err := db.Stats(ctx, id, metric)
			if err != nil {
				return err
			}
			switch a.format {
			case "json":
				if st.Nodes == nil {
					st.Nodes = []store.NodeStats{}
				}
				return writeJSON(a.out, st)
			case "csv":
				tb := table{header: []string{"callpath", "node", "threads", "statistic", "inclusive", "exclusive",
					"inclusive_percent", "exclusive_percent", "calls", "subroutines", "computed"}}
				for _, n := range st.Nodes {
					for _, c := range statsColumns {
						if v := n.Get(c.d); v != nil {
							tb.add(fmt.Sprint(n.Callpath), n.Name, fmt.Sprint(n.Threads), c.head, num(v.Inclusive), num(v.Exclusive),
								num(v.InclusivePercent), num(v.ExclusivePercent), num(v.Calls), num(v.Subroutines), fmt.Sprint(v.Computed))
						}
					}
				}
				return tb.writeCSV(a.out)
			}
			return writeStatsText(a.out, st, inclusive)
		},
	}
	cmd.Flags().StringVar(&ref, "trial", "", "the trial: an id or a unique name (id:N or name:X to be explicit)")
	cmd.Flags().StringVar(&metric, "metric", "", "the metric (default: the first time metric)")
	cmd.Flags().BoolVar(&inclusive, "inclusive", false, "show inclusive instead of exclusive values in the table")
	return cmd
}

// writeStatsText prints the statistics as a table of the exclusive (or
// inclusive) values, a computed row marked * with a note below.
func writeStatsText(w io.Writer, st *store.TrialStats, inclusive bool) error {
	what := "exclusive"
	if inclusive {
		what = "inclusive"
	}
	fmt.Fprintf(w, "Trial %d %q, metric %s, %s values:\n", st.Trial, st.Name, st.Metric, what)
	tb := table{header: []string{"node", "threads"}}
	for _, c := range statsColumns {
		tb.header = append(tb.header, c.head)
	}
	computed := false
	for _, n := range st.Nodes {
		row := []string{n.Name, fmt.Sprint(n.Threads)}
		for _, c := range statsColumns {
			v := n.Get(c.d)
			cell := "-"
			switch {
			case v == nil:
			case inclusive:
				cell = num(v.Inclusive)
			default:
				cell = num(v.Exclusive)
			}
			if v != nil && v.Computed {
				cell += "*"
				computed = true
			}
			row = append(row, cell)
		}
		tb.add(row...)
	}
	if err := tb.writeText(w); err != nil {
		return err
	}
	if computed {
		fmt.Fprintln(w, "* computed from the threads' rows: the database holds no such row (TAU's loader leaves them out where all threads made the same number of calls)")
	}
	return nil
}
