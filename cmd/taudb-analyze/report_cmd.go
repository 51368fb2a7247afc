package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/report"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// reportSingle are the single-trial analyses the report command runs on
// the spot, once per trial; reportMulti those it runs over all the selected
// trials together.
var (
	reportSingle = []string{"imbalance", "regions", "summary", "correlate"}
	reportMulti  = []string{"compare", "speedup", "scalability", "overhead", "cluster"}
)

// reportFlags are the report command's flags.
type reportFlags struct {
	out      string
	force    bool
	results  string
	trial    string
	sel      selection
	analyses string
	metric   string
	title    string
	rules    string
	query    *queryFlag
}

func (a *app) reportCmd() *cobra.Command {
	f := reportFlags{query: &queryFlag{}}
	cmd := &cobra.Command{
		Use:   "report --out DIR [--results ID,...] | [--trial T | --trials ... | --where EXPR] [--analyses A,B,...]",
		Short: "Write an HTML report (charts and tables) of stored results or of analyses run now",
		Long: `report writes a folder of HTML pages: index.html listing every result with its
main finding, the trials and parameters behind it and when it was made, and
one page per result with charts and the numbers behind each chart in a
sortable table. The pages open from the file system with no network: the
chart library (Apache ECharts) is written into DIR/assets.

The results are the stored ones named by --results (ids, see "taudb-analyze
results"), or analyses run now with their default options (--metric aside)
on --trial T, or on the trials of --trials/--where (single-trial analyses
then run once per trial; --rules FILE changes the classification of
regions for imbalance, summary and overhead alike). --analyses lists them:

  single-trial: ` + strings.Join(reportSingle, ", ") + `
  multi-trial:  ` + strings.Join(reportMulti, ", ") + ` (compare needs exactly two trials)

By default imbalance and regions for --trial, and speedup, scalability and
overhead (plus imbalance and regions of every trial) for a selection. Results
made now are not stored. The index path is printed at the end.

` + whereHelp,
		Example: `  taudb-analyze report --out rep --results 3,4,7
  taudb-analyze report --out rep --trial cpi-4 --analyses imbalance,regions,summary
  taudb-analyze report --out rep --where 'application == "matmult"' --analyses speedup,overhead,cluster`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return a.runReport(cmd.Context(), cmd, f) },
	}
	cmd.Flags().StringVar(&f.out, "out", "", "the report's folder (created if needed; refused if it holds files this tool did not write)")
	cmd.Flags().BoolVar(&f.force, "force", false, "write into a --out folder that holds other files, beside them (they are never replaced)")
	cmd.Flags().StringVar(&f.results, "results", "", "stored results by id, comma-separated")
	cmd.Flags().StringVar(&f.trial, "trial", "", "one trial (id or name; id:N or name:X to be explicit)")
	f.sel.register(cmd)
	cmd.Flags().StringVar(&f.analyses, "analyses", "", "analyses to run now, comma-separated (see above)")
	cmd.Flags().StringVar(&f.metric, "metric", "", "metric name (default: the first time metric)")
	cmd.Flags().StringVar(&f.title, "title", "", "the index page's title")
	cmd.Flags().StringVar(&f.rules, "rules", "", "a YAML rules file that adds, overrides or removes region classification rules (docs/rules.md)")
	f.query.register(cmd)
	return cmd
}

