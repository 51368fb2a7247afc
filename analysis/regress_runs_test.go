package analysis

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/synth"
)

// TestRegressRunsReuse checks that a history reduced in two parts (the
// runs of an earlier, shorter history kept, the new trials reduced alone,
// ranks recomputed over all order values) gives Regress's result on the
// whole history, table by table and finding by finding, for the program
// and every region, with a shift in the new part.
func TestRegressRunsReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, short := range []bool{false, true} {
		spec := randomSpec(rng, 77, 2)
		h, all := historySeries(t, spec)
		opt := RegressOptions{SeriesOptions: SeriesOptions{Aggregate: AggregateMean, ShortNames: short}}
		want, err := Regress(all, opt)
		if err != nil {
			t.Fatal(err)
		}
		cut := len(h.Trials) * 2 / 3
		oldRuns, err := ReduceHistory(all[:cut], opt.SeriesOptions)
		if err != nil {
			t.Fatal(err)
		}
		newRuns, err := ReduceHistory(all[cut:], opt.SeriesOptions)
		if err != nil {
			t.Fatal(err)
		}
		// In the trials' order: RegressRuns sorts by P, keeping the order of
		// the repetitions of a point.
		runs := append(oldRuns, newRuns...)
		keys := make([]string, len(runs))
		for i, r := range runs {
			keys[i] = r.Key
		}
		for i, p := range HistoryRanks(keys) {
			runs[i].P = p
		}
		got, err := RegressRuns(runs, opt)
		if err != nil {
			t.Fatal(err)
		}
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		if string(wj) != string(gj) {
			i := 0
			for i < len(wj) && i < len(gj) && wj[i] == gj[i] {
				i++
			}
			t.Fatalf("short names %v: the result from reused runs differs from the whole history's at byte %d: %.200s", short, i, gj[max(0, i-100):])
		}
		if len(want.Findings) == 0 || len(want.Tables) < 4 {
			t.Fatalf("the history found nothing to compare (%d findings, %d tables)", len(want.Findings), len(want.Tables))
		}
	}
}

// TestRegressRunsChecks checks that runs of different metrics or with a
// duplicate name are refused.
func TestRegressRunsChecks(t *testing.T) {
	_, all := historySeries(t, synth.HistorySpec{Points: 8, MinReps: 1, MaxReps: 1, Regions: 2, Noise: 0.01, Seed: 3})
	runs, err := ReduceHistory(all, SeriesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]HistoryRun(nil), runs...)
	bad[3].Metric = "PAPI_FP_OPS"
	if _, err := RegressRuns(bad, RegressOptions{}); err == nil {
		t.Error("runs of two metrics were accepted")
	}
	dup := append([]HistoryRun(nil), runs...)
	dup[2].Name = dup[1].Name
	if _, err := RegressRuns(dup, RegressOptions{}); err == nil {
		t.Error("two runs of one name were accepted")
	}
}
