package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/expr-lang/expr"
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
expression is at most 4096 bytes; on each trial it may evaluate predicates
(all, any, map, filter, ...) a million times and build a million items.
Example:
  --where 'application == "matmult" && threads >= 4 && "TIME" in metrics'`

// trialEnv is what a --where expression sees of one trial.
type trialEnv struct {
	ID          int64             `expr:"id"`
	Name        string            `expr:"name"`
	Application string            `expr:"application"`
	Experiment  string            `expr:"experiment"`
	Threads     int               `expr:"threads"`
	Metrics     []string          `expr:"metrics"`
	Meta        map[string]string `expr:"meta"`
}

// Num reads the leading number of a metadata string ("150 W" → 150); a
// string without one gives 0.
func (trialEnv) Num(s string) float64 {
	var v float64
	fmt.Sscanf(strings.TrimSpace(s), "%g", &v)
	return v
}

// selectTrials resolves a selection to trial ids, in the order given (for
// --trials) or in id order (for --where or --view alone). At least min
// trials must be selected.
func (a *app) selectTrials(ctx context.Context, db *store.DB, s selection, minimum int) ([]int64, error) {
	if s.trials == "" && s.where == "" && s.view == "" {
		return a.defaultTrials(ctx, db, minimum)
	}
	var ids []int64
	if s.trials != "" {
		seen := map[int64]bool{}
		for _, ref := range strings.Split(s.trials, ",") {
			ref = strings.TrimSpace(ref)
			if ref == "" {
				continue
			}
			id, err := db.FindTrial(ctx, ref)
			if err != nil {
				return nil, err
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	if s.view != "" {
		vid, err := db.FindView(ctx, s.view)
		if err != nil {
			return nil, err
		}
		vids, err := db.ViewTrials(ctx, vid)
		if err != nil {
			return nil, err
		}
		if s.trials == "" {
			ids = vids
		} else {
			ids = intersect(ids, vids)
		}
	}
	if s.where != "" {
		prog, err := compileWhere(s.where, expr.Env(trialEnv{}), expr.AsBool(), expr.Function("num", func(args ...any) (any, error) {
			str, _ := args[0].(string)
			return trialEnv{}.Num(str), nil
		}, new(func(string) float64)))
		if err != nil {
			return nil, usagef("--where: %v", err)
		}
		infos, err := db.Trials(ctx)
		if err != nil {
			return nil, err
		}
		var matched []int64
		for _, ti := range infos {
			meta, err := db.TrialMetadata(ctx, ti.ID)
			if err != nil {
				return nil, err
			}
			env := trialEnv{ID: ti.ID, Name: ti.Name, Application: ti.Application, Experiment: ti.Experiment,
				Threads: ti.Threads, Metrics: ti.Metrics, Meta: meta}
			out, err := prog.run(env)
			if err != nil {
				return nil, fmt.Errorf("--where on trial %d %q: %w", ti.ID, ti.Name, err)
			}
			if out.(bool) {
				matched = append(matched, ti.ID)
			}
		}
		if s.trials == "" && s.view == "" {
			ids = matched
		} else {
			ids = intersect(ids, matched)
		}
	}
	if len(ids) < minimum {
		return nil, fmt.Errorf("the selection holds %d trial(s); this analysis needs at least %d", len(ids), minimum)
	}
	return ids, nil
}

// intersect returns the ids of a that b holds too, in a's order.
func intersect(a, b []int64) []int64 {
	in := make(map[int64]bool, len(b))
	for _, id := range b {
		in[id] = true
	}
	var out []int64
	for _, id := range a {
		if in[id] {
			out = append(out, id)
		}
	}
	return out
}

// defaultTrials is the selection when none is given: every trial of the
// database when they all belong to one application (the usual case of a
// database holding one study), and a usage error naming the applications
// otherwise.
func (a *app) defaultTrials(ctx context.Context, db *store.DB, minimum int) ([]int64, error) {
	infos, err := db.Trials(ctx)
	if err != nil {
		return nil, err
	}
	apps := map[string]bool{}
	var names []string
	var ids []int64
	for _, ti := range infos {
		if !apps[ti.Application] {
			apps[ti.Application] = true
			names = append(names, fmt.Sprintf("%q", ti.Application))
		}
		ids = append(ids, ti.ID)
	}
	switch {
	case len(infos) == 0:
		return nil, fmt.Errorf("the database %s holds no trial; load some with \"taudb-analyze load\"", db.URL())
	case len(apps) > 1:
		return nil, usagef("the database holds trials of %d applications (%s): choose the trials with --trials T1,T2,..., --where EXPR (e.g. --where 'application == %s') or --view NAME|ID",
			len(apps), strings.Join(names, ", "), names[0])
	case len(ids) < minimum:
		return nil, fmt.Errorf("the database holds %d trial(s); this analysis needs at least %d", len(ids), minimum)
	}
	a.info("using all %d trials of the database (application %s); choose others with --trials, --where or --view", len(ids), names[0])
	return ids, nil
}
