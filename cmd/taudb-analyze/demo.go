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
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// demoStudies are the example studies of scripts/ the demo runs, in order.
var demoStudies = []string{"scalability.yaml", "overhead.yaml", "clustering.yaml"}

// findClone returns the folder of the taudb-analyze clone the demo runs
// in (the one holding scripts/ with the example studies): the working
// directory or the executable's folder or its parent.
func findClone() (string, error) {
	cands := []string{"."}
	if exe, err := os.Executable(); err == nil {
		cands = append(cands, filepath.Dir(exe), filepath.Join(filepath.Dir(exe), ".."))
	}
	for _, c := range cands {
		if st, err := os.Stat(filepath.Join(c, "scripts", demoStudies[0])); err == nil && st.Mode().IsRegular() {
			return c, nil
		}
	}
	return "", fmt.Errorf("demo: the example studies (scripts/%s) are not here; run the demo from a clone of taudb-analyze", demoStudies[0])
}

// demoDataDir is where the demo's generated trials live, relative to the
// clone: the example studies name them there.
var demoDataDir = filepath.Join("testdata", "generated")

func (a *app) demoCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "demo [--out DIR]",
		Short: "The main job end to end on the embedded database: load samples, run three studies, write a report",
		Long: `demo creates an embedded TAUdb (SQLite) in DIR and runs the three example
studies of scripts/ on generated trials whose truth is known (package
synth: an MPI program at 1..16 processes with known serial, replicated,
divided and imbalanced work and known MPI time, and a 24-thread run). It
writes them to testdata/generated/ of the clone on first use (the same as
"taudb-analyze synth --demo testdata/generated"):

  scripts/scalability.yaml  speedup, efficiency, Karp-Flatt and fitted
                            scaling models of the MPI series
  scripts/overhead.yaml     SCALEA's overhead breakdown of the series, and
                            the load imbalance of its 16-process run
  scripts/clustering.yaml   ranks clustered across the runs at 8 and 16
                            processes, and the 24 threads

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
	root, err := findClone()
	if err != nil {
		return err
	}
	if err := synth.WriteDemo(filepath.Join(root, demoDataDir)); err != nil {
		return fmt.Errorf("demo: %w", err)
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
