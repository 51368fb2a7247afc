package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/callquery"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// structural is a query that names no metric, so LoadCallGraph answers it.
const structural = `MATCH ("*")->(".", p) WHERE p."group" = "MPI" AND p."name" ENDS WITH "9}]" AND p IS LEAF`

// TestLoadCallGraphAnswersLikeTheTrial: the call graph read alone has the
// trial's nodes, regions and groups, no value, and a query naming no
// metric matches the same nodes on it as on the whole trial.
func TestLoadCallGraphAnswersLikeTheTrial(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := db.SaveTrial(ctx, genTrial(t, "g", 12, 41), store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		whole, err := db.LoadTrial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		cg, err := db.LoadCallGraph(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(cg.Nodes) != len(whole.Nodes) || len(cg.Regions) != len(whole.Regions) || len(cg.Threads) != 12 || len(cg.Metrics) != 2 {
			t.Fatalf("call graph: %d nodes, %d regions, %d threads, %d metrics; trial %d, %d, 12, 2",
				len(cg.Nodes), len(cg.Regions), len(cg.Threads), len(cg.Metrics), len(whole.Nodes), len(whole.Regions))
		}
		for i := range cg.Nodes {
			if cg.Nodes[i] != whole.Nodes[i] {
				t.Fatalf("node %d: %+v, trial %+v", i, cg.Nodes[i], whole.Nodes[i])
			}
		}
		for i := range cg.Regions {
			if !slices.Equal(cg.Regions[i].Groups, whole.Regions[i].Groups) {
				t.Fatalf("region %d groups %q, trial %q", i, cg.Regions[i].Groups, whole.Regions[i].Groups)
			}
		}
		if n := cg.Present.Count(0, cg.Present.Len()); n != 0 {
			t.Errorf("%d records in a call graph read without values", n)
		}
		q, err := callquery.Parse(structural)
		if err != nil {
			t.Fatal(err)
		}
		a, err := q.Match(whole)
		if err != nil {
			t.Fatal(err)
		}
		b, err := q.Match(cg)
		if err != nil {
			t.Fatal(err)
		}
		// genTrial: callpaths region_0 => region_k for k = 1..20, MPI when
		// k%3 == 0, every name ending in "9}]": k = 3, 6, ..., 18 (6
		// leaves), and region_0 above them.
		if a.Len() != 7 || !slices.Equal(a.Nodes, b.Nodes) {
			t.Errorf("trial matched %d nodes %v, call graph %v; want 7 and the same", a.Len(), a.Nodes, b.Nodes)
		}
	})
}

// BenchmarkCallGraphQuery measures a query naming no metric on a stored
// trial of 256 threads × 501 nodes × 2 metrics, answered from the call
// graph alone (LoadCallGraph) and, as the reference in the same run, from
// the whole trial (LoadTrial); whole/callgraph is their ratio. Both match
// the same nodes (TestLoadCallGraphAnswersLikeTheTrial).
func BenchmarkCallGraphQuery(b *testing.B) {
	for _, d := range storetest.Dialects() {
		b.Run(d.String(), func(b *testing.B) {
			if d == store.Postgres && storetest.PostgresURL() == "" {
				b.Skip("no PostgreSQL")
			}
			db := storetest.OpenInit(b, d)
			ctx := context.Background()
			id, err := db.SaveTrial(ctx, genTrial(b, "bench", 256, 500), store.SaveOptions{})
			if err != nil {
				b.Fatal(err)
			}
			q, err := callquery.Parse(structural)
			if err != nil {
				b.Fatal(err)
			}
			var whole, graph time.Duration
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				t, err := db.LoadTrial(ctx, id)
				if err == nil {
					_, err = q.Match(t)
				}
				whole += time.Since(start)
				start = time.Now()
				cg, err2 := db.LoadCallGraph(ctx, id)
				if err2 == nil {
					_, err2 = q.Match(cg)
				}
				graph += time.Since(start)
				if err != nil || err2 != nil {
					b.Fatal(err, err2)
				}
			}
			b.ReportMetric(whole.Seconds()/float64(b.N), "whole_s/op")
			b.ReportMetric(graph.Seconds()/float64(b.N), "callgraph_s/op")
			b.ReportMetric(whole.Seconds()/graph.Seconds(), "whole/callgraph")
		})
	}
}

