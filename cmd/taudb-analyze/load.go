package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// loaded is what load reports of one trial it stored.
type loaded struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Path        string `json:"path"`
	Format      string `json:"format"`
	Application string `json:"application,omitempty"`
	Experiment  string `json:"experiment,omitempty"`
	Threads     int    `json:"threads"`
	Metrics     int    `json:"metrics"`
	Nodes       int    `json:"nodes"`
	Counters    int    `json:"counters"`
	Snapshots   int    `json:"snapshots"`
}

func (a *app) loadCmd() *cobra.Command {
	var name, application, experiment, format string
	var allowDuplicate, spawn bool
	cmd := &cobra.Command{
		Use:   "load -n NAME [-a APP] [-x EXP] [-f FORMAT] PATH...",
		Short: "Load TAU trials into the database, as TAU's taudb_loadtrial",
		Long: `load reads a trial from each PATH and stores it in the database as a new
trial, with every row TAU's own loader (taudb_loadtrial) writes, in one
transaction per trial: a trial that fails to load leaves nothing behind.

PATH is a folder of profile.N.C.T files (or of MULTI__<metric> folders), a
ParaProf .ppk file, or TAU XML (tauprofile.xml, .xml.gz, a folder of
snapshot files); the format is detected unless -f says it.

Each PATH is one trial. With one PATH the trial is named NAME; with several,
NAME-1, NAME-2, ... in the order given. Without -n a trial keeps the name
its reader gives it (the folder or file name). -a and -x file the trials under
an application and an experiment (trial attributes "Application" and
"Experiment"). A name that a stored trial already bears is refused, before
anything is loaded, unless --allow-duplicate.

It prints the id of each new trial, one a line (with --format json, one
JSON array describing them). An embedded database without schema gets one.`,
		Example: `  taudb-analyze load -n cpi-4 -a cpi -x scaling testdata/real/LLNL-hatchet/tau-cpi-mpi
  taudb-analyze load -n run -a mm run1/ run2/ run3.ppk      # trials run-1, run-2, run-3
  taudb-analyze --format json load -n xgc -f ppk xgc.ppk`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("load needs at least one PATH")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if cmd.Flags().Changed("name") && strings.TrimSpace(name) == "" {
				return usagef("-n: empty trial name")
			}
			if err := drg.CheckName("trial name", name); err != nil {
				return usagef("-n: %v", err)
			}
			names := make([]string, len(args))
			for i := range args {
				switch {
				case name == "":
				case len(args) == 1:
					names[i] = name
				default:
					names[i] = fmt.Sprintf("%s-%d", name, i+1)
				}
			}
			if spawn {
				args, names = withSpawned(args, names)
			}
			db, err := a.openDB(ctx, true)
			if err != nil {
				return err
			}
			defer db.Close()
			if !allowDuplicate {
				for _, n := range names {
					if n == "" {
						continue
					}
					if err := refuseDuplicate(cmd, db, n); err != nil {
						return err
					}
				}
			}
			var out []loaded
			bar := a.progress(len(args), "loading")
			defer bar.done()
			for i, path := range args {
				bar.step("loading " + path)
				start := time.Now()
				t, err := reader.Read(path, format)
				if err != nil {
					return fmt.Errorf("load %s: %w", path, err)
				}
				if names[i] == "" && !allowDuplicate {
					if err := refuseDuplicate(cmd, db, t.Name); err != nil {
						return err
					}
				}
				for _, w := range t.Warnings {
					a.info("warning: %s: %s", path, w)
				}
				a.detail("read %s (%s) in %v", path, t.Source.Format, since(start))
				start = time.Now()
				report, finish := a.saveProgress(bar, path)
				id, err := db.SaveTrial(ctx, t, store.SaveOptions{Name: names[i], Application: application, Experiment: experiment, Progress: report})
				finish()
				if err != nil {
					return fmt.Errorf("load %s: %w", path, err)
				}
				a.detail("saved it in %v", since(start))
				l := loaded{ID: id, Name: t.Name, Path: path, Format: t.Source.Format, Application: application, Experiment: experiment,
					Threads: len(t.Threads), Metrics: len(t.Metrics), Nodes: len(t.Nodes), Counters: len(t.Counters), Snapshots: len(t.Series)}
				if names[i] != "" {
					l.Name = names[i]
				}
				out = append(out, l)
				if a.format == "table" {
					bar.println(a.out, fmt.Sprint(id))
				}
				if !a.quiet {
					bar.println(a.errOut, fmt.Sprintf("loaded %s as trial %d %q: %d threads, %d metrics, %d call-graph nodes, %d user events", path, id, l.Name, l.Threads, l.Metrics, l.Nodes, l.Counters))
				}
			}
			switch a.format {
			case "json":
				return writeJSON(a.out, out)
			case "csv":
				tb := table{header: []string{"id", "name", "path", "format", "threads", "metrics", "nodes", "counters"}}
				for _, l := range out {
					tb.add(fmt.Sprint(l.ID), l.Name, l.Path, l.Format, fmt.Sprint(l.Threads), fmt.Sprint(l.Metrics), fmt.Sprint(l.Nodes), fmt.Sprint(l.Counters))
				}
				return tb.writeCSV(a.out)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&name, "name", "n", "", "trial name (several PATHs: NAME-1, NAME-2, ...); default: the reader's name")
	f.StringVarP(&application, "application", "a", "", "application the trial belongs to (trial attribute \"Application\")")
	f.StringVarP(&experiment, "experiment", "x", "", "experiment the trial belongs to (trial attribute \"Experiment\")")
	f.StringVarP(&format, "file-format", "f", "", "input format: "+strings.Join(reader.Formats, ", ")+" (default: detected)")
	f.BoolVar(&allowDuplicate, "allow-duplicate", false, "store a trial even if a trial of that name exists")
	f.BoolVar(&spawn, "spawn", false, "also load each PATH's spawn-N folders (MPI_Comm_spawn children) as trials NAME-spawn-N")
	return cmd
}

// refuseDuplicate fails when a stored trial is named name.
func refuseDuplicate(cmd *cobra.Command, db *store.DB, name string) error {
	ids, err := db.TrialsNamed(cmd.Context(), name)
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		return fmt.Errorf("a trial named %q exists already (id %d); choose another name with -n, or give --allow-duplicate", name, ids[0])
	}
	return nil
}