// runReport gathers the results and writes the report.
func (a *app) runReport(ctx context.Context, cmd *cobra.Command, f reportFlags) error {
	if f.out == "" {
		return usagef("--out DIR is required")
	}
	selected := f.sel != (selection{})
	switch {
	case f.results != "" && (f.trial != "" || selected || f.analyses != ""):
		return usagef("give --results or trials with --analyses, not both")
	case f.results == "" && f.trial == "" && !selected:
		return usagef("choose stored results with --results ID,... or trials with --trial, --trials or --where")
	case f.trial != "" && selected:
		return usagef("give --trial or a selection (--trials, --where), not both")
	case f.query.text != "" && f.trial == "":
		return usagef("--query needs --trial: it restricts the call graph of one trial")
	}
	if err := f.query.parse(); err != nil {
		return err
	}
	if err := report.CheckDir(f.out, f.force); err != nil {
		return err // before any work
	}
	db, err := a.openRead(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	var results []*analysis.Result
	source := "database " + db.URL()
	if f.results != "" {
		results, err = storedResults(ctx, db, f.results)
	} else {
		results, err = a.freshResults(ctx, db, f)
	}
	if err != nil {
		return err
	}
	idx, err := report.Write(f.out, results, report.Meta{Title: f.title, Created: time.Now(), Source: source, Force: f.force})
	if err != nil {
		return err
	}
	a.info("wrote %d result page(s)", len(results))
	fmt.Fprintln(a.out, idx)
	return nil
}

// storedResults loads the results of a comma-separated id list.
func storedResults(ctx context.Context, db *store.DB, list string) ([]*analysis.Result, error) {
	var out []*analysis.Result
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return nil, usagef("--results: %q is not a result id", s)
		}
		res, err := db.LoadResult(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	if len(out) == 0 {
		return nil, usagef("--results: no id given")
	}
	return out, nil
}

// freshResults loads the trials and runs the analyses on them now,
// through the registry with their default options (metric and rules aside).
func (a *app) freshResults(ctx context.Context, db *store.DB, f reportFlags) ([]*analysis.Result, error) {
	if f.rules != "" { // a bad rules file is refused before any trial is read
		if _, err := classify.LoadRules(f.rules); err != nil {
			return nil, err
		}
	}
	trials, q, names, err := a.reportTrials(ctx, db, f)
	if err != nil {
		return nil, err
	}
	var out []*analysis.Result
	for _, name := range names {
		rs, err := reportRun(ctx, name, trials, f)
		if err != nil {
			var ue usageError
			var re *registry.UsageError
			if errors.As(err, &ue) || errors.As(err, &re) {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, r := range rs {
			f.query.annotate(r, q)
		}
		out = append(out, rs...)
	}
	return out, nil
}

// reportTrials reads the report's trials (--trial, else the selection)
// and returns them with the analyses to run (--analyses, else the
// defaults for one trial or several). One trial whose analyses all read
// one and the same metric (registry.OneMetric) is read with that metric
// alone, unless --query, which may name any metric, is given.
func (a *app) reportTrials(ctx context.Context, db *store.DB, f reportFlags) ([]*drg.Trial, queried, []string, error) {
	names := splitList(f.analyses)
	if f.trial != "" {
		id, err := a.resolveTrial(ctx, db, f.trial)
		if err != nil {
			return nil, queried{}, nil, err
		}
		names = reportDefaults(names, 1)
		t, q, err := a.readQueriedTrial(ctx, db, id, f.query, reportReading(names, f))
		return []*drg.Trial{t}, q, names, err
	}
	ids, err := a.selectTrials(ctx, db, f.sel, 1)
	if err != nil {
		return nil, queried{}, nil, err
	}
	names = reportDefaults(names, len(ids))
	var how registry.Reading
	if len(ids) == 1 {
		how = reportReading(names, f)
	}
	how.Apart = true
	trials, err := a.loadTrials(ctx, db, ids, how)
	return trials, queried{}, names, err
}

// reportDefaults returns names, or when empty the analyses a report of n
// trials runs by default.
func reportDefaults(names []string, n int) []string {
	switch {
	case len(names) > 0:
		return names
	case n > 1:
		return []string{"speedup", "scalability", "overhead", "imbalance", "regions"}
	}
	return []string{"imbalance", "regions"}
}

// reportReading returns how to read a report's one trial: its metric
// alone when every analysis of names reads that one metric alone, as the
// report sets their options (registry.ReadingOf), without calls when none
// reads them; every value otherwise.
func reportReading(names []string, f reportFlags) registry.Reading {
	var how registry.Reading
	for i, name := range names {
		an, err := registry.Lookup(name)
		if err != nil {
			return registry.Reading{} // reportRun names the unknown analysis
		}
		o, err := reportOptions(an, f)
		r := registry.ReadingOf(o)
		if err != nil || r.Metric == nil || (i > 0 && *r.Metric != *how.Metric) {
			return registry.Reading{}
		}
		if i == 0 {
			how = r
		}
		how.WithoutCalls = how.WithoutCalls && r.WithoutCalls
	}
	return how
}

// reportOptions returns the analysis's default options with the report's
// --metric and --rules set where it has them.
func reportOptions(an *registry.Analysis, f reportFlags) (registry.Options, error) {
	o := an.Defaults()
	for opt, value := range map[string]string{"metric": f.metric, "rules": f.rules} {
		if value != "" && hasOption(an, opt) {
			if err := an.Set(o, opt, value); err != nil {
				return nil, err
			}
		}
	}
	return o, nil
}

// reportRun runs the registered analysis name with its default options,
// --metric and --rules aside: once per trial for a single-trial analysis,
// else once on all the trials.
func reportRun(ctx context.Context, name string, trials []*drg.Trial, f reportFlags) ([]*analysis.Result, error) {
	an, err := registry.Lookup(name)
	if err != nil || (!slices.Contains(reportSingle, name) && !slices.Contains(reportMulti, name)) {
		return nil, usagef("--analyses: unknown analysis %q (known: %s, %s)", name, strings.Join(reportSingle, ", "), strings.Join(reportMulti, ", "))
	}
	o, err := reportOptions(an, f)
	if err != nil {
		return nil, err
	}
	runs := [][]*drg.Trial{trials}
	switch {
	case an.Trials == registry.Single:
		runs = nil
		for _, t := range trials {
			runs = append(runs, []*drg.Trial{t})
		}
	case an.Trials == registry.Pair && len(trials) != 2:
		return nil, usagef("--analyses %s needs exactly two trials, not %d", name, len(trials))
	case len(trials) < an.MinTrials:
		return nil, usagef("--analyses %s needs at least two trials", name)
	}
	var out []*analysis.Result
	for _, ts := range runs {
		r, err := an.Run(ctx, o, registry.Input{Trials: ts})
		if err != nil {
			return nil, err
		}
		out = append(out, r.Result)
	}
	return out, nil
}

// hasOption says whether the analysis has the option name.
func hasOption(an *registry.Analysis, name string) bool {
	for _, o := range an.Options() {
		if o.Name == name {
			return true
		}
	}
	return false
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
