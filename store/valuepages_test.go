package store_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// pageCount counts the trial's rows of trial_value_page.
func pageCount(t *testing.T, db *store.DB, id int64) int {
	n, err := strconv.Atoi(storetest.Query(t, db, `SELECT COUNT(*) FROM trial_value_page WHERE trial = $1`, id)[0][0])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPagesReadAsRows saves a dense trial in blocks of 5 threads (with
// counts beyond an INT) and a sparse one, and reads each back from its
// pages and, the pages deleted, from timer_value: the same trial, value
// by value, and the same threads per node in Stats. A metric saved later (SaveMetric) is not in the pages, which
// then leave the trial to timer_value.
func TestPagesReadAsRows(t *testing.T) {
	defer store.SetPageBlockThreads(5)()
	dense := genTrial(t, "dense", 23, 9)
	dense.Calls[3*23+4] = 3e9
	for _, tr := range []*drg.Trial{dense, sparseTimers(t)} {
		for _, d := range storetest.Dialects() {
			db := storetest.OpenInit(t, d)
			ctx := context.Background()
			id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if pageCount(t, db, id) == 0 {
				t.Fatalf("%s %s: no pages", d, tr.Name)
			}
			paged, err := db.LoadTrial(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			sameCells(t, tr, paged)
			if tr.Sparse == nil && paged.Sparse == nil {
				if diff := compareTrials(roundTrip(tr), paged); len(diff) > 0 {
					t.Fatalf("%s %s from pages:\n%s", d, tr.Name, strings.Join(diff, "\n"))
				}
			}
			fromPages, err := db.Stats(ctx, id, "")
			if err != nil {
				t.Fatal(err)
			}
			storetest.Exec(t, db, `DELETE FROM trial_value_page WHERE trial = `+strconv.FormatInt(id, 10))
			fromRows, err := db.Stats(ctx, id, "")
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range fromRows.Nodes {
				if fromPages.Nodes[i].Threads != n.Threads || n.Threads == 0 {
					t.Fatalf("%s %s: node %q counted on %d threads from the pages, %d from the rows", d, tr.Name, n.Name, fromPages.Nodes[i].Threads, n.Threads)
				}
			}
			rows, err := db.LoadTrial(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			sameCells(t, paged, rows)
			if paged.Sparse == nil {
				if diff := compareTrials(paged, rows); len(diff) > 0 {
					t.Fatalf("%s %s: pages and rows differ:\n%s", d, tr.Name, strings.Join(diff, "\n"))
				}
			}
		}
	}
	db := storetest.OpenInit(t, store.SQLite)
	ctx := context.Background()
	id, loaded := saveTwice(t, db, dense, 0)
	again, err := db.LoadTrial(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Metrics) != 3 || again.Values[2].Exclusive[5] != 2*loaded.Values[0].Exclusive[5] {
		t.Fatalf("after SaveMetric: metrics %v", again.Metrics)
	}
}

// saveTwice saves tr, reads it back, and adds to the stored trial a
// derived metric TWICE, twice metric m (SaveMetric, after the pages were
// written); it returns the trial's id and the trial read back with TWICE.
func saveTwice(t *testing.T, db *store.DB, tr *drg.Trial, m int) (int64, *drg.Trial) {
	t.Helper()
	id, loaded := saveLoad(t, db, tr)
	loaded.Metrics = append(loaded.Metrics, drg.Metric{Name: "TWICE", Derived: true})
	loaded.Values = append(loaded.Values, drg.MetricValues{Inclusive: slicesTimes(loaded.Values[m].Inclusive, 2), Exclusive: slicesTimes(loaded.Values[m].Exclusive, 2)})
	if _, err := db.SaveMetric(context.Background(), id, loaded, len(loaded.Metrics)-1); err != nil {
		t.Fatal(err)
	}
	return id, loaded
}

// saveLoad saves tr and reads it back whole; it returns its id and the
// trial read.
func saveLoad(t *testing.T, db *store.DB, tr *drg.Trial) (int64, *drg.Trial) {
	t.Helper()
	ctx := context.Background()
	id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := db.LoadTrial(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return id, loaded
}

// slicesTimes returns x scaled by k.
func slicesTimes(x []float64, k float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = k * v
	}
	return out
}

// TestPagesCorrupt breaks a trial's pages in the ways another program
// could, on both databases: each read fails with an error naming the
// table, without panicking, and the trial reads again once the pages are
// deleted.
func TestPagesCorrupt(t *testing.T) {
	defer store.SetPageBlockThreads(4)()
	breaks := []struct{ name, sql string }{
		{"a page cut short", `UPDATE trial_value_page SET data = substr(data, 1, 5) WHERE stream = 3 AND first_thread = 4`},
		{"a layout cut short", `UPDATE trial_value_page SET data = substr(data, 1, 3) WHERE stream = 0 AND first_thread = 0`},
		{"a block missing", `DELETE FROM trial_value_page WHERE first_thread = 4`},
		{"a last block missing", `DELETE FROM trial_value_page WHERE first_thread = 8`},
		{"a stream missing", `DELETE FROM trial_value_page WHERE stream = 6 AND first_thread = 4`},
		{"a page renumbered", `UPDATE trial_value_page SET page = 7 WHERE stream = 1 AND first_thread = 4`},
		{"a block resized", `UPDATE trial_value_page SET threads = 3 WHERE first_thread = 4 AND stream = 2`},
		{"another node", `UPDATE trial_value_page SET data = (SELECT data FROM trial_value_page WHERE stream = 0 AND first_thread = 8) WHERE stream = 0 AND first_thread = 0`},
	}
	for _, d := range storetest.Dialects() {
		for _, b := range breaks {
			db := storetest.OpenInit(t, d)
			ctx := context.Background()
			id, err := db.SaveTrial(ctx, genTrial(t, "g", 10, 7), store.SaveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			storetest.Exec(t, db, b.sql)
			_, err = db.LoadTrial(ctx, id)
			if err == nil || !strings.Contains(err.Error(), "trial_value_page") {
				t.Errorf("%s, %s: %v", d, b.name, err)
			}
			in, err := db.CheckIntegrity(ctx)
			short := strings.Contains(b.name, "block missing") || strings.Contains(b.name, "resized")
			if err != nil || (len(in.PagesShort) == 1) != short {
				t.Errorf("%s, %s: db check found %v (%v)", d, b.name, in.Problems(), err)
			}
			storetest.Exec(t, db, `DELETE FROM trial_value_page`)
			if _, err := db.LoadTrial(ctx, id); err != nil {
				t.Errorf("%s, %s: without pages: %v", d, b.name, err)
			}
		}
	}
}
