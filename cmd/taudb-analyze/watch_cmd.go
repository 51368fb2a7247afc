package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/watch"
)

// watchFlags are watch's flags.
type watchFlags struct {
	out, serve, name, app, exp string
	noSave                     bool
	idleExit, poll             time.Duration
	opt                        watch.Options
}

const watchHelp = `watch follows the folder a running TAU job writes and analyses it interval by
interval, as TAU's monitoring does (TAUmon): TAU_PROFILE_FORMAT=snapshot files
(snapshot.N.C.T, one document appended per TAU_PROFILE_SNAPSHOT), TAU_DB_DUMP
text dumps (dump.N.C.T rewritten, or dump__<date>__.N.C.T per
TAU_DB_DUMP_INCR), the final profile.N.C.T, or one folder of profiles per
interval. It reads only what was added (from where it stopped), and a
document or dump still being written is read at a later poll, whole.

Interval k of a rank is its dump k minus its dump k-1. Per interval: the
ranks' program time (main inclusive) and every region's exclusive time
across ranks (count, sum, mean, min, max, population stddev, the extreme
ranks), histograms, a k-means of the ranks (--clusters) over the largest
regions, and anomaly flags. A value departs when
|x - median| > max(6 x 1.4826 x MAD, rel x |median|): a rank's program time
against the other ranks (rel 0.2), a rank's time relative to the median
against its own last 8 intervals (rel 0.2), a region's and the program's
time per rank against their own last 8 intervals (rel 0.25, regions of at
least 1% of the time); a history flag restarts the history, so a new phase
is flagged once.

An interval closes when every rank has reported it; a rank silent for
--rank-timeout while others are ahead is left out (listed as missing).

--out DIR keeps DIR/index.html up to date (it reloads itself, opens from
the file system); --serve ADDR serves the page and pushes each update
(Server-Sent Events; an address without host listens on 127.0.0.1 only).
Unless --no-save, each interval's statistics and flags are stored as it
closes (taudb-analyze's tables watch_interval and watch_anomaly) and, when
the run ends (--idle-exit) or on Ctrl-C, every rank's last dump is stored as
a TAUdb trial, which every analysis can then use.

`

func (a *app) watchCmd() *cobra.Command {
	var f watchFlags
	cmd := &cobra.Command{
		Use:   "watch DIR [--out REPORT] [--serve ADDR] [--idle-exit DURATION] [--no-save]",
		Short: "Follow a running TAU job's folder: per-interval statistics, clusters, anomalies, a live page",
		Long:  watchHelp,
		Example: `  taudb-analyze watch run/ --out live --idle-exit 2m
  taudb-analyze watch run/ --serve :8080 --no-save`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return a.runWatch(ctx, args[0], f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "keep a live HTML page in this folder (index.html)")
	fl.StringVar(&f.serve, "serve", "", "serve the live page at ADDR (HOST:PORT or :PORT, loopback when no host) and push updates")
	fl.BoolVar(&f.noSave, "no-save", false, "watch without storing anything")
	fl.StringVarP(&f.name, "name", "n", "", "the stored trial's name (default: the folder's name)")
	fl.StringVarP(&f.app, "application", "a", "", "the stored trial's application")
	fl.StringVarP(&f.exp, "experiment", "x", "", "the stored trial's experiment")
	fl.DurationVar(&f.idleExit, "idle-exit", 0, "stop after no new dump for this long (e.g. 2m; 0: run until Ctrl-C)")
	fl.DurationVar(&f.poll, "poll", 500*time.Millisecond, "time between two looks at the folder")
	fl.DurationVar(&f.opt.RankTimeout, "rank-timeout", 30*time.Second, "close intervals without a rank silent this long while others are ahead")
	fl.IntVar(&f.opt.Ranks, "ranks", 0, "the job's number of ranks, when known (intervals close as soon as all reported)")
	fl.StringSliceVar(&f.opt.DumpPrefixes, "dump-prefix", []string{"dump"}, "names of rewritten text dumps PREFIX.N.C.T (TAU_DB_DUMP writes dump; add TAU_DB_DUMP_PREFIX's)")
	fl.IntVar(&f.opt.Clusters, "clusters", 3, "largest k of the k-means of ranks per interval (k from 2 up is chosen by silhouette; one group when no k reaches 0.5)")
	fl.IntVar(&f.opt.Bins, "bins", 20, "histogram bins")
	return cmd
}

// runWatch runs the watch until idle or interrupted, then stores the trial.
func (a *app) runWatch(ctx context.Context, dir string, f watchFlags) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usagef("watch %s: not a folder", dir)
	}
	if f.opt.Clusters < 1 || f.opt.Bins < 1 || f.opt.Ranks < 0 {
		return usagef("--clusters and --bins must be at least 1, --ranks at least 0")
	}
	if f.name == "" {
		f.name = filepath.Base(filepath.Clean(dir))
	}
	w, err := watch.New(dir, f.opt)
	if err != nil {
		return usagef("%v", err)
	}
	ro := watch.RunOptions{Poll: f.poll, IdleExit: f.idleExit}
	sinks, closeSinks, err := a.watchSinks(f)
	if err != nil {
		return err
	}
	defer closeSinks()
	ro.OnUpdate = sinks
	var saver *watch.Saver
	var db *store.DB
	if !f.noSave {
		if db, err = a.openDB(ctx, true); err != nil {
			return err
		}
		defer db.Close()
		run := f.name + " " + time.Now().UTC().Format(time.RFC3339) + " " + uuid.NewString()[:8]
		if saver, err = watch.NewSaver(ctx, db, run); err != nil {
			return err
		}
	}
	var all []*watch.Interval
	ro.OnInterval = func(iv *watch.Interval) error {
		a.printInterval(iv)
		all = append(all, &watch.Interval{Index: iv.Index, Ranks: iv.Ranks, Program: iv.Program, Anomalies: iv.Anomalies})
		if saver != nil {
			return saver.SaveInterval(context.WithoutCancel(ctx), iv)
		}
		return nil
	}
	if err := w.Run(ctx, ro); err != nil {
		return err
	}
	var id int64
	if saver != nil {
		id, err = saver.SaveTrial(context.WithoutCancel(ctx), w, store.SaveOptions{Name: f.name, Application: f.app, Experiment: f.exp})
		if err != nil {
			return err
		}
		a.info("stored trial %q (id %d) and %d intervals", f.name, id, len(all))
	}
	return a.printWatchSummary(id, all)
}

