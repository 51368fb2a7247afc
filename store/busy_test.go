package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// openAsCLI opens the SQLite file at path as a command that writes does:
// open, check the schema, create it when there is none.
func openAsCLI(ctx context.Context, path string) (*store.DB, error) {
	db, err := store.OpenSQLite(ctx, path)
	if err != nil {
		return nil, err
	}
	if _, err := db.CheckSchema(ctx); err != nil {
		if !errors.Is(err, store.ErrNoSchema) {
			db.Close()
			return nil, err
		}
		if _, err := db.Init(ctx); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// TestSQLiteConcurrentFirstOpens opens new SQLite files from several
// clients at once, as several commands started together on a new database
// do: each opens the file, creates the schema if it finds none and saves a
// trial. Every client succeeds: the journal-mode switch and the schema
// creation racing must wait, not fail with a raw "database is locked".
func TestSQLiteConcurrentFirstOpens(t *testing.T) {
	ctx := context.Background()
	rounds, clients := 80, 6
	if testing.Short() {
		rounds = 5
	}
	tr := genTrial(t, "first", 2, 5)
	dir := t.TempDir()
	for round := range rounds {
		path := filepath.Join(dir, fmt.Sprintf("r%d.db", round))
		errs := make([]error, clients)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				db, err := openAsCLI(ctx, path)
				if err != nil {
					errs[c] = err
					return
				}
				defer db.Close()
				_, errs[c] = db.SaveTrial(ctx, tr, store.SaveOptions{Name: fmt.Sprintf("c%d", c)})
			}()
		}
		close(start)
		wg.Wait()
		for c, err := range errs {
			if err != nil {
				t.Fatalf("round %d, client %d: %v", round, c, err)
			}
		}
	}
}

// TestSQLiteBusyTimeoutSetting reads TAUDB_SQLITE_BUSY_TIMEOUT: unset, the
// default of ten minutes; a Go duration or a number of seconds; anything
// else, negative or over a day is refused naming the variable.
func TestSQLiteBusyTimeoutSetting(t *testing.T) {
	for _, c := range []struct {
		env  string
		want time.Duration
		err  string
	}{
		{"", 10 * time.Minute, ""},
		{"90s", 90 * time.Second, ""},
		{" 2m ", 2 * time.Minute, ""},
		{"30", 30 * time.Second, ""},
		{"1.5", 1500 * time.Millisecond, ""},
		{"0", 0, ""},
		{"24h", 24 * time.Hour, ""},
		{"-1s", 0, `TAUDB_SQLITE_BUSY_TIMEOUT="-1s": the busy timeout must be between 0 and 24h0m0s`},
		{"25h", 0, `TAUDB_SQLITE_BUSY_TIMEOUT="25h": the busy timeout must be between 0 and 24h0m0s`},
		{"soon", 0, `TAUDB_SQLITE_BUSY_TIMEOUT="soon": not a duration ("90s", "10m") nor a number of seconds`},
		{"NaN", 0, `TAUDB_SQLITE_BUSY_TIMEOUT="NaN": not a duration ("90s", "10m") nor a number of seconds`},
	} {
		t.Setenv(store.EnvSQLiteBusyTimeout, c.env)
		got, err := store.SQLiteBusyTimeout()
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%q: got %v, %v; want error %s", c.env, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%q: got %v, %v; want %v", c.env, got, err, c.want)
		}
	}
	t.Setenv(store.EnvSQLiteBusyTimeout, "soon")
	_, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "x.db"))
	if err == nil || !strings.Contains(err.Error(), `TAUDB_SQLITE_BUSY_TIMEOUT="soon"`) {
		t.Errorf("open with a bad busy timeout: %v", err)
	}
}

// TestSQLiteWritersQueue holds SQLite's write lock for 7 s, longer than the
// 5 s busy timeout writers had before, while six clients (each a DB of its
// own, as six processes) save a trial and six save a result of a stored
// trial: with the default busy timeout every one of them waits its turn and
// succeeds, and the file holds exactly the rows written.
func TestSQLiteWritersQueue(t *testing.T) {
	if testing.Short() {
		t.Skip("holds a lock for 7 s")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "taudb.db")
	holder, err := openAsCLI(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	base := genTrial(t, "base", 4, 20)
	baseID, err := holder.SaveTrial(ctx, base, store.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Imbalance(roundTrip(base), analysis.ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lock, err := holder.SQL().BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	const n = 6
	errs := make([]error, 2*n)
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := store.OpenSQLite(ctx, path)
			if err != nil {
				errs[i] = err
				return
			}
			defer db.Close()
			if i < n {
				_, errs[i] = db.SaveTrial(ctx, genTrial(t, fmt.Sprintf("q%d", i), 4, 20), store.SaveOptions{})
			} else {
				_, errs[i] = db.SaveResult(ctx, res, []int64{baseID})
			}
		}()
	}
	time.Sleep(7 * time.Second)
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("client %d: %v", i, err)
		}
	}
	trials, err := holder.Trials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	results, err := holder.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != n+1 || len(results) != n {
		t.Errorf("%d trials and %d results stored, want %d and %d", len(trials), len(results), n+1, n)
	}
	storetest.CheckIntegrity(t, holder)
}
