package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) deleteCmd() *cobra.Command {
	var ref string
	cmd := &cobra.Command{
		Use:   "delete --trial T",
		Short: "Delete a trial from the database",
		Long: `delete removes trial T (an id or a unique name) and every row that belongs
to it, in every TAUdb table, with the analysis settings and results made of
it, in one transaction.`,
		Example: `  taudb-analyze delete --trial 3
  taudb-analyze delete --trial cpi-4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if ref == "" {
				return usagef("delete needs --trial T (an id or a name)")
			}
			ctx := cmd.Context()
			db, err := a.openFor(ctx, true)
			if err != nil {
				return err
			}
			defer db.Close()
			id, err := db.FindTrial(ctx, ref)
			if err != nil {
				return err
			}
			if err := db.DeleteTrial(ctx, id); err != nil {
				return err
			}
			switch a.format {
			case "json":
				return writeJSON(a.out, map[string]any{"deleted": id})
			case "csv":
				tb := table{header: []string{"deleted"}}
				tb.add(fmt.Sprint(id))
				return tb.writeCSV(a.out)
			}
			fmt.Fprintf(a.out, "deleted trial %d\n", id)
			return nil
		},
	}
	cmd.Flags().StringVar(&ref, "trial", "", "the trial: an id or a unique name (id:N or name:X to be explicit)")
	return cmd
}
