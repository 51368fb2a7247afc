package store_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/result"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// bulkResult returns a result of tables tables of rows rows: a text column
// and numbers columns where cell (i, c) of table k is k*1e6 + i*10 + c,
// except that every 7th cell is NaN, every 11th +Inf (both stored as NULL
// and read back as NaN) and every 13th text is empty.
func bulkResult(tables, rows, numbers int) *result.Result {
	res := &result.Result{Analysis: "speedup", Trial: "bulk", Metric: "TIME", Params: map[string]string{"p": "1"}}
	for k := range tables {
		tb := result.Table{Name: fmt.Sprint("t", k), Title: fmt.Sprint("table ", k)}
		names := make([]string, rows)
		for i := range names {
			if i%13 != 0 {
				names[i] = fmt.Sprintf("region %d of %d", i, k)
			}
		}
		tb.AddText("region", names)
		for c := range numbers {
			v := make([]float64, rows)
			for i := range v {
				switch {
				case (i+c)%7 == 0:
					v[i] = math.NaN()
				case (i+c)%11 == 0:
					v[i] = math.Inf(1)
				default:
					v[i] = float64(k)*1e6 + float64(i)*10 + float64(c)
				}
			}
			tb.AddNum(fmt.Sprint("c", c), "s", v)
		}
		res.Tables = append(res.Tables, tb)
	}
	return res
}

// TestSaveResultBulkRoundTrip stores a result whose tables hold more cells
// than one batch of the bulk insert (and a number that is no multiple of
// it) and reads every cell back where it was, on both dialects.
func TestSaveResultBulkRoundTrip(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := db.SaveTrial(ctx, genTrial(t, "bulk", 2, 3), store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		const tables, rows, numbers = 3, 1237, 4
		rid, err := db.SaveResult(ctx, bulkResult(tables, rows, numbers), []int64{id})
		if err != nil {
			t.Fatal(err)
		}
		cells := storetest.Query(t, db, `SELECT COUNT(*) FROM analysis_result_value`)[0][0]
		if want := fmt.Sprint(tables * rows * (numbers + 1)); cells != want {
			t.Fatalf("%s cells stored, want %s", cells, want)
		}
		back, err := db.LoadResult(ctx, rid)
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Tables) != tables {
			t.Fatalf("%d tables back, want %d", len(back.Tables), tables)
		}
		for k, tb := range back.Tables {
			checkBulkTable(t, k, rows, numbers, tb)
		}
	})
}

// checkBulkTable checks table k of a bulkResult read back.
func checkBulkTable(t *testing.T, k, rows, numbers int, tb result.Table) {
	t.Helper()
	names := tb.Col("region")
	if names == nil || len(names.Text) != rows {
		t.Fatalf("table %d: region column %+v", k, names)
	}
	for i, s := range names.Text {
		want := ""
		if i%13 != 0 {
			want = fmt.Sprintf("region %d of %d", i, k)
		}
		if s != want {
			t.Fatalf("table %d row %d: region %q, want %q", k, i, s, want)
		}
	}
	for c := range numbers {
		col := tb.Col(fmt.Sprint("c", c))
		if col == nil || len(col.Num) != rows || col.Unit != "s" {
			t.Fatalf("table %d: column c%d %+v", k, c, col)
		}
		for i, v := range col.Num {
			nan := (i+c)%7 == 0 || ((i+c)%11 == 0)
			want := float64(k)*1e6 + float64(i)*10 + float64(c)
			if nan != math.IsNaN(v) || (!nan && v != want) {
				t.Fatalf("table %d cell (%d, c%d) = %v, want %v (NaN %v)", k, i, c, v, want, nan)
			}
		}
	}
}

// BenchmarkSaveResultSQLite stores a result of 8 tables × 1,000 rows × 6
// columns (48,000 cells, the size of a speedup study's result) into an
// embedded database and reports cells/s (scripts/benchtool compares the
// same path with the sqlite3 shell's .import).
func BenchmarkSaveResultSQLite(b *testing.B) {
	ctx := context.Background()
	db, err := store.OpenSQLite(ctx, filepath.Join(b.TempDir(), "taudb.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil {
		b.Fatal(err)
	}
	id, err := db.SaveTrial(ctx, genTrial(b, "bulk", 2, 3), store.SaveOptions{})
	if err != nil {
		b.Fatal(err)
	}
	res := bulkResult(8, 1000, 5)
	var spent time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := db.SaveResult(ctx, res, []int64{id}); err != nil {
			b.Fatal(err)
		}
		spent += time.Since(start)
	}
	b.ReportMetric(float64(b.N*8*1000*6)/spent.Seconds(), "cells/s")
}
