package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// Hostile names: if any were shown as markup, the page would get a <b>,
// an <img> (whose load would be a request to the server) or a script.
const (
	hostileRegion = `<script>alert(1)</script><b>bold</b>`
	hostileTrial  = `<img src="/x-injected">&amp;<i>t</i>`
)

// handTrial builds a trial of 4 threads whose every statistic is known by
// hand (TIME, µs): main has inclusive 100 on each thread; its children
// are "work" (exclusive = inclusive = 80, 70, 60, 50 × scale on threads
// 0..3) and the hostile region (5 and 15 on threads 0 and 1 only).
//
//	work:    mean 65, min 50 (thread 3), max 80 (thread 0), stddev √125, total 260
//	hostile: 2 threads, mean 10, min 5, max 15, stddev 5, total 20, Σ/N 5
func handTrial(t *testing.T, name string, scale float64) *drg.Trial {
	t.Helper()
	var ids []drg.ThreadID
	for n := 0; n < 4; n++ {
		ids = append(ids, drg.ThreadID{Node: n})
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	work := []float64{80 * scale, 70 * scale, 60 * scale, 50 * scale}
	host := []float64{5, 15}
	for th := 0; th < 4; th++ {
		child := work[th]
		if th < 2 {
			child += host[th]
		}
		add(b, "main", th, m, 100-child, 100, 1)
		add(b, "work", th, m, work[th], work[th], 3)
		add(b, "main => work", th, m, work[th], work[th], 3)
		if th < 2 {
			add(b, hostileRegion, th, m, host[th], host[th], 2)
			add(b, "main => "+hostileRegion, th, m, host[th], host[th], 2)
		}
	}
	tr, err := b.Finish(name, drg.Source{Format: "profile", DataSource: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func add(b *drg.Builder, name string, th, m int, excl, incl, calls float64) {
	n := b.Node(name)
	b.AddValues(n, th, m, excl, incl)
	b.AddCalls(n, th, calls, 0)
}

// fixture is a database holding the hand trial (id 1, hostile name), its
// copy with "work" twice as long (id 2, "slow"), and generated trials of
// 16 and 32 ranks × 30 regions with callpaths and 2 metrics (ids 3 and 4,
// "synth16" and "synth32").
type fixture struct {
	db  *store.DB
	url string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	url := "sqlite:" + filepath.Join(t.TempDir(), "secret-db-name.db")
	db, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Init(context.Background()); err != nil {
		t.Fatal(err)
	}
	fillFixture(t, db)
	return &fixture{db: db, url: url}
}

// fillFixture stores the fixture's trials in db.
func fillFixture(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	gen, err := synth.Generate(synth.Spec{Processes: 16, ThreadsPerProcess: 1, Regions: 30, Depth: 2, Metrics: 2,
		Serial: 1e5, Parallel: 4e6, Log: 1e4, Noise: 0.02, Imbalance: 0.3, Seed: 3, Name: "synth16"})
	if err != nil {
		t.Fatal(err)
	}
	gen32, err := synth.Generate(synth.Spec{Processes: 32, ThreadsPerProcess: 1, Regions: 30, Depth: 2, Metrics: 2,
		Serial: 1e5, Parallel: 4e6, Log: 1e4, Noise: 0.02, Imbalance: 0.3, Seed: 4, Name: "synth32"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*drg.Trial{handTrial(t, hostileTrial, 1), handTrial(t, "slow", 2), gen, gen32} {
		if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{Application: "app"}); err != nil {
			t.Fatal(err)
		}
	}
}

// server starts a test server over the fixture's database.
func (f *fixture) server(t *testing.T, opt Options) *httptest.Server {
	t.Helper()
	opt.DB = f.db
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

// get fetches path and returns the status and body.
func get(t *testing.T, ts *httptest.Server, path string) (int, string) {
	t.Helper()
	res, err := ts.Client().Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := res.Body.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			break
		}
	}
	return res.StatusCode, string(b)
}

var _ = http.StatusOK
