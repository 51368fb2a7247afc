package store_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// sparseTimers builds a trial of 2,000 threads and 1,100 timers in which
// thread r measured timer r mod 1,100 (and "main"), with values computed
// from r, as another tool may write one: the builder keeps it dense
// (its nodes come before any value), 2.2 million cells for 4,000 values.
func sparseTimers(t *testing.T) *drg.Trial {
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
	main := b.Node("main")
	for r := range threads {
		b.AddCalls(nodes[r%timers], r, float64(1+r%7), float64(r%3))
		b.AddValues(nodes[r%timers], r, m, float64(r), float64(2*r))
		b.AddCalls(main, r, 1, 1)
		b.AddValues(main, r, m, 1, float64(3*r+10))
	}
	tr, err := b.Finish("sparse", drg.Source{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestSparseTrialRoundTrip stores the dense trial of sparseTimers; read
// back, it is too sparse to hold densely and comes back sparse
// (drg.SparseValues; it used to be refused), with every cell equal to the
// original's, value by value. Saved again from the sparse layout and read
// back, it is the same again, and the derived statistics stored from both
// layouts (store.DB.Stats) agree to 1e-12 relative.
func TestSparseTrialRoundTrip(t *testing.T) {
	orig := sparseTimers(t)
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := db.SaveTrial(ctx, orig, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		back, err := db.LoadTrial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !back.IsSparse() {
			t.Fatalf("trial read back dense (%d cells)", len(back.Nodes)*len(back.Threads))
		}
		sameCells(t, orig, back)
		id2, err := db.SaveTrial(ctx, back, store.SaveOptions{Name: "sparse again"})
		if err != nil {
			t.Fatal(err)
		}
		again, err := db.LoadTrial(ctx, id2)
		if err != nil {
			t.Fatal(err)
		}
		sameCells(t, orig, again)
		s1, err := db.Stats(ctx, id, "TIME")
		if err != nil {
			t.Fatal(err)
		}
		s2, err := db.Stats(ctx, id2, "TIME")
		if err != nil {
			t.Fatal(err)
		}
		sameStats(t, s1, s2)
		storetest.CheckIntegrity(t, db)
	})
}

// sameCells checks that b holds exactly a's cells with a's values, nodes
// matched by name and threads by rank.
func sameCells(t *testing.T, a, b *drg.Trial) {
	t.Helper()
	if a.PresentCells() != b.PresentCells() || len(a.Threads) != len(b.Threads) || len(a.Nodes) != len(b.Nodes) {
		t.Fatalf("%d cells, %d threads, %d nodes; want %d, %d, %d", b.PresentCells(), len(b.Threads), len(b.Nodes),
			a.PresentCells(), len(a.Threads), len(a.Nodes))
	}
	for n := range a.Nodes {
		bn := b.NodeIndex(a.Nodes[n].Name)
		if bn < 0 || b.RowLen(bn) != a.RowLen(n) {
			t.Fatalf("node %q: row of %d cells read back, want %d", a.Nodes[n].Name, b.RowLen(bn), a.RowLen(n))
		}
		for _, kind := range []int{drg.ColInclusive, drg.ColExclusive, drg.ColCalls, drg.ColSubroutines} {
			for th, v := range a.Col(kind, 0).Row(n) {
				x := a.Threads[th]
				got, ok := b.Col(kind, 0).At(bn, b.ThreadIndex(x.Node, x.Context, x.Thread))
				if !ok || got != v {
					t.Fatalf("node %q thread %d column %d: %v (present %v), want %v", a.Nodes[n].Name, th, kind, got, ok, v)
				}
			}
		}
	}
}

// sameStats compares two trials' stored derived statistics.
func sameStats(t *testing.T, a, b *store.TrialStats) {
	t.Helper()
	if len(a.Nodes) != len(b.Nodes) {
		t.Fatalf("%d and %d nodes with statistics", len(a.Nodes), len(b.Nodes))
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-12*max(1, math.Abs(x)) }
	for i := range a.Nodes {
		for _, d := range drg.DerivedThreads {
			x, y := a.Nodes[i].Get(d), b.Nodes[i].Get(d)
			if (x == nil) != (y == nil) || x != nil && !(near(x.Inclusive, y.Inclusive) && near(x.Exclusive, y.Exclusive) &&
				near(x.Calls, y.Calls) && near(x.InclusivePercent, y.InclusivePercent)) {
				t.Fatalf("node %q %s: %+v and %+v", a.Nodes[i].Name, d, x, y)
			}
		}
	}
}
