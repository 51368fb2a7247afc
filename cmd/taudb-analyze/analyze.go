package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// loadedTrial is a trial read from the database with its id.
type loadedTrial struct {
	id    int64
	trial *drg.Trial
}

// resolveTrial returns the id of the trial ref names; with ref "" the
// database must hold exactly one trial, whose id it returns.
func (a *app) resolveTrial(ctx context.Context, db *store.DB, ref string) (int64, error) {
	if ref == "" {
		infos, err := db.Trials(ctx)
		if err != nil {
			return 0, err
		}
		switch len(infos) {
		case 0:
			return 0, fmt.Errorf("the database %s holds no trial; load one with \"taudb-analyze load\"", db.URL())
		case 1:
			return infos[0].ID, nil
		default:
			return 0, usagef("the database holds %d trials: choose one with --trial (see \"taudb-analyze trials\")", len(infos))
		}
	}
	return db.FindTrial(ctx, ref)
}

// loadTrial finds and loads the trial ref names (resolveTrial).
func (a *app) loadTrial(ctx context.Context, db *store.DB, ref string) (loadedTrial, error) {
	id, err := a.resolveTrial(ctx, db, ref)
	if err != nil {
		return loadedTrial{}, err
	}
	ts, err := a.loadTrials(ctx, db, []int64{id}, registry.Reading{})
	if err != nil {
		return loadedTrial{}, err
	}
	return loadedTrial{id: id, trial: ts[0]}, nil
}

// storeWith is what a command stores together with its result, in the
// result's one transaction (store.DB.SaveResultWith).
type storeWith struct {
	// images draws the result's pictures; called only when the result is
	// stored anew (not with --no-save, not when a stored one is reused).
	images func(res *analysis.Result) ([]store.ResultImage, error)
	// metric is a derived metric of the first trial to store: with the
	// result, or alone when the result is not stored.
	metric *store.NewMetric
}

// storeAndPrint stores a result computed from the trials ids (unless
// noSave) together with what with gives, says under which id, and prints
// the result in the chosen --format. It returns the result's id (0 when
// not stored) and whether a stored one was reused.
func (a *app) storeAndPrint(ctx context.Context, db *store.DB, res *analysis.Result, ids []int64, noSave bool, table string, with storeWith) (int64, bool, error) {
	var id int64
	reused := false
	if !noSave && a.reuse {
		var err error
		if id, reused, err = db.FindResult(ctx, res, ids); err != nil {
			return 0, false, err
		}
		if reused {
			a.info("already stored as result %d (same trials and parameters), reused", id)
		}
	}
	var err error
	if noSave || reused {
		err = a.saveMetricAlone(ctx, db, ids, with.metric)
	} else {
		id, err = a.saveResult(ctx, db, res, ids, with)
	}
	if err != nil {
		return 0, false, err
	}
	return id, reused, a.printResult(res, table)
}

// saveResult draws the pictures of with and stores them, its metric and
// the result in one transaction; it returns the result's id.
func (a *app) saveResult(ctx context.Context, db *store.DB, res *analysis.Result, ids []int64, with storeWith) (int64, error) {
	x := store.ResultExtras{Metric: with.metric}
	if with.images != nil {
		start := time.Now()
		var err error
		if x.Images, err = with.images(res); err != nil {
			return 0, fmt.Errorf("draw the pictures of the %s result: %w", res.Analysis, err)
		}
		a.detail("%d pictures drawn in %v", len(x.Images), since(start))
	}
	start := time.Now()
	saved, err := db.SaveResultWith(ctx, res, ids, x)
	if err != nil {
		return 0, err
	}
	a.detail("result stored in %v", since(start))
	if with.metric != nil {
		a.info("stored derived metric %q as metric %d of trial %d", with.metric.Trial.Metrics[with.metric.Index].Name, saved.Metric, ids[0])
	}
	a.info("stored as result %d (taudb-analyze results %d prints it again)", saved.ID, saved.ID)
	return saved.ID, nil
}

// saveMetricAlone stores the derived metric m (when not nil) of trial
// ids[0] when its result is not stored.
func (a *app) saveMetricAlone(ctx context.Context, db *store.DB, ids []int64, m *store.NewMetric) error {
	if m == nil {
		return nil
	}
	mid, err := db.SaveMetric(ctx, ids[0], m.Trial, m.Index)
	if err != nil {
		return err
	}
	a.info("stored derived metric %q as metric %d of trial %d", m.Trial.Metrics[m.Index].Name, mid, ids[0])
	return nil
}

// printResult prints a result in the chosen --format: the findings and
// every table as aligned text, one JSON document, or one table as CSV.
func (a *app) printResult(full *analysis.Result, tableName string) error {
	res := full.Shown() // internal tables only by --table NAME
	switch a.format {
	case "json":
		return res.WriteJSON(a.out)
	case "csv":
		if len(res.Tables) == 0 {
			return fmt.Errorf("the %s result has no table of numbers to print as CSV", res.Analysis)
		}
		t := &res.Tables[0]
		if tableName != "" {
			if t = full.Table(tableName); t == nil {
				var names []string
				for _, x := range res.Tables {
					names = append(names, x.Name)
				}
				return usagef("--table %q: the result has tables %s", tableName, strings.Join(names, ", "))
			}
		}
		tb := resultTable(t, true)
		return tb.writeCSV(a.out)
	case "junit":
		return writeJUnit(a.out, res, a.junitThreshold)
	}
	return writeResultText(a.out, res, a.rows)
}

// resultTable turns an analysis table into an output table: numbers in full
// precision (the shortest form that reads back exactly, as CSV), or (for a
// terminal) with 6 significant digits and "-" for an undefined number.
func resultTable(t *analysis.Table, precise bool) table {
	var tb table
	for _, c := range t.Columns {
		h := c.Name
		if c.Unit != "" {
			h += " [" + c.Unit + "]"
		}
		tb.header = append(tb.header, h)
	}
	for i := 0; i < t.NumRows(); i++ {
		row := make([]string, len(t.Columns))
		for j := range t.Columns {
			c := &t.Columns[j]
			switch {
			case precise || c.Kind == analysis.Text:
				row[j] = c.Format(i)
			case math.IsNaN(c.Num[i]) || math.IsInf(c.Num[i], 0):
				row[j] = "-" // undefined: 0/0, or a region one trial lacks
			default:
				row[j] = strconv.FormatFloat(c.Num[i], 'g', 6, 64)
			}
		}
		tb.add(row...)
	}
	return tb
}

// flagError names the flag behind an analysis error where the error comes
// from a flag's value: an unknown metric is --metric's.
func flagError(err error) error {
	if errors.Is(err, analysis.ErrUnknownMetric) {
		return fmt.Errorf("--metric: %w", err)
	}
	return err
}
