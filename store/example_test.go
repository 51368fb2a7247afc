package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// Load a TAU profile folder into an embedded TAUdb, read it back, run an
// analysis on it and store the result, as `taudb-analyze load` and
// `taudb-analyze imbalance` do. With a postgres:// URL the same code works
// on a team's PostgreSQL TAUdb.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "taudb-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	db, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "taudb.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil { // TAUdb schema version 2
		log.Fatal(err)
	}

	// The demo's 4-rank MPI run as TAU profiles (taudb-analyze synth --demo).
	if err := synth.WriteDemo(filepath.Join(dir, "demo")); err != nil {
		log.Fatal(err)
	}
	t, err := reader.Read(filepath.Join(dir, "demo", "mpi", "p4"), "")
	if err != nil {
		log.Fatal(err)
	}
	id, err := db.SaveTrial(ctx, t, store.SaveOptions{Name: "mpi-4", Application: "demo"})
	if err != nil {
		log.Fatal(err)
	}
	back, err := db.LoadTrial(ctx, id)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("trial %d %q: %d threads, %d regions\n", id, back.Name, len(back.Threads), len(back.Regions))

	res, err := analysis.Imbalance(back, analysis.ImbalanceOptions{})
	if err != nil {
		log.Fatal(err)
	}
	rid, err := db.SaveResult(ctx, res, []int64{id})
	if err != nil {
		log.Fatal(err)
	}
	again, err := db.LoadResult(ctx, rid)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("result %d: %s of %s, %d tables\n", rid, again.Analysis, again.Trial, len(again.Tables))
	// Output:
	// trial 1 "mpi-4": 4 threads, 8 regions
	// result 1: imbalance of mpi-4, 3 tables
}
