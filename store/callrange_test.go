package store_test

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// callRangeOf returns a trial's row of trial_call_data_range, and whether
// there is one.
func callRangeOf(t testing.TB, db *store.DB, id int64) (first, last int64, ok bool) {
	t.Helper()
	rows := storetest.Query(t, db, `SELECT first_id, last_id FROM trial_call_data_range WHERE trial = $1`, id)
	if len(rows) == 0 {
		return 0, 0, false
	}
	return atoi64(t, rows[0][0]), atoi64(t, rows[0][1]), true
}

func atoi64(t testing.TB, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCallRange checks the timer_call_data id range SaveTrial stores: it is
// exactly the smallest and largest id of the trial's rows, found here
// through the trial's threads, and the rows fill it (one block per save).
// Then it checks that LoadTrial and Stats give the same answers whether the
// range is stored, computed (no row, or no table: trials TAU's loader
// wrote, databases of an earlier version), or wider than the trial (a range
// that holds other trials' rows bounds the scan but never adds rows).
func TestCallRange(t *testing.T) {
	var trials []*drg.Trial
	for _, rt := range realTrials(t) {
		trials = append(trials, rt.trial)
	}
	trials = append(trials, genTrial(t, "generated", 12, 40))
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		ids := make([]int64, len(trials))
		for i, tr := range trials {
			id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
			if err != nil {
				t.Fatalf("save %s: %v", tr.Name, err)
			}
			ids[i] = id
		}
		for i, id := range ids {
			first, last, ok := callRangeOf(t, db, id)
			if !ok {
				t.Fatalf("%s: no row in trial_call_data_range", trials[i].Name)
			}
			got := storetest.Query(t, db, `SELECT MIN(tcd.id), MAX(tcd.id), COUNT(*) FROM timer_call_data tcd
JOIN thread th ON th.id = tcd.thread WHERE th.trial = $1`, id)[0]
			lo, hi, n := atoi64(t, got[0]), atoi64(t, got[1]), atoi64(t, got[2])
			if first != lo || last != hi {
				t.Errorf("%s: stored range [%d, %d], the rows span [%d, %d]", trials[i].Name, first, last, lo, hi)
			}
			if n != last-first+1 {
				t.Errorf("%s: %d rows in a range of %d ids, want one block", trials[i].Name, n, last-first+1)
			}
		}

		// What each trial reads back with the stored ranges: the reference.
		want := make([]*drg.Trial, len(ids))
		wantStats := make([]*store.TrialStats, len(ids))
		for i, id := range ids {
			tr, err := db.LoadTrial(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if d := compareTrials(roundTrip(trials[i]), tr); len(d) > 0 {
				t.Fatalf("%s came back different:\n  %s", trials[i].Name, strings.Join(d, "\n  "))
			}
			want[i] = tr
			if wantStats[i], err = db.Stats(ctx, id, ""); err != nil {
				t.Fatal(err)
			}
		}
		same := func(how string) {
			t.Helper()
			for i, id := range ids {
				tr, err := db.LoadTrial(ctx, id)
				if err != nil {
					t.Fatalf("%s: %s: %v", how, trials[i].Name, err)
				}
				if d := compareTrials(want[i], tr); len(d) > 0 {
					t.Errorf("%s: %s came back different:\n  %s", how, trials[i].Name, strings.Join(d, "\n  "))
				}
				st, err := db.Stats(ctx, id, "")
				if err != nil {
					t.Fatalf("%s: %s: %v", how, trials[i].Name, err)
				}
				if !reflect.DeepEqual(st, wantStats[i]) {
					t.Errorf("%s: %s: statistics differ", how, trials[i].Name)
				}
			}
		}

		// A range that misses a row of its trial (what a tool that adds
		// rows after the save would leave) is what "db check" reports.
		storetest.Exec(t, db, `UPDATE trial_call_data_range SET last_id = last_id - 1 WHERE trial = `+strconv.FormatInt(ids[1], 10))
		in, err := db.CheckIntegrity(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(in.OutOfRange, []int64{ids[1]}) || in.OK() {
			t.Errorf("a range short of its trial's last row: CheckIntegrity = %+v, want trial %d out of range", in, ids[1])
		}

		// Ranges wider than the trials: every range spans all of the
		// database's call data, every other trial's rows included.
		storetest.Exec(t, db, `UPDATE trial_call_data_range SET first_id = 1,
  last_id = (SELECT MAX(id) FROM timer_call_data)`)
		same("ranges spanning every trial")

		// No stored range: computed from the trial's threads.
		storetest.Exec(t, db, `DELETE FROM trial_call_data_range`)
		same("ranges computed")

		// A database without the table (made by an earlier version): saving
		// and loading still work, and Init adds the table back.
		storetest.Exec(t, db, `DROP TABLE trial_call_data_range`)
		id, err := db.SaveTrial(ctx, trials[0], store.SaveOptions{Name: "without the table"})
		if err != nil {
			t.Fatalf("save without trial_call_data_range: %v", err)
		}
		tr, err := db.LoadTrial(ctx, id)
		if err != nil {
			t.Fatalf("load without trial_call_data_range: %v", err)
		}
		tr.Name = want[0].Name
		if d := compareTrials(want[0], tr); len(d) > 0 {
			t.Errorf("saved without the table, came back different:\n  %s", strings.Join(d, "\n  "))
		}
		same("no table")
		res, err := db.Init(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res.AddedTables, []string{"trial_call_data_range"}) {
			t.Errorf("Init added %v, want [trial_call_data_range]", res.AddedTables)
		}
		id, err = db.SaveTrial(ctx, trials[0], store.SaveOptions{Name: "after init"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := callRangeOf(t, db, id); !ok {
			t.Errorf("a save after Init wrote no range")
		}
		storetest.CheckIntegrity(t, db)
	})
}

// TestTrialQueries runs the queries TrialQueries gives, which carry their
// arguments as literals, and checks the values query against a count of
// the trial's timer_value rows of real threads made independently.
func TestTrialQueries(t *testing.T) {
	tr := genTrial(t, "queries", 8, 20)
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		for range 2 { // another trial first, so that ids do not start at 1
			if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{Name: "third"})
		if err != nil {
			t.Fatal(err)
		}
		qs, err := db.TrialQueries(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		paged := 0
		for _, q := range qs {
			if strings.Contains(q.SQL, "trial_value_page") {
				paged += len(storetest.Query(t, db, q.SQL))
				if (q.Settings != "") != (db.Dialect() == store.Postgres) {
					t.Errorf("settings %q for %s", q.Settings, q.SQL)
				}
			}
		}
		if want := pageCount(t, db, id); paged != want || want == 0 {
			t.Errorf("the pages query gave %d rows, the trial has %d pages", paged, want)
		}
		// Without pages, LoadTrial reads the rows.
		storetest.Exec(t, db, `DELETE FROM trial_value_page`)
		if qs, err = db.TrialQueries(ctx, id); err != nil {
			t.Fatal(err)
		}
		real := map[string]bool{}
		for _, r := range storetest.Query(t, db, `SELECT id FROM thread WHERE trial = $1 AND thread_index >= 0`, id) {
			real[r[0]] = true
		}
		var valueRows int
		for _, q := range qs {
			if strings.Contains(q.SQL, "$") {
				t.Fatalf("a parameter is left in %s", q.SQL)
			}
			if (q.Settings != "") != (db.Dialect() == store.Postgres && strings.Contains(q.SQL, "tv.inclusive_value")) {
				t.Errorf("settings %q for %s", q.Settings, q.SQL)
			}
			for _, row := range storetest.Query(t, db, q.SQL) {
				// The values query: rows of the trial's real threads only
				// (the others are skipped as LoadTrial reads them).
				if strings.Contains(q.SQL, "tv.inclusive_value") && strings.Contains(q.SQL, "time_range IS NULL") && real[row[1]] {
					valueRows++
				}
			}
		}
		want := atoi64(t, storetest.Query(t, db, `SELECT COUNT(*) FROM timer_value tv
JOIN timer_call_data tcd ON tcd.id = tv.timer_call_data JOIN thread th ON th.id = tcd.thread
WHERE th.trial = $1 AND th.thread_index >= 0`, id)[0][0])
		if want == 0 || int64(valueRows) != want {
			t.Errorf("the values query gave %d rows, the trial has %d timer_value rows of real threads", valueRows, want)
		}
	})
}
