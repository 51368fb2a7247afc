package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
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
	// Reused is true when --reuse kept a stored trial of the name.
	Reused bool `json:"reused,omitempty"`
}

func (a *app) loadCmd() *cobra.Command {
	var lf loadFlags
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
NAME-1, NAME-2, ... in the paths' natural order, numbers compared by value
(a shell glob's 128.ppk 16.ppk 2.ppk are named -3, -2, -1); with --name-by p,
NAME-pP by each trial's number of processes P (distinct TAU node ranks), read
from the trial itself, so that folders named run-a/ run-b/ still come out in
p order (two trials of one P are refused). Without -n a trial keeps the name
its reader gives it (the folder or file name). -a and -x file the trials under
an application and an experiment (trial attributes "Application" and
"Experiment"). A name that a stored trial already bears is refused, before
anything is loaded, unless --allow-duplicate (store another trial of that
name) or --reuse (keep the stored trial and skip that PATH). The name is
checked again under a lock as the trial is saved, so two loads of one name
started together store one trial: the other fails, or with --reuse gets it.

All the PATHs of one load are saved in one transaction: if any fails to
read or save, none is stored, and the load can simply be run again.

A folder of TAU profiles too big for one pass (more threads than fit in 512
MiB of values, or than --chunk-threads N) is read and saved a chunk of
threads at a time when the database is a PostgreSQL one in the partitioned
layout that db init makes (docs/partitions.md): memory holds two chunks, not
the trial. Elsewhere it is read whole.

It prints the id of each new trial, one a line (with --format json, one
JSON array describing them). An embedded database without schema gets one.`,
		Example: `  taudb-analyze load -n mpi-4 -a demo -x scaling testdata/generated/mpi/p4
  taudb-analyze load -n run -a mm run1/ run2/ run3.ppk      # trials run-1, run-2, run-3
  taudb-analyze load --reuse -n run run1/ run2/ run3.ppk run4/   # loads run4/ only
  taudb-analyze load -n mm --name-by p runs/*/                # trials mm-p1, mm-p2, mm-p4, ...
  taudb-analyze --format json load -n xgc -f ppk xgc.ppk`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("load needs at least one PATH")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return a.runLoad(cmd, args, lf) },
	}
	lf.register(cmd)
	return cmd
}

// loadFlags are load's flags.
type loadFlags struct {
	name, application, experiment, format string
	nameBy                                string
	allowDuplicate, reuse, spawn          bool
	chunkThreads                          int
}

func (lf *loadFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&lf.name, "name", "n", "", "trial name (several PATHs: NAME-1, NAME-2, ...); default: the reader's name")
	f.StringVarP(&lf.application, "application", "a", "", "application the trial belongs to (trial attribute \"Application\")")
	f.StringVarP(&lf.experiment, "experiment", "x", "", "experiment the trial belongs to (trial attribute \"Experiment\")")
	f.StringVarP(&lf.format, "file-format", "f", "", "input format: "+strings.Join(reader.Formats, ", ")+" (default: detected)")
	f.BoolVar(&lf.allowDuplicate, "allow-duplicate", false, "store a trial even if a trial of that name exists")
	f.BoolVar(&lf.reuse, "reuse", false, "keep a stored trial of the same name instead of loading that PATH (what is loaded already is skipped)")
	f.StringVar(&lf.nameBy, "name-by", "path", `with -n and several PATHs: "path" numbers NAME-1, NAME-2, ... in the paths' natural order; "p" names NAME-pP by each trial's number of processes`)
	f.BoolVar(&lf.spawn, "spawn", false, "also load each PATH's spawn-N folders (MPI_Comm_spawn children) as trials NAME-spawn-N")
	f.IntVar(&lf.chunkThreads, "chunk-threads", 0, "a folder of TAU profiles into the partitioned PostgreSQL layout is read and saved N threads at a time, "+
		"so memory holds two chunks rather than the trial; 0: as many threads as fit in 512 MiB; -1: read it whole")
}

// runLoad checks load's flags, names the trials of the PATHs args, and
// loads them (loadAll), printing what it stored.
func (a *app) runLoad(cmd *cobra.Command, args []string, lf loadFlags) error {
	ctx := cmd.Context()
	name := lf.name
	if cmd.Flags().Changed("name") && strings.TrimSpace(name) == "" {
		return usagef("-n: empty trial name")
	}
	if err := drg.CheckName("trial name", name); err != nil {
		return usagef("-n: %v", err)
	}
	if lf.reuse && lf.allowDuplicate {
		return usagef("--reuse and --allow-duplicate exclude each other")
	}
	if lf.nameBy != "path" && lf.nameBy != "p" {
		return usagef(`--name-by %q: want "path" or "p"`, lf.nameBy)
	}
	args, names := trialNames(args, name)
	var rename func(*drg.Trial) error
	if lf.nameBy == "p" && name != "" && len(args) > 1 {
		names, rename = make([]string, len(args)), nameByP(name)
	}
	if lf.spawn {
		args, names = withSpawned(args, names)
	}
	db, err := a.openDB(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	if !lf.allowDuplicate && !lf.reuse {
		for _, n := range names {
			if n == "" {
				continue
			}
			if err := refuseDuplicate(cmd, db, n); err != nil {
				return err
			}
		}
	}
	rule := store.NameRefuse
	switch {
	case lf.allowDuplicate:
		rule = store.NameAllowDuplicate
	case lf.reuse:
		rule = store.NameReuse
	}
	base := store.SaveOptions{Application: lf.application, Experiment: lf.experiment}
	out, err := a.loadAll(ctx, db, args, names, lf.format, rule, base, rename, lf.chunkThreads)
	if err != nil {
		return err
	}
	return a.printLoaded(out)
}

// trialNames names the trials of the PATHs args: NAME with one path,
// NAME-1, NAME-2, ... in the paths' natural order with several (so that a
// shell glob's 128.ppk 16.ppk 2.ppk become 2, 16, 128), "" (the reader's
// name) without NAME. It returns the paths in that order.
func trialNames(args []string, name string) ([]string, []string) {
	if name != "" && len(args) > 1 {
		args = append([]string(nil), args...)
		slices.SortStableFunc(args, naturalCompare)
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
	return args, names
}

// nameByP returns what names each trial NAME-pP by its number of processes
// P (analysis.ProcessCount: distinct TAU node ranks) as it is read; a
// second trial of one P is an error, so the load stores nothing.
func nameByP(name string) func(*drg.Trial) error {
	seen := map[string]string{}
	return func(t *drg.Trial) error {
		p, err := analysis.ProcessCount(t, "")
		if err != nil {
			return err
		}
		n := fmt.Sprintf("%s-p%g", name, p)
		if other, dup := seen[n]; dup {
			return fmt.Errorf("--name-by p: trials %q and %q both have p = %g; name them by path (the default --name-by path) or load them apart", other, t.Name, p)
		}
		seen[n] = t.Name
		t.Name = n
		return nil
	}
}

// printLoaded prints the trials load stored: one JSON array, or CSV rows;
// the text format printed their ids as they were stored.
func (a *app) printLoaded(out []loaded) error {
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

// loadAll reads and saves the trials of paths (named names[i], or by their
// reader when "") in one transaction (store.SaveTrials), one trial in memory
// at a time, and returns what it loaded or reused.
func (a *app) loadAll(ctx context.Context, db *store.DB, paths, names []string, format string, rule store.NameRule, base store.SaveOptions, rename func(*drg.Trial) error, chunk int) ([]loaded, error) {
	out := make([]loaded, len(paths))
	pending := make([]store.PendingTrial, len(paths))
	var reading time.Duration // spent in the readers, within SaveTrials
	var chunks []*loadChunks  // their reading overlaps the saving
	bar := a.progress(len(paths), "loading")
	defer bar.done()
	for i, path := range paths {
		opt := base
		opt.Name, opt.IfExists = names[i], rule
		report, _ := a.saveProgress(bar, path)
		opt.Progress = report
		out[i] = loaded{Path: path, Name: names[i], Application: base.Application, Experiment: base.Experiment}
		if rename == nil {
			c, err := a.chunked(ctx, db, path, format, chunk, &out[i])
			if err != nil {
				return nil, err
			}
			if c != nil {
				chunks = append(chunks, c)
				pending[i] = store.PendingTrial{Options: opt, Chunks: c}
				continue
			}
		}
		pending[i] = store.PendingTrial{Options: opt, Read: func() (*drg.Trial, error) {
			bar.step("loading " + path)
			start := time.Now()
			t, err := reader.Read(path, format)
			if err != nil {
				return nil, fmt.Errorf("load %s: %w", path, err)
			}
			if rename != nil {
				if err := rename(t); err != nil {
					return nil, fmt.Errorf("load %s: %w", path, err)
				}
			}
			for _, w := range t.Warnings {
				a.info("warning: %s: %s", path, w)
			}
			a.detail("read %s (%s) in %v", path, t.Source.Format, since(start))
			reading += time.Since(start)
			l := &out[i]
			l.Format, l.Threads, l.Metrics, l.Nodes, l.Counters, l.Snapshots = t.Source.Format, len(t.Threads), len(t.Metrics), len(t.Nodes), len(t.Counters), len(t.Series)
			if l.Name == "" {
				l.Name = t.Name
			}
			return t, nil
		}}
	}
	start := time.Now()
	saved, err := db.SaveTrials(ctx, pending)
	if err != nil {
		var taken *store.NameTakenError
		if errors.As(err, &taken) {
			return nil, fmt.Errorf("%w; nothing was loaded. Choose another name with -n, or give --reuse or --allow-duplicate", err)
		}
		if len(paths) > 1 {
			return nil, fmt.Errorf("%w (nothing of the %d paths was loaded)", err, len(paths))
		}
		return nil, err
	}
	saving := (time.Since(start) - reading).Round(time.Millisecond)
	for _, c := range chunks {
		a.detail("read %s a chunk at a time in %v, overlapped with saving", c.path, c.reading.Round(time.Millisecond))
	}
	if len(paths) == 1 {
		a.detail("saved it in %v", saving)
	} else {
		a.detail("saved the %d trials in %v (one transaction)", len(paths), saving)
	}
	a.printSaved(bar, out, saved)
	return out, nil
}

// printSaved fills out with what SaveTrials did and says it, one line a
// trial.
func (a *app) printSaved(bar *progress, out []loaded, saved []store.SavedTrial) {
	for i, s := range saved {
		l := &out[i]
		l.ID, l.Name, l.Reused = s.ID, s.Name, s.Reused
		if a.format == "table" {
			bar.println(a.out, fmt.Sprint(s.ID))
		}
		switch {
		case a.quiet:
		case s.Reused:
			bar.println(a.errOut, fmt.Sprintf("kept trial %d %q: a trial of that name is loaded already (--reuse); %s not loaded", s.ID, s.Name, l.Path))
		default:
			bar.println(a.errOut, fmt.Sprintf("loaded %s as trial %d %q: %d threads, %d metrics, %d call-graph nodes, %d user events", l.Path, s.ID, l.Name, l.Threads, l.Metrics, l.Nodes, l.Counters))
		}
	}
}

// naturalCompare orders paths as a person counts: runs of digits compare
// by their value ("p2" before "p16"), the rest byte by byte.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun is the length of the run of ASCII digits s starts with.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