// TestLoadTrialPartReadsThePickedNodes: the picked nodes have exactly the
// whole trial's values and records, the others none; the structure is
// the whole trial's.
func TestLoadTrialPartReadsThePickedNodes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := db.SaveTrial(ctx, genTrial(t, "g", 12, 41), store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		whole, err := db.LoadTrial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		q, err := callquery.Parse(structural)
		if err != nil {
			t.Fatal(err)
		}
		picked := map[int]bool{}
		part, err := db.LoadTrialPart(ctx, id, func(shape *drg.Trial) ([]int, error) {
			r, err := q.Match(shape)
			for _, n := range r.Nodes {
				picked[n] = true
			}
			return r.Nodes, err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(picked) != 7 || len(part.Nodes) != len(whole.Nodes) || len(part.Metadata) != len(whole.Metadata) || len(part.Counters) != len(whole.Counters) {
			t.Fatalf("%d picked; %d nodes, %d metadata, %d counters; whole %d, %d, %d", len(picked),
				len(part.Nodes), len(part.Metadata), len(part.Counters), len(whole.Nodes), len(whole.Metadata), len(whole.Counters))
		}
		nt := len(whole.Threads)
		for n := range whole.Nodes {
			for th := 0; th < nt; th++ {
				c := n*nt + th
				want := picked[n] && whole.Present.Get(c)
				if part.Present.Get(c) != want {
					t.Fatalf("node %d thread %d: record %v, want %v", n, th, part.Present.Get(c), want)
				}
				if !want {
					continue
				}
				for m := range whole.Metrics {
					if part.Values[m].Exclusive[c] != whole.Values[m].Exclusive[c] || part.Values[m].Inclusive[c] != whole.Values[m].Inclusive[c] {
						t.Fatalf("node %d thread %d metric %d differs", n, th, m)
					}
				}
				if part.Calls[c] != whole.Calls[c] || part.Subroutines[c] != whole.Subroutines[c] {
					t.Fatalf("node %d thread %d: calls differ", n, th)
				}
			}
		}
		// pick's error comes back as is.
		boom := errors.New("boom")
		if _, err := db.LoadTrialPart(ctx, id, func(*drg.Trial) ([]int, error) { return nil, boom }); err != boom {
			t.Errorf("pick's error: %v", err)
		}
	})
}

// BenchmarkLoadTrialPart measures reading a stored trial of 256 threads ×
// 501 nodes × 2 metrics with the values of the 7 nodes a query naming no
// metric matches (LoadTrialPart), against reading it whole (LoadTrial) in
// the same run: whole/part is their ratio.
func BenchmarkLoadTrialPart(b *testing.B) {
	for _, d := range storetest.Dialects() {
		b.Run(d.String(), func(b *testing.B) {
			if d == store.Postgres && storetest.PostgresURL() == "" {
				b.Skip("no PostgreSQL")
			}
			db := storetest.OpenInit(b, d)
			ctx := context.Background()
			id, err := db.SaveTrial(ctx, genTrial(b, "bench", 256, 500), store.SaveOptions{})
			if err != nil {
				b.Fatal(err)
			}
			q, err := callquery.Parse(structural)
			if err != nil {
				b.Fatal(err)
			}
			pick := func(shape *drg.Trial) ([]int, error) {
				r, err := q.Match(shape)
				if err != nil {
					return nil, err
				}
				return r.Nodes, nil
			}
			var whole, part time.Duration
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				_, err := db.LoadTrial(ctx, id)
				whole += time.Since(start)
				start = time.Now()
				_, err2 := db.LoadTrialPart(ctx, id, pick)
				part += time.Since(start)
				if err != nil || err2 != nil {
					b.Fatal(err, err2)
				}
			}
			b.ReportMetric(whole.Seconds()/float64(b.N), "whole_s/op")
			b.ReportMetric(part.Seconds()/float64(b.N), "part_s/op")
			b.ReportMetric(whole.Seconds()/part.Seconds(), "whole/part")
		})
	}
}
