package registry

import (
	"context"
	"fmt"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// ReadWorkers is how many trials ReadTrials reads at once: reading a trial
// mostly waits on the database, which is safe for concurrent use.
const ReadWorkers = 4

// Reading says how ReadTrials reads trials.
type Reading struct {
	// Apart tells trials that share a name apart by their ids ("name
	// (trial 7)"), as every analysis of several trials needs unique names.
	Apart bool
	// Metric, when not nil, reads the values of that metric alone
	// (store.DB.LoadTrialMetric): the analysis's OneMetric. "" reads the
	// first trial's time metric (drg.Trial.TimeMetric), and the other
	// trials' metric of that name, as the analyses choose it.
	Metric *string
	// WithoutCalls, with Metric, leaves the call counts unread
	// (store.MetricRead.WithoutCalls): the analysis reads none.
	WithoutCalls bool
	// Step, when not nil, is called as each trial is read.
	Step func()
}

// ReadTrials reads the trials ids from db as how says, ReadWorkers at a
// time; on the first error it stops the others and returns that error. It
// returns the trials in the order of ids and how long each took.
func ReadTrials(ctx context.Context, db *store.DB, ids []int64, how Reading) ([]*drg.Trial, []time.Duration, error) {
	trials := make([]*drg.Trial, len(ids))
	took := make([]time.Duration, len(ids))
	read := func(i int, metric *string) error {
		start := time.Now()
		var err error
		if metric != nil {
			trials[i], err = db.LoadTrialMetric(ctx, ids[i], store.MetricRead{Metric: *metric, WithoutCalls: how.WithoutCalls})
		} else {
			trials[i], err = db.LoadTrial(ctx, ids[i])
		}
		if err != nil && len(ids) > 1 {
			err = fmt.Errorf("reading trial %d: %w", ids[i], err)
		}
		took[i] = time.Since(start)
		return err
	}
	metric, from := how.Metric, 0
	if metric != nil && *metric == "" && len(ids) > 1 {
		// The first trial's time metric names the others'.
		if err := read(0, metric); err != nil {
			return nil, nil, err
		}
		if how.Step != nil {
			how.Step()
		}
		if t := trials[0]; len(t.Metrics) > 0 {
			metric = &t.Metrics[t.TimeMetric()].Name
		}
		from = 1
	}
	if err := readEach(ctx, from, len(ids), func(i int) error { return read(i, metric) }, how.Step); err != nil {
		return nil, nil, err
	}
	if how.Apart {
		nameApart(trials, ids)
	}
	return trials, took, nil
}

// readEach calls read(i) for i in [from, to), ReadWorkers at a time, and
// step (when not nil) in the caller's goroutine as each returns; it stops
// at the first error, which it returns.
func readEach(ctx context.Context, from, to int, read func(i int) error, step func()) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next, finished := make(chan int), make(chan error, to-from) // buffered: a worker never waits to report
	for range min(ReadWorkers, to-from) {
		go func() {
			for i := range next {
				finished <- read(i)
			}
		}()
	}
	go func() {
		defer close(next)
		for i := from; i < to; i++ {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range to - from {
		if err := <-finished; err != nil {
			return err // the deferred cancel stops the other workers
		}
		if step != nil {
			step()
		}
	}
	return nil
}

// OneMetric is implemented by the options of an analysis whose Run reads
// the values of one metric only (and calls, subroutines, user events and
// metadata): a front end then reads that metric alone
// (Reading.Metric), which on a trial of m metrics reads 4 of its 2 + 2m
// value streams and holds 4 of the 2 + 2m columns in memory.
type OneMetric interface {
	// OnlyMetric returns the metric's name; "" for the first trial's
	// time metric (drg.Trial.TimeMetric).
	OnlyMetric() string
}

// CallsUnread is implemented by the options of an analysis of one metric
// (OneMetric) whose Run reads no call or subroutine count either: its
// trials are read without them (Reading.WithoutCalls), 2 of the 2 + 2m
// value streams.
type CallsUnread interface {
	OneMetric
	// ReadsNoCalls marks the analysis.
	ReadsNoCalls()
}

// ReadingOf returns how to read the trials of options o: the metric it
// reads alone when its analysis is of one metric (OneMetric), without
// calls when it reads none (CallsUnread); the zero Reading (every value)
// otherwise. The caller sets Apart and Step.
func ReadingOf(o Options) Reading {
	om, ok := o.(OneMetric)
	if !ok {
		return Reading{}
	}
	m := om.OnlyMetric()
	_, noCalls := o.(CallsUnread)
	return Reading{Metric: &m, WithoutCalls: noCalls}
}

// nameApart renames the trials that share a name "name (trial ID)".
func nameApart(trials []*drg.Trial, ids []int64) {
	names := map[string]int{}
	for _, t := range trials {
		names[t.Name]++
	}
	for i, t := range trials {
		if names[t.Name] > 1 {
			t.Name = fmt.Sprintf("%s (trial %d)", t.Name, ids[i])
		}
	}
}
