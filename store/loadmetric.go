package store

import (
	"context"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// MetricRead says which values LoadTrialMetric reads.
type MetricRead struct {
	// Metric names the metric; "" the one drg.Trial.TimeMetric chooses
	// (the first time metric, else the first).
	Metric string
	// WithoutCalls leaves the calls and subroutines unread where the
	// trial's pages hold them apart: the trial then has 0 for both. For
	// an analysis that reads neither (imbalance, summary, cluster).
	WithoutCalls bool
}

// LoadTrialMetric reads trial id as LoadTrial does, with the values of one
// metric only, as what says. The trial's Metrics hold that metric alone;
// calls and subroutines (unless what.WithoutCalls), user events, metadata
// and the snapshots' values of that metric are read as LoadTrial reads
// them. A trial without such a metric is read whole, so that the analysis
// asking for it reports the metric missing among the trial's own.
//
// From the trial's pages, an analysis of one metric of a trial with m
// metrics reads the layout, calls and subroutines streams and the
// metric's inclusive and exclusive streams: 4 of the 2 + 2m value streams
// (2 without calls), and holds 4 of the 2 + 2m columns in memory.
func (db *DB) LoadTrialMetric(ctx context.Context, id int64, what MetricRead) (*drg.Trial, error) {
	var t *drg.Trial
	err := db.readTx(ctx, func(r runner) error {
		var err error
		t, err = loadTrialOnly(ctx, r, db.dialect, id, db.display, loadScope{metric: &what})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load metric %q of trial %d: %w", what.Metric, id, err)
	}
	return t, nil
}

// pickMetric returns the index among all of the metric what picks (nil:
// none picked; Metric "": drg.Trial.TimeMetric's choice), or -1 when none
// is picked or all has no such metric (every metric is then read).
func pickMetric(all []drg.Metric, what *MetricRead) int {
	if what == nil || len(all) == 0 {
		return -1
	}
	probe := &drg.Trial{Metrics: all}
	if what.Metric == "" {
		return probe.TimeMetric()
	}
	return probe.MetricIndex(what.Metric)
}
