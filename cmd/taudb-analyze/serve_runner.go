package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/serve"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// analysisRunner runs the serve form's analyses through the registry, as
// the analysis commands do, and stores each result.
type analysisRunner struct {
	a  *app
	db *store.DB
}

// Analyses lists every registered analysis with its options.
func (r *analysisRunner) Analyses() []serve.AnalysisSpec { return serve.RegisteredAnalyses() }

// Run sets the options, reads the trials, runs the analysis and stores its
// result with what it stores beside it (a derived metric, pictures). What
// the user can fix (an option, a trial, an analysis refusing the data) is
// a *serve.InputError.
func (r *analysisRunner) Run(ctx context.Context, name string, ids []int64, opts map[string]string) (int64, error) {
	an, o, err := serve.SetOptions(name, opts)
	if err != nil {
		return 0, err
	}
	in, all, err := r.a.readInput(ctx, r.db, an, o, ids)
	var ue interface{ Usage() bool }
	switch {
	case errors.Is(err, store.ErrNoTrial):
		return 0, &serve.InputError{Msg: fmt.Sprintf("a chosen trial does not exist: %v", err)}
	case errors.As(err, &ue) && ue.Usage():
		return 0, &serve.InputError{Msg: err.Error()}
	case err != nil:
		return 0, err
	}
	out, err := an.Run(ctx, o, in)
	if err != nil {
		// The analysis refused these trials or options: the user can fix it.
		return 0, &serve.InputError{Msg: name + ": " + err.Error()}
	}
	return r.a.saveResult(ctx, r.db, out.Result, all, storeWith{metric: out.Metric, images: an.Images})
}
