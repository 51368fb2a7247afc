package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestCountsBeyondInt32 saves a trial with counts that TAUdb's INT columns
// cannot hold: 3,000,000,000 calls of a leaf on one thread, 2^31 (one more
// than an INT holds) subroutines, and 5,000,000,000 samples of a user
// event. TAU's columns hold 2147483647 for them (what TAU's tools read);
// LoadTrial gives back the exact counts, the whole trial equals the saved
// one, and the derived TOTAL thread's calls in the database (read through
// the exact table) are the sum over the threads, computed here. Deleting
// the trial leaves no row of the count tables.
func TestCountsBeyondInt32(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		tr := genTrial(t, "hot", 4, 6)
		nt := len(tr.Threads)
		leaf := 1 // a flat region with a record on thread 1
		if !tr.Present.Get(leaf*nt + 1) {
			t.Fatal("genTrial changed: no record of node 1 on thread 1")
		}
		tr.Calls[leaf*nt+1] = 3_000_000_000
		tr.Subroutines[leaf*nt+1] = 1 << 31
		k := tr.CounterPresent.Len() // find a present user-event value
		for i := range len(tr.Counters) * nt {
			if tr.CounterPresent.Get(i) {
				k = i
				break
			}
		}
		tr.CounterValues[k].NumEvents = 5_000_000_000
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rows := storetest.Query(t, db, `SELECT tcd.calls, tcd.subroutines FROM timer_call_data tcd JOIN thread th ON th.id = tcd.thread
WHERE th.trial = $1 AND th.node_rank = $2 AND th.thread_rank = $3 AND tcd.calls > 1000000`, id, tr.Threads[1].Node, tr.Threads[1].Thread)
		if len(rows) != 1 || rows[0][0] != "2147483647" || rows[0][1] != "2147483647" {
			t.Errorf("TAU's columns hold %v, want 2147483647 twice", rows)
		}
		back, err := db.LoadTrial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if d := compareTrials(roundTrip(tr), back); len(d) > 0 {
			t.Errorf("trial came back different:\n  %s", strings.Join(d, "\n  "))
		}
		n := back.NodeIndex(tr.Nodes[leaf].Name)
		if c, s := back.Calls[n*nt+1], back.Subroutines[n*nt+1]; c != 3_000_000_000 || s != 1<<31 {
			t.Errorf("loaded calls %v and subroutines %v, want 3000000000 and 2147483648", c, s)
		}
		if got := back.CounterValues[k].NumEvents; got != 5_000_000_000 {
			t.Errorf("loaded sample count %v, want 5000000000", got)
		}
		var total float64
		for th := range nt {
			total += tr.Calls[leaf*nt+th]
		}
		got := storetest.Query(t, db, `SELECT b.calls FROM timer_call_data_count b JOIN timer_call_data tcd ON tcd.id = b.timer_call_data
JOIN thread th ON th.id = tcd.thread WHERE th.trial = $1 AND th.thread_index = $2`, id, int(drg.Total))
		if len(got) != 1 || got[0][0] != fmt.Sprint(int64(total)) {
			t.Errorf("TOTAL thread's exact calls %v, want %d", got, int64(total))
		}
		if err := db.DeleteTrial(ctx, id); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"timer_call_data_count", "counter_value_count"} {
			if c := storetest.Query(t, db, `SELECT count(*) FROM `+table)[0][0]; c != "0" {
				t.Errorf("%s holds %s rows after the delete", table, c)
			}
		}
		storetest.CheckIntegrity(t, db)
	})
}

// TestCountsBeyondInt64Refused: a count no 64-bit integer holds (1e19
// calls) is refused with the node and thread named, and a database
// without the count tables refuses a trial that needs them, saying to run
// db init; neither writes a row.
func TestCountsBeyondInt64Refused(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		before := storetest.Counts(t, db)
		tr := genTrial(t, "huge", 4, 6)
		nt := len(tr.Threads)
		tr.Calls[1*nt+0] = 1e19
		_, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
		want := fmt.Sprintf(`save trial "huge": calls of %q on thread 0.0.0: 1e+19 does not fit a 64-bit integer column`, tr.Nodes[1].Name)
		if err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
		storetest.Exec(t, db, `DROP TABLE timer_call_data_count`)
		tr.Calls[1*nt+0] = 3e9
		_, err = db.SaveTrial(ctx, tr, store.SaveOptions{})
		if err == nil || !strings.Contains(err.Error(), `counts above 2147483647`) || !strings.Contains(err.Error(), `run "taudb-analyze db init"`) {
			t.Errorf("save without the count tables: %v", err)
		}
		after := storetest.Counts(t, db)
		delete(before, "timer_call_data_count")
		storetest.SameCounts(t, "after the refused saves", before, after)
	})
}