// watchSinks returns the OnUpdate of the live page and the server.
func (a *app) watchSinks(f watchFlags) (func([]byte) error, func(), error) {
	var page *watch.Page
	var srv *watch.Server
	if f.out != "" {
		page = &watch.Page{Dir: f.out}
		a.info("live page: %s", filepath.Join(f.out, "index.html"))
	}
	if f.serve != "" {
		var err error
		if srv, err = watch.Listen(f.serve); err != nil {
			return nil, nil, usagef("%v", err)
		}
		a.info("live page: %s", srv.URL())
	}
	update := func(view []byte) error {
		if page != nil {
			if err := page.Write(view); err != nil {
				return err
			}
		}
		if srv != nil {
			return srv.Update(view)
		}
		return nil
	}
	return update, func() {
		if srv != nil {
			srv.Close()
		}
	}, nil
}

// printInterval prints one line per interval and one per anomaly (table
// format only; json prints one document at the end).
func (a *app) printInterval(iv *watch.Interval) {
	if a.format != "table" {
		return
	}
	fmt.Fprintf(a.out, "interval %d: %d ranks (%d missing), program time per rank mean %.6g µs, min %.6g, max %.6g (rank %s), %d clusters, %d anomalies\n",
		iv.Index, iv.Ranks, len(iv.Missing), iv.Program.Mean, iv.Program.Min, iv.Program.Max, iv.Program.MaxRank, len(iv.Clusters), len(iv.Anomalies))
	for _, an := range iv.Anomalies {
		fmt.Fprintf(a.out, "  anomaly (%s): %s\n", an.Kind, an.Message)
	}
}

// printWatchSummary prints the JSON document of --format json.
func (a *app) printWatchSummary(id int64, ivs []*watch.Interval) error {
	if a.format != "json" {
		return nil
	}
	type row struct {
		Index       int             `json:"interval"`
		Ranks       int             `json:"ranks"`
		ProgramMean float64         `json:"program_mean_us"`
		ProgramMax  float64         `json:"program_max_us"`
		Anomalies   []watch.Anomaly `json:"anomalies"`
	}
	doc := struct {
		Trial     int64 `json:"trial,omitempty"`
		Intervals []row `json:"intervals"`
	}{Trial: id, Intervals: []row{}}
	for _, iv := range ivs {
		doc.Intervals = append(doc.Intervals, row{iv.Index, iv.Ranks, iv.Program.Mean, iv.Program.Max, iv.Anomalies})
	}
	enc := json.NewEncoder(a.out)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
