package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// explain returns PostgreSQL's plan of q, with settings run first in the
// same transaction.
func explain(t *testing.T, conn *pgx.Conn, settings, q string, args ...any) string {
	t.Helper()
	ctx := context.Background()
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read only
	if settings != "" {
		if _, err := tx.Exec(ctx, settings); err != nil {
			t.Fatalf("%s: %v", settings, err)
		}
	}
	rows, err := tx.Query(ctx, "EXPLAIN "+q, args...)
	if err != nil {
		t.Fatalf("EXPLAIN %s: %v", q, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// TestRangePlans checks the plans that the pinned settings leave for the
// queries bounded by a trial's timer_call_data range, on a database that
// has no statistics yet (where PostgreSQL once planned Stats' count as a
// nested loop probing the whole range per thread) and after ANALYZE, in
// both layouts Init has made. Plain: LoadTrial's values query merges
// timer_call_data's primary key with timer_value_index, Stats' count hashes
// the trial's threads against the primary-key range; neither loops nor
// reads a table whole. Partitioned: the same merge, of the trial's own
// partitions' indexes, and a count that reads the trial's partition and no
// other (a whole partition is one trial's rows).
func TestRangePlans(t *testing.T) {
	t.Run("plain", func(t *testing.T) { checkRangePlans(t, false) })
	t.Run("partitioned", func(t *testing.T) { checkRangePlans(t, true) })
}

// checkRangePlans is TestRangePlans on one layout.
func checkRangePlans(t *testing.T, part bool) {
	tr := genTrial(t, "plans", 64, 60)
	db := storetest.Open(t, store.Postgres)
	if !part {
		db.SetPlainInit()
	}
	ctx := context.Background()
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for range 3 { // the trial in the middle, between two others
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	id := ids[1]
	conn, err := pgx.Connect(ctx, db.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	first, last, ok := callRangeOf(t, db, id)
	if !ok {
		t.Fatal("no stored range")
	}
	wantValues := []string{"Merge Left Join", "timer_call_data_pkey", "timer_value_index"}
	wantCount := []string{"Hash Join", "timer_call_data_pkey"}
	bad := []string{"Nested Loop", "Seq Scan on timer_call_data", "Seq Scan on timer_value"}
	if part {
		own := fmt.Sprintf("timer_call_data_t%d ", id)
		wantValues = []string{"Merge Left Join", fmt.Sprintf("timer_call_data_t%d_pkey", id), fmt.Sprintf("timer_value_t%d_", id)}
		wantCount = []string{"Hash Join", own}
		bad = []string{"Nested Loop", "_default", fmt.Sprintf("_t%d", ids[0]), fmt.Sprintf("_t%d", ids[2])}
	}
	for _, when := range []string{"before ANALYZE", "after ANALYZE"} {
		if when == "after ANALYZE" {
			storetest.Exec(t, db, "INSERT INTO trial_value_page SELECT * FROM pages_kept")
			if _, err := conn.Exec(ctx, "ANALYZE"); err != nil {
				t.Fatal(err)
			}
		}
		checkPagePlan(t, conn, db, id, when)
		qs, err := db.TrialQueries(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var values *store.TrialQuery
		for i := range qs {
			if qs[i].Settings != "" {
				values = &qs[i]
			}
		}
		if values == nil {
			t.Fatal("no query with pinned settings among TrialQueries")
		}
		plan := explain(t, conn, values.Settings, values.SQL)
		count := explain(t, conn, store.PinCountPlan, store.StatsCountQuery, id, first, last)
		checkDerivedPlan(t, conn, db, id, when)
		for _, c := range []struct {
			plan string
			want []string
		}{{plan, wantValues}, {count, wantCount}} {
			for _, w := range c.want {
				if !strings.Contains(c.plan, w) {
					t.Errorf("%s: the plan lacks %q:\n%s", when, w, c.plan)
				}
			}
			for _, b := range bad {
				if strings.Contains(c.plan, b) {
					t.Errorf("%s: %s in\n%s", when, b, c.plan)
				}
			}
		}
	}
}

// checkDerivedPlan checks that Stats looks the derived threads' rows of
// trial id up by index, in nested loops, and reads no table whole: the
// planner hashed every timer_value row of a 131,072-thread trial loaded a
// moment before (35.7 s instead of 0.07 s).
func checkDerivedPlan(t *testing.T, conn *pgx.Conn, db *store.DB, id int64, when string) {
	metric := storetest.Query(t, db, `SELECT MIN(id) FROM metric WHERE trial = $1`, id)[0][0]
	plan := explain(t, conn, store.PinDerivedPlan, store.StatsQuery, id, metric)
	if !strings.Contains(plan, "Nested Loop") || strings.Contains(plan, "Hash Join") || strings.Contains(plan, "Seq Scan on timer_") {
		t.Errorf("%s: the derived rows' plan:\n%s", when, plan)
	}
}

// checkPagePlan checks that LoadTrial reads trial id's pages as a range of
// the primary key, in its order, without sorting them (as the planner
// chose for a 131,072-thread trial loaded a moment before: a bitmap scan
// and a sort of 6 GB), then sets the pages aside so that the rows' plan
// is checked next (checkRangePlans puts them back).
func checkPagePlan(t *testing.T, conn *pgx.Conn, db *store.DB, id int64, when string) {
	qs, err := db.TrialQueries(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, q := range qs {
		if !strings.Contains(q.SQL, store.PageTable) {
			continue
		}
		found = true
		plan := explain(t, conn, q.Settings, q.SQL)
		if !strings.Contains(plan, "Index Scan using trial_value_page_pkey") || strings.Contains(plan, "Sort") {
			t.Errorf("%s: the pages' plan:\n%s", when, plan)
		}
	}
	if !found {
		t.Fatalf("%s: no pages query among TrialQueries", when)
	}
	storetest.Exec(t, db, "CREATE TABLE IF NOT EXISTS pages_kept AS SELECT * FROM trial_value_page WITH NO DATA")
	storetest.Exec(t, db, "INSERT INTO pages_kept SELECT * FROM trial_value_page")
	storetest.Exec(t, db, "DELETE FROM trial_value_page")
}
