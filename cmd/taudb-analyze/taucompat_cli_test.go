package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// resultJSON is the part of an analysis result's JSON the tests read.
type resultJSON struct {
	Tables []struct {
		Name string           `json:"name"`
		Rows []map[string]any `json:"rows"`
	} `json:"tables"`
}

// rowWhere returns the first row of the result's tables whose column col
// equals val, and fails t when there is none.
func rowWhere(t *testing.T, out, col string, val any) map[string]any {
	t.Helper()
	var r resultJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("result JSON: %v\n%s", err, out)
	}
	for _, tb := range r.Tables {
		for _, row := range tb.Rows {
			if v, ok := row[col]; ok && v == val {
				return row
			}
		}
	}
	t.Fatalf("no row with %s = %v in %s", col, val, out)
	return nil
}

// near fails t unless got (a JSON number) is want within 1e-12 relative.
func near(t *testing.T, what string, got any, want float64) {
	t.Helper()
	f, ok := got.(float64)
	if !ok || math.Abs(f-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestTAUMadeDatabaseCLI runs the read commands and the analyses, with no
// "db init", on a PostgreSQL database that holds only TAU's schema, filled
// as TAU's taudb_loadtrial fills it (storetest.TAUTrials: tau-np3 on ranks
// 0..2, tau-np1 on one rank), and checks the values against what the
// fixture's numbers give by hand.
func TestTAUMadeDatabaseCLI(t *testing.T) {
	u, _ := storetest.TAUDatabase(t)
	run := func(args ...string) result {
		t.Helper()
		r := ok(t, nil, append([]string{"--db", u}, args...)...)
		// JSON has no NaN or Inf: a document holding one is not valid.
		if slices.Contains(args, "json") && !json.Valid([]byte(r.stdout)) {
			t.Errorf("%v: not valid JSON:\n%s", args, r.stdout)
		}
		return r
	}

	var trials []store.TrialInfo
	if err := json.Unmarshal([]byte(run("--format", "json", "trials").stdout), &trials); err != nil || len(trials) != 2 ||
		trials[0].Name != "tau-np3" || trials[0].Threads != 3 || trials[1].Threads != 1 {
		t.Fatalf("trials: %+v, %v", trials, err)
	}

	var st store.TrialStats
	out := run("--format", "json", "stats", "--trial", "tau-np3").stdout
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("stats JSON: %v", err)
	}
	// TAU stored NaN percentages for MPI_Barrier()'s STDDEV (0/0): null.
	for _, n := range st.Nodes {
		switch n.Name {
		case "compute":
			// TAU stored no STDDEV (all threads made 5 calls): computed,
			// √(((60−70)²+0+(80−70)²)/3) = √(200/3).
			if n.StdDev == nil || !n.StdDev.Computed || n.Mean.Exclusive != 70 {
				t.Errorf("compute: stddev %+v, mean %+v", n.StdDev, n.Mean)
			} else {
				near(t, "compute STDDEV", n.StdDev.Exclusive, math.Sqrt(200.0/3))
			}
		case "io":
			// stored by TAU: STDDEV(all) of 5, 0, 0 = √(50/9).
			near(t, "io STDDEV(all)", n.StdDevAll.Exclusive, math.Sqrt(50.0/9))
		}
	}
	if !strings.Contains(out, `"exclusive_percent": null`) {
		t.Errorf("stats JSON: TAU's NaN percentages should read null")
	}
	text := run("stats", "--trial", "tau-np3").stdout
	if !strings.Contains(text, "8.16496580927726*") || !strings.Contains(text, "* computed from the threads' rows") {
		t.Errorf("stats table does not mark the computed STDDEV:\n%s", text)
	}

	row := rowWhere(t, run("--format", "json", "imbalance", "--trial", "tau-np3", "--no-save").stdout, "region", "compute")
	near(t, "compute mean", row["mean"], 70)
	near(t, "compute balance", row["balance"], 70.0/80)
	near(t, "compute imbalance", row["imbalance"], 80.0/70)

	row = rowWhere(t, run("--format", "json", "regions", "--trial", "tau-np3", "--no-save").stdout, "region", "compute")
	near(t, "compute exclusive mean", row["exclusive"], 70)
	near(t, "compute % of main", row["exclusive_percent"], 100*70.0/110)

	row = rowWhere(t, run("--format", "json", "summary", "--trial", "tau-np3", "--no-save").stdout, "node", "0")
	near(t, "node 0 mpi", row["mpi"], 30)
	near(t, "node 0 io", row["io"], 5)

	// Program time: the main region's inclusive value, max over threads:
	// 240 on one rank, 120 on three.
	row = rowWhere(t, run("--format", "json", "speedup", "--trials", "tau-np1,tau-np3", "--no-save").stdout, "experiment", "tau-np3")
	near(t, "speedup", row["speedup"], 240.0/120)

	// T_o = T_p − T_s/p: the average rank's T_p = (100+110+120)/3 = 110,
	// T_s the 1-rank run's useful work 240 − 40 in MPI_Send = 200.
	row = rowWhere(t, run("--format", "json", "overhead", "--trials", "tau-np1,tau-np3", "--no-save").stdout, "trial", "tau-np3")
	near(t, "T_o", row["t_o"], 110-200.0/3)

	// Thread 0 alone has io: two clusters of 1 and 2 threads.
	var sizes []float64
	var cl resultJSON
	if err := json.Unmarshal([]byte(run("--format", "json", "cluster", "--trial", "tau-np3", "-k", "2", "--no-save").stdout), &cl); err != nil {
		t.Fatal(err)
	}
	for _, r := range cl.Tables[0].Rows {
		sizes = append(sizes, r["size"].(float64))
	}
	if slices.Sort(sizes); !slices.Equal(sizes, []float64{1, 2}) {
		t.Errorf("cluster sizes %v, want 1 and 2", sizes)
	}

	dir := filepath.Join(t.TempDir(), "report")
	run("report", "--out", dir, "--trials", "tau-np1,tau-np3")
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Errorf("report: %v", err)
	}
	if r := run("--format", "json", "results"); strings.TrimSpace(r.stdout) != "null" && strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("results before any save: %s", r.stdout)
	}

	// The first write adds our tables, saying so, once.
	first := run("imbalance", "--trial", "tau-np3")
	second := run("regions", "--trial", "tau-np3")
	if !strings.Contains(first.stderr, "added taudb-analyze's own tables") || strings.Contains(second.stderr, "added") {
		t.Errorf("first write said %q, second %q", first.stderr, second.stderr)
	}
	var infos []store.ResultInfo
	if err := json.Unmarshal([]byte(run("--format", "json", "results").stdout), &infos); err != nil || len(infos) != 2 {
		t.Fatalf("results: %v, %v", infos, err)
	}
	run("db", "check")
}

