package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// TestSparseTrialsUnderMemoryLimit runs the sparse trials that used to
// exhaust memory (and then were refused) under the 1 GiB address-space
// limit and 30 s timeout of TestHostileFilesUnderMemoryLimit: 8,000
// profile files whose ranks each have a timer of their own (64 million
// cells densely, 16,000 with values) load, inspect describes them from
// the folder and from the database, and imbalance, summary and regions run
// on the stored trial; a database trial of 30,000 threads and
// 30,000 timers, each thread with one timer of its own and "main",
// written by another program, is read by imbalance. cluster, which needs
// a thread × region matrix, refuses the sparse trial, exit 1, saying so.
// Each run's time and peak resident memory are logged.
func TestSparseTrialsUnderMemoryLimit(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to set the limit")
	}
	dir := t.TempDir()
	sparseRanks(t, dir)
	db := "sqlite:" + filepath.Join(dir, "t.db")
	run := func(want int, args ...string) (string, string) {
		t.Helper()
		code, stdout, stderr, took, rss := limitedRun(t, append([]string{"--db", db}, args...))
		t.Logf("%s: exit %d in %v, peak RSS %d MiB", strings.Join(args, " "), code, took.Round(time.Millisecond), rss>>10)
		if code != want {
			t.Fatalf("%v: exit %d, want %d; stderr:\n%s", args, code, want, clipTo(stderr, 600))
		}
		return stdout, stderr
	}
	run(0, "load", "-n", "ranks", filepath.Join(dir, "p"))
	out, _ := run(0, "imbalance", "--trial", "ranks", "--no-save", "--format", "csv")
	// "main" on every rank, each "own r" on rank r alone.
	if !strings.Contains(out, "main,computation,8000,") || !strings.Contains(out, "own 4321,computation,1,") {
		t.Errorf("imbalance output lacks main on 8000 threads or own 4321 on 1:\n%s", clipTo(out, 800))
	}
	for _, src := range [][]string{{filepath.Join(dir, "p")}, {"--trial", "ranks"}} {
		out, _ := run(0, append([]string{"inspect", "--format", "json"}, src...)...)
		// 8,001 timers with a record: main and the 8,000 ranks' own.
		if !strings.Contains(out, `"threads": 8000,`) || !strings.Contains(out, `"node_count": 8000,`) || !strings.Contains(out, `"nodes": 8001,`) {
			t.Errorf("inspect %v:\n%s", src, clipTo(out, 600))
		}
	}
	run(0, "summary", "--trial", "ranks", "--no-save")
	run(0, "regions", "--trial", "ranks", "--no-save")
	_, stderr := run(1, "cluster", "--trial", "ranks", "--no-save")
	if !strings.Contains(stderr, `trial "ranks" is sparse (8001 call-graph nodes × 8000 threads, 16000 cells hold values)`) {
		t.Errorf("cluster: %s", stderr)
	}

	hostileDB(t, filepath.Join(dir, "t.db"), 30000)
	out, _ = run(0, "imbalance", "--trial", "wide", "--no-save", "--format", "csv")
	if !strings.Contains(out, "main,computation,30000,") || !strings.Contains(out, "own 29999,computation,1,") {
		t.Errorf("imbalance output lacks main on 30000 threads or own 29999 on 1:\n%s", clipTo(out, 800))
	}
}

// hostileDB stores in the SQLite file path a trial "wide" of n threads
// and n + 1 timers, thread r with "main" and "own r": the shape of the
// hostile database that made imbalance allocate 14 GB.
func hostileDB(t *testing.T, path string, n int) {
	ids := make([]drg.ThreadID, n)
	for i := range ids {
		ids[i] = drg.ThreadID{Node: i}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	b.Sparse = true
	b.StartSparse()
	m := b.Metric("TIME")
	for r := range n {
		b.AddCalls(b.Node("main"), r, 1, 1)
		b.AddValues(b.Node("main"), r, m, 1, 2)
		own := b.Node(fmt.Sprintf("own %d", r))
		b.AddCalls(own, r, 1, 0)
		b.AddValues(own, r, m, 1, 1)
	}
	tr, err := b.Finish("wide", drg.Source{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
}
