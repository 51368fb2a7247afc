package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestSaveTrialsAllOrNothing saves three trials in one SaveTrials call
// whose third fails, once in its Read and once in the save itself (a name
// with a NUL byte): neither leaves a row of the first two (every table's
// count unchanged). Run again with NameReuse and the third fixed, all three
// are stored; run a third time, all three are reused, nothing is read
// (Read is not called for a taken name) and nothing is written.
func TestSaveTrialsAllOrNothing(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		before := storetest.Counts(t, db)
		reads := 0
		pending := func(name string, fail error) store.PendingTrial {
			return store.PendingTrial{
				Read: func() (*drg.Trial, error) {
					reads++
					if fail != nil {
						return nil, fail
					}
					return genTrial(t, name, 4, 20), nil
				},
				Options: store.SaveOptions{Name: name, IfExists: store.NameReuse},
			}
		}
		boom := errors.New("read c/: boom")
		_, err := db.SaveTrials(ctx, []store.PendingTrial{pending("app-1", nil), pending("app-2", nil), pending("app-3", boom)})
		if err != boom {
			t.Errorf("a failing read: %v, want the read's error as it is", err)
		}
		storetest.SameCounts(t, "after a failed read of the third trial", before, storetest.Counts(t, db))

		bad := pending("app-3", nil)
		bad.Options.Name = "app\x003"
		_, err = db.SaveTrials(ctx, []store.PendingTrial{pending("app-1", nil), pending("app-2", nil), bad})
		if err == nil {
			t.Fatal("a trial name with a NUL byte was saved")
		}
		storetest.SameCounts(t, "after a failed save of the third trial", before, storetest.Counts(t, db))

		saved, err := db.SaveTrials(ctx, []store.PendingTrial{pending("app-1", nil), pending("app-2", nil), pending("app-3", nil)})
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range saved {
			if s.Reused || s.ID == 0 || s.Name != []string{"app-1", "app-2", "app-3"}[i] {
				t.Errorf("trial %d: %+v", i, s)
			}
		}
		after := storetest.Counts(t, db)
		reads = 0
		again, err := db.SaveTrials(ctx, []store.PendingTrial{pending("app-1", nil), pending("app-2", nil), pending("app-3", nil)})
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range again {
			if !s.Reused || s.ID != saved[i].ID {
				t.Errorf("rerun, trial %d: %+v, want trial %d reused", i, s, saved[i].ID)
			}
		}
		if reads != 0 {
			t.Errorf("the rerun read %d trials whose names were taken", reads)
		}
		storetest.SameCounts(t, "after a rerun that reuses all three", after, storetest.Counts(t, db))
		storetest.CheckIntegrity(t, db)
	})
}
