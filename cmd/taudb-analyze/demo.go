package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/cluster"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/overhead"
	"github.com/taudb-analyze/taudb-analyze/report"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// demoTrial is one sample trial the demo loads.
type demoTrial struct {
	name, app, exp, path string
}

// demoTrials lists the sample trials of testdata/ the demo uses: the MPI
// matmult series at 1..8 processes, the MPI cpi run and the OpenMP matmult
// run with 24 threads.
func demoTrials() []demoTrial {
	var out []demoTrial
	for i := 0; i < 8; i++ {
		out = append(out, demoTrial{fmt.Sprintf("matmult-np%d", i+1), "matmult", "east02",
			filepath.Join("testdata", "real", "ParaToolsInc-taucmdr", "jupyter", "east02-mm-profile", fmt.Sprint(i))})
	}
	out = append(out,
		demoTrial{"cpi-4", "cpi", "cori", filepath.Join("testdata", "real", "LLNL-hatchet", "tau-cpi-mpi")},
		demoTrial{"matmult-omp24", "matmult-omp", "samples", filepath.Join("testdata", "real", "UO-OACISS-tau2", "perfexplorer", "HeatMapSamples", "matmult.ppk")})
	return out
}

// findTestdata returns the folder holding testdata/: the working directory
// or the folder of the executable's source tree, when either has it.
func findTestdata() (string, error) {
	cands := []string{"."}
	if exe, err := os.Executable(); err == nil {
		cands = append(cands, filepath.Dir(exe), filepath.Join(filepath.Dir(exe), ".."))
	}
	for _, c := range cands {
		if st, err := os.Stat(filepath.Join(c, "testdata", "real")); err == nil && st.IsDir() {
			return c, nil
		}
	}
	return "", fmt.Errorf("demo: the sample trials (testdata/real) are not here; run the demo from a clone of taudb-analyze")
}

func (a *app) demoCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "demo [--out DIR]",
		Short: "The main job end to end on the embedded database: load samples, run three studies, write a report",
		Long: `demo creates an embedded TAUdb (SQLite) in DIR, loads the sample trials of
testdata/ (an MPI matmult series at 1..8 processes, an MPI cpi run and an
OpenMP matmult run with 24 threads), runs three example studies — a
scalability study of the process-count series (speedup, scalability
models), an overhead breakdown in SCALEA's classification, and a clustering
of threads across two trials — plus a load-imbalance analysis, stores every
result in the database, and writes an HTML report to DIR/report. It needs
no database server and no network. Running it again reuses the trials
already loaded and the results already stored (same trials, same
parameters), and says so.`,
		Example: `  taudb-analyze demo
  taudb-analyze demo --out /tmp/demo`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runDemo(cmd.Context(), out)
		},
	}
	cmd.Flags().StringVar(&out, "out", "taudb-analyze-demo", "folder for the database and the report")
	return cmd
}

func (a *app) runDemo(ctx context.Context, out string) error {
	root, err := findTestdata()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	dbPath := filepath.Join(out, "taudb.db")
	db, err := store.Open(ctx, "sqlite:"+dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil {
		return err
	}
	w := a.errOut
	if a.format == "json" || a.quiet {
		w = nil
	}
	say := func(format string, args ...any) {
		if w != nil {
			fmt.Fprintf(w, format+"\n", args...)
		}
	}
	say("database: %s", dbPath)
	byName := map[string]int64{}
	trials := map[string]*drg.Trial{}
	for _, dt := range demoTrials() {
		ids, err := db.TrialsNamed(ctx, dt.name)
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			byName[dt.name] = ids[0]
			if trials[dt.name], err = db.LoadTrial(ctx, ids[0]); err != nil {
				return err
			}
			say("  trial %-14s already loaded as trial %d", dt.name, ids[0])
			continue
		}
		t, err := reader.Read(filepath.Join(root, dt.path), "")
		if err != nil {
			return err
		}
		id, err := db.SaveTrial(ctx, t, store.SaveOptions{Name: dt.name, Application: dt.app, Experiment: dt.exp})
		if err != nil {
			return err
		}
		t.Name = dt.name
		byName[dt.name], trials[dt.name] = id, t
		say("  loaded %-14s as trial %d: %d threads, %d regions (%s)", dt.name, id, len(t.Threads), len(t.Regions), dt.path)
	}
	var series []*drg.Trial
	var seriesIDs []int64
	for i := 1; i <= 8; i++ {
		n := fmt.Sprintf("matmult-np%d", i)
		series = append(series, trials[n])
		seriesIDs = append(seriesIDs, byName[n])
	}
	exps, err := analysis.NewSeries(series, "", "")
	if err != nil {
		return err
	}
	type step struct {
		what string
		ids  []int64
		run  func() (*analysis.Result, error)
	}
	steps := []step{
		{"scalability study: speedup of matmult at np = 1..8", seriesIDs, func() (*analysis.Result, error) {
			return analysis.Speedup(exps, analysis.SpeedupOptions{})
		}},
		{"scalability study: efficiency, Karp-Flatt and fitted models", seriesIDs, func() (*analysis.Result, error) {
			return analysis.Scalability(exps, analysis.ScalabilityOptions{Predict: 16})
		}},
		{"overhead breakdown (SCALEA) of the matmult series", seriesIDs, func() (*analysis.Result, error) {
			return overhead.Analyze(series, exps.Ps(), overhead.Options{})
		}},
		{"clustering of the threads of matmult-np4 and matmult-np8 together", []int64{byName["matmult-np4"], byName["matmult-np8"]}, func() (*analysis.Result, error) {
			return cluster.Cluster([]*drg.Trial{trials["matmult-np4"], trials["matmult-np8"]}, cluster.Options{Seed: 1})
		}},
		{"clustering of the 24 OpenMP threads of matmult-omp24", []int64{byName["matmult-omp24"]}, func() (*analysis.Result, error) {
			return cluster.Cluster([]*drg.Trial{trials["matmult-omp24"]}, cluster.Options{Seed: 1})
		}},
		{"load imbalance of cpi-4", []int64{byName["cpi-4"]}, func() (*analysis.Result, error) {
			return analysis.Imbalance(trials["cpi-4"], analysis.ImbalanceOptions{})
		}},
	}
	var results []*analysis.Result
	var stored []int64
	for _, s := range steps {
		res, err := s.run()
		if err != nil {
			return fmt.Errorf("demo: %s: %w", s.what, err)
		}
		id, found, err := db.FindResult(ctx, res, s.ids)
		if err != nil {
			return err
		}
		if found {
			say("  %s: already stored as result %d, reused", s.what, id)
			results, stored = append(results, res), append(stored, id)
			continue
		}
		if id, err = db.SaveResult(ctx, res, s.ids); err != nil {
			return err
		}
		results, stored = append(results, res), append(stored, id)
		finding := ""
		if len(res.Findings) > 0 {
			finding = ": " + res.Findings[0]
		}
		say("  %s (result %d)%s", s.what, id, finding)
	}
	idx, err := report.Write(filepath.Join(out, "report"), results, report.Meta{
		Title: "taudb-analyze demo", Created: time.Now(), Source: "sqlite:" + dbPath})
	if err != nil {
		return err
	}
	if a.format == "json" {
		return writeJSON(a.out, map[string]any{"database": dbPath, "trials": byName, "results": stored, "report": idx})
	}
	say("report written; open it in a browser:")
	fmt.Fprintln(a.out, idx)
	return nil
}
