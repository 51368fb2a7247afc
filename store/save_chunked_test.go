package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// chunkTrial builds threads [lo, hi) of a trial of nt threads: every
// thread has main and work (work absent on every fifth thread); threads
// from 11 on have a region "late" and its callpath; threads 3 and 17 alone
// have a user event; hosts are shared by runs of 6 threads, the OS by all.
func chunkTrial(t testing.TB, nt, lo, hi int) *drg.Trial {
	t.Helper()
	ids := make([]drg.ThreadID, 0, hi-lo)
	for th := lo; th < hi; th++ {
		ids = append(ids, drg.ThreadID{Node: th / 2, Thread: th % 2})
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	tm, fp := b.Metric("TIME"), b.Metric("PAPI_FP_OPS")
	for th := lo; th < hi; th++ {
		col := th - lo
		x := float64(th*37%101) + 0.125
		add := func(name string, excl, incl float64) {
			n := b.Node(name)
			b.AddCalls(n, col, 1+float64(th%3), 1)
			b.AddValues(n, col, tm, excl, incl)
			b.AddValues(n, col, fp, 3*excl, 3*incl)
		}
		add("main", 10+x, 1000+x)
		if th%5 != 0 {
			add("work", 500+x, 700+x)
			add("main => work", 500+x, 700+x)
		}
		if th >= 11 {
			add("late", 2*x, 2*x)
			add("main => late", 2*x, 2*x)
		}
		if th == 3 || th == 17 {
			v := float64(th)
			b.AddCounter(b.Counter("Message size"), col, drg.CounterValue{NumEvents: 2, Max: 2 * v, Min: v, Mean: 1.5 * v, SumSquares: 5 * v * v})
		}
		b.ThreadMetadata(col, "Hostname", fmt.Sprintf("host%d", th/6), false)
		b.ThreadMetadata(col, "OS", "Linux", false)
	}
	tr, err := b.Finish("chunks", drg.Source{Format: "profile", Path: "generated", DataSource: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// testChunks serves chunkTrial's runs of per threads; fail > 0 makes the
// fail-th chunk an error.
type testChunks struct {
	t             testing.TB
	nt, per, next int
	fail, served  int
}

func (c *testChunks) Threads() []drg.ThreadID {
	ids := make([]drg.ThreadID, c.nt)
	for th := range ids {
		ids[th] = drg.ThreadID{Node: th / 2, Thread: th % 2}
	}
	return ids
}

func (c *testChunks) Next() (*drg.Trial, error) {
	if c.next >= c.nt {
		return nil, io.EOF
	}
	c.served++
	if c.served == c.fail {
		return nil, errors.New("chunk read failed")
	}
	lo, hi := c.next, min(c.next+c.per, c.nt)
	c.next = hi
	return chunkTrial(c.t, c.nt, lo, hi), nil
}

// TestSaveChunked saves one trial whole and, a chunk of threads at a time,
// again: both read back the same, their derived rows agree, and deleting
// the chunked one leaves no partition and the other intact.
func TestSaveChunked(t *testing.T) {
	db := storetest.OpenInit(t, store.Postgres)
	ctx := context.Background()
	const nt = 23
	whole, err := db.SaveTrial(ctx, chunkTrial(t, nt, 0, nt), store.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var progress [][2]int64
	saved, err := db.SaveTrials(ctx, []store.PendingTrial{{Chunks: &testChunks{t: t, nt: nt, per: 4},
		Options: store.SaveOptions{Progress: func(done, total int64) { progress = append(progress, [2]int64{done, total}) }}}})
	if err != nil {
		t.Fatal(err)
	}
	chunked := saved[0].ID
	if saved[0].Name != "chunks" || len(progress) != 7 || progress[6][0] != progress[6][1] {
		t.Errorf("saved %+v, progress %v (want one call per chunk and a last one at the total)", saved[0], progress)
	}
	a, err := db.LoadTrial(ctx, whole)
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.LoadTrial(ctx, chunked)
	if err != nil {
		t.Fatal(err)
	}
	if d := compareTrials(a, b); len(d) > 0 {
		t.Fatalf("the chunked trial reads back otherwise:\n%s", strings.Join(d, "\n"))
	}
	if b.Metadata["OS"] != "Linux" || b.Metadata["Hostname"] != "" || b.Threads[7].Metadata["Hostname"] != "host1" {
		t.Errorf("metadata: trial %v, thread 7 %v", b.Metadata, b.Threads[7].Metadata)
	}
	chunkedStatsAgree(t, db, whole, chunked)
	storetest.CheckIntegrity(t, db)
	if n := partitions(t, db, chunked); n != 2*6+3 {
		t.Errorf("%d partitions of the chunked trial, want 2 per chunk and the derived rows' and user events'", n)
	}
	if err := db.DeleteTrial(ctx, chunked); err != nil {
		t.Fatal(err)
	}
	if n := partitions(t, db, chunked); n != 0 {
		t.Errorf("%d partitions left after the delete", n)
	}
	storetest.CheckIntegrity(t, db)
	if again, err := db.LoadTrial(ctx, whole); err != nil || len(compareTrials(a, again)) > 0 {
		t.Errorf("the other trial changed: %v %v", err, compareTrials(a, again))
	}
}

// partitions counts the tables named after trial id's partitions.
func partitions(t *testing.T, db *store.DB, id int64) int {
	rows := storetest.Query(t, db, `SELECT relname FROM pg_class WHERE relkind = 'r' AND (relname LIKE $1 OR relname LIKE $2 OR relname LIKE $3)`,
		fmt.Sprintf("timer\\_call\\_data\\_t%d%%", id), fmt.Sprintf("timer\\_value\\_t%d%%", id), fmt.Sprintf("counter\\_value\\_t%d%%", id))
	n := 0
	for _, r := range rows {
		if s := r[0]; strings.HasSuffix(s, fmt.Sprintf("_t%d", id)) || strings.Contains(s, fmt.Sprintf("_t%d_", id)) {
			n++
		}
	}
	return n
}

// chunkedStatsAgree compares the derived rows of two trials, metric by metric:
// counts and extremes exactly, the rest within rounding.
func chunkedStatsAgree(t *testing.T, db *store.DB, a, b int64) {
	ctx := context.Background()
	for _, m := range []string{"TIME", "PAPI_FP_OPS"} {
		sa, err := db.Stats(ctx, a, m)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := db.Stats(ctx, b, m)
		if err != nil {
			t.Fatal(err)
		}
		if len(sa.Nodes) != len(sb.Nodes) || len(sa.Nodes) != 5 {
			t.Fatalf("%s: %d and %d nodes with statistics, want 5", m, len(sa.Nodes), len(sb.Nodes))
		}
		for i, na := range sa.Nodes {
			nb := sb.Nodes[i]
			if na.Name != nb.Name || na.Threads != nb.Threads {
				t.Fatalf("%s node %d: %q of %d threads vs %q of %d", m, i, na.Name, na.Threads, nb.Name, nb.Threads)
			}
			for _, d := range drg.DerivedThreads {
				va, vb := na.Get(d), nb.Get(d)
				if va == nil || vb == nil || va.Computed || vb.Computed {
					t.Fatalf("%s %q %s: rows %v %v", m, na.Name, d, va, vb)
				}
				pairs := [][2]float64{{va.Inclusive, vb.Inclusive}, {va.Exclusive, vb.Exclusive}, {va.InclusivePercent, vb.InclusivePercent},
					{va.ExclusivePercent, vb.ExclusivePercent}, {va.Calls, vb.Calls}, {va.Subroutines, vb.Subroutines}, {*va.SumExclusiveSquared, *vb.SumExclusiveSquared}}
				for k, p := range pairs {
					if math.Abs(p[0]-p[1]) > 1e-12*math.Max(1, math.Abs(p[0])) {
						t.Errorf("%s %q %s value %d: whole %v, chunked %v", m, na.Name, d, k, p[0], p[1])
					}
				}
			}
		}
	}
}

// TestSaveChunkedRefused: SQLite and the plain layout refuse chunks before
// reading any; a failing chunk leaves nothing, as does a chunk of the
// wrong threads.
func TestSaveChunkedRefused(t *testing.T) {
	ctx := context.Background()
	lite := storetest.OpenInit(t, store.SQLite)
	src := &testChunks{t: t, nt: 9, per: 4}
	if _, err := lite.SaveTrials(ctx, []store.PendingTrial{{Chunks: src}}); !errors.Is(err, store.ErrChunksNeedPartitions) || src.served != 0 {
		t.Errorf("SQLite: %v after %d chunks", err, src.served)
	}
	plain := storetest.Open(t, store.Postgres)
	plain.SetPlainInit()
	if _, err := plain.Init(ctx); err != nil {
		t.Fatal(err)
	}
	src = &testChunks{t: t, nt: 9, per: 4}
	if _, err := plain.SaveTrials(ctx, []store.PendingTrial{{Chunks: src}}); !errors.Is(err, store.ErrChunksNeedPartitions) || src.served != 0 {
		t.Errorf("plain layout: %v after %d chunks", err, src.served)
	}
	db := storetest.OpenInit(t, store.Postgres)
	before := storetest.Counts(t, db)
	src = &testChunks{t: t, nt: 9, per: 2, fail: 3}
	if _, err := db.SaveTrials(ctx, []store.PendingTrial{{Chunks: src}}); err == nil || err.Error() != "chunk read failed" {
		t.Errorf("failing chunk: %v", err)
	}
	storetest.SameCounts(t, "after a failed chunked save", before, storetest.Counts(t, db))
	if n := len(storetest.Query(t, db, `SELECT relname FROM pg_class WHERE relname LIKE 'timer\_value\_t%'`)); n != 0 {
		t.Errorf("%d staged tables left", n)
	}
	_, err := db.SaveTrials(ctx, []store.PendingTrial{{Chunks: &wrongChunks{testChunks{t: t, nt: 9, per: 4}}}})
	if err == nil || !strings.Contains(err.Error(), "where thread") {
		t.Errorf("chunk of the wrong threads: %v", err)
	}
	storetest.SameCounts(t, "after a refused chunk", before, storetest.Counts(t, db))
	storetest.CheckIntegrity(t, db)
}

// wrongChunks skips the second chunk's threads.
type wrongChunks struct{ testChunks }

func (c *wrongChunks) Next() (*drg.Trial, error) {
	if c.served == 1 {
		c.next += c.per
	}
	return c.testChunks.Next()
}
