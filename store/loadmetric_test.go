package store_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// sameMetricCells checks that one, a trial read with one metric, holds
// metric m of whole cell by cell (presence, inclusive, exclusive) and the
// same calls and subroutines, or with noCalls 0 calls and subroutines.
func sameMetricCells(t *testing.T, whole *drg.Trial, m int, one *drg.Trial, noCalls bool) {
	t.Helper()
	if len(one.Metrics) != 1 || one.Metrics[0].Name != whole.Metrics[m].Name || one.Metrics[0].Derived != whole.Metrics[m].Derived {
		t.Fatalf("metrics %v, want %v alone", one.Metrics, whole.Metrics[m])
	}
	if one.PresentCells() != whole.PresentCells() || len(one.Nodes) != len(whole.Nodes) || len(one.Threads) != len(whole.Threads) {
		t.Fatalf("%d cells, %d nodes, %d threads; want %d, %d, %d", one.PresentCells(), len(one.Nodes), len(one.Threads),
			whole.PresentCells(), len(whole.Nodes), len(whole.Threads))
	}
	cols := []struct{ kind, m int }{{drg.ColInclusive, m}, {drg.ColExclusive, m}, {drg.ColCalls, 0}, {drg.ColSubroutines, 0}}
	for n := range whole.Nodes {
		on := one.NodeIndex(whole.Nodes[n].Name)
		for i, c := range cols {
			oneM := 0
			for th, want := range whole.Col(c.kind, c.m).Row(n) {
				if noCalls && i >= 2 {
					want = 0
				}
				got, ok := one.Col(c.kind, oneM).At(on, th)
				if !ok || got != want {
					t.Fatalf("node %q thread %d column %d: %v (present %v), want %v", whole.Nodes[n].Name, th, i, got, ok, want)
				}
			}
		}
	}
}

// TestLoadTrialMetric reads each metric of a dense and a sparse trial
// alone, from the pages and (the pages deleted) from the rows, on both
// databases: by name, and with "" the time metric, first or second, with
// calls and without. Each matches the whole trial's metric cell by cell,
// with the same calls, or none when left unread from the pages (the rows
// hold them with the values, and are read whole); a name the trial lacks
// reads it whole. A metric added by SaveMetric after
// the pages were written is read from the rows, derived.
func TestLoadTrialMetric(t *testing.T) {
	defer store.SetPageBlockThreads(5)()
	timeSecond := genTrial(t, "time second", 23, 9)
	timeSecond.Metrics[0].Name, timeSecond.Metrics[1].Name = "PAPI_FP_OPS", "TIME"
	for _, tr := range []*drg.Trial{genTrial(t, "dense", 23, 9), timeSecond, sparseTimers(t)} {
		for _, d := range storetest.Dialects() {
			db := storetest.OpenInit(t, d)
			ctx := context.Background()
			id, whole := saveLoad(t, db, tr)
			for _, from := range []string{"pages", "rows"} {
				if from == "rows" {
					storetest.Exec(t, db, `DELETE FROM trial_value_page WHERE trial = `+strconv.FormatInt(id, 10))
				}
				for _, name := range []string{"", "PAPI_FP_OPS", "TIME"} {
					want := whole.MetricIndex(name)
					if name == "" {
						want = whole.TimeMetric()
					}
					if want < 0 {
						continue // the sparse trial has TIME alone
					}
					for _, noCalls := range []bool{false, true} {
						one, err := db.LoadTrialMetric(ctx, id, store.MetricRead{Metric: name, WithoutCalls: noCalls})
						if err != nil {
							t.Fatalf("%s %s from %s, metric %q: %v", d, tr.Name, from, name, err)
						}
						sameMetricCells(t, whole, want, one, noCalls && from == "pages")
					}
				}
				all, err := db.LoadTrialMetric(ctx, id, store.MetricRead{Metric: "NOPE", WithoutCalls: true})
				if err != nil || len(all.Metrics) != len(whole.Metrics) || all.PresentCells() != whole.PresentCells() {
					t.Fatalf("%s %s: an unknown metric read %v (%v), want the whole trial", d, tr.Name, all, err)
				}
			}
		}
	}
	for _, d := range storetest.Dialects() {
		derivedAfter(t, d)
	}
}

// derivedAfter adds a derived metric to a saved trial (SaveMetric) and
// reads each of its three metrics alone: the pages predate the third, so
// the rows are read, and each matches the trial it was saved from.
func derivedAfter(t *testing.T, d store.Dialect) {
	db := storetest.OpenInit(t, d)
	ctx := context.Background()
	id, loaded := saveTwice(t, db, genTrial(t, "derived", 23, 9), 1)
	for m, name := range []string{"TIME", "PAPI_FP_OPS", "TWICE"} {
		one, err := db.LoadTrialMetric(ctx, id, store.MetricRead{Metric: name, WithoutCalls: true})
		if err != nil {
			t.Fatal(err)
		}
		sameMetricCells(t, loaded, m, one, false)
	}
}
