package store_test

import (
	"context"
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
// nested loop probing the whole range per thread) and after ANALYZE:
// LoadTrial's values query merges timer_call_data's primary key with
// timer_value_index, Stats' count hashes the trial's threads against the
// primary-key range. Neither loops nor reads a table whole.
func TestRangePlans(t *testing.T) {
	tr := genTrial(t, "plans", 64, 60)
	db := storetest.Open(t, store.Postgres)
	ctx := context.Background()
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	var id int64
	for range 3 { // the trial in the middle, between two others
		var err error
		if id, err = db.SaveTrial(ctx, tr, store.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := pgx.Connect(ctx, db.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	first, last, ok := callRangeOf(t, db, id)
	if !ok {
		t.Fatal("no stored range")
	}
	for _, when := range []string{"before ANALYZE", "after ANALYZE"} {
		if when == "after ANALYZE" {
			if _, err := conn.Exec(ctx, "ANALYZE"); err != nil {
				t.Fatal(err)
			}
		}
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
		for _, want := range []string{"Merge Left Join", "timer_call_data_pkey", "timer_value_index"} {
			if !strings.Contains(plan, want) {
				t.Errorf("%s: the values query's plan lacks %q:\n%s", when, want, plan)
			}
		}
		count := explain(t, conn, store.PinCountPlan, store.StatsCountQuery, id, first, last)
		if !strings.Contains(count, "Hash Join") || !strings.Contains(count, "timer_call_data_pkey") {
			t.Errorf("%s: the count's plan is no hash join over the primary-key range:\n%s", when, count)
		}
		for _, p := range []string{plan, count} {
			for _, bad := range []string{"Nested Loop", "Seq Scan on timer_call_data", "Seq Scan on timer_value"} {
				if strings.Contains(p, bad) {
					t.Errorf("%s: %s in\n%s", when, bad, p)
				}
			}
		}
	}
}
