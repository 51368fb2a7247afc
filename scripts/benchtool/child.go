package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/cluster"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// childCommand is the hidden subcommand with which benchtool re-runs itself
// to measure one analysis in a process of its own.
const childCommand = "__analysis"

// AnalysisKinds are the analyses of row 5.
var AnalysisKinds = []string{"statistics", "summary", "imbalance", "speedup", "cluster"}

// childResult is what the child prints, as JSON, on standard output.
type childResult struct {
	// Seconds is the analysis' time; RefSeconds the time of one pass
	// summing every inclusive and exclusive value of the trials; both the
	// shortest of repeated runs (see fastest).
	Seconds, RefSeconds float64
	// Values is the number of values of the trials (nodes × threads ×
	// metrics, summed over them); DataMB the process's peak RSS before the
	// analysis ran (the trials and the program), in MB.
	Values int
	DataMB float64
	// Sum is the reference pass' sum, printed so that it is computed.
	Sum float64
}

// runChild is the child: it generates the trial(s) of the kind (speedup: a
// series of four trials of threads/8, /4, /2 and threads threads; the
// others one trial), times the analysis and the reference pass with
// fastest, and prints a childResult.
func runChild(args []string, out io.Writer) error {
	fs := flag.NewFlagSet(childCommand, flag.ContinueOnError)
	kind := fs.String("kind", "", "analysis: "+fmt.Sprint(AnalysisKinds))
	threads := fs.Int("threads", 0, "threads")
	regions := fs.Int("regions", 0, "regions besides main")
	if err := fs.Parse(args); err != nil {
		return err
	}
	counts := []int{*threads}
	if *kind == "speedup" {
		counts = []int{max(1, *threads/8), max(1, *threads/4), max(1, *threads/2), *threads}
	}
	var trials []*drg.Trial
	res := childResult{}
	for i, n := range counts {
		tr, err := generate(Size{n, *regions, 1}, 1, fmt.Sprintf("t%d", i))
		if err != nil {
			return err
		}
		trials = append(trials, tr)
		res.Values += values(tr)
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		res.DataMB = float64(ru.Maxrss) * 1024 / 1e6
	}

	res.RefSeconds, _ = fastest(func() error {
		res.Sum = 0
		for _, t := range trials {
			for _, mv := range t.Values {
				for i := range mv.Inclusive {
					res.Sum += mv.Inclusive[i] + mv.Exclusive[i]
				}
			}
		}
		return nil
	})
	var err error
	res.Seconds, err = fastest(func() error { return analyse(*kind, trials) })
	if err != nil {
		return fmt.Errorf("%s of %d threads × %d regions: %w", *kind, *threads, *regions, err)
	}
	return json.NewEncoder(out).Encode(res)
}

// repeatFor is how long fastest repeats a short piece of work.
const repeatFor = 300 * time.Millisecond

// fastest runs f once, and again until repeatFor has passed (at most 50
// times), and returns its shortest time in seconds: on a shared machine the
// minimum is the figure least disturbed by other work, and a millisecond
// analysis timed once says little about how it grows.
func fastest(f func() error) (float64, error) {
	best := -1.0
	for i, begin := 0, time.Now(); i < 50 && (i == 0 || time.Since(begin) < repeatFor); i++ {
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		if d := time.Since(start).Seconds(); best < 0 || d < best {
			best = d
		}
	}
	return best, nil
}

// analyse runs one analysis with its default options.
func analyse(kind string, trials []*drg.Trial) error {
	var err error
	switch kind {
	case "statistics":
		_ = trials[0].Statistics()
	case "summary":
		_, err = analysis.Summary(trials[0], analysis.SummaryOptions{By: "thread"})
	case "imbalance":
		_, err = analysis.Imbalance(trials[0], analysis.ImbalanceOptions{})
	case "speedup":
		exps := make([]analysis.Experiment, len(trials))
		for i, t := range trials {
			exps[i] = analysis.Experiment{Trial: t, P: float64(len(t.Threads))}
		}
		_, err = analysis.Speedup(exps, analysis.SpeedupOptions{})
	case "cluster":
		_, err = cluster.Cluster(trials[:1], cluster.Options{})
	default:
		err = fmt.Errorf("unknown analysis %q", kind)
	}
	return err
}
