package store_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestSaveProgress checks SaveOptions.Progress against the rows the save
// left in the database: the calls count up, every 65,536 rows, and the last
// one reports the number of rows counted table by table afterwards.
func TestSaveProgress(t *testing.T) {
	tr := genTrial(t, "progress", 64, 600) // 64 × 601 cells: about 115k rows
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		var calls [][2]int64
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{Progress: func(done, total int64) {
			calls = append(calls, [2]int64{done, total})
		}})
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		for _, n := range counts(t, db, id) {
			rows += n
		}
		rows++ // the trial's row of trial_call_data_range
		pages := storetest.Query(t, db, `SELECT COUNT(*) FROM trial_value_page WHERE trial = $1`, id)
		n, _ := strconv.Atoi(pages[0][0])
		rows += n
		if len(calls) < 2 {
			t.Fatalf("Progress called %d times for %d rows, want every 65,536 rows and at the end", len(calls), rows)
		}
		for i, c := range calls {
			if c[1] != int64(rows) {
				t.Fatalf("call %d: total %d, want the %d rows saved", i, c[1], rows)
			}
			if i < len(calls)-1 && c[0] != int64(i+1)*65536 {
				t.Errorf("call %d: done %d, want %d", i, c[0], (i+1)*65536)
			}
		}
		if last := calls[len(calls)-1]; last[0] != int64(rows) {
			t.Errorf("last call: done %d, want %d", last[0], rows)
		}
	})
}
