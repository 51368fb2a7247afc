package store_test

import (
	"context"

	"math"
	"strconv"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// near reports whether a and b agree to 1e-12 relative (the database
// returns what was stored bit for bit; the tolerance only covers the
// text round trip of storetest.Query).
func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

func parseF(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return f
}

// viewTrials are the trials the view and statistics tests use: a profile
// with callpaths, a ppk with hardware counters and five metrics, and one
// with user events.
var viewTrials = []string{
	"LLNL-hatchet/tau-cpi-mpi",
	"UO-OACISS-tau2/perfexplorer/HardwareCounterBasicAnalysis/xgc-nosamples.ppk",
	"UO-OACISS-tau2/examples/workflow_consolidation/xmain_0",
}

// nodeOf maps the trial's timer_callpath ids to the nodes of tr, by the
// names Stats reports.
func nodeOf(t *testing.T, tr *drg.Trial, st *store.TrialStats, db *store.DB, id int64) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, r := range storetest.Query(t, db, `SELECT c.id FROM timer_callpath c JOIN timer tm ON tm.id = c.timer WHERE tm.trial = $1`, id) {
		out[r[0]] = -1
	}
	for _, n := range st.Nodes {
		i := tr.NodeIndex(n.Name)
		if i < 0 {
			t.Fatalf("Stats names a node %q the trial lacks", n.Name)
		}
		out[strconv.FormatInt(n.Callpath, 10)] = i
	}
	return out
}

// TestViewsOfSavedTrials checks that TAUdb's views give TAU's tools what
// they expect: interval_mean_summary one row per node with data and
// metric, equal to the MEAN derived thread (−1); interval_total_summary the
// TOTAL (−2); interval_location_profile the real threads' values. It also
// checks Stats against the statistics computed in memory. A generated trial
// runs always; the real ones when the shared data folder holds them.
func TestViewsOfSavedTrials(t *testing.T) {
	gen, err := synth.Generate(synth.Spec{Processes: 3, ThreadsPerProcess: 2, Regions: 6, Depth: 2, Metrics: 2,
		Serial: 1e4, Parallel: 3e5, Noise: 0.1, Imbalance: 0.3, Seed: 5, Name: "views"})
	if err != nil {
		t.Fatal(err)
	}
	trials := []*drg.Trial{gen}
	for _, rel := range viewTrials {
		p, ok := realdata.Find(rel)
		if !ok {
			continue
		}
		tr, err := reader.Read(p, "")
		if err != nil {
			t.Fatal(err)
		}
		trials = append(trials, tr)
	}
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		for _, tr := range trials {
			id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkViews(t, db, tr, id)
		}
	})
}

