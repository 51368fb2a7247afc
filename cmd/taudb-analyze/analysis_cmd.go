package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// trialChoice is how a command line names an analysis's trials: --trial
// (one; twice for a pair), or a selection (--trials, --where, --view) for
// a series.
type trialChoice struct {
	trial string   // --trial T of a single-trial analysis (and cluster)
	pair  []string // --trial A --trial B of a pair
	sel   selection
}

// runFlags are the flags of every analysis command besides its options and
// its trials.
type runFlags struct {
	noSave bool
	table  string
	// query is --query of a single-trial analysis (and of cluster --trial),
	// or a study entry's query; nil for none.
	query *queryFlag
}

// analysisCmds returns one command per registered analysis.
func (a *app) analysisCmds() []*cobra.Command {
	var out []*cobra.Command
	for _, an := range registry.All() {
		out = append(out, a.analysisCmd(an))
	}
	return out
}

// analysisCmd binds the registered analysis an to a command: its options
// are the command's flags, plus the flags naming its trials, --no-save and
// --table, and the command's own extra modes (extraMode).
func (a *app) analysisCmd(an *registry.Analysis) *cobra.Command {
	o := an.New()
	var ch trialChoice
	var rf runFlags
	long := an.Long
	if an.Trials == registry.Series {
		long += "\n\n" + whereHelp
	}
	cmd := &cobra.Command{Use: an.Use, Short: an.Short, Long: long, Example: an.Example, Args: cobra.NoArgs}
	cmd.Flags().AddFlagSet(an.FlagSet(o))
	ch.register(cmd, an)
	cmd.Flags().BoolVar(&rf.noSave, "no-save", false, "do not store the result in the database")
	tableHelp := "with --format csv: the result table to print (default: the first)"
	if an.Trials == registry.Pair {
		tableHelp = "with --format csv: the result table to print"
	}
	cmd.Flags().StringVar(&rf.table, "table", "", tableHelp)
	if an.Trials == registry.Single || an.AlsoSingle {
		rf.query = &queryFlag{}
		rf.query.register(cmd)
	}
	extra := a.extraMode(an, cmd, o, &ch, &rf)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if extra != nil {
			if done, err := extra(cmd.Context()); done {
				return err
			}
		}
		return a.runCommand(cmd.Context(), an, o, ch, rf)
	}
	return cmd
}

// register declares the flags that name the trials of an.
func (ch *trialChoice) register(cmd *cobra.Command, an *registry.Analysis) {
	switch an.Trials {
	case registry.Single:
		cmd.Flags().StringVar(&ch.trial, "trial", "", "trial id or name; id:N or name:X when a name is also an id (default: the only trial in the database)")
	case registry.Pair:
		cmd.Flags().StringArrayVar(&ch.pair, "trial", nil, "trial A, then trial B (ids or names; id:N or name:X to be explicit)")
	default:
		ch.sel.register(cmd)
		if an.AlsoSingle {
			cmd.Flags().StringVar(&ch.trial, "trial", "", "one trial (id or name; id:N or name:X to be explicit)")
		}
	}
}

// check checks the trial flags alone, before the database is opened.
func (ch trialChoice) check(an *registry.Analysis) error {
	switch {
	case an.Trials == registry.Pair && len(ch.pair) != 2:
		return usagef("%s needs --trial twice (A, then B), got %d", an.Name, len(ch.pair))
	case an.Trials == registry.Series && ch.trial != "" && (ch.sel.trials != "" || ch.sel.where != "" || ch.sel.view != ""):
		return usagef("give --trial or a selection (--trials, --where, --view), not both")
	}
	return nil
}

