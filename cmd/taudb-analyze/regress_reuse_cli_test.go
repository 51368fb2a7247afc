package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// TestRegressReusesStoredHistory: regress over the first 30 trials of a
// generated history is stored; regress over all 40 (region 1 10% slower from
// point 12 on) then reads only the 10 new trials, says so, and prints
// exactly what --full-history (reading all 40 again) prints; a third run
// over the same 40 reuses the second's 40, and a history of another
// aggregate reuses nothing.
func TestRegressReusesStoredHistory(t *testing.T) {
	databases(t, func(t *testing.T, url string) {
		h := saveHistory(t, url, synth.HistorySpec{Points: 24, MinReps: 1, MaxReps: 3, Regions: 4, Noise: 0.01, Seed: 9, OrderKey: "grow",
			Shifts: []synth.Shift{{At: 11, Regions: []int{1}, Size: 0.10}}})
		ids := trialIDs(t, url)
		if len(ids) != len(h.Trials) || len(ids) < 40 {
			t.Fatalf("%d trials stored, generated %d (want at least 40)", len(ids), len(h.Trials))
		}
		base := []string{"--db", url, "regress", "--order-by", "meta:grow", "--aggregate", "mean"}
		first := ok(t, nil, append(base, "--where", fmt.Sprintf("id <= %d", ids[29]))...)
		if strings.Contains(first.stderr, "reused") {
			t.Fatalf("the first run reused something: %s", first.stderr)
		}
		upTo := fmt.Sprintf("id <= %d", ids[39])
		grown := ok(t, nil, append(base, "--format", "json", "--where", upTo)...)
		if !strings.Contains(grown.stderr, "of 30 trial(s); read 10 new trial(s)") {
			t.Errorf("the longer history did not say it reused 30 trials and read 10: %q", grown.stderr)
		}
		full := ok(t, nil, append(base, "--format", "json", "--where", upTo, "--full-history", "--no-save")...)
		if strings.Contains(full.stderr, "reused") {
			t.Errorf("--full-history reused: %s", full.stderr)
		}
		if grown.stdout != full.stdout {
			t.Errorf("reusing the stored trials changed the result:\n%s\nreading all of them:\n%s", grown.stdout, full.stdout)
		}
		if !strings.Contains(full.stdout, `"verdict": "regression"`) || strings.Contains(full.stdout, "_runs") {
			t.Errorf("the 40-trial history shows no regression, or shows the internal table: %.300s", full.stdout)
		}
		again := ok(t, nil, append(base, "--format", "json", "--where", upTo, "--no-save")...)
		if !strings.Contains(again.stderr, "of 40 trial(s); read 0 new") || again.stdout != full.stdout {
			t.Errorf("the same history again: %q, same output %v", again.stderr, again.stdout == full.stdout)
		}
		other := ok(t, nil, "--db", url, "regress", "--order-by", "meta:grow", "--aggregate", "max", "--where", upTo, "--no-save")
		if strings.Contains(other.stderr, "reused") {
			t.Errorf("a history reduced by max reused the mean's trials: %s", other.stderr)
		}
	})
}

// trialIDs returns the ids of the stored trials, ascending.
func trialIDs(t *testing.T, url string) []int64 {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	infos, err := db.Trials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, ti := range infos {
		ids = append(ids, ti.ID)
	}
	return ids
}
