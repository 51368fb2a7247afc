package serve

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// testRunner runs the registered analyses on the trials as stored and
// stores their results (the command line's runner also reads a second set
// of trials for speedup --compare-set).
type testRunner struct{ db *store.DB }

func (r *testRunner) Analyses() []AnalysisSpec { return RegisteredAnalyses() }

func (r *testRunner) Run(ctx context.Context, name string, ids []int64, opts map[string]string) (int64, error) {
	an, o, err := SetOptions(name, opts)
	if err != nil {
		return 0, err
	}
	var in registry.Input
	for _, id := range ids {
		t, err := r.db.LoadTrial(ctx, id)
		if err != nil {
			return 0, err
		}
		in.Trials = append(in.Trials, t)
	}
	out, err := an.Run(ctx, o, in)
	if err != nil {
		return 0, &InputError{Msg: err.Error()}
	}
	x := store.ResultExtras{Metric: out.Metric}
	if an.Images != nil {
		if x.Images, err = an.Images(out.Result); err != nil {
			return 0, err
		}
	}
	saved, err := r.db.SaveResultWith(ctx, out.Result, ids, x)
	return saved.ID, err
}
