package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// tauDeleteTrial deletes trial id the way TAU's own tools do: row by row
// through TAU's tables, knowing nothing of taudb-analyze's (which cascade).
func tauDeleteTrial(t *testing.T, db *store.DB, id string) {
	t.Helper()
	for _, q := range []string{
		`DELETE FROM timer_value WHERE timer_call_data IN (SELECT d.id FROM timer_call_data d JOIN thread h ON h.id = d.thread WHERE h.trial = ` + id + `)`,
		`DELETE FROM timer_call_data WHERE thread IN (SELECT id FROM thread WHERE trial = ` + id + `)`,
		`DELETE FROM counter_value WHERE counter IN (SELECT id FROM counter WHERE trial = ` + id + `)`,
		`DELETE FROM counter WHERE trial = ` + id,
		`DELETE FROM secondary_metadata WHERE trial = ` + id,
		`DELETE FROM primary_metadata WHERE trial = ` + id,
		`DELETE FROM timer_callpath WHERE timer IN (SELECT id FROM timer WHERE trial = ` + id + `)`,
		`DELETE FROM timer_group WHERE timer IN (SELECT id FROM timer WHERE trial = ` + id + `)`,
		`DELETE FROM timer_parameter WHERE timer IN (SELECT id FROM timer WHERE trial = ` + id + `)`,
		`DELETE FROM timer WHERE trial = ` + id,
		`DELETE FROM metric WHERE trial = ` + id,
		`DELETE FROM thread WHERE trial = ` + id,
		`DELETE FROM trial WHERE id = ` + id,
	} {
		storetest.Exec(t, db, q)
	}
}

// TestResultLosesTrialToAnotherTool: a result of two trials, one of which
// TAU's tools then delete, is reported by CheckIntegrity, listed with
// MissingTrials 1, and printed again with a finding saying it is
// incomplete.
func TestResultLosesTrialToAnotherTool(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, n := range []string{"a", "b", "c"} {
			id, err := db.SaveTrial(ctx, genTrial(t, n, 2, 3), store.SaveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		tb := analysis.Table{Name: "t"}
		tb.AddNum("x", "", []float64{1, 2})
		two, err := db.SaveResult(ctx, &analysis.Result{Analysis: "speedup", Trials: []string{"a", "b"}, Metric: "TIME", Tables: []analysis.Table{tb}}, ids[:2])
		if err != nil {
			t.Fatal(err)
		}
		whole, err := db.SaveResult(ctx, &analysis.Result{Analysis: "speedup", Trials: []string{"a", "c"}, Metric: "TIME", Tables: []analysis.Table{tb}}, []int64{ids[0], ids[2]})
		if err != nil {
			t.Fatal(err)
		}
		if in, err := db.CheckIntegrity(ctx); err != nil || !in.OK() {
			t.Fatalf("before: %+v, %v", in, err)
		}
		tauDeleteTrial(t, db, storetest.Query(t, db, `SELECT id FROM trial WHERE name = 'b'`)[0][0])

		in, err := db.CheckIntegrity(ctx)
		if err != nil || in.OK() || !slices.Equal(in.IncompleteResults, []int64{two}) {
			t.Fatalf("after: %+v, %v; want result %d incomplete", in, err, two)
		}
		if p := in.Problems(); len(p) != 1 || !strings.Contains(p[0], "incomplete") {
			t.Errorf("problems: %v", p)
		}
		infos, err := db.Results(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, ri := range infos {
			want := 0
			if ri.ID == two {
				want = 1
			}
			if ri.MissingTrials != want {
				t.Errorf("result %d: MissingTrials %d, want %d", ri.ID, ri.MissingTrials, want)
			}
		}
		res, err := db.LoadResult(ctx, two)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) == 0 || res.Findings[0] != "incomplete: 1 of the 2 trials this result was computed from have been deleted since it was saved" {
			t.Errorf("findings %q", res.Findings)
		}
		if res, err := db.LoadResult(ctx, whole); err != nil || len(res.Findings) != 0 {
			t.Errorf("complete result: %v, %v", res.Findings, err)
		}
	})
}