// TestLoadViewsLikeTAU loads trials with -a/-x into a TAU-made database and
// checks the views taudb_loadtrial would have created, as ParaProf lists
// them (taudb_view rows by parent), and the trials each selects.
func TestLoadViewsLikeTAU(t *testing.T) {
	u, ids := storetest.TAUDatabase(t)
	p2 := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/2.ppk")
	p4 := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/4.ppk")
	ok(t, nil, "--db", u, "load", "-n", "sbc-2", "-a", "sbc", "-x", "scaling", p2)
	ok(t, nil, "--db", u, "load", "-n", "sbc-4", "-a", "sbc", "-x", "scaling", p4)
	ok(t, nil, "--db", u, "load", "-n", "sbc-4w", "-a", "sbc", "-x", "weak", p4)
	ctx := context.Background()
	db, err := store.OpenReadOnly(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	views, err := db.Views(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// ParaProf's tree: top-level views, then each one's children.
	tree := map[string][]string{}
	byID := map[int64]store.View{}
	for _, v := range views {
		byID[v.ID] = v
	}
	for _, v := range views {
		parent := ""
		if v.Parent != 0 {
			parent = byID[v.Parent].Name
		}
		tree[parent] = append(tree[parent], v.Name)
	}
	if !slices.Equal(tree[""], []string{"All Trials", "Application-sbc"}) ||
		!slices.Equal(tree["Application-sbc"], []string{"Experiment-scaling", "Experiment-weak"}) {
		t.Fatalf("view tree %v", tree)
	}
	all, err := db.Trials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]int64{}
	for _, ti := range all {
		if ti.Application == "sbc" {
			want["Application-sbc"] = append(want["Application-sbc"], ti.ID)
			want["Experiment-"+ti.Experiment] = append(want["Experiment-"+ti.Experiment], ti.ID)
		}
	}
	for _, v := range views[1:] {
		got, err := db.ViewTrials(ctx, v.ID)
		if err != nil || !slices.Equal(got, want[v.Name]) {
			t.Errorf("view %s selects %v (%v), want %v", v.Name, got, err, want[v.Name])
		}
	}
	if len(want["Experiment-scaling"]) != 2 || slices.Contains(want["Application-sbc"], ids[0]) {
		t.Errorf("fixture: %v", want)
	}
}

// TestEmptyTAUSchemaCLI: on an empty TAUdb that TAU's taudb_configure made
// (no trial, none of taudb-analyze's tables) the read commands answer with
// nothing, change nothing, and a first load adds our tables, saying so,
// and is read back.
func TestEmptyTAUSchemaCLI(t *testing.T) {
	u := storetest.TAUEmptyDatabase(t)
	for _, args := range [][]string{{"--format", "json", "trials"}, {"--format", "json", "results"}, {"db", "check"}, {"views"}} {
		r := ok(t, nil, append([]string{"--db", u}, args...)...)
		if strings.Contains(r.stderr, "added") {
			t.Errorf("%v added tables: %s", args, r.stderr)
		}
	}
	fails(t, 1, "no such trial", "--db", u, "stats", "--trial", "x")
	ctx := context.Background()
	db, err := store.OpenReadOnly(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	missing, err := db.MissingOwnTables(ctx)
	db.Close()
	if err != nil || len(missing) != 12 {
		t.Fatalf("after the reads: missing %v, %v; want all 12 still missing", missing, err)
	}
	r := ok(t, nil, "--db", u, "load", "-n", "cpi", realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi"))
	if !strings.Contains(r.stderr, "added taudb-analyze's own tables") {
		t.Errorf("load did not say it added our tables: %q", r.stderr)
	}
	row := rowWhere(t, ok(t, nil, "--db", u, "--format", "json", "imbalance", "--trial", "cpi", "--no-save").stdout, "region", "MPI_Init()")
	if row["n_present"] != 4.0 {
		t.Errorf("MPI_Init() on %v threads, want 4", row["n_present"])
	}
}
