package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

func (a *app) resultsCmd() *cobra.Command {
	var table string
	cmd := &cobra.Command{
		Use:   "results [ID]",
		Short: "List stored analysis results, or print one again without recomputing it",
		Long: `results lists the analysis results stored in the database (newest first):
their id, analysis, trials, metric and number of tables. With an ID it prints
that result again, read back from the database exactly as it was computed
(--format table, json or csv; with csv, --table chooses the table).`,
		Example: `  taudb-analyze results
  taudb-analyze results 7 --format json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("results takes at most one ID, got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			var id int64
			if len(args) == 1 {
				var err error
				if id, err = strconv.ParseInt(args[0], 10, 64); err != nil || id <= 0 {
					return usagef("results %q: want a result id (a positive number)", args[0])
				}
			}
			db, err := a.openRead(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			if id > 0 {
				res, err := db.LoadResult(ctx, id)
				if err != nil {
					return err
				}
				return a.printResult(res, table)
			}
			infos, err := db.Results(ctx)
			if err != nil {
				return err
			}
			if a.format == "json" {
				return writeJSON(a.out, infos)
			}
			tb := table2("id", "analysis", "trials", "metric", "tables")
			for _, r := range infos {
				trials := strings.Join(r.Trials, ", ")
				if r.MissingTrials > 0 {
					trials += fmt.Sprintf(" (incomplete: %d deleted)", r.MissingTrials)
				}
				tb.add(fmt.Sprint(r.ID), r.Analysis, trials, r.Metric, fmt.Sprint(r.Tables))
			}
			if a.format == "csv" {
				return tb.writeCSV(a.out)
			}
			return tb.writeText(a.out)
		},
	}
	cmd.Flags().StringVar(&table, "table", "", "with --format csv: the result table to print (default: the first)")
	return cmd
}

// table2 returns an empty output table with the given header.
func table2(header ...string) table { return table{header: header} }