// runCommand runs an analysis command: it validates the options and the
// trial flags, opens the database (for writing unless nothing is stored),
// resolves the trials, runs the analysis, stores and prints the result.
func (a *app) runCommand(ctx context.Context, an *registry.Analysis, o registry.Options, ch trialChoice, rf runFlags) error {
	if err := o.Validate(); err != nil {
		return err
	}
	if fi, ok := o.(interface{ FileInput() string }); ok && fi.FileInput() != "" {
		return a.runFileInput(ctx, o, ch, rf.table)
	}
	if err := ch.check(an); err != nil {
		return err
	}
	if err := rf.query.check(an, ch, savesMetric(o)); err != nil {
		return err
	}
	db, err := a.openFor(ctx, !rf.noSave || savesMetric(o))
	if err != nil {
		return err
	}
	defer db.Close()
	ids, err := a.resolveTrials(ctx, db, an, ch)
	if err != nil {
		return err
	}
	r, err := a.runIDs(ctx, db, an, o, ids, rf)
	if err != nil {
		return err
	}
	if v, ok := o.(interface{ Verdict(*analysis.Result) error }); ok {
		return v.Verdict(r.out.Result) // regress --fail-on: after the output
	}
	return nil
}

// runFileInput runs an analysis whose options name a measurement file
// (scalability --input) on that file alone: no database, no trials, the
// result printed and not stored.
func (a *app) runFileInput(ctx context.Context, o registry.Options, ch trialChoice, table string) error {
	if ch.trial != "" || ch.sel.trials != "" || ch.sel.where != "" || ch.sel.view != "" {
		return usagef("--input models a file: give no --trial, --trials, --where or --view")
	}
	out, err := o.Run(ctx, registry.Input{})
	if err != nil {
		return err
	}
	return a.printResult(out.Result, table)
}

// savesMetric says whether the options store a metric even when the
// result is not stored (ratio --save-metric).
func savesMetric(o registry.Options) bool {
	m, ok := o.(interface{ SavesMetric() bool })
	return ok && m.SavesMetric()
}

