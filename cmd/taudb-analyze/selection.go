package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// selection is how a multi-trial command names its trials: a list of ids or
// names (--trials), or an expression over trial fields and metadata
// (--where), or a TAUdb view (--view), or several of them (the trials all of
// them select).
type selection struct {
	trials string
	where  string
	view   string
}

func (s *selection) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&s.trials, "trials", "", "trials by id or name, comma-separated (T1,T2,...)")
	cmd.Flags().StringVar(&s.where, "where", "", `select trials by an expression, e.g. 'meta["Application"] == "lulesh" && threads >= 16'`)
	cmd.Flags().StringVar(&s.view, "view", "", "select the trials of a TAUdb view, by id or name (see \"taudb-analyze views\")")
}

// whereHelp documents the --where language, shared by the commands' help.
const whereHelp = `--where EXPR selects trials by an expression (expr-lang syntax) over their
fields: id, name, application, experiment, threads (total_threads), metrics
(list of names), and meta, the trial metadata as strings (meta["CPU Cores"]);
num(s) reads a number from a metadata string ("150 W" gives 150). An
expression is at most 4096 bytes and 512 nodes; let, reduce, repeat and a
predicate (all, any, map, filter, ...) inside another are refused, and each
trial's evaluation builds at most 100,000 items. Example:
  --where 'application == "matmult" && threads >= 4 && "TIME" in metrics'`

// selectTrials resolves a selection to trial ids, in the order given (for
// --trials) or in id order (for --where or --view alone). At least minimum
// trials must be selected.
func (a *app) selectTrials(ctx context.Context, db *store.DB, s selection, minimum int) ([]int64, error) {
	infos, err := a.selectTrialInfos(ctx, db, s, minimum)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(infos))
	for i, ti := range infos {
		ids[i] = ti.ID
	}
	return ids, nil
}

// selectTrialInfos is selectTrials giving the trials' descriptions. It
// runs store.SelectTrials and words its errors in the command line's terms;
// the default selection says which trials it took.
func (a *app) selectTrialInfos(ctx context.Context, db *store.DB, s selection, minimum int) ([]store.TrialInfo, error) {
	sel := store.Selection{Where: s.where, View: s.view, Minimum: minimum}
	if s.trials != "" {
		sel.Trials = strings.Split(s.trials, ",")
	}
	infos, err := db.SelectTrials(ctx, sel)
	var we *store.WhereError
	var mixed *store.MixedApplicationsError
	switch {
	case errors.As(err, &we) && we.Trial == 0:
		return nil, usagef("--where: %v", we.Err)
	case errors.As(err, &we):
		return nil, fmt.Errorf("--where on trial %d %q: %w", we.Trial, we.TrialName, we.Err)
	case errors.As(err, &mixed):
		names := make([]string, len(mixed.Applications))
		for i, app := range mixed.Applications {
			names[i] = fmt.Sprintf("%q", app)
		}
		return nil, usagef("the database holds trials of %d applications (%s): choose the trials with --trials T1,T2,..., --where EXPR (e.g. --where 'application == %s') or --view NAME|ID",
			len(names), strings.Join(names, ", "), names[0])
	case err != nil:
		return nil, err
	}
	if sel.IsDefault() {
		a.info("using all %d trials of the database (application %s); choose others with --trials, --where or --view", len(infos), fmt.Sprintf("%q", infos[0].Application))
	}
	return infos, nil
}