func checkViews(t *testing.T, db *store.DB, tr *drg.Trial, id int64) {
	ctx := context.Background()
	stats := tr.Statistics()
	nt := len(tr.Threads)
	metricIDs := map[string]int{}
	for i, r := range storetest.Query(t, db, `SELECT id FROM metric WHERE trial = $1 ORDER BY id`, id) {
		metricIDs[r[0]] = i
	}
	st, err := db.Stats(ctx, id, tr.Metrics[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	node := nodeOf(t, tr, st, db, id)
	withData := 0
	for n := range tr.Nodes {
		if stats.Count[n] > 0 {
			withData++
		}
	}

	for _, v := range []struct {
		view string
		d    drg.DerivedThread
	}{{"interval_mean_summary", drg.Mean}, {"interval_total_summary", drg.Total}} {
		rows := storetest.Query(t, db, `SELECT interval_event, metric, inclusive, exclusive, call, subroutines, node, context, thread
FROM `+v.view+` WHERE metric IN (SELECT id FROM metric WHERE trial = $1)`, id)
		if len(rows) != withData*len(tr.Metrics) {
			t.Errorf("%s: %s has %d rows, want %d nodes with data × %d metrics", tr.Name, v.view, len(rows), withData, len(tr.Metrics))
		}
		for _, r := range rows {
			n, m := node[r[0]], metricIDs[r[1]]
			if n < 0 {
				t.Fatalf("%s: %s row of a node without data: %v", tr.Name, v.view, r)
			}
			code := strconv.Itoa(int(v.d))
			want := []float64{stats.Inclusive[m].Get(v.d)[n], stats.Exclusive[m].Get(v.d)[n],
				math.Round(stats.Calls.Get(v.d)[n]), math.Round(stats.Subroutines.Get(v.d)[n])}
			for k, w := range want {
				if g := parseF(t, r[2+k]); !near(g, w) {
					t.Errorf("%s: %s of %q column %d: %v, want %v", tr.Name, v.view, tr.Nodes[n].Name, k, g, w)
				}
			}
			if r[6] != code || r[7] != code || r[8] != code {
				t.Errorf("%s: %s ranks %v, want %s", tr.Name, v.view, r[6:], code)
			}
		}
	}

	present := 0
	for c := range len(tr.Nodes) * nt {
		if tr.Present.Get(c) {
			present++
		}
	}
	rows := storetest.Query(t, db, `SELECT interval_event, metric, inclusive, exclusive, call, node, context, thread, inclusive_percentage, exclusive_percentage
FROM interval_location_profile WHERE metric IN (SELECT id FROM metric WHERE trial = $1)`, id)
	if len(rows) != present*len(tr.Metrics) {
		t.Errorf("%s: interval_location_profile has %d rows, want %d records × %d metrics", tr.Name, len(rows), present, len(tr.Metrics))
	}
	for _, r := range rows {
		n, m := node[r[0]], metricIDs[r[1]]
		th := tr.ThreadIndex(atoi(t, r[5]), atoi(t, r[6]), atoi(t, r[7]))
		if n < 0 || th < 0 {
			t.Fatalf("%s: interval_location_profile row %v of no record", tr.Name, r)
		}
		c := n*nt + th
		main := tr.MainInclusive(m)[th]
		want := []float64{tr.Values[m].Inclusive[c], tr.Values[m].Exclusive[c], tr.Calls[c],
			drg.Percent(tr.Values[m].Inclusive[c], main), drg.Percent(tr.Values[m].Exclusive[c], main)}
		got := []float64{parseF(t, r[2]), parseF(t, r[3]), parseF(t, r[4]), parseF(t, r[8]), parseF(t, r[9])}
		for k := range want {
			if !near(got[k], want[k]) {
				t.Errorf("%s: interval_location_profile of %q thread %d column %d: %v, want %v", tr.Name, tr.Nodes[n].Name, th, k, got[k], want[k])
			}
		}
	}

	// Stats reads all seven derived threads back.
	for _, ns := range st.Nodes {
		n := tr.NodeIndex(ns.Name)
		if ns.Threads != stats.Count[n] {
			t.Errorf("%s: Stats says %d threads for %q, want %d", tr.Name, ns.Threads, ns.Name, stats.Count[n])
		}
		main := tr.MainInclusive(0)
		for _, d := range drg.DerivedThreads {
			v := ns.Get(d)
			if v == nil {
				t.Errorf("%s: no %s row for %q", tr.Name, d, ns.Name)
				continue
			}
			var ss float64
			for _, x := range tr.Values[0].Exclusive[n*nt : (n+1)*nt] {
				ss += x * x
			}
			dm := drg.DerivedMain(main, d)
			want := []float64{stats.Inclusive[0].Get(d)[n], stats.Exclusive[0].Get(d)[n], math.Round(stats.Calls.Get(d)[n]),
				drg.Percent(stats.Inclusive[0].Get(d)[n], dm), drg.Percent(stats.Exclusive[0].Get(d)[n], dm), ss}
			got := []float64{v.Inclusive, v.Exclusive, v.Calls, v.InclusivePercent, v.ExclusivePercent, math.NaN()}
			if v.SumExclusiveSquared != nil {
				got[5] = *v.SumExclusiveSquared
			}
			for k := range want {
				if !near(got[k], want[k]) {
					t.Errorf("%s: Stats %s of %q column %d: %v, want %v", tr.Name, d, ns.Name, k, got[k], want[k])
				}
			}
		}
	}
	if len(st.Nodes) != withData || st.Metric != tr.Metrics[0].Name {
		t.Errorf("%s: Stats has %d nodes of %q, want %d of %q", tr.Name, len(st.Nodes), st.Metric, withData, tr.Metrics[0].Name)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("not an integer: %q", s)
	}
	return n
}
