package store_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// noTrace fails t unless the tables hold exactly the rows of the trials
// in before (counts(db, 0) taken before the failed save).
func noTrace(t *testing.T, db *store.DB, before map[string]int) {
	t.Helper()
	after := counts(t, db, 0)
	for table, n := range before {
		if after[table] != n {
			t.Errorf("%s has %d rows after the failed save, %d before", table, after[table], n)
		}
	}
}

// failingTrigger makes every INSERT into secondary_metadata, the last
// table SaveTrial writes, fail.
func failingTrigger(t *testing.T, db *store.DB) {
	t.Helper()
	if db.Dialect() == store.Postgres {
		storetest.Exec(t, db, `CREATE FUNCTION injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'injected failure'; END $$;
CREATE TRIGGER injected_failure BEFORE INSERT ON secondary_metadata FOR EACH ROW EXECUTE FUNCTION injected_failure()`)
		return
	}
	storetest.Exec(t, db, `CREATE TRIGGER injected_failure BEFORE INSERT ON secondary_metadata
BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
}

// TestSaveFailureLeavesNoTrace makes the last table's insert fail and
// checks that no row of the trial remains in any table, that a trial saved
// before is untouched, and that the same trial saves once the cause is gone.
func TestSaveFailureLeavesNoTrace(t *testing.T) {
	var trials []*drg.Trial
	for _, rt := range realTrials(t) {
		if rt.rel == "snapshots" || strings.HasSuffix(rt.rel, "east02-mm-profile/3") {
			trials = append(trials, rt.trial) // snapshots and time ranges; a throttled callpath's name
		}
	}
	if len(trials) == 0 {
		t.Skip("no trial")
	}
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SaveTrial(ctx, trials[0], store.SaveOptions{Name: "kept"}); err != nil {
			t.Fatal(err)
		}
		before := counts(t, db, 0)
		failingTrigger(t, db)
		for _, tr := range trials {
			_, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
			if err == nil || !strings.Contains(err.Error(), "injected failure") || !strings.Contains(err.Error(), "secondary_metadata") {
				t.Fatalf("save with a failing secondary_metadata insert: %v", err)
			}
			noTrace(t, db, before)
		}
		storetest.Exec(t, db, `DROP TRIGGER injected_failure`+map[bool]string{true: ` ON secondary_metadata`}[db.Dialect() == store.Postgres])
		for _, tr := range trials {
			id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := db.LoadTrial(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if d := compareTrials(roundTrip(tr), got); len(d) > 0 {
				t.Errorf("saved after the failure, came back different:\n  %s", strings.Join(d, "\n  "))
			}
		}
	})
}

// TestSaveCanceledLeavesNoTrace cancels the context half-way through the
// save of a large trial (just before its timer_value rows) and checks that
// nothing of it remains; then deletes a saved one and checks the same.
func TestSaveCanceledLeavesNoTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("large trial")
	}
	tr := genTrial(t, "big", 256, 500)
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		before := counts(t, db, 0)
		start := time.Now()
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		full := time.Since(start)
		t.Logf("%s: saved %s in %v", db.Dialect(), describe(tr), full)
		if err := db.DeleteTrial(ctx, id); err != nil {
			t.Fatal(err)
		}
		noTrace(t, db, before)

		// Cancel once the bulk call data are written, before their values.
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		hooked := store.WithBeforeTable(cctx, func(table string) {
			if table == "timer_value" {
				cancel()
			}
		})
		_, err = db.SaveTrial(hooked, tr, store.SaveOptions{})
		if err == nil {
			t.Fatal("a save canceled before timer_value succeeded")
		}
		if !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "interrupt") && !strings.Contains(err.Error(), "cancel") {
			t.Logf("error of the canceled save: %v", err)
		}
		noTrace(t, db, before)
	})
}

// openPostgresApp opens a fresh PostgreSQL schema with the connections
// named app (pg_stat_activity.application_name), so that another
// connection can find them.
func openPostgresApp(t testing.TB, schema, app string) *store.DB {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(storetest.PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	cfg.ConnConfig.RuntimeParams["application_name"] = app
	cfg.MaxConns = 4
	db, err := store.OpenPostgresConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func randomName(t testing.TB) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "taudb-test-" + hex.EncodeToString(b[:])
}

// TestPostgresKilledConnectionLeavesNoTrace terminates the backend of a
// save with pg_terminate_backend, from a second connection, while it copies
// timer_value rows: the save fails and nothing of the trial remains; the
// next save succeeds.
func TestPostgresKilledConnectionLeavesNoTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("large trial")
	}
	schema := storetest.NewPostgresSchema(t)
	app := randomName(t)
	db := openPostgresApp(t, schema, app)
	ctx := context.Background()
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	tr := genTrial(t, "big", 256, 500)
	admin, err := pgx.Connect(ctx, storetest.PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	before := counts(t, db, 0)

	// Kill the saving connection from another one in the middle of the
	// transaction: after the call data are written, before their values.
	killed := 0
	hooked := store.WithBeforeTable(ctx, func(table string) {
		if table != "timer_value" {
			return
		}
		err := admin.QueryRow(ctx, `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
WHERE application_name = $1 AND pid <> pg_backend_pid()`, app).Scan(&killed)
		if err != nil {
			t.Error(err)
		}
	})
	_, err = db.SaveTrial(hooked, tr, store.SaveOptions{})
	if killed == 0 {
		t.Fatal("no connection of the save was found to kill")
	}
	if err == nil {
		t.Fatal("the save whose connection was killed succeeded")
	}
	t.Logf("save on a killed connection: %v", err)
	noTrace(t, db, before)
	id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		t.Fatalf("save after the kill: %v", err)
	}
	if got := counts(t, db, id); got["timer_value"] == 0 || got["trial"] != 1 {
		t.Errorf("counts after the kill: %v", got)
	}
}

// TestPostgresConcurrentSaves saves two trials at the same time through
// two pools: both succeed with distinct ids and come back intact.
func TestPostgresConcurrentSaves(t *testing.T) {
	schema := storetest.NewPostgresSchema(t)
	dbs := []*store.DB{openPostgresApp(t, schema, randomName(t)), openPostgresApp(t, schema, randomName(t))}
	ctx := context.Background()
	if _, err := dbs[0].Init(ctx); err != nil {
		t.Fatal(err)
	}
	trials := []*drg.Trial{genTrial(t, "a", 64, 200), genTrial(t, "b", 48, 300)}
	ids := make([]int64, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i], errs[i] = dbs[i].SaveTrial(ctx, trials[i], store.SaveOptions{})
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil || ids[0] == ids[1] {
		t.Fatalf("concurrent saves: ids %v, errors %v", ids, errs)
	}
	for i, id := range ids {
		got, err := dbs[1-i].LoadTrial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if d := compareTrials(roundTrip(trials[i]), got); len(d) > 0 {
			t.Errorf("trial %s came back different:\n  %s", trials[i].Name, strings.Join(d, "\n  "))
		}
	}
}
