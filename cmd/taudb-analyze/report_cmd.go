package main

import (
	"context"
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/cluster"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/overhead"
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
	rules    rulesFlag
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
	f.rules.register(cmd)
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

// freshResults loads the trials and runs the analyses on them now.
func (a *app) freshResults(ctx context.Context, db *store.DB, f reportFlags) ([]*analysis.Result, error) {
	var trials []*drg.Trial
	var q queried
	if f.trial != "" {
		lt, err := a.loadTrial(ctx, db, f.trial)
		if err != nil {
			return nil, err
		}
		if q, err = f.query.restrictTrial(lt.trial); err != nil {
			return nil, err
		}
		trials = append(trials, q.trial)
	} else {
		ids, err := a.selectTrials(ctx, db, f.sel, 1)
		if err != nil {
			return nil, err
		}
		names := map[string]int{}
		for _, id := range ids {
			t, err := db.LoadTrial(ctx, id)
			if err != nil {
				return nil, err
			}
			trials = append(trials, t)
			names[t.Name]++
		}
		for i, t := range trials {
			if names[t.Name] > 1 {
				t.Name = fmt.Sprintf("%s (trial %d)", t.Name, ids[i])
			}
		}
	}
	rules, err := f.rules.load()
	if err != nil {
		return nil, err
	}
	names := splitList(f.analyses)
	if len(names) == 0 {
		names = []string{"imbalance", "regions"}
		if f.trial == "" && len(trials) > 1 {
			names = []string{"speedup", "scalability", "overhead", "imbalance", "regions"}
		}
	}
	var out []*analysis.Result
	for _, name := range names {
		var rs []*analysis.Result
		var err error
		if single(name) {
			for _, t := range trials {
				var r *analysis.Result
				if r, err = runSingle(name, t, f.metric, rules); err != nil {
					break
				}
				rs = append(rs, r)
			}
		} else {
			var r *analysis.Result
			if r, err = runMulti(name, trials, f.metric, rules); err == nil {
				rs = append(rs, r)
			}
		}
		if err != nil {
			if _, ok := err.(usageError); ok {
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

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func single(name string) bool {
	for _, s := range reportSingle {
		if s == name {
			return true
		}
	}
	return false
}

// runSingle runs a single-trial analysis with default options (rules nil:
// the default classification).
func runSingle(name string, t *drg.Trial, metric string, rules []classify.Rule) (*analysis.Result, error) {
	switch name {
	case "imbalance":
		return analysis.Imbalance(t, analysis.ImbalanceOptions{Metric: metric, Rules: rules})
	case "regions":
		return analysis.Regions(t, analysis.RegionsOptions{Metric: metric})
	case "summary":
		return analysis.Summary(t, analysis.SummaryOptions{Metric: metric, Rules: rules})
	case "correlate":
		return analysis.Correlate(t, analysis.CorrelateOptions{Metric: metric})
	}
	return nil, usagef("--analyses: unknown analysis %q", name)
}

// runMulti runs a multi-trial analysis with default options (rules nil:
// the default classification).
func runMulti(name string, ts []*drg.Trial, metric string, rules []classify.Rule) (*analysis.Result, error) {
	series := func() (analysis.Series, error) { return analysis.NewSeries(ts, "", "") }
	sopt := analysis.SeriesOptions{Metric: metric, Aggregate: "max", Rules: rules}
	switch name {
	case "compare":
		if len(ts) != 2 {
			return nil, usagef("--analyses compare needs exactly two trials, not %d", len(ts))
		}
		return analysis.Compare(ts[0], ts[1], analysis.CompareOptions{Metric: metric})
	case "speedup", "scalability":
		if len(ts) < 2 {
			return nil, usagef("--analyses %s needs at least two trials", name)
		}
		s, err := series()
		if err != nil {
			return nil, err
		}
		if name == "speedup" {
			return analysis.Speedup(s, analysis.SpeedupOptions{SeriesOptions: sopt})
		}
		return analysis.Scalability(s, analysis.ScalabilityOptions{SeriesOptions: sopt})
	case "overhead":
		s, err := series()
		if err != nil {
			return nil, err
		}
		return overhead.Analyze(ts, s.Ps(), overhead.Options{Metric: metric, Aggregate: "max", Unit: "process", Rules: rules})
	case "cluster":
		opt := cluster.Options{Method: "kmeans", MaxK: 10, AutoK: "silhouette",
			Normalization: "none", Reduction: "none", X: 1, Seed: 1, Restarts: 10, MinPts: 4}
		opt.Metric = metric
		return cluster.Cluster(ts, opt)
	}
	return nil, usagef("--analyses: unknown analysis %q (known: %s, %s)", name, strings.Join(reportSingle, ", "), strings.Join(reportMulti, ", "))
}
