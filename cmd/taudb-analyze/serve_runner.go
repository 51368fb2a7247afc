package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/serve"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// analysisRunner runs the serve form's analyses through the registry, as
// the analysis commands do, and stores each result.
type analysisRunner struct {
	a  *app
	db *store.DB
}

// formTypes maps the registry's option types to the form's.
var formTypes = map[string]string{"bool": "bool", "int": "int", "uint64": "int", "float64": "float", "string": "string", "stringSlice": "string"}

// Analyses lists every registered analysis with its options.
func (r *analysisRunner) Analyses() []serve.AnalysisSpec {
	var out []serve.AnalysisSpec
	for _, an := range registry.All() {
		sp := serve.AnalysisSpec{Name: an.Name, Help: an.Short, MinTrials: an.MinTrials}
		switch an.Trials {
		case registry.Single:
			sp.MaxTrials = 1
		case registry.Pair:
			sp.MaxTrials = 2
		}
		if an.AlsoSingle {
			sp.MinTrials = 1
		}
		for _, o := range an.Options() {
			typ := formTypes[o.Type]
			if typ == "" {
				typ = "string"
			}
			help := o.Help
			if o.Type == "stringSlice" {
				help += " (a comma-separated list)"
			}
			sp.Options = append(sp.Options, serve.OptionSpec{Name: o.Name, Type: typ, Default: o.Default, Help: help, Choices: o.Allowed})
		}
		out = append(out, sp)
	}
	return out
}

// Run sets the options, reads the trials, runs the analysis and stores its
// result with what it stores beside it (a derived metric, pictures). What
// the user can fix (an option, a trial, an analysis refusing the data) is
// a *serve.InputError.
func (r *analysisRunner) Run(ctx context.Context, name string, ids []int64, opts map[string]string) (int64, error) {
	an, err := registry.Lookup(name)
	if err != nil {
		return 0, &serve.InputError{Msg: err.Error()}
	}
	o := an.Defaults()
	for k, v := range opts {
		if err := an.Set(o, k, v); err != nil {
			return 0, &serve.InputError{Msg: err.Error()}
		}
	}
	if err := o.Validate(); err != nil {
		return 0, &serve.InputError{Msg: err.Error()}
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
