package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/result"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestLoadResultRowGap: a stored cell whose row index a hostile or broken
// database puts a billion rows on is refused with an error naming the
// table and column, instead of growing the column to that row; the
// result read before the change reads back whole.
func TestLoadResultRowGap(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := db.SaveTrial(ctx, genTrial(t, "g", 1, 2), store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tb := result.Table{Name: "t"}
		tb.AddNum("x", "", []float64{1, 2, 3})
		tb.AddText("s", []string{"a", "b", "c"})
		rid, err := db.SaveResult(ctx, &result.Result{Analysis: "imbalance", Trial: "g", Metric: "TIME", Params: map[string]string{}, Tables: []result.Table{tb}}, []int64{id})
		if err != nil {
			t.Fatal(err)
		}
		back, err := db.LoadResult(ctx, rid)
		if err != nil || back.Table("t") == nil || back.Table("t").NumRows() != 3 || back.Table("t").Text("s", 2) != "c" {
			t.Fatalf("read back %+v, %v", back, err)
		}
		storetest.Exec(t, db, fmt.Sprintf(`UPDATE analysis_result_value SET row_index = 1000000000 WHERE column_name = 'x' AND row_index = 2
AND analysis_result IN (SELECT id FROM analysis_result WHERE analysis_settings = %d)`, rid))
		_, err = db.LoadResult(ctx, rid)
		if err == nil || !strings.Contains(err.Error(), `"t"."x" of row 1000000000`) {
			t.Errorf("a cell a billion rows on: %v", err)
		}
	})
}
