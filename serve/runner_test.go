package serve

import (
	"context"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// testRunner runs the regions analysis (the command line gives the server
// a runner over every analysis).
type testRunner struct{ db *store.DB }

func (r *testRunner) Analyses() []AnalysisSpec {
	return []AnalysisSpec{{Name: "regions", Help: "top regions", MinTrials: 1, MaxTrials: 1,
		Options: []OptionSpec{{Name: "top", Type: "int", Default: "10", Help: "regions listed"}}}}
}

func (r *testRunner) Run(ctx context.Context, name string, ids []int64, opts map[string]string) (int64, error) {
	t, err := r.db.LoadTrial(ctx, ids[0])
	if err != nil {
		return 0, err
	}
	res, err := analysis.Regions(t, analysis.RegionsOptions{})
	if err != nil {
		return 0, &InputError{Msg: err.Error()}
	}
	return r.db.SaveResult(ctx, res, ids)
}
