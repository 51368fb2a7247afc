package store

import (
	"context"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// LoadTrialMetric reads trial id as LoadTrial does, with the values of one
// metric only: the one named metric, or when metric is "" the one
// drg.Trial.TimeMetric chooses (the first time metric, else the first).
// The trial's Metrics hold that metric alone; calls, subroutines, user
// events, metadata and the snapshots' values of that metric are read as
// LoadTrial reads them. A trial without such a metric is read whole, so
// that the analysis asking for it reports the metric missing among the
// trial's own.
//
// An analysis of one metric (imbalance, cluster) reads a trial with m
// metrics in about (3 + 2)/(3 + 2m) of the bytes from the trial's pages
// and holds (2 + 2)/(2 + 2m) of the values in memory: the layout, calls
// and subroutines streams, then the metric's inclusive and exclusive
// streams, instead of every metric's.
func (db *DB) LoadTrialMetric(ctx context.Context, id int64, metric string) (*drg.Trial, error) {
	var t *drg.Trial
	err := db.readTx(ctx, func(r runner) error {
		var err error
		t, err = loadTrialOnly(ctx, r, db.dialect, id, db.display, loadScope{metric: &metric})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load metric %q of trial %d: %w", metric, id, err)
	}
	return t, nil
}

// pickMetric returns the index among all of the metric name picks (nil:
// none picked; "": drg.Trial.TimeMetric's choice), or -1 when none is
// picked or all has no such metric (every metric is then read).
func pickMetric(all []drg.Metric, name *string) int {
	if name == nil || len(all) == 0 {
		return -1
	}
	probe := &drg.Trial{Metrics: all}
	if *name == "" {
		return probe.TimeMetric()
	}
	return probe.MetricIndex(*name)
}
