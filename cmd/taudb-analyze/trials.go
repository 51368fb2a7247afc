package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/store"
)

func (a *app) trialsCmd() *cobra.Command {
	var where string
	cmd := &cobra.Command{
		Use:   "trials [--where EXPR]",
		Short: "List the stored trials",
		Long: `trials lists the trials of the database: id, name, the Application and
Experiment attributes, the number of real threads, the metrics and the data
source (TAU profiles, ppk, SNAP for TAU XML, ...). With --format json it
prints one JSON array; an empty database gives [].

` + whereHelp,
		Example: `  taudb-analyze trials
  taudb-analyze trials --where 'application == "matmult" && threads >= 4'
  taudb-analyze --format json trials`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			db, err := a.openRead(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			var list []store.TrialInfo
			if where != "" {
				list, err = a.selectTrialInfos(ctx, db, selection{where: where}, 0)
			} else {
				list, err = db.Trials(ctx)
			}
			if err != nil {
				return err
			}
			if a.format == "json" {
				if list == nil {
					list = []store.TrialInfo{}
				}
				for i := range list {
					if list[i].Metrics == nil {
						list[i].Metrics = []string{}
					}
				}
				return writeJSON(a.out, list)
			}
			tb := table{header: []string{"id", "name", "application", "experiment", "threads", "metrics", "source"}}
			for _, t := range list {
				tb.add(fmt.Sprint(t.ID), t.Name, t.Application, t.Experiment, fmt.Sprint(t.Threads), strings.Join(t.Metrics, ","), t.DataSourceName)
			}
			if a.format == "csv" {
				return tb.writeCSV(a.out)
			}
			if len(list) == 0 {
				a.info("%s holds no trial; add one with \"taudb-analyze load -n NAME PATH\"", db.URL())
				return nil
			}
			return tb.writeText(a.out)
		},
	}
	cmd.Flags().StringVar(&where, "where", "", "list only the trials this expression selects")
	return cmd
}
