package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/metrics"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// clients opens n handles on one fresh database of dialect d, as n
// processes would (each SQLite handle has its own connections to the file,
// each PostgreSQL one its own pool), with the schema created.
func clients(t *testing.T, d store.Dialect, n int) []*store.DB {
	t.Helper()
	ctx := context.Background()
	dbs := make([]*store.DB, n)
	var schema, path string
	if d == store.Postgres {
		schema = storetest.NewPostgresSchema(t)
	} else {
		path = filepath.Join(t.TempDir(), "taudb.db")
	}
	for i := range dbs {
		if d == store.Postgres {
			dbs[i] = openPostgresApp(t, schema, randomName(t))
			continue
		}
		db, err := store.OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	if _, err := dbs[0].Init(ctx); err != nil {
		t.Fatal(err)
	}
	return dbs
}

// together runs fn(i) for i in [0, n) in n goroutines released at once and
// returns their errors.
func together(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// forDialects runs fn as the subtests "sqlite" and "postgres".
func forDialects(t *testing.T, fn func(t *testing.T, d store.Dialect)) {
	for _, d := range storetest.Dialects() {
		t.Run(d.String(), func(t *testing.T) { fn(t, d) })
	}
}

// TestConcurrentSameTrialName saves a trial of one name from 8 clients at
// once, over several rounds: with NameRefuse exactly one save succeeds and
// the 7 others fail with a *NameTakenError naming the winner's id; with
// NameReuse all 8 get the winner's id and only the first was written. The
// database then holds one trial of each name.
func TestConcurrentSameTrialName(t *testing.T) {
	forDialects(t, func(t *testing.T, d store.Dialect) {
		const n, rounds = 8, 4
		ctx := context.Background()
		dbs := clients(t, d, n)
		tr := genTrial(t, "race", 4, 30)
		for round := range rounds {
			name := fmt.Sprintf("same-%d", round)
			rule := store.NameRefuse
			if round%2 == 1 {
				rule = store.NameReuse
			}
			ids := make([]int64, n)
			reused := make([]bool, n)
			errs := together(n, func(i int) error {
				saved, err := dbs[i].SaveTrials(ctx, []store.PendingTrial{{Trial: tr, Options: store.SaveOptions{Name: name, IfExists: rule}}})
				if err == nil {
					ids[i], reused[i] = saved[0].ID, saved[0].Reused
				}
				return err
			})
			stored, err := dbs[0].TrialsNamed(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if len(stored) != 1 {
				t.Fatalf("round %d: %d trials named %q: %v", round, len(stored), name, stored)
			}
			winners := 0
			for i, err := range errs {
				var taken *store.NameTakenError
				switch {
				case err == nil && !reused[i]:
					winners++
					if ids[i] != stored[0] {
						t.Errorf("round %d, client %d: saved as %d, the database has %d", round, i, ids[i], stored[0])
					}
				case err == nil && (rule != store.NameReuse || ids[i] != stored[0]):
					t.Errorf("round %d, client %d: reused trial %d (rule %d), stored is %d", round, i, ids[i], rule, stored[0])
				case err != nil && (rule != store.NameRefuse || !errors.As(err, &taken) || !errors.Is(err, store.ErrNameTaken) || taken.ID != stored[0]):
					t.Errorf("round %d, client %d: %v", round, i, err)
				case err != nil:
					want := fmt.Sprintf("save trial %q: a trial named %q exists already (id %d)", name, name, stored[0])
					if err.Error() != want {
						t.Errorf("round %d, client %d: %v\nwant %s", round, i, err, want)
					}
				}
			}
			if winners != 1 {
				t.Errorf("round %d: %d clients stored the trial, want 1", round, winners)
			}
		}
		storetest.CheckIntegrity(t, dbs[0])
	})
}

// TestConcurrentSameMetricName saves a derived metric of one name into one
// trial from 6 clients at once: one succeeds, the others fail with a
// *NameTakenError naming it, and the trial has one metric of that name
// whose values are the ratio's (checked against the trial in memory).
func TestConcurrentSameMetricName(t *testing.T) {
	forDialects(t, func(t *testing.T, d store.Dialect) {
		const n = 6
		ctx := context.Background()
		dbs := clients(t, d, n)
		tr := genTrial(t, "metrics", 4, 30)
		id, err := dbs[0].SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		withT9 := func(db *store.DB) (*drg.Trial, int) {
			c, err := db.LoadTrial(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			e, err := metrics.Compile(c.Metrics[0].Name+" / 2", metrics.Names(c))
			if err != nil {
				t.Fatal(err)
			}
			m, err := metrics.AddDerived(c, "T9", e)
			if err != nil {
				t.Fatal(err)
			}
			return c, m
		}
		copies := make([]*drg.Trial, n)
		idx := make([]int, n)
		for i := range n {
			copies[i], idx[i] = withT9(dbs[i])
		}
		errs := together(n, func(i int) error {
			_, err := dbs[i].SaveMetric(ctx, id, copies[i], idx[i])
			return err
		})
		ok := 0
		for i, err := range errs {
			var taken *store.NameTakenError
			switch {
			case err == nil:
				ok++
			case !errors.As(err, &taken) || taken.Kind != "metric" || taken.Trial != id:
				t.Errorf("client %d: %v", i, err)
			}
		}
		if ok != 1 {
			t.Errorf("%d clients stored metric T9, want 1", ok)
		}
		back, err := dbs[0].LoadTrial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		for _, m := range back.Metrics {
			if m.Name == "T9" {
				count++
			}
		}
		if count != 1 {
			t.Fatalf("the trial has %d metrics named T9", count)
		}
		m9 := back.MetricIndex("T9")
		for c, v := range back.Values[m9].Exclusive {
			if w := back.Values[0].Exclusive[c] / 2; !same(v, w) {
				t.Fatalf("T9 exclusive value %d is %g, want %g (TIME / 2, not a sum of several T9)", c, v, w)
			}
		}
		storetest.CheckIntegrity(t, dbs[0])
	})
}

// TestDeleteWhileSavingResult deletes a trial while a result of it is being
// saved, both ways round, deterministically: (a) the save has locked the
// trial and is writing its cells (held there 1 s by the test hook) when the
// delete starts: the delete waits for the save to commit and then deletes
// the result with the trial; (b) the delete commits first: the save fails
// with ErrNoTrial and writes nothing. Either way no result row is left
// without its settings or trial (db check clean) and no result remains.
func TestDeleteWhileSavingResult(t *testing.T) {
	forDialects(t, func(t *testing.T, d store.Dialect) {
		ctx := context.Background()
		dbs := clients(t, d, 2)
		saver, deleter := dbs[0], dbs[1]
		tr := genTrial(t, "doomed", 16, 200)
		res, err := analysis.Imbalance(roundTrip(tr), analysis.ImbalanceOptions{})
		if err != nil {
			t.Fatal(err)
		}

		// (a) The save first.
		id, err := saver.SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		writing := make(chan struct{})
		var once sync.Once
		hook := store.WithBeforeTable(ctx, func(table string) {
			if table == "analysis_result_value" {
				once.Do(func() { close(writing); time.Sleep(time.Second) })
			}
		})
		saveErr := make(chan error, 1)
		go func() {
			_, err := saver.SaveResult(hook, res, []int64{id})
			saveErr <- err
		}()
		<-writing
		if err := deleter.DeleteTrial(ctx, id); err != nil {
			t.Fatalf("delete while a result is saved: %v", err)
		}
		if err := <-saveErr; err != nil {
			t.Fatalf("save of the result before the delete: %v", err)
		}
		noResults(t, saver)
		storetest.CheckIntegrity(t, saver)

		// (b) The delete first.
		id, err = saver.SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := deleter.DeleteTrial(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, err := saver.SaveResult(ctx, res, []int64{id}); !errors.Is(err, store.ErrNoTrial) {
			t.Errorf("save of a result of a deleted trial: %v, want ErrNoTrial", err)
		}
		noResults(t, saver)
		storetest.CheckIntegrity(t, saver)
	})
}

// noResults fails t unless the database holds no result rows at all.
func noResults(t *testing.T, db *store.DB) {
	t.Helper()
	for _, table := range []string{"analysis_settings", "analysis_result", "analysis_result_value", "analysis_settings_trial"} {
		if n := storetest.Query(t, db, `SELECT count(*) FROM `+table)[0][0]; n != "0" {
			t.Errorf("%s holds %s rows after the trial was deleted", table, n)
		}
	}
}
