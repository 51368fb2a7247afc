package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"github.com/taudb-analyze/taudb-analyze/metrics"
	"github.com/taudb-analyze/taudb-analyze/overhead"
	"github.com/taudb-analyze/taudb-analyze/registry"
)

// extraMode adds the flags of a command's modes that print something other
// than its analysis (ratio --list, overhead --list-rules) and returns what
// runs them: done is true when a mode ran. Nil when the command has none.
func (a *app) extraMode(an *registry.Analysis, cmd *cobra.Command, o registry.Options, ch *trialChoice, rf *runFlags) func(ctx context.Context) (done bool, err error) {
	var on bool
	switch opt := o.(type) {
	case *registry.Ratio:
		cmd.Flags().BoolVar(&on, "list", false, "list the built-in ratios available for the trial")
		return func(ctx context.Context) (bool, error) {
			if !on {
				return false, nil
			}
			return true, a.listRatios(ctx, ch.trial, !rf.noSave || opt.SaveMetric)
		}
	case *registry.Regress:
		// --format junit marks the regressions of at least --threshold.
		return func(ctx context.Context) (bool, error) {
			th, err := opt.ThresholdFraction()
			a.junitThreshold = th
			return err != nil, err
		}
	case *registry.Overhead:
		cmd.Flags().BoolVar(&on, "list-rules", false, "print the classification rules (with --rules applied) and exit")
		return func(ctx context.Context) (bool, error) {
			if !on {
				return false, nil
			}
			return true, a.listRules(opt.Rules)
		}
	}
	return nil
}

// listRatios prints the built-in ratios the metrics of the trial ref
// allow (ratio --list).
func (a *app) listRatios(ctx context.Context, ref string, write bool) error {
	db, err := a.openFor(ctx, write)
	if err != nil {
		return err
	}
	defer db.Close()
	lt, err := a.loadTrial(ctx, db, ref)
	if err != nil {
		return err
	}
	avail := metrics.Available(metrics.Names(lt.trial))
	switch a.format {
	case "json":
		return writeJSON(a.out, avail)
	}
	tb := table2("name", "expression", "unit", "what")
	for _, b := range avail {
		tb.add(b.Name, b.Expr, b.Unit, b.Title)
	}
	if a.format == "csv" {
		return tb.writeCSV(a.out)
	}
	return tb.writeText(a.out)
}

// listRules prints the classification rules in effect: the defaults
// changed by the rules file path (overhead --list-rules).
func (a *app) listRules(path string) error {
	rs := classify.Default()
	if path != "" {
		var err error
		if rs, err = classify.LoadRules(path); err != nil {
			return err
		}
	}
	rt := overhead.RulesTable(rs)
	tb := resultTable(&rt, true)
	if a.format == "csv" {
		return tb.writeCSV(a.out)
	}
	return tb.writeText(a.out)
}
