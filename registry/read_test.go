package registry

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// TestReadTrials stores three trials, two of one name, reads them back
// through ReadTrials in a chosen order and runs an analysis on them: the
// order is the ids', the namesakes are told apart by id, and the step is
// called once per trial.
func TestReadTrials(t *testing.T) {
	ctx := context.Background()
	db := openInit(t)
	var pending []store.PendingTrial
	for _, c := range []struct {
		p    int
		name string
	}{{1, "mm"}, {2, "mm"}, {4, "mm-4"}} {
		pending = append(pending, store.PendingTrial{Trial: mpiTrial(t, c.p), Options: store.SaveOptions{Name: c.name, IfExists: store.NameAllowDuplicate}})
	}
	saved, err := db.SaveTrials(ctx, pending)
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{saved[2].ID, saved[0].ID, saved[1].ID}
	steps := 0
	trials, took, err := ReadTrials(ctx, db, ids, Reading{Apart: true, Step: func() { steps++ }})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"mm-4", fmt.Sprintf("mm (trial %d)", saved[0].ID), fmt.Sprintf("mm (trial %d)", saved[1].ID)}
	for i, tr := range trials {
		if tr.Name != want[i] || took[i] <= 0 {
			t.Errorf("trial %d: %q in %v, want %q", i, tr.Name, took[i], want[i])
		}
	}
	if steps != 3 {
		t.Errorf("%d steps, want 3", steps)
	}
	a, _ := Lookup("speedup")
	out, err := a.Run(ctx, a.Defaults(), Input{Trials: trials, IDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Result.Params["baseline"]; got != want[1] {
		t.Errorf("baseline %q, want the 1-process trial %q", got, want[1])
	}
	if _, _, err := ReadTrials(ctx, db, []int64{saved[0].ID, 999}, Reading{}); err == nil {
		t.Error("a missing trial: want an error")
	}
}

// openInit opens a fresh SQLite TAUdb, closed when the test ends.
func openInit(t *testing.T) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	return db
}
