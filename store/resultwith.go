package store

import (
	"context"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/result"
)

// ResultExtras is what SaveResultWith stores together with a result, in the
// result's transaction.
type ResultExtras struct {
	// Images are pictures of the result, stored as SaveImages stores them
	// (on the result's PerfExplorer viewer row when it has one). Each needs
	// a PNG and a thumbnail.
	Images []ResultImage
	// Metric, when not nil, is a metric of the result's first trial to
	// store as SaveMetric does (a derived metric the result was computed
	// for), before the result, so that the result's analysis_settings.metric
	// names it when res.Metric is its name.
	Metric *NewMetric
}

// NewMetric names metric Index of Trial, a trial stored as the result's
// first trial and loaded with LoadTrial (see SaveMetric).
type NewMetric struct {
	Trial *drg.Trial
	Index int
}

// SavedResult holds the ids SaveResultWith wrote.
type SavedResult struct {
	// ID is the result's settings id, as SaveResult returns it.
	ID int64
	// Metric is the id of the metric row of ResultExtras.Metric, 0 without.
	Metric int64
}

// SaveResultWith stores a result (as SaveResult does), its pictures and a
// derived metric (extras) in one transaction: either all of them are
// stored or, on any error (a picture's insert that fails, a metric name
// already taken, a trial deleted meanwhile, a canceled ctx), none is, and
// the database is as before.
func (db *DB) SaveResultWith(ctx context.Context, res *result.Result, trials []int64, extras ResultExtras) (SavedResult, error) {
	var saved SavedResult
	if err := res.Validate(); err != nil {
		return saved, fmt.Errorf("save %s result: %w", res.Analysis, err)
	}
	if err := checkImages(extras.Images); err != nil {
		return saved, fmt.Errorf("save %s result: %w", res.Analysis, err)
	}
	var plan *metricPlan
	if m := extras.Metric; m != nil {
		if len(trials) == 0 {
			return saved, fmt.Errorf("save %s result: a metric to store needs the result's trial", res.Analysis)
		}
		var err error
		if plan, err = planMetric(trials[0], m.Trial, m.Index); err != nil {
			return saved, fmt.Errorf("save %s result: metric: %w", res.Analysis, err)
		}
	}
	err := db.inTx(ctx, func(r runner) error {
		saved = SavedResult{}
		if plan != nil {
			var err error
			if saved.Metric, err = db.saveMetricTx(ctx, r, plan); err != nil {
				return fmt.Errorf("metric %q: %w", plan.name, err)
			}
		}
		var err error
		if saved.ID, err = db.saveResultTx(ctx, r, res, trials); err != nil {
			return err
		}
		return insertImages(ctx, r, db.dialect, saved.ID, extras.Images)
	})
	if err != nil {
		return SavedResult{}, fmt.Errorf("save %s result: %w", res.Analysis, err)
	}
	return saved, nil
}
