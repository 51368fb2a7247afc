package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestReadTAUMadeDatabase reads a database that only TAU's tools wrote
// (no taudb-analyze table), read-only: trials, LoadTrial, Stats (with the
// STDDEV rows TAU left out computed, and TAU's NaN percentages), results,
// views, db check.
func TestReadTAUMadeDatabase(t *testing.T) {
	u, ids := storetest.TAUDatabase(t)
	ctx := context.Background()
	// A K Means result as PerfExplorer stores it: settings and one image.
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	var settings int64
	if err := conn.QueryRow(ctx, `INSERT INTO analysis_settings (trial, metric, method, dimension_reduction, normalization)
SELECT $1::int, id, 'K Means', 'None', 'Percentage of Total' FROM metric WHERE trial = $1::int RETURNING id`, ids[0]).Scan(&settings); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `INSERT INTO analysis_result (analysis_settings, description, thumbnail_size, image_size, thumbnail, image, result_type)
VALUES ($1, 'cluster averages', 3, 3, '\x010203', '\x010203', 3)`, settings); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	db, err := store.OpenReadOnly(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CheckSchema(ctx); err != nil {
		t.Fatal(err)
	}
	if missing, err := db.MissingOwnTables(ctx); err != nil || len(missing) != 12 {
		t.Fatalf("own tables missing: %v, %v; want all 12", missing, err)
	}
	infos, err := db.Trials(ctx)
	if err != nil || len(infos) != 2 || infos[0].Name != "tau-np3" || infos[0].Threads != 3 || infos[0].Application != "app" || infos[1].Threads != 1 {
		t.Fatalf("Trials: %+v, %v", infos, err)
	}

	tr, err := db.LoadTrial(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	m := tr.TimeMetric()
	for _, c := range []struct {
		node         string
		excl, incl   []float64
		calls        []float64
		presentOnAll bool
	}{
		{"main => compute", []float64{60, 70, 80}, []float64{60, 70, 80}, []float64{5, 5, 5}, true},
		{"main", []float64{10, 10, 10}, []float64{100, 110, 120}, []float64{1, 1, 1}, true},
		{"MPI_Send()", []float64{30, 30, 30}, []float64{30, 30, 30}, []float64{2, 3, 4}, true},
	} {
		n := tr.NodeIndex(c.node)
		if n < 0 {
			t.Fatalf("no node %q", c.node)
		}
		for th := range 3 {
			cell := tr.Cell(n, th)
			if tr.Values[m].Exclusive[cell] != c.excl[th] || tr.Values[m].Inclusive[cell] != c.incl[th] || tr.Calls[cell] != c.calls[th] || !tr.Has(n, th) {
				t.Errorf("%s thread %d: excl %v incl %v calls %v", c.node, th, tr.Values[m].Exclusive[cell], tr.Values[m].Inclusive[cell], tr.Calls[cell])
			}
		}
	}
	if io := tr.NodeIndex("io"); io < 0 || !tr.Has(io, 0) || tr.Has(io, 1) || tr.Has(io, 2) {
		t.Errorf("io: present only on thread 0 in TAU's rows")
	}

	st, err := db.Stats(ctx, ids[0], "")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]store.NodeStats{}
	for _, n := range st.Nodes {
		byName[n.Name] = n
	}
	compute := byName["compute"]
	// Stored by TAU: MEAN 70; STDDEV left out (all 5 calls), computed:
	// population stddev of 60, 70, 80 = √(200/3).
	if compute.Mean == nil || compute.Mean.Exclusive != 70 || compute.Mean.Computed {
		t.Errorf("compute MEAN: %+v", compute.Mean)
	}
	want := math.Sqrt(200.0 / 3)
	for _, sd := range []*store.StatValue{compute.StdDev, compute.StdDevAll} {
		if sd == nil || !sd.Computed || math.Abs(sd.Exclusive-want) > 1e-12 || math.Abs(sd.Inclusive-want) > 1e-12 || sd.Calls != 0 || !math.IsNaN(sd.ExclusivePercent) {
			t.Errorf("compute STDDEV: %+v, want computed %v, calls 0", sd, want)
		}
	}
	// io: one record of 5 among 3 threads: −3 over k=1 is 0; −7 over N=3 is
	// √(((5−5/3)² + 2(5/3)²)/3) = √(50/9). TAU stored −7 (its calls
	// statistic, of 1, 0, 0, is > 0) and not −3.
	io := byName["io"]
	if io.StdDev == nil || !io.StdDev.Computed || io.StdDev.Exclusive != 0 {
		t.Errorf("io STDDEV: %+v", io.StdDev)
	}
	if io.StdDevAll == nil || io.StdDevAll.Computed || math.Abs(io.StdDevAll.Exclusive-math.Sqrt(50.0/9)) > 1e-12 {
		t.Errorf("io STDDEV(all): %+v, want stored %v", io.StdDevAll, math.Sqrt(50.0/9))
	}
	// MPI_Barrier(): zero time, varying calls: TAU stored the STDDEV row
	// with 0/0 percentages.
	bar := byName["MPI_Barrier()"]
	if bar.StdDev == nil || bar.StdDev.Computed || !math.IsNaN(bar.StdDev.ExclusivePercent) || !math.IsNaN(bar.StdDev.InclusivePercent) {
		t.Errorf("MPI_Barrier() STDDEV: %+v, want TAU's row with NaN percentages", bar.StdDev)
	}
	if math.Abs(bar.StdDev.Calls-0) > 0 { // √(2/3) truncated to INT by TAU
		t.Errorf("MPI_Barrier() STDDEV calls %v, want 0 (TAU's truncated √(2/3))", bar.StdDev.Calls)
	}
	if _, err := json.Marshal(st); err == nil {
		t.Errorf("encoding/json accepted NaN: the CLI's writeJSON is what turns it into null")
	}

	res, err := db.Results(ctx)
	if err != nil || len(res) != 1 || res[0].Analysis != "K Means" || res[0].Metric != "TIME" || res[0].Tables != 1 ||
		len(res[0].Trials) != 1 || res[0].Trials[0] != "tau-np3" {
		t.Errorf("Results: %+v, %v; want PerfExplorer's K Means of tau-np3", res, err)
	}
	if r, err := db.LoadResult(ctx, settings); err != nil || r.Analysis != "K Means" || r.Trial != "tau-np3" ||
		r.Params["normalization"] != "Percentage of Total" || len(r.Findings) != 1 || !strings.Contains(r.Findings[0], "1 analysis_result row") {
		t.Errorf("LoadResult: %+v, %v", r, err)
	}
	if _, err := db.LoadResult(ctx, settings+1); !errors.Is(err, store.ErrNoResult) {
		t.Errorf("LoadResult(settings+1): %v, want ErrNoResult", err)
	}
	views, err := db.Views(ctx)
	if err != nil || len(views) != 1 {
		t.Errorf("Views: %v, %v", views, err)
	}
	in, err := db.CheckIntegrity(ctx)
	if err != nil || !in.OK() {
		t.Errorf("CheckIntegrity: %+v, %v", in, err)
	}
	if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{Name: "nope"}); err == nil {
		t.Errorf("SaveTrial through a read-only connection succeeded")
	}
}

