package store_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// killApp terminates every backend whose application_name is app, from the
// admin connection, and returns how many it terminated.
func killApp(t *testing.T, admin *pgx.Conn, app string, activeOnly bool) int {
	t.Helper()
	var n int
	q := `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`
	if activeOnly {
		q += ` AND state = 'active'`
	}
	if err := admin.QueryRow(context.Background(), q, app).Scan(&n); err != nil {
		t.Errorf("pg_terminate_backend: %v", err)
	}
	return n
}

// resultJSON prints a result for comparison.
func resultJSON(t *testing.T, res *analysis.Result) string {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPostgresKilledDuringLoadAnalysisAndResultSave kills the connection of
// a PostgreSQL client with pg_terminate_backend at the three moments of an
// analysis command: while it loads a trial, while it analyses (the pool's
// idle connections die under it), and while it saves the result (before
// the result's cells). Each time the database stays consistent (no orphan
// rows over any foreign key, no partial result) and the next try succeeds
// with the same pool and gives the same result as the analysis in memory.
func TestPostgresKilledDuringLoadAnalysisAndResultSave(t *testing.T) {
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
	id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(ctx, storetest.PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	want, err := analysis.Imbalance(roundTrip(tr), analysis.ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// 1. During the load: kill the backend as soon as it is busy.
	loadKilled := false
	for try := 0; try < 5 && !loadKilled; try++ {
		done := make(chan error, 1)
		go func() { _, err := db.LoadTrial(ctx, id); done <- err }()
		killed := 0
	poll:
		for {
			select {
			case err := <-done:
				if killed > 0 && err != nil {
					t.Logf("load on a killed connection: %v", err)
					loadKilled = true
				}
				break poll
			default:
				if killed == 0 {
					killed = killApp(t, admin, app, true)
				}
				time.Sleep(time.Millisecond)
			}
		}
	}
	if !loadKilled {
		t.Fatal("no load was caught busy in 5 tries")
	}
	storetest.CheckIntegrity(t, db)
	got, err := db.LoadTrial(ctx, id)
	if err != nil {
		t.Fatalf("load after the kill: %v", err)
	}
	if d := compareTrials(roundTrip(tr), got); len(d) > 0 {
		t.Fatalf("trial loaded after the kill differs:\n  %s", strings.Join(d, "\n  "))
	}

	// 2. During the analysis: every connection of the pool dies while the
	// analysis runs in memory; saving its result afterwards works.
	if n := killApp(t, admin, app, false); n == 0 {
		t.Fatal("the pool has no connection to kill")
	}
	res, err := analysis.Imbalance(got, analysis.ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if resultJSON(t, res) != resultJSON(t, want) {
		t.Fatal("analysis of the loaded trial differs from the analysis in memory")
	}
	before := counts(t, db, 0)
	rid, err := db.SaveResult(ctx, res, []int64{id})
	if err != nil {
		t.Fatalf("save a result after the pool's connections were killed: %v", err)
	}
	storetest.CheckIntegrity(t, db)

	// 3. During the result save: killed before the cells are written.
	resultRows := func() string {
		return strings.Join(storetest.Query(t, db, `SELECT (SELECT COUNT(*) FROM analysis_settings), (SELECT COUNT(*) FROM analysis_result),
(SELECT COUNT(*) FROM analysis_result_value), (SELECT COUNT(*) FROM analysis_settings_parameter)`)[0], " ")
	}
	rowsBefore := resultRows()
	var once sync.Once
	hooked := store.WithBeforeTable(ctx, func(table string) {
		if table == "analysis_result_value" {
			once.Do(func() {
				if killApp(t, admin, app, false) == 0 {
					t.Error("no connection of the result save was found to kill")
				}
			})
		}
	})
	if _, err := db.SaveResult(hooked, res, []int64{id}); err == nil {
		t.Fatal("the result save whose connection was killed succeeded")
	} else {
		t.Logf("result save on a killed connection: %v", err)
	}
	if r := resultRows(); r != rowsBefore {
		t.Errorf("result tables hold %s rows after the failed save, %s before", r, rowsBefore)
	}
	storetest.CheckIntegrity(t, db)
	noTrace(t, db, before)
	rid2, err := db.SaveResult(ctx, res, []int64{id})
	if err != nil || rid2 == rid {
		t.Fatalf("result save after the kill: id %d (first %d), %v", rid2, rid, err)
	}
	back, err := db.LoadResult(ctx, rid2)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Tables) != len(res.Tables) || back.Tables[0].NumRows() != res.Tables[0].NumRows() {
		t.Errorf("stored result came back with %d tables", len(back.Tables))
	}
}
