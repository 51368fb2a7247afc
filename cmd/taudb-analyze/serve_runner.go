package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/serve"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// analysisRunner runs the serve form's analyses: those the report command
// runs on the spot (runSingle, runMulti), on the trials chosen, storing
// each result.
type analysisRunner struct {
	a  *app
	db *store.DB
}

// metricOption is the option every analysis of the form takes.
var metricOption = serve.OptionSpec{Name: "metric", Type: "string", Help: "the metric analysed (the trials' time metric when empty)"}

// Analyses lists the analyses with their trial counts.
func (r *analysisRunner) Analyses() []serve.AnalysisSpec {
	help := map[string]string{
		"imbalance":   "load imbalance per region: mean, max, balance = mean/max, severity, the threads at the extremes",
		"regions":     "top regions by exclusive and inclusive value with % of main",
		"summary":     "time per thread split into computation, MPI, OpenMP, I/O, other",
		"correlate":   "Pearson r across threads between regions",
		"compare":     "two trials region by region: A, B, B−A, B/A",
		"speedup":     "speedup and efficiency of the program and every region against p",
		"scalability": "per-region efficiency, Karp-Flatt, Amdahl and a fitted scaling model",
		"overhead":    "SCALEA's overhead classification per experiment and region",
		"cluster":     "threads grouped by behaviour (k-means, k by silhouette)",
	}
	var out []serve.AnalysisSpec
	for _, n := range reportSingle {
		out = append(out, serve.AnalysisSpec{Name: n, Help: help[n], MinTrials: 1, MaxTrials: 1, Options: []serve.OptionSpec{metricOption}})
	}
	for _, n := range reportMulti {
		sp := serve.AnalysisSpec{Name: n, Help: help[n], MinTrials: 2, Options: []serve.OptionSpec{metricOption}}
		if n == "compare" {
			sp.MaxTrials = 2
		}
		if n == "cluster" {
			sp.MinTrials = 1
		}
		out = append(out, sp)
	}
	return out
}

// Run loads the trials, runs the analysis and stores its result.
func (r *analysisRunner) Run(ctx context.Context, name string, ids []int64, opts map[string]string) (int64, error) {
	var ts []*drg.Trial
	for _, id := range ids {
		t, err := r.db.LoadTrial(ctx, id)
		if err != nil {
			if errors.Is(err, store.ErrNoTrial) {
				return 0, &serve.InputError{Msg: fmt.Sprintf("trial %d does not exist", id)}
			}
			return 0, err
		}
		ts = append(ts, t)
	}
	var res *analysis.Result
	var err error
	if single(name) {
		res, err = runSingle(name, ts[0], opts["metric"], nil)
	} else {
		res, err = runMulti(name, ts, opts["metric"], nil)
	}
	if err != nil {
		// The analysis refused these trials or options: the user can fix it.
		return 0, &serve.InputError{Msg: name + ": " + err.Error()}
	}
	return r.db.SaveResult(ctx, res, ids)
}
