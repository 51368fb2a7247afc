package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/callquery"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// queryFlag is --query: a call-path query (docs/query.md) that restricts
// a single-trial analysis to the call-graph nodes it matches.
type queryFlag struct {
	text string
	q    *callquery.Query
}

const queryUsage = `restrict the analysis to the call-graph nodes this call-path query matches, e.g. 'MATCH ("*")->(".", p) WHERE p."name" STARTS WITH "MPI_"' (docs/query.md)`

func (f *queryFlag) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.text, "query", "", queryUsage)
}

// check parses the query of an analysis command (see parse) and refuses
// it where it does not apply: on cluster without --trial, and with
// ratio --save-metric, which stores the metric of the whole trial.
func (f *queryFlag) check(an *registry.Analysis, ch trialChoice, savesMetric bool) error {
	if f == nil || f.text == "" {
		return nil
	}
	switch {
	case an.Trials == registry.Series && ch.trial == "":
		return usagef("--query needs --trial: it restricts the call graph of one trial")
	case savesMetric:
		return usagef("--save-metric stores the metric of the whole trial: leave out --query")
	}
	return f.parse()
}

// parse reads the query, if one was given: a bad one is a usage error
// (exit code 2) naming the flag and the column.
func (f *queryFlag) parse() error {
	if f == nil || f.text == "" {
		return nil
	}
	q, err := callquery.Parse(f.text)
	if err != nil {
		return usagef("--query: %v", err)
	}
	f.q = q
	return nil
}

// queried is a trial restricted by --query, with what was matched.
type queried struct {
	trial          *drg.Trial
	matched, nodes int  // matched nodes, nodes of the call graph
	mainKept       bool // the main region's flat node matched
}

// restrictTrial is the one place --query applies: it matches the query
// against trial t and returns the part of t it matched (callquery.Restrict),
// or t itself when there is no query. An attribute the trial lacks is a
// usage error with the column; a query that matches nothing is an error.
func (f *queryFlag) restrictTrial(t *drg.Trial) (queried, error) {
	if f == nil || f.q == nil {
		return queried{trial: t}, nil
	}
	if err := t.MakeDense("--query"); err != nil {
		return queried{}, err
	}
	r, err := f.q.Match(t)
	var qe *callquery.Error
	if errors.As(err, &qe) {
		return queried{}, usagef("--query: %v", err)
	}
	if err != nil {
		return queried{}, fmt.Errorf("--query: %w", err)
	}
	if r.Len() == 0 {
		return queried{}, fmt.Errorf("--query matched no call-graph node of trial %q: nothing to analyse", t.Name)
	}
	out := queried{trial: callquery.Restrict(t, r), matched: r.Len(), nodes: callquery.GraphSize(t)}
	if m := t.MainRegion(t.TimeMetric()); m >= 0 {
		out.mainKept = r.Has(t.Regions[m].Flat)
	}
	return out, nil
}

// annotate records the query in the result's parameters (so a result
// with a query is never reused for one without) and says first what the
// analysis was restricted to.
func (f *queryFlag) annotate(res *analysis.Result, q queried) {
	if f == nil || f.q == nil || res == nil {
		return
	}
	if res.Params == nil {
		res.Params = map[string]string{}
	}
	res.Params["query"] = f.text
	msg := fmt.Sprintf("Restricted by --query to %d of the %d call-graph nodes (%d regions).", q.matched, q.nodes, len(q.trial.Regions))
	if !q.mainKept {
		msg += " The query did not match the main region: it is kept with exclusive value 0 as the reference of percentages, which stay shares of the whole program."
	}
	res.Findings = append([]string{msg}, res.Findings...)
}

// structural reports whether a query was given that names no metric: its
// matches follow from the call graph's structure alone.
func (f *queryFlag) structural() bool {
	return f != nil && f.q != nil && !f.q.NeedsValues()
}

// readPart reads stored trial id for a structural query: the structure,
// then the values of only the nodes the query matches and of the call
// graph's roots (among which the main region, the reference of
// percentages), through store.DB.LoadTrialPart.
func (f *queryFlag) readPart(ctx context.Context, a *app, db *store.DB, id int64) (*drg.Trial, error) {
	start := time.Now()
	var picked, total int
	t, err := db.LoadTrialPart(ctx, id, func(shape *drg.Trial) ([]int, error) {
		if err := shape.MakeDense("--query"); err != nil {
			return nil, err
		}
		r, err := f.q.Match(shape)
		if err != nil {
			return nil, usagef("--query: %v", err)
		}
		roots, _ := callquery.CallGraph(shape)
		picked, total = r.Len(), len(shape.Nodes)
		return append(append([]int(nil), r.Nodes...), roots...), nil
	})
	if err != nil {
		return nil, err
	}
	a.detail("the query names no metric: read trial %d with the values of the %d matched of %d call-graph nodes (and the roots) in %v", id, picked, total, since(start))
	return t, nil
}

// readQueriedTrial is the one place --query reads a stored trial: a query
// naming no metric is matched on the trial's structure and only the
// matched nodes' values are read (readPart), any other reads the whole
// trial; the trial is then restricted to the matched nodes
// (restrictTrial). Without a query, the trial is read as alone says
// (one metric, registry.ReadingOf); with one, which may name any metric
// or count, whole.
func (a *app) readQueriedTrial(ctx context.Context, db *store.DB, id int64, f *queryFlag, alone registry.Reading) (*drg.Trial, queried, error) {
	var t *drg.Trial
	var err error
	how := registry.Reading{}
	if f == nil || f.q == nil {
		how = alone
	}
	if f.structural() {
		t, err = f.readPart(ctx, a, db, id)
	} else {
		var ts []*drg.Trial
		if ts, err = a.loadTrials(ctx, db, []int64{id}, how); err == nil {
			t = ts[0]
		}
	}
	if err != nil {
		return nil, queried{}, err
	}
	q, err := f.restrictTrial(t)
	return q.trial, q, err
}