// resolveTrials returns the ids of the trials the flags name: one (the
// only trial of the database when --trial is not given), two, or the
// selection of a series (at least an.MinTrials).
func (a *app) resolveTrials(ctx context.Context, db *store.DB, an *registry.Analysis, ch trialChoice) ([]int64, error) {
	refs := ch.pair
	switch {
	case an.Trials == registry.Single:
		refs = []string{ch.trial}
	case an.Trials == registry.Series && ch.trial != "":
		return a.selectTrials(ctx, db, selection{trials: ch.trial}, an.MinTrials)
	case an.Trials == registry.Series:
		return a.selectTrials(ctx, db, ch.sel, an.MinTrials)
	}
	ids := make([]int64, len(refs))
	for i, ref := range refs {
		var err error
		if ids[i], err = a.resolveTrial(ctx, db, ref); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// ranResult is one result an analysis produced: its id (0 when not
// stored), whether a stored one was reused, and the result.
type ranResult struct {
	id     int64
	reused bool
	out    registry.Output
}

// runIDs reads the trials ids (and a compare set the options name) from
// db, runs the analysis, stores the result unless rf.noSave and prints it.
// The CLI and studies both run analyses through it, on one open database.
func (a *app) runIDs(ctx context.Context, db *store.DB, an *registry.Analysis, o registry.Options, ids []int64, rf runFlags) (ranResult, error) {
	start := time.Now()
	out, all, err := a.runReusing(ctx, db, o, ids)
	var q queried
	if err == nil && out.Result == nil {
		var in registry.Input
		if in, all, q, err = a.readQueried(ctx, db, an, o, ids, rf.query); err != nil {
			return ranResult{}, err
		}
		start = time.Now()
		out, err = an.Run(ctx, o, in)
	}
	if err != nil {
		return ranResult{}, flagError(err)
	}
	rf.query.annotate(out.Result, q)
	a.detail("%s computed in %v over %d trial(s)", out.Result.Analysis, since(start), len(all))
	with := storeWith{metric: out.Metric, images: an.Images}
	r := ranResult{out: out}
	r.id, r.reused, err = a.storeAndPrint(ctx, db, out.Result, all, rf.noSave, rf.table, with)
	return r, err
}

// reusingRunner is an analysis that can build on a stored result of its
// own (regress on a longer history: registry.Regress.RunReusing).
type reusingRunner interface {
	RunReusing(ctx context.Context, db *store.DB, ids []int64, read func([]int64) ([]*drg.Trial, error)) (registry.Output, registry.Reuse, error)
}

// runReusing runs an analysis that can reuse a stored result of its own
// on the trials ids, reading only the trials that result does not hold; a
// zero output when it cannot (the caller then reads every trial).
func (a *app) runReusing(ctx context.Context, db *store.DB, o registry.Options, ids []int64) (registry.Output, []int64, error) {
	rr, ok := o.(reusingRunner)
	if !ok {
		return registry.Output{}, nil, nil
	}
	out, reuse, err := rr.RunReusing(ctx, db, ids, func(ids []int64) ([]*drg.Trial, error) { return a.loadTrials(ctx, db, ids, registry.Reading{}) })
	if err != nil || out.Result == nil {
		return registry.Output{}, nil, err
	}
	a.info("reused what result %d kept of %d trial(s); read %d new trial(s) (--full-history reads every trial)", reuse.From, reuse.Trials, reuse.Read)
	return out, ids, nil
}

// readQueried reads the input as readInput does and, with --query (qf,
// nil without one), its one trial through readQueriedTrial.
func (a *app) readQueried(ctx context.Context, db *store.DB, an *registry.Analysis, o registry.Options, ids []int64, qf *queryFlag) (registry.Input, []int64, queried, error) {
	if qf == nil || qf.q == nil || len(ids) != 1 {
		in, all, err := a.readInput(ctx, db, an, o, ids)
		return in, all, queried{}, err
	}
	t, q, err := a.readQueriedTrial(ctx, db, ids[0], qf, registry.Reading{})
	return registry.Input{Trials: []*drg.Trial{t}, IDs: ids}, ids, q, err
}

// readInput reads the trials ids and, when the options name one
// (speedup --compare-set), a second set of trials; it returns the input
// and the ids of every trial read (those the result is stored with).
func (a *app) readInput(ctx context.Context, db *store.DB, an *registry.Analysis, o registry.Options, ids []int64) (registry.Input, []int64, error) {
	all := ids
	nA := len(ids)
	if s, ok := o.(interface{ SecondSet() string }); ok && s.SecondSet() != "" {
		idsB, err := a.selectTrials(ctx, db, selection{trials: s.SecondSet()}, 1)
		if err != nil {
			return registry.Input{}, nil, err
		}
		seen := map[int64]bool{}
		for _, id := range ids {
			seen[id] = true
		}
		for _, id := range idsB {
			if seen[id] {
				return registry.Input{}, nil, fmt.Errorf("--compare-set: a trial is in both sets")
			}
		}
		all = append(append([]int64(nil), ids...), idsB...)
	}
	how := registry.ReadingOf(o)
	how.Apart = an.Trials == registry.Series
	trials, err := a.loadTrials(ctx, db, all, how)
	if err != nil {
		return registry.Input{}, nil, err
	}
	in := registry.Input{Trials: trials[:nA], IDs: ids}
	if len(all) > nA {
		in.Compare = trials[nA:]
	}
	return in, all, nil
}

// loadTrials reads the trials ids from db as how says (registry.ReadTrials,
// several at once) with a progress bar.
func (a *app) loadTrials(ctx context.Context, db *store.DB, ids []int64, how registry.Reading) ([]*drg.Trial, error) {
	bar := a.progress(len(ids), "reading trials")
	how.Step = func() { bar.step("") }
	trials, took, err := registry.ReadTrials(ctx, db, ids, how)
	bar.done()
	if err != nil {
		return nil, err
	}
	for i, t := range trials {
		a.detail("read trial %d %q from the database in %v: %d threads, %d call-graph nodes, %d metrics", ids[i], t.Name, took[i].Round(time.Millisecond), len(t.Threads), len(t.Nodes), len(t.Metrics))
	}
	return trials, nil
}
