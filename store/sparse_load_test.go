package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestLoadSparseTrialRefused stores a trial of 2,000 threads and 1,100
// timers in which each thread measured one timer (2,000 values in 2.2
// million cells), as another tool may write one: the builder lets it
// through because its nodes come before any value. LoadTrial refuses it
// before allocating the cells, naming the trial and the counts.
func TestLoadSparseTrialRefused(t *testing.T) {
	const threads, timers = 2000, 1100
	ids := make([]drg.ThreadID, threads)
	for i := range ids {
		ids[i] = drg.ThreadID{Node: i}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	nodes := make([]int, timers)
	for i := range nodes {
		nodes[i] = b.Node(fmt.Sprintf("t%d", i))
	}
	for r := range threads {
		b.AddCalls(nodes[r%timers], r, 1, 0)
		b.AddValues(nodes[r%timers], r, m, 1, 1)
	}
	tr, err := b.Finish("sparse", drg.Source{})
	if err != nil {
		t.Fatal(err)
	}
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.LoadTrial(ctx, id)
		want := fmt.Sprintf("trial %d: %d call-graph nodes × %d threads make %d cells", id, timers, threads, timers*threads)
		if !errors.Is(err, drg.ErrTooSparse) || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %s", err, want)
		}
	})
}
