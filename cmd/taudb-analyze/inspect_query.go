package main

import (
	"context"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/callquery"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// matchedNode is one node inspect --query prints. The values are means
// over the threads that executed the node, of the first time metric; they
// are absent when no thread executed the node.
type matchedNode struct {
	Node      string   `json:"node"`
	Region    string   `json:"region"`
	Depth     int      `json:"depth"`
	Exclusive *float64 `json:"exclusive,omitempty"`
	Inclusive *float64 `json:"inclusive,omitempty"`
	Calls     *float64 `json:"calls,omitempty"`
}

// queryReport is what inspect --query prints as JSON.
type queryReport struct {
	Trial   string        `json:"trial"`
	Query   string        `json:"query"`
	Metric  string        `json:"metric,omitempty"`
	Graph   int           `json:"graph_nodes"`
	Matched []matchedNode `json:"matched"`
}

// inspectStored runs --query on stored trial ref: when the query names no
// metric, with the values of only the matched nodes (and the roots) read
// (store.DB.LoadTrialPart), else from the whole trial.
func (a *app) inspectStored(ctx context.Context, ref string, f *queryFlag) error {
	db, err := a.openFor(ctx, false)
	if err != nil {
		return err
	}
	defer db.Close()
	id, err := a.resolveTrial(ctx, db, ref)
	if err != nil {
		return err
	}
	if f.structural() {
		t, err := f.readPart(ctx, a, db, id)
		if err != nil {
			return err
		}
		return a.printQuery(t, f)
	}
	lt, err := a.loadTrial(ctx, db, ref)
	if err != nil {
		return err
	}
	return a.printQuery(lt.trial, f)
}

// printQuery matches the query on t and prints the matched nodes in
// depth-first order.
func (a *app) printQuery(t *drg.Trial, f *queryFlag) error {
	if err := t.MakeDense("--query"); err != nil {
		return err
	}
	r, err := f.q.Match(t)
	if err != nil {
		return usagef("--query: %v", err)
	}
	rep := queryReport{Trial: t.Name, Query: f.text, Graph: callquery.GraphSize(t)}
	m := t.TimeMetric()
	if m >= 0 {
		rep.Metric = t.Metrics[m].Name
	}
	for _, n := range r.Preorder() {
		mn := matchedNode{Node: t.Nodes[n].Name, Region: t.Regions[t.Nodes[n].Region].Name, Depth: t.Nodes[n].Depth}
		if rep.Metric != "" {
			if ex, in, calls, ok := nodeMeans(t, m, n); ok {
				mn.Exclusive, mn.Inclusive, mn.Calls = &ex, &in, &calls
			}
		}
		rep.Matched = append(rep.Matched, mn)
	}
	switch a.format {
	case "json":
		return writeJSON(a.out, rep)
	case "csv":
		tb := matchedTable(rep)
		return tb.writeCSV(a.out)
	}
	fmt.Fprintf(a.out, "%d of the %d call-graph nodes of trial %s match the query\n", len(rep.Matched), rep.Graph, escapeText(fmt.Sprintf("%q", t.Name), ""))
	if len(rep.Matched) == 0 {
		return nil
	}
	fmt.Fprintln(a.out)
	tb := matchedTable(rep)
	return tb.writeText(a.out)
}

func matchedTable(rep queryReport) table {
	tb := table{header: []string{"node", "depth"}}
	if rep.Metric != "" {
		tb.header = append(tb.header, "exclusive "+rep.Metric, "inclusive "+rep.Metric, "calls")
	}
	for _, m := range rep.Matched {
		row := []string{m.Node, fmt.Sprint(m.Depth)}
		switch {
		case rep.Metric != "" && m.Exclusive != nil:
			row = append(row, num(*m.Exclusive), num(*m.Inclusive), num(*m.Calls))
		case rep.Metric != "":
			row = append(row, "-", "-", "-") // no thread executed the node
		}
		tb.add(row...)
	}
	return tb
}

// nodeMeans returns node n's mean exclusive and inclusive value of metric
// m and its mean calls, over the threads that executed it; ok is false
// when none did.
func nodeMeans(t *drg.Trial, m, n int) (excl, incl, calls float64, ok bool) {
	nt := len(t.Threads)
	k := 0
	for th := 0; th < nt; th++ {
		c := n*nt + th
		if !t.Present.Get(c) {
			continue
		}
		k++
		excl += t.Values[m].Exclusive[c]
		incl += t.Values[m].Inclusive[c]
		calls += t.Calls[c]
	}
	if k == 0 {
		return 0, 0, 0, false
	}
	return excl / float64(k), incl / float64(k), calls / float64(k), true
}
