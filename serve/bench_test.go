package serve

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// benchTrial is the name of the benchmark's trial in the database.
const benchTrial = "serve-bench-16k"

// benchDB opens $TAUDB_SERVE_BENCH_URL (a PostgreSQL TAUdb) and returns
// the id of the 16,384-thread × 1,000-region trial, generating it with
// synth and storing it first when the database lacks it (about 15 minutes
// on 2 cores; later runs reuse it). The trial is the one of "taudb-analyze
// synth --processes 16384 --regions 1000 --depth 1" (the defaults
// otherwise), which may also be loaded with "load -n serve-bench-16k".
func benchDB(b *testing.B) (*store.DB, int64) {
	u := os.Getenv("TAUDB_SERVE_BENCH_URL")
	if u == "" {
		b.Skip("set TAUDB_SERVE_BENCH_URL to a PostgreSQL TAUdb (the 16k-thread trial is generated into it once)")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, u)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if _, err := db.Init(ctx); err != nil {
		b.Fatal(err)
	}
	ids, err := db.TrialsNamed(ctx, benchTrial)
	if err != nil {
		b.Fatal(err)
	}
	if len(ids) > 0 {
		return db, ids[0]
	}
	b.Logf("generating and storing %s (16,384 threads × 1,000 regions, 1 metric)", benchTrial)
	t, err := synth.Generate(synth.Spec{Processes: 16384, ThreadsPerProcess: 1, Regions: 1000, Depth: 1, Metrics: 1,
		Serial: 1e6, Parallel: 9e6, Log: 5e4, Noise: 0.02, Imbalance: 0.1, Seed: 1, Name: benchTrial})
	if err != nil {
		b.Fatal(err)
	}
	id, err := db.SaveTrial(ctx, t, store.SaveOptions{Application: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	return db, id
}

// BenchmarkRegionView16k measures the region views of a 16,384-thread ×
// 1,000-region trial served from PostgreSQL: the first load of the trial
// (once, reported as first-load-s), then per request, after that load,
// the trial's regions page, a region's page (its threads sorted, a page of
// them), its per-thread chart (512 bins) and the trial's threads overview
// (512 stacked bins), with the statistics of the column kept, and the
// regions page with them recomputed (cold-column).
// The reference, in the same run, is one pass summing every value of the
// trial (ref-sum-ms); x-ref is each view's time over it.
func BenchmarkRegionView16k(b *testing.B) {
	db, id := benchDB(b)
	s, err := New(Options{DB: db})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	start := time.Now()
	ct, err := s.cache.get(context.Background(), id)
	if err != nil {
		b.Fatal(err)
	}
	load := time.Since(start)
	ref := sumAll(ct)
	node := ct.trial.Flat()[len(ct.trial.Flat())/2]
	views := map[string]string{
		"regions": fmt.Sprintf("/trial/%d", id),
		"region":  fmt.Sprintf("/trial/%d/region/%d", id, node),
		"chart":   fmt.Sprintf("/api/trial/%d/region/%d", id, node),
		"threads": fmt.Sprintf("/api/trial/%d/threads", id),
	}
	for name, path := range views {
		b.Run(name, func(b *testing.B) { benchGet(b, ts, path, nil, load, ref) })
	}
	b.Run("cold-column", func(b *testing.B) {
		benchGet(b, ts, views["regions"], func() { ct.mu.Lock(); clear(ct.columns); ct.mu.Unlock() }, load, ref)
	})
}

// benchGet requests path b.N times (before runs before each, untimed).
func benchGet(b *testing.B, ts *httptest.Server, path string, before func(), load, ref time.Duration) {
	var size int
	for i := 0; i < b.N; i++ {
		if before != nil {
			b.StopTimer()
			before()
			b.StartTimer()
		}
		res, err := http.Get(ts.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("%s: status %d", path, res.StatusCode)
		}
		size = int(n)
	}
	per := b.Elapsed() / time.Duration(max(b.N, 1))
	b.ReportMetric(load.Seconds(), "first-load-s")
	b.ReportMetric(float64(ref.Microseconds())/1000, "ref-sum-ms")
	b.ReportMetric(float64(per)/float64(ref), "x-ref")
	b.ReportMetric(float64(size), "bytes/answer")
}

// sumAll times one pass summing every value of the trial.
func sumAll(ct *cachedTrial) time.Duration {
	start := time.Now()
	var s float64
	for _, mv := range ct.trial.Values {
		for _, x := range mv.Exclusive {
			s += x
		}
		for _, x := range mv.Inclusive {
			s += x
		}
	}
	if s == -1 {
		fmt.Fprint(io.Discard, s)
	}
	return time.Since(start)
}
