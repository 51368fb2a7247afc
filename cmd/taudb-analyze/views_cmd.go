package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// viewsHelp documents TAUdb views, shared by the views commands' help.
const viewsHelp = `TAUdb views (tables taudb_view, taudb_view_parameter) are named filters over
the trials, organized as a tree, as TAU's PerfExplorer and View Creator use
them. A view's parameters are joined by its conjoin (and, or); a sub-view
selects the trials of its parent that also meet its own parameters. A
parameter is TABLE.COLUMN OP VALUE:
  trial.COLUMN     a trial column: name (text), id, data_source, node_count,
                   contexts_per_node, threads_per_context, total_threads
                   (integers, compared as numbers)
  primary_metadata.NAME, secondary_metadata.NAME
                   the value of the metadata NAME, compared as text; a trial
                   without it never matches
OP is =, !=, <>, <, >, <=, >=, like or not like (% any text, _ one
character). Multi-trial commands take --view NAME|ID.`

// viewRow is one view as "views" prints it.
type viewRow struct {
	store.View
	Trials int `json:"trials"`
}

func (a *app) viewsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "views",
		Short: "List the TAUdb views and the number of trials each selects",
		Long: `views lists the TAUdb views of the database: id, parent (0 for none), name,
conjoin, parameters, and the number of trials each selects. With --format
json it prints one JSON array.

` + viewsHelp,
		Example: `  taudb-analyze views
  taudb-analyze views create matmult --param 'primary_metadata.Application = matmult'
  taudb-analyze speedup --view matmult`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			db, err := a.openRead(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			views, err := db.Views(ctx)
			if err != nil {
				return err
			}
			counts, err := db.ViewsTrials(ctx)
			if err != nil {
				return err
			}
			rows := make([]viewRow, len(views))
			for i, v := range views {
				if v.Params == nil {
					v.Params = []store.ViewParam{}
				}
				rows[i] = viewRow{View: v, Trials: len(counts[v.ID])}
			}
			if a.format == "json" {
				return writeJSON(a.out, rows)
			}
			tb := table{header: []string{"id", "parent", "name", "conjoin", "parameters", "trials"}}
			for _, r := range rows {
				ps := make([]string, len(r.Params))
				for i, p := range r.Params {
					ps[i] = p.String()
				}
				tb.add(fmt.Sprint(r.ID), fmt.Sprint(r.Parent), r.Name, r.Conjoin, strings.Join(ps, "; "), strconv.Itoa(r.Trials))
			}
			if a.format == "csv" {
				return tb.writeCSV(a.out)
			}
			return tb.writeText(a.out)
		},
	}
	cmd.AddCommand(a.viewsCreateCmd())
	return cmd
}

func (a *app) viewsCreateCmd() *cobra.Command {
	var parent, conjoin string
	var params []string
	cmd := &cobra.Command{
		Use:   "create NAME --param 'TABLE.COLUMN OP VALUE'... [--parent VIEW] [--conjoin and|or]",
		Short: "Create a TAUdb view",
		Long: `create stores a new TAUdb view with its parameters, in one transaction, and
prints its id. --parent makes it a sub-view of another view (by id or
name). Invalid parameters are refused, and nothing is stored.

` + viewsHelp,
		Example: `  taudb-analyze views create matmult --param 'primary_metadata.Application = matmult'
  taudb-analyze views create big-matmult --parent matmult --param 'trial.total_threads >= 4'
  taudb-analyze views create small --conjoin or --param 'trial.total_threads = 1' --param 'trial.total_threads = 2'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := store.View{Name: args[0], Conjoin: conjoin}
			switch strings.ToLower(strings.TrimSpace(conjoin)) {
			case "and", "or":
			default:
				return usagef("--conjoin %q: want and or or", conjoin)
			}
			if len(params) == 0 {
				return usagef("give the view's conditions with --param 'TABLE.COLUMN OP VALUE'")
			}
			for _, s := range params {
				p, err := store.ParseViewParam(s)
				if err != nil {
					return usagef("--param: %v", err)
				}
				v.Params = append(v.Params, p)
			}
			ctx := cmd.Context()
			db, err := a.openFor(ctx, true)
			if err != nil {
				return err
			}
			defer db.Close()
			if parent != "" {
				pid, err := db.FindView(ctx, parent)
				if err != nil {
					return fmt.Errorf("--parent: %w", err)
				}
				v.Parent = pid
			}
			id, err := db.CreateView(ctx, v)
			if err != nil {
				if errors.Is(err, store.ErrBadView) {
					return usageError{err.Error()}
				}
				return err
			}
			ids, err := db.ViewTrials(ctx, id)
			if err != nil {
				return err
			}
			if a.format == "json" {
				return writeJSON(a.out, map[string]any{"id": id, "name": strings.TrimSpace(v.Name), "trials": len(ids)})
			}
			fmt.Fprintln(a.out, id)
			a.info("created view %d %q; it selects %d trial(s)", id, strings.TrimSpace(v.Name), len(ids))
			return nil
		},
	}
	cmd.Flags().StringVar(&parent, "parent", "", "the parent view, by id or name (default: a top-level view)")
	cmd.Flags().StringVar(&conjoin, "conjoin", "and", "how the parameters combine: and (all) or or (any)")
	cmd.Flags().StringArrayVar(&params, "param", nil, "a condition 'TABLE.COLUMN OP VALUE' (repeatable)")
	return cmd
}
