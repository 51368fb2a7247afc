package watch

import (
	"context"
	"strconv"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// TestSaverBothDialects stores a watched job interval by interval and then
// its trial, on SQLite and PostgreSQL: the rows hold the intervals'
// statistics (the program's sum is the generator's), the anomalies are
// there, and the trial loads back with the last cumulative values.
func TestSaverBothDialects(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		spec := testSpec(true, true)
		job, _ := synth.NewJob(spec)
		dir := t.TempDir()
		wr := &synth.Writer{Job: job, Dir: dir}
		for range spec.Intervals {
			wr.Next()
		}
		w, _ := New(dir, Options{})
		s, err := NewSaver(ctx, db, "test run")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewSaver(ctx, db, "test run 2"); err != nil { // the tables exist: no error
			t.Fatal(err)
		}
		flags := 0
		ivs, err := w.Finish(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, iv := range ivs {
			flags += len(iv.Anomalies)
			if err := s.SaveInterval(ctx, iv); err != nil {
				t.Fatal(err)
			}
		}
		id, err := s.SaveTrial(ctx, w, store.SaveOptions{Name: "watched"})
		if err != nil {
			t.Fatal(err)
		}
		rows := storetest.Query(t, db, `SELECT interval_index, total, ranks, trial FROM watch_interval WHERE run = $1 AND region = $2 ORDER BY interval_index`, "test run", ProgramRegion)
		if len(rows) != spec.Intervals {
			t.Fatalf("%d program rows, want %d", len(rows), spec.Intervals)
		}
		for k, r := range rows {
			want := 0.0
			for rank := 0; rank < spec.Ranks; rank++ {
				want += job.ProgramDelta(k, rank)
			}
			if r[1] != strconv.FormatFloat(want, 'f', -1, 64) || r[2] != "8" || r[3] != strconv.FormatInt(id, 10) {
				t.Errorf("interval %d: %v, want total %g of 8 ranks in trial %d", k, r, want, id)
			}
		}
		an := storetest.Query(t, db, `SELECT COUNT(*) FROM watch_anomaly WHERE run = $1 AND trial = $2`, "test run", id)
		if an[0][0] != strconv.Itoa(flags) || flags == 0 {
			t.Errorf("%s anomaly rows, want %d", an[0][0], flags)
		}
		tr, err := db.LoadTrial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		_, excl, incl := job.Cumulative(spec.Intervals-1, 5, -1)
		n := tr.NodeIndex("main")
		if e, i := tr.Values[0].Exclusive[tr.Cell(n, 5)], tr.Values[0].Inclusive[tr.Cell(n, 5)]; e != excl || i != incl {
			t.Errorf("main on rank 5: (%g, %g), want (%g, %g)", e, i, excl, incl)
		}
		// Deleting the trial deletes the watch's rows with it, and db
		// check finds nothing left pointing at it.
		if err := db.DeleteTrial(ctx, id); err != nil {
			t.Fatal(err)
		}
		left := storetest.Query(t, db, `SELECT (SELECT COUNT(*) FROM watch_interval WHERE run = $1) + (SELECT COUNT(*) FROM watch_anomaly WHERE run = $1)`, "test run")
		if left[0][0] != "0" {
			t.Errorf("%s watch rows left after deleting their trial", left[0][0])
		}
		if rep, err := db.CheckIntegrity(ctx); err != nil || len(rep.Problems()) != 0 {
			t.Errorf("db check after the delete: %+v, %v", rep, err)
		}
	})
}
