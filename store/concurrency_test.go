package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// concurrentClients is the number of clients of TestPostgresConcurrentClients.
const concurrentClients = 16

// TestPostgresConcurrentClients runs 16 clients at once against one
// PostgreSQL database, each with its own pool as 16 processes would: each
// saves a trial of its own size, loads it back, analyses it and saves the
// result. Every id is distinct, every trial comes back intact, every
// stored result equals the same analysis run in memory on the trial, and
// the database is consistent afterwards.
func TestPostgresConcurrentClients(t *testing.T) {
	if testing.Short() {
		t.Skip("16 clients")
	}
	schema := storetest.NewPostgresSchema(t)
	ctx := context.Background()
	dbs := make([]*store.DB, concurrentClients)
	for i := range dbs {
		dbs[i] = openPostgresApp(t, schema, randomName(t))
	}
	if _, err := dbs[0].Init(ctx); err != nil {
		t.Fatal(err)
	}
	trials := make([]*drg.Trial, concurrentClients)
	want := make([]*analysis.Result, concurrentClients)
	for i := range trials {
		trials[i] = genTrial(t, fmt.Sprintf("client-%d", i), 8+i, 40+5*i)
		var err error
		if want[i], err = analysis.Imbalance(roundTrip(trials[i]), analysis.ImbalanceOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ids := make([]int64, concurrentClients)
	rids := make([]int64, concurrentClients)
	errs := make([]error, concurrentClients)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range concurrentClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			db := dbs[i]
			id, err := db.SaveTrial(ctx, trials[i], store.SaveOptions{})
			if err != nil {
				errs[i] = fmt.Errorf("save: %w", err)
				return
			}
			ids[i] = id
			got, err := db.LoadTrial(ctx, id)
			if err != nil {
				errs[i] = fmt.Errorf("load: %w", err)
				return
			}
			if d := compareTrials(roundTrip(trials[i]), got); len(d) > 0 {
				errs[i] = fmt.Errorf("trial came back different:\n  %s", strings.Join(d, "\n  "))
				return
			}
			res, err := analysis.Imbalance(got, analysis.ImbalanceOptions{})
			if err != nil {
				errs[i] = fmt.Errorf("analyse: %w", err)
				return
			}
			if rids[i], err = db.SaveResult(ctx, res, []int64{id}); err != nil {
				errs[i] = fmt.Errorf("save result: %w", err)
			}
		}()
	}
	close(start)
	wg.Wait()
	seen := map[int64]int{}
	seenResult := map[int64]int{}
	for i, err := range errs {
		if err != nil {
			t.Errorf("client %d: %v", i, err)
			continue
		}
		if j, dup := seen[ids[i]]; dup {
			t.Errorf("clients %d and %d both got trial id %d", j, i, ids[i])
		}
		if j, dup := seenResult[rids[i]]; dup {
			t.Errorf("clients %d and %d both got result id %d", j, i, rids[i])
		}
		seen[ids[i]], seenResult[rids[i]] = i, i
	}
	if t.Failed() {
		return
	}
	// Each stored result, read back by another client, is the analysis in
	// memory, table by table.
	for i := range concurrentClients {
		back, err := dbs[(i+1)%concurrentClients].LoadResult(ctx, rids[i])
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Tables) != len(want[i].Tables) {
			t.Fatalf("client %d: stored result has %d tables, want %d", i, len(back.Tables), len(want[i].Tables))
		}
		for k := range back.Tables {
			if g, w := tableText(&back.Tables[k]), tableText(&want[i].Tables[k]); g != w {
				t.Errorf("client %d: stored table %s differs from the analysis in memory:\n%s\nwant\n%s", i, want[i].Tables[k].Name, clip(g), clip(w))
			}
		}
	}
	storetest.CheckIntegrity(t, dbs[0])
}

// tableText prints a result table as JSON, for comparison.
func tableText(tb *analysis.Table) string {
	b, err := json.Marshal(tb)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "..."
	}
	return s
}

// TestSQLiteBusyWriter holds SQLite's write lock in one connection (as a
// long load in another process does) while readers load a trial from the
// same file: the readers succeed, and a second writer fails after the busy
// timeout (set to 3 s through TAUDB_SQLITE_BUSY_TIMEOUT) with ErrBusy and a message saying what happened and what to do,
// having written nothing. Once the lock is released the second write
// succeeds and SQLite's integrity_check is "ok".
func TestSQLiteBusyWriter(t *testing.T) {
	t.Setenv(store.EnvSQLiteBusyTimeout, "3s")
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taudb.db")
	open := func() *store.DB {
		db, err := store.OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	holder, writer := open(), open()
	if _, err := holder.Init(ctx); err != nil {
		t.Fatal(err)
	}
	tr := genTrial(t, "small", 8, 50)
	id, err := holder.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := counts(t, holder, 0)

	lock, err := holder.SQL().BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	readErrs := make([]error, 4)
	for i := range readErrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := open()
			got, err := r.LoadTrial(ctx, id)
			if err == nil && len(compareTrials(roundTrip(tr), got)) > 0 {
				err = errors.New("the trial came back different")
			}
			readErrs[i] = err
		}()
	}
	startWrite := time.Now()
	_, err = writer.SaveTrial(ctx, tr, store.SaveOptions{Name: "second"})
	waited := time.Since(startWrite)
	wg.Wait()
	for i, err := range readErrs {
		if err != nil {
			t.Errorf("reader %d while a writer holds the lock: %v", i, err)
		}
	}
	want := `save trial "second": database is busy: another process has been writing to sqlite:` + path +
		` for more than 3s (the busy timeout, TAUDB_SQLITE_BUSY_TIMEOUT); nothing was written, try again when it has finished (begin a transaction: database is locked (5) (SQLITE_BUSY))`
	if err == nil || !errors.Is(err, store.ErrBusy) || err.Error() != want {
		t.Errorf("second writer: %v\nwant %s", err, want)
	}
	if waited < 3*time.Second {
		t.Errorf("the second writer gave up after %v, before the busy timeout", waited)
	}
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	noTrace(t, writer, before)
	if _, err := writer.SaveTrial(ctx, tr, store.SaveOptions{Name: "second"}); err != nil {
		t.Fatalf("second writer once the lock is released: %v", err)
	}
	storetest.CheckIntegrity(t, writer)
}

// TestSQLiteFullDisk simulates a full disk with SQLite's max_page_count
// (the file may not grow past its current size plus a few pages): a save
// that needs more room fails with SQLite's "database or disk is full",
// leaves no row behind and the file sound; once there is room again, the
// same save succeeds.
func TestSQLiteFullDisk(t *testing.T) {
	ctx := context.Background()
	db, err := store.OpenSQLite(ctx, filepath.Join(t.TempDir(), "taudb.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SQL().SetMaxOpenConns(1) // the pragma holds for one connection
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db, 0)
	var pages int
	if _, err := fmt.Sscan(storetest.Query(t, db, `PRAGMA page_count`)[0][0], &pages); err != nil {
		t.Fatal(err)
	}
	storetest.Exec(t, db, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages+8))
	tr := genTrial(t, "big", 64, 300)
	_, err = db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err == nil || !strings.Contains(err.Error(), "database or disk is full") {
		t.Fatalf("save on a full disk: %v", err)
	}
	t.Logf("save on a full disk: %v", err)
	noTrace(t, db, before)
	storetest.CheckIntegrity(t, db)
	storetest.Exec(t, db, `PRAGMA max_page_count = 1073741823`)
	if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{}); err != nil {
		t.Fatalf("save once there is room: %v", err)
	}
	storetest.CheckIntegrity(t, db)
}