// TestTAUFilledRealTrial fills a TAU-only database with the Hatchet cpi
// trial (4 ranks, 23 call-graph nodes) as TAU's loader does and checks the
// rows against the counts TAU's own loader wrote for it
// (formats/taudb-mapping.md §7: 207 timer_call_data rows, none for the
// STDDEV threads −3 and −7, every rank having made the same calls), then
// that Stats computes all 23 missing STDDEV rows equal to the statistics
// of the files (drg, two-pass) and LoadTrial gives back the files' values.
func TestTAUFilledRealTrial(t *testing.T) {
	path := realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi")
	want, err := reader.Read(path, "")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := storetest.TAUDatabase(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	m := want.TimeMetric()
	id := storetest.TAUFill(t, conn, storetest.TAUTrialOf(want, m, "cpi", "run"))
	conn.Close(ctx)
	db, err := store.OpenReadOnly(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows := storetest.Query(t, db, `SELECT h.thread_index, COUNT(d.id) FROM thread h LEFT JOIN timer_call_data d ON d.thread = h.id
WHERE h.trial = $1 GROUP BY h.thread_index ORDER BY h.thread_index`, id)
	total := 0
	for _, r := range rows {
		n, _ := strconv.Atoi(r[1])
		total += n
		if want := map[bool]string{true: "0", false: "23"}[r[0] == "-3" || r[0] == "-7"]; r[1] != want {
			t.Errorf("thread_index %s: %s timer_call_data rows, want %s (TAU's loader)", r[0], r[1], want)
		}
	}
	if total != 207 {
		t.Errorf("%d timer_call_data rows, TAU's loader wrote 207", total)
	}

	st, err := db.Stats(ctx, id, want.Metrics[m].Name)
	if err != nil {
		t.Fatal(err)
	}
	stats := want.Statistics()
	if len(st.Nodes) != 23 {
		t.Fatalf("%d nodes with statistics, want 23", len(st.Nodes))
	}
	for _, n := range st.Nodes {
		i := want.NodeIndex(n.Name)
		if i < 0 {
			t.Fatalf("no node %q in the files", n.Name)
		}
		for _, c := range []struct {
			got  *store.StatValue
			want float64
		}{{n.StdDev, stats.Exclusive[m].StdDev[i]}, {n.StdDevAll, stats.Exclusive[m].StdDevAll[i]}} {
			if c.got == nil || !c.got.Computed || math.Abs(c.got.Exclusive-c.want) > 1e-9*math.Max(1, c.want) {
				t.Errorf("%s: STDDEV %+v, want computed %v", n.Name, c.got, c.want)
			}
		}
	}

	got, err := db.LoadTrial(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Nodes) != len(want.Nodes) || len(got.Threads) != len(want.Threads) {
		t.Fatalf("loaded %d nodes × %d threads, want %d × %d", len(got.Nodes), len(got.Threads), len(want.Nodes), len(want.Threads))
	}
	for n, node := range want.Nodes {
		g := got.NodeIndex(node.Name)
		for th := range want.Threads {
			wc, gc := want.Cell(n, th), got.Cell(g, th)
			if g < 0 || want.Values[m].Exclusive[wc] != got.Values[0].Exclusive[gc] || want.Values[m].Inclusive[wc] != got.Values[0].Inclusive[gc] ||
				want.Calls[wc] != got.Calls[gc] {
				t.Fatalf("%s thread %d differs", node.Name, th)
			}
		}
	}
}
