package registry

import (
	"context"
	"fmt"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// threeMetrics generates a trial of p processes × 4 threads with three
// metrics, named names.
func threeMetrics(t *testing.T, p int, names [3]string) *drg.Trial {
	t.Helper()
	tr, err := synth.Generate(synth.Spec{Processes: p, ThreadsPerProcess: 4, Regions: 9, Depth: 2, Metrics: 3,
		Serial: 2e5, Parallel: 8e6, Noise: 0.1, Imbalance: 0.3, Seed: uint64(p), Name: fmt.Sprintf("three-%d", p)})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range names {
		tr.Metrics[i].Name = name
	}
	return tr
}

// TestOneMetricReadsTheSame runs every analysis of one metric (OneMetric)
// on trials read whole and on the same trials read with its metric alone
// (Reading.Metric): the default metric (the time metric: the second of
// one trial, the first of the other) and a counter by name. The results
// are the same, and the trials read for it hold that metric alone. Cluster
// also runs on the two trials together, where "" is the first trial's
// time metric, TIME, in both (the second trial's own time metric is
// WALL_TIME).
func TestOneMetricReadsTheSame(t *testing.T) {
	ctx := context.Background()
	db := openInit(t)
	saved, err := db.SaveTrials(ctx, []store.PendingTrial{
		{Trial: threeMetrics(t, 3, [3]string{"PAPI_TOT_CYC", "TIME", "PAPI_L1_DCM"})},
		{Trial: threeMetrics(t, 5, [3]string{"WALL_TIME", "PAPI_TOT_CYC", "TIME"})}})
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{saved[0].ID, saved[1].ID}
	checked := 0
	for _, a := range All() {
		if _, ok := a.New().(OneMetric); !ok {
			continue
		}
		sets := [][]int64{ids[:1], ids[1:]}
		if a.Trials == Series {
			sets = append(sets, ids)
		}
		for _, set := range sets {
			for _, metric := range []string{"", "PAPI_TOT_CYC"} {
				o := a.Defaults()
				if err := a.Set(o, "metric", metric); err != nil {
					t.Fatal(err)
				}
				whole, _, err := ReadTrials(ctx, db, set, Reading{Apart: true})
				if err != nil {
					t.Fatal(err)
				}
				how := ReadingOf(o)
				how.Apart = true
				one, _, err := ReadTrials(ctx, db, set, how)
				if err != nil {
					t.Fatal(err)
				}
				for _, tr := range one {
					if len(tr.Metrics) != 1 {
						t.Fatalf("%s: trial %q read with %d metrics", a.Name, tr.Name, len(tr.Metrics))
					}
				}
				want, err := a.Run(ctx, o, Input{Trials: whole, IDs: set})
				if err != nil {
					t.Fatal(err)
				}
				got, err := a.Run(ctx, o, Input{Trials: one, IDs: set})
				if err != nil {
					t.Fatal(err)
				}
				if w, g := fmt.Sprintf("%+v", *want.Result), fmt.Sprintf("%+v", *got.Result); w != g {
					t.Errorf("%s on %v, metric %q: results differ:\n%s\n%s", a.Name, set, metric, w, g)
				}
				checked++
			}
		}
	}
	if checked < 10 {
		t.Errorf("%d runs checked, want imbalance, regions, summary and cluster", checked)
	}
}
