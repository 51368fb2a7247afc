package store_test

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// longTrial builds a trial with the given regions (each under main) and
// user events, any of them longer than TAUdb's 2,048 bytes.
func longTrial(t *testing.T, name string, regions, events []string) *drg.Trial {
	t.Helper()
	b, err := drg.NewBuilder([]drg.ThreadID{{}, {Thread: 1}})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	for th := range 2 {
		b.AddValues(b.Node("main"), th, m, 10, 2)
		for i, r := range regions {
			b.AddValues(b.Node("main => "+r), th, m, float64(i+1), float64(i+1))
		}
		for _, e := range events {
			b.AddCounter(b.Counter(e), th, drg.CounterValue{NumEvents: 1, Max: 1, Min: 1, Mean: 1, SumSquares: 1})
		}
	}
	tr, err := b.Finish(name, drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestLoadTrialRestoresLongNames saves a trial with two regions of 3,000
// bytes that share their first 2,990 (so only the hash tells their short
// names apart) and a user event of 2,208 bytes, and a second trial with
// another long event. LoadTrial gives back each trial's LongNames exactly
// as the builder made them (short name → full text, 3 and 1 entries, none
// of the other trial's) beside the same short node and counter names; the
// loaded trial saved again under a new name keeps its 3 full names in
// trial_long_name. A trial without long names loads with LongNames nil,
// and on a database without the table (an earlier version's) LoadTrial
// still works, with the short names only.
func TestLoadTrialRestoresLongNames(t *testing.T) {
	r1 := strings.Repeat("r", 3000)
	r2 := strings.Repeat("r", 2990) + strings.Repeat("x", 10)
	e1, e2 := strings.Repeat("e", 2208), strings.Repeat("é", 1500)
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		a := longTrial(t, "a", []string{r1, r2, "short"}, []string{e1})
		b := longTrial(t, "b", []string{"plain"}, []string{e2})
		want := map[string]string{drg.ShortName(r1): r1, drg.ShortName(r2): r2, drg.ShortName(e1): e1}
		if !maps.Equal(a.LongNames, want) || drg.ShortName(r1) == drg.ShortName(r2) {
			t.Fatalf("the builder's LongNames: %d entries", len(a.LongNames))
		}
		ida, err := db.SaveTrial(ctx, a, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		idb, err := db.SaveTrial(ctx, b, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		idp, err := db.SaveTrial(ctx, genTrial(t, "plain", 4, 3), store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		back := load(t, db, ida)
		if !maps.Equal(back.LongNames, want) {
			t.Errorf("LoadTrial's LongNames: %d entries, want the 3 saved", len(back.LongNames))
		}
		if back.NodeIndex("main => "+drg.ShortName(r2)) < 0 || back.Counters[0].Name != drg.ShortName(e1) {
			t.Error("the loaded trial lacks the short names")
		}
		if got := load(t, db, idb).LongNames; !maps.Equal(got, map[string]string{drg.ShortName(e2): e2}) {
			t.Errorf("trial b's LongNames: %d entries, want its one event", len(got))
		}
		if got := load(t, db, idp).LongNames; got != nil {
			t.Errorf("a trial without long names loads with LongNames %d entries", len(got))
		}
		back.Name = "copy"
		idc, err := db.SaveTrial(ctx, back, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if n := storetest.Query(t, db, `SELECT COUNT(*) FROM trial_long_name WHERE trial = $1`, idc)[0][0]; n != "3" {
			t.Errorf("the copy has %s full names stored, want 3", n)
		}

		storetest.Exec(t, db, `DROP TABLE trial_long_name`)
		old := load(t, db, ida)
		if old.LongNames != nil || old.NodeIndex("main => "+drg.ShortName(r1)) < 0 {
			t.Errorf("without the table: LongNames %d entries, short node found %v", len(old.LongNames), old.NodeIndex("main => "+drg.ShortName(r1)) >= 0)
		}
	})
}

// load reads trial id or fails t.
func load(t *testing.T, db *store.DB, id int64) *drg.Trial {
	t.Helper()
	tr, err := db.LoadTrial(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
