package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestLayouts saves, reads and deletes trials on the three PostgreSQL
// layouts a TAUdb can have: partitioned (Init of a fresh database), plain
// (Init before the partitioned layout existed) and TAU's own schema file
// (the storetest fixture). On each, a trial TAU's loader writes sits next
// to two trials SaveTrial writes, as on a team's database.
func TestLayouts(t *testing.T) {
	cases := []struct {
		name string
		open func(t *testing.T) *store.DB
		want store.Layout
	}{
		{"partitioned", func(t *testing.T) *store.DB { return storetest.Open(t, store.Postgres) }, store.LayoutPartitioned},
		{"plain", func(t *testing.T) *store.DB {
			db := storetest.Open(t, store.Postgres)
			db.SetPlainInit()
			return db
		}, store.LayoutPlain},
		{"tau-schema", func(t *testing.T) *store.DB {
			db, err := store.Open(context.Background(), storetest.TAUEmptyDatabase(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}, store.LayoutPlain},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := c.open(t)
			ctx := context.Background()
			if _, err := db.Init(ctx); err != nil {
				t.Fatal(err)
			}
			if got, err := db.Layout(ctx); err != nil || got != c.want {
				t.Fatalf("layout %q, %v; want %q", got, err, c.want)
			}
			checkLayout(t, db, c.want == store.LayoutPartitioned)
		})
	}
}

// checkLayout is TestLayouts' body on one database.
func checkLayout(t *testing.T, db *store.DB, part bool) {
	ctx := context.Background()
	trA, trB := genTrial(t, "a", 8, 9), genTrial(t, "b", 12, 7)
	a, err := db.SaveTrial(ctx, trA, store.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.SaveTrial(ctx, trB, store.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := tauFill(t, db)
	for _, id := range []int64{a, b} {
		if n := partitionCount(t, db, id); (n == 3) != part || (n != 0 && n != 3) {
			t.Fatalf("trial %d has %d partitions; partitioned layout %v", id, n, part)
		}
	}
	if part {
		checkPartitionRows(t, db, a, b, c)
		checkPruned(t, db, b, a)
	}
	storetest.CheckIntegrity(t, db)
	for _, id := range []int64{a, c} {
		if err := db.DeleteTrial(ctx, id); err != nil {
			t.Fatal(err)
		}
		if n := partitionCount(t, db, id); n != 0 {
			t.Fatalf("trial %d: %d partitions after its delete", id, n)
		}
	}
	back, err := db.LoadTrial(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if d := compareTrials(roundTrip(trB), back); len(d) > 0 {
		t.Fatalf("trial b after the others' delete:\n  %s", strings.Join(d, "\n  "))
	}
	kept := counts(t, db, b)
	if all := counts(t, db, 0); fmt.Sprint(all) != fmt.Sprint(kept) {
		t.Fatalf("rows left: %v, want trial b's %v", all, kept)
	}
	storetest.CheckIntegrity(t, db)
	if err := db.DeleteTrial(ctx, b); err != nil {
		t.Fatal(err)
	}
	for table, n := range counts(t, db, 0) {
		if n != 0 && table != "time_range" {
			t.Errorf("%s: %d rows after every trial's delete", table, n)
		}
	}
}

// tauFill writes a trial into db as TAU's loader does (row by row, ids from
// the tables' sequences) and returns its id.
func tauFill(t *testing.T, db *store.DB) int64 {
	t.Helper()
	conn, err := db.Pool().Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	return storetest.TAUFill(t, conn.Conn(), storetest.TAUTrials()[0])
}

// partitionCount counts the partitions named after trial id.
func partitionCount(t *testing.T, db *store.DB, id int64) int {
	t.Helper()
	var n int
	fmt.Sscan(storetest.Query(t, db, `SELECT COUNT(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE c.relname IN ($1, $2, $3)`, fmt.Sprintf("timer_call_data_t%d", id), fmt.Sprintf("timer_value_t%d", id), fmt.Sprintf("counter_value_t%d", id))[0][0], &n)
	return n
}

// checkPartitionRows checks where the rows of trials a and b (SaveTrial)
// and c (TAU's loader) are: every row of a and b in its trial's
// partitions, c's in the default ones; that the catalog shows the
// partitioned tables, not their partitions; and that the key of
// timer_value to timer_call_data is listed.
func checkPartitionRows(t *testing.T, db *store.DB, a, b, c int64) {
	t.Helper()
	for _, id := range []int64{a, b, c} {
		n := counts(t, db, id)
		where := map[string]string{}
		for _, tb := range []string{"timer_call_data", "timer_value", "counter_value"} {
			where[tb] = fmt.Sprintf("%s_t%d", tb, id)
			if id == c {
				where[tb] = tb + "_default"
			}
		}
		got := func(sql string) int {
			var v int
			fmt.Sscan(storetest.Query(t, db, sql, id)[0][0], &v)
			return v
		}
		if g := got(`SELECT COUNT(*) FROM ` + where["timer_call_data"] + ` d WHERE d.thread IN (SELECT id FROM thread WHERE trial = $1)`); g != n["timer_call_data"] || g == 0 {
			t.Errorf("trial %d: %d timer_call_data rows in %s, want all %d", id, g, where["timer_call_data"], n["timer_call_data"])
		}
		if g := got(`SELECT COUNT(*) FROM ` + where["timer_value"] + ` v WHERE v.metric IN (SELECT id FROM metric WHERE trial = $1)`); g != n["timer_value"] || g == 0 {
			t.Errorf("trial %d: %d timer_value rows in %s, want all %d", id, g, where["timer_value"], n["timer_value"])
		}
		if g := got(`SELECT COUNT(*) FROM ` + where["counter_value"] + ` v WHERE v.counter IN (SELECT id FROM counter WHERE trial = $1)`); g != n["counter_value"] {
			t.Errorf("trial %d: %d counter_value rows in %s, want all %d", id, g, where["counter_value"], n["counter_value"])
		}
	}
	cat, err := db.Catalog(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range cat.Tables {
		if strings.HasSuffix(name, "_default") || strings.Contains(name, "_t"+fmt.Sprint(a)) {
			t.Errorf("the catalog lists partition %s", name)
		}
	}
	refs, err := db.ForeignKeys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := "timer_value(timer_call_data) -> timer_call_data(id)"
	if !strings.Contains(fmt.Sprint(refs), want) {
		t.Errorf("foreign keys %v lack %s", refs, want)
	}
}

// checkPruned checks that Stats' count query of trial id, bounded by its
// stored id range, reads its own partition and no other (not other's,
// not the default one).
func checkPruned(t *testing.T, db *store.DB, id, other int64) {
	t.Helper()
	r := storetest.Query(t, db, `SELECT first_id, last_id FROM trial_call_data_range WHERE trial = $1`, id)
	if len(r) != 1 {
		t.Fatalf("trial %d: range %v", id, r)
	}
	plan := fmt.Sprint(storetest.Query(t, db, `EXPLAIN `+store.StatsCountQuery, id, r[0][0], r[0][1]))
	if !strings.Contains(plan, fmt.Sprintf("timer_call_data_t%d", id)) || strings.Contains(plan, fmt.Sprintf("timer_call_data_t%d", other)) ||
		strings.Contains(plan, "timer_call_data_default") {
		t.Errorf("the count of trial %d reads other partitions:\n%s", id, plan)
	}
}
