package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/internal/study"
	"github.com/taudb-analyze/taudb-analyze/report"
)

// demoStudies are the example studies of scripts/ the demo runs, in order.
var demoStudies = []string{"scalability.yaml", "overhead.yaml", "clustering.yaml"}

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
		Long: `demo creates an embedded TAUdb (SQLite) in DIR and runs the three example
studies of scripts/ on the sample trials of testdata/ (an MPI matmult
series at 1..8 processes, an MPI cpi run and an OpenMP matmult run with 24
threads):

  scripts/scalability.yaml  speedup, efficiency, Karp-Flatt and fitted
                            scaling models of the matmult series
  scripts/overhead.yaml     SCALEA's overhead breakdown of the series, and
                            the load imbalance of the cpi run
  scripts/clustering.yaml   threads clustered across the runs at 4 and 8
                            processes, and the 24 OpenMP threads

It stores every trial and result in the database and writes one HTML
report of all of them to DIR/report, then prints where to open it. It needs
no database server and no network. Running it again reuses the trials
already loaded and the results already stored (same trials, same
parameters), and says so. Run from a clone of taudb-analyze.`,
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
	var studies []*study.Study
	for _, name := range demoStudies {
		s, err := a.readStudy(filepath.Join(root, "scripts", name))
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		studies = append(studies, s)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	dbPath := filepath.Join(out, "taudb.db")
	url := "sqlite:" + dbPath
	say := func(format string, args ...any) {
		if !a.quiet && a.format != "json" {
			fmt.Fprintf(a.errOut, format+"\n", args...)
		}
	}
	say("database: %s", dbPath)
	all := &studyRun{Study: "demo", Database: url}
	for _, s := range studies {
		say("study %s: %s", s.File, s.Title)
		run, err := a.execStudy(ctx, s, url)
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		for _, t := range run.Trials {
			if !slices.ContainsFunc(all.Trials, func(x studyTrial) bool { return x.ID == t.ID }) {
				all.Trials = append(all.Trials, t)
			}
		}
		all.Results = append(all.Results, run.Results...)
		all.results = append(all.results, run.results...)
	}
	all.Report, err = report.Write(filepath.Join(out, "report"), all.results, report.Meta{
		Title: "taudb-analyze demo", Created: time.Now(), Source: url})
	if err != nil {
		return fmt.Errorf("demo: report: %w", err)
	}
	if a.format == "json" {
		return writeJSON(a.out, all)
	}
	say("report written; open it in a browser:")
	fmt.Fprintln(a.out, all.Report)
	return nil
}
