package store_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/metrics"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// failInsert makes every INSERT into table for which cond (an SQL
// condition on NEW, "" for every row) holds fail with "injected failure",
// and returns a function that removes the trigger.
func failInsert(t *testing.T, db *store.DB, table, cond string) (remove func()) {
	t.Helper()
	if db.Dialect() == store.Postgres {
		when := ""
		if cond != "" {
			when = "WHEN (" + cond + ")"
		}
		storetest.Exec(t, db, `CREATE FUNCTION injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'injected failure'; END $$;
CREATE TRIGGER injected_failure BEFORE INSERT ON `+table+` FOR EACH ROW `+when+` EXECUTE FUNCTION injected_failure()`)
		return func() {
			storetest.Exec(t, db, `DROP TRIGGER injected_failure ON `+table+`; DROP FUNCTION injected_failure()`)
		}
	}
	when := ""
	if cond != "" {
		when = "WHEN " + cond
	}
	storetest.Exec(t, db, `CREATE TRIGGER injected_failure BEFORE INSERT ON `+table+` `+when+`
BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
	return func() { storetest.Exec(t, db, `DROP TRIGGER injected_failure`) }
}

// clusterResult is a small clustering result PerfExplorer's viewer shows
// (method "Hierarchical"), with two pictures.
func clusterResult() (*analysis.Result, []store.ResultImage) {
	tb := analysis.Table{Name: "sizes"}
	tb.AddNum("size", "", []float64{3, 1})
	res := &analysis.Result{Analysis: "cluster", Trial: "a", Metric: "TIME", Tables: []analysis.Table{tb},
		Findings: []string{"two clusters"},
		Params:   map[string]string{"method": "Hierarchical", "dimension_reduction": "Over X Percent", "normalization": "Range of Total"}}
	pics := []store.ResultImage{{ResultType: 0, Description: "dendrogram", PNG: []byte("png-0"), Thumbnail: []byte("thumb-0")},
		{ResultType: 1, Description: "histogram", PNG: []byte("png-1 longer"), Thumbnail: []byte("t1")}}
	return res, pics
}

// resultTables are the tables a result's rows go to.
var resultTables = []string{"analysis_settings", "analysis_settings_parameter", "analysis_settings_trial",
	"analysis_result", "analysis_result_column", "analysis_result_value"}

// TestSaveResultWithImagesAtomic makes the insert of the second picture
// fail (a trigger on analysis_result rows with an image): SaveResultWith
// fails, and no row of the result remains (every result table has as many
// rows as before, the counts of a database holding only the trial), and
// the database checks clean. The hook shows the result's own rows were
// written in that transaction before the pictures. Without the trigger
// the same call stores the result and both pictures, under the viewer
// row PerfExplorer selects.
func TestSaveResultWithImagesAtomic(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		trial, err := db.SaveTrial(ctx, genTrial(t, "a", 4, 3), store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, pics := clusterResult()
		before := storetest.Counts(t, db)
		for _, table := range resultTables {
			if before[table] != 0 {
				t.Fatalf("%s has %d rows before any result", table, before[table])
			}
		}
		remove := failInsert(t, db, "analysis_result", "NEW.image IS NOT NULL AND NEW.result_type = 1")
		var order []string
		hooked := store.WithBeforeTable(ctx, func(table string) { order = append(order, table) })
		if _, err := db.SaveResultWith(hooked, res, []int64{trial}, store.ResultExtras{Images: pics}); err == nil {
			t.Fatal("SaveResultWith succeeded although the picture's insert failed")
		} else {
			t.Logf("%s: %v", db.Dialect(), err)
		}
		if want := []string{"analysis_result", "analysis_result_value", "analysis_result", "analysis_result_value", store.ImageTable}; !slices.Equal(order, want) {
			t.Errorf("tables written: %q, want %q", order, want)
		}
		storetest.SameCounts(t, "after the failed save", before, storetest.Counts(t, db))
		storetest.CheckIntegrity(t, db)

		remove()
		saved, err := db.SaveResultWith(ctx, res, []int64{trial}, store.ResultExtras{Images: pics})
		if err != nil {
			t.Fatal(err)
		}
		checkPerfExplorerView(t, db, trial, saved.ID, res, pics)
		if imgs, err := db.ResultImages(ctx, saved.ID); err != nil || len(imgs) != 2 || string(imgs[1].PNG) != "png-1 longer" || string(imgs[0].Thumbnail) != "thumb-0" {
			t.Errorf("ResultImages: %+v, %v", imgs, err)
		}
		// 2 settings rows (the result's and its viewer row), 1 table + the
		// findings + 2 pictures as analysis_result rows, 2 + 1 cells.
		for table, want := range map[string]string{"analysis_settings": "2", "analysis_result": "4", "analysis_result_value": "3"} {
			if n := storetest.Query(t, db, `SELECT COUNT(*) FROM `+table)[0][0]; n != want {
				t.Errorf("%s: %s rows, want %s", table, n, want)
			}
		}
		storetest.CheckIntegrity(t, db)
	})
}

// TestSaveResultWithBadImage: a picture without a thumbnail is refused
// before anything is written.
func TestSaveResultWithBadImage(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		trial, err := db.SaveTrial(ctx, genTrial(t, "a", 4, 3), store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, pics := clusterResult()
		pics[1].Thumbnail = nil
		before := storetest.Counts(t, db)
		if _, err := db.SaveResultWith(ctx, res, []int64{trial}, store.ResultExtras{Images: pics}); err == nil {
			t.Fatal("a picture without a thumbnail was stored")
		}
		storetest.SameCounts(t, "after the refused save", before, storetest.Counts(t, db))
	})
}

// halfTime loads trial id and adds the derived metric HALF = TIME / 2.
func halfTime(t *testing.T, db *store.DB, id int64) *store.NewMetric {
	t.Helper()
	tr, err := db.LoadTrial(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	e, err := metrics.Compile("TIME / 2", metrics.Names(tr))
	if err != nil {
		t.Fatal(err)
	}
	m, err := metrics.AddDerived(tr, "HALF", e)
	if err != nil {
		t.Fatal(err)
	}
	return &store.NewMetric{Trial: tr, Index: m}
}

// ratioResult is a result of the derived metric HALF of trial "a".
func ratioResult() *analysis.Result {
	tb := analysis.Table{Name: "regions"}
	tb.AddNum("mean", "", []float64{1.5, 2})
	return &analysis.Result{Analysis: "ratio", Trial: "a", Metric: "HALF", Tables: []analysis.Table{tb}}
}

// TestSaveResultWithMetricAtomic: ratio --save-metric's derived metric and
// its result commit together. When the result's cells fail (a trigger on
// analysis_result_value), the metric written first in the transaction is
// gone too: every table has as many rows as before. When the metric's name
// is taken, no row of the result is written. Without faults both are
// stored: the result's analysis_settings.metric is the new metric's id,
// the metric is derived, has one timer_value per timer_call_data row of
// the trial, and each exclusive value is half the TIME value of the same
// call data row.
func TestSaveResultWithMetricAtomic(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		trial, err := db.SaveTrial(ctx, genTrial(t, "a", 8, 6), store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		before := storetest.Counts(t, db)
		remove := failInsert(t, db, "analysis_result_value", "")
		first := halfTime(t, db, trial) // loaded before HALF is stored
		if _, err := db.SaveResultWith(ctx, ratioResult(), []int64{trial}, store.ResultExtras{Metric: first}); err == nil {
			t.Fatal("SaveResultWith succeeded although the result's cells failed")
		}
		storetest.SameCounts(t, "after the failed save", before, storetest.Counts(t, db))
		storetest.CheckIntegrity(t, db)
		remove()

		saved, err := db.SaveResultWith(ctx, ratioResult(), []int64{trial}, store.ResultExtras{Metric: halfTime(t, db, trial)})
		if err != nil {
			t.Fatal(err)
		}
		checkHalf(t, db, trial, saved)

		// The name is taken now: neither the metric nor the result is added.
		before = storetest.Counts(t, db)
		_, err = db.SaveResultWith(ctx, ratioResult(), []int64{trial}, store.ResultExtras{Metric: first})
		if !errors.Is(err, store.ErrNameTaken) {
			t.Errorf("second HALF: %v, want ErrNameTaken", err)
		}
		storetest.SameCounts(t, "after the refused save", before, storetest.Counts(t, db))
		storetest.CheckIntegrity(t, db)
	})
}

// checkHalf checks the metric and result SaveResultWith stored.
func checkHalf(t *testing.T, db *store.DB, trial int64, saved store.SavedResult) {
	t.Helper()
	if saved.Metric == 0 || saved.ID == 0 {
		t.Fatalf("saved %+v", saved)
	}
	row := storetest.Query(t, db, `SELECT m.name, s.metric FROM analysis_settings s JOIN metric m ON m.id = s.metric WHERE s.id = $1`, saved.ID)
	if len(row) != 1 || row[0][0] != "HALF" || row[0][1] != strconv.FormatInt(saved.Metric, 10) {
		t.Errorf("the result's metric: %v, want HALF = %d", row, saved.Metric)
	}
	calls := storetest.Query(t, db, `SELECT COUNT(*) FROM timer_call_data d JOIN thread th ON th.id = d.thread WHERE th.trial = $1`, trial)[0][0]
	values := storetest.Query(t, db, `SELECT COUNT(*) FROM timer_value WHERE metric = $1`, saved.Metric)[0][0]
	if calls == "0" || values != calls {
		t.Errorf("HALF has %s values for %s call data rows", values, calls)
	}
	pairs := storetest.Query(t, db, `SELECT h.exclusive_value, v.exclusive_value FROM timer_value h
JOIN timer_value v ON v.timer_call_data = h.timer_call_data JOIN metric m ON m.id = v.metric
WHERE h.metric = $1 AND m.name = 'TIME' AND m.trial = $2`, saved.Metric, trial)
	if len(pairs) == 0 {
		t.Fatal("no HALF value next to a TIME value")
	}
	for _, p := range pairs {
		h, err1 := strconv.ParseFloat(p[0], 64)
		v, err2 := strconv.ParseFloat(p[1], 64)
		if err1 != nil || err2 != nil || h != v/2 {
			t.Errorf("HALF %s, TIME %s: want half", p[0], p[1])
			break
		}
	}
	storetest.CheckIntegrity(t, db)
}
