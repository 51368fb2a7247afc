package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// goodTrial writes goodProfile as the one thread of a trial folder under
// dir and returns the folder.
func goodTrial(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "profile.0.0.0"), []byte(goodProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// concurrently runs the binary n times at once with args and returns the
// results.
func concurrently(t *testing.T, n int, args ...string) []result {
	t.Helper()
	out := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = cli(t, nil, args...)
		}()
	}
	wg.Wait()
	return out
}

// openURL opens the database at url for direct checks.
func openURL(t *testing.T, url string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestConcurrentLoadsOfOneName starts 6 `load -n same` at once on one
// database: one stores the trial, the 5 others exit 1 saying the name
// exists, and the database holds one trial of the name. 4 `load --reuse`
// at once all print that trial's id. 4 `ratio --save-metric --name T9` at
// once store one metric T9: the others exit 1 saying the trial has it.
func TestConcurrentLoadsOfOneName(t *testing.T) {
	databases(t, func(t *testing.T, url string) {
		dir := goodTrial(t, t.TempDir(), "run")
		ok(t, nil, "--db", url, "db", "init")
		rs := concurrently(t, 6, "--db", url, "load", "-n", "same", dir)
		var id string
		for i, r := range rs {
			switch {
			case r.code == 0 && id == "":
				id = strings.TrimSpace(r.stdout)
			case r.code == 0:
				t.Errorf("load %d stored a second trial %q (first %s)", i, r.stdout, id)
			case r.code != 1 || !strings.Contains(r.stderr, `a trial named "same" exists already`):
				t.Errorf("load %d: exit %d: %s", i, r.code, r.stderr)
			}
		}
		db := openURL(t, url)
		ids, err := db.TrialsNamed(context.Background(), "same")
		if err != nil || len(ids) != 1 || fmt.Sprint(ids[0]) != id {
			t.Fatalf("trials named same: %v %v; the load that succeeded printed %q", ids, err, id)
		}
		for i, r := range concurrently(t, 4, "--db", url, "load", "--reuse", "-n", "same", dir) {
			if r.code != 0 || strings.TrimSpace(r.stdout) != id || !strings.Contains(r.stderr, "--reuse") {
				t.Errorf("load --reuse %d: exit %d, stdout %q, stderr %q; want trial %s kept", i, r.code, r.stdout, r.stderr, id)
			}
		}
		saved := 0
		for i, r := range concurrently(t, 4, "--db", url, "ratio", "--trial", "same", "--name", "T9", "--expr", "TIME / 2", "--save-metric") {
			switch {
			case r.code == 0:
				saved++
			case r.code != 1 || !strings.Contains(r.stderr, `already has a metric named "T9"`):
				t.Errorf("ratio %d: exit %d: %s", i, r.code, r.stderr)
			}
		}
		n := storetest.Query(t, db, `SELECT count(*) FROM metric WHERE trial = $1 AND name = 'T9'`, ids[0])[0][0]
		if saved != 1 || n != "1" {
			t.Errorf("%d ratio commands stored T9, the trial has %s metrics named T9; want 1 and 1", saved, n)
		}
		storetest.CheckIntegrity(t, db)
	})
}

// TestMultiPathLoadAllOrNothing loads a/ b/ c/ as app-1..3 where c/ is
// broken: the load exits 1 naming c/'s file and no trial is stored. Fixed,
// the same command loads all three; `load --reuse` of a/ b/ c/ d/ then
// keeps app-1..3 (same ids) and loads only d/ as app-4.
func TestMultiPathLoadAllOrNothing(t *testing.T) {
	databases(t, func(t *testing.T, url string) {
		root := t.TempDir()
		a, b, c, d := goodTrial(t, root, "a"), goodTrial(t, root, "b"), goodTrial(t, root, "c"), goodTrial(t, root, "d")
		broken := filepath.Join(c, "profile.0.0.0")
		if err := os.WriteFile(broken, []byte(goodProfile[:60]), 0o644); err != nil {
			t.Fatal(err)
		}
		ok(t, nil, "--db", url, "db", "init")
		r := cli(t, nil, "--db", url, "load", "-n", "app", a, b, c)
		if r.code != 1 || !strings.Contains(r.stderr, broken) || !strings.Contains(r.stderr, "nothing of the 3 paths was loaded") || r.stdout != "" {
			t.Errorf("load with a broken c/: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		db := openURL(t, url)
		if n := storetest.Query(t, db, `SELECT count(*) FROM trial`)[0][0]; n != "0" {
			t.Fatalf("%s trials stored by a load that failed", n)
		}
		if err := os.WriteFile(broken, []byte(goodProfile), 0o644); err != nil {
			t.Fatal(err)
		}
		first := loadJSON(t, "--db", url, "--format", "json", "load", "-n", "app", a, b, c)
		again := loadJSON(t, "--db", url, "--format", "json", "load", "--reuse", "-n", "app", a, b, c, d)
		if len(first) != 3 || len(again) != 4 {
			t.Fatalf("loaded %+v, then %+v", first, again)
		}
		for i := range 3 {
			if !again[i].Reused || again[i].ID != first[i].ID || again[i].Name != fmt.Sprintf("app-%d", i+1) {
				t.Errorf("rerun, path %d: %+v; want trial %d kept", i, again[i], first[i].ID)
			}
		}
		if again[3].Reused || again[3].Name != "app-4" || again[3].Threads != 1 {
			t.Errorf("rerun, d/: %+v", again[3])
		}
		if n := storetest.Query(t, db, `SELECT count(*) FROM trial`)[0][0]; n != "4" {
			t.Errorf("%s trials stored, want 4", n)
		}
		storetest.CheckIntegrity(t, db)
	})
}

// loadJSON runs a load with --format json and decodes its output.
func loadJSON(t *testing.T, args ...string) []loaded {
	t.Helper()
	r := ok(t, nil, args...)
	var got []loaded
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, r.stdout)
	}
	return got
}
