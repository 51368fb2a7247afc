package store_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// Select the trials of a study the way the --trials, --where and --view
// options do: by reference, by an expression over the trials' fields and
// metadata, or by a TAUdb view. The expression's metadata is read in one
// query whatever the number of trials.
func ExampleDB_SelectTrials() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "taudb-select")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "taudb.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil {
		log.Fatal(err)
	}
	// Four runs of one application under a power cap of 100 to 250 W.
	for i, watts := range []int{100, 150, 200, 250} {
		t := oneRegionTrial(fmt.Sprintf("cap-%d", watts), 1<<i)
		t.Metadata["Power Cap"] = fmt.Sprintf("%d W", watts)
		if _, err := db.SaveTrial(ctx, t, store.SaveOptions{Name: t.Name, Application: "lulesh"}); err != nil {
			log.Fatal(err)
		}
	}
	for _, sel := range []store.Selection{
		{Trials: []string{"cap-250", "id:1"}},
		{Where: `num(meta["Power Cap"]) >= 150 && threads <= 4`},
		{View: "All Trials", Where: `name endsWith "50"`, Minimum: 2},
		{}, // the default: every trial, since they are all of one application
	} {
		trials, err := db.SelectTrials(ctx, sel)
		if err != nil {
			log.Fatal(err)
		}
		var names []string
		for _, t := range trials {
			names = append(names, fmt.Sprintf("%s(%d threads)", t.Name, t.Threads))
		}
		fmt.Println(strings.Join(names, " "))
	}
	_, err = db.SelectTrials(ctx, store.Selection{Where: `threads >`})
	var bad *store.WhereError
	fmt.Println("a where expression that does not compile:", errors.As(err, &bad) && bad.Trial == 0)
	// Output:
	// cap-250(8 threads) cap-100(1 threads)
	// cap-150(2 threads) cap-200(4 threads)
	// cap-150(2 threads) cap-250(8 threads)
	// cap-100(1 threads) cap-150(2 threads) cap-200(4 threads) cap-250(8 threads)
	// a where expression that does not compile: true
}

// oneRegionTrial builds a trial of threads threads with one region, main,
// of 1 s exclusive TIME on each.
func oneRegionTrial(name string, threads int) *drg.Trial {
	ids := make([]drg.ThreadID, threads)
	for i := range ids {
		ids[i] = drg.ThreadID{Thread: i}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		log.Fatal(err)
	}
	tm, n := b.Metric("TIME"), b.Node("main")
	for th := range threads {
		b.AddCalls(n, th, 1, 0)
		b.AddValues(n, th, tm, 1e6, 1e6)
	}
	t, err := b.Finish(name, drg.Source{Format: "profile", Path: "generated", DataSource: 1})
	if err != nil {
		log.Fatal(err)
	}
	return t
}
