package registry

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/result"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// RunsTable is the internal table (result.InternalPrefix) in which a
// regress result keeps every trial reduced (analysis.HistoryRun): one row
// per trial and series, columns trial_id, region ("" for the program) and
// value (the program's inclusive or the region's exclusive value of the
// metric, aggregated over the trial's threads).
const RunsTable = result.InternalPrefix + "runs"

// runsKeyParam is the result parameter that says how the trials of a
// regress result were reduced: results with the same value can share
// their RunsTable.
const runsKeyParam = "runs_key"

// runsKey identifies how trials are reduced and ordered.
func (o *Regress) runsKey() string {
	return fmt.Sprintf("v1 metric=%q aggregate=%s short_names=%v order_by=%q", o.Metric, o.Aggregate, o.ShortNames, o.OrderBy)
}

// finish computes the result of the runs and, with the trials' ids (ids[i]
// of the i-th trial given, run.Index), keeps them in RunsTable.
func (o *Regress) finish(runs []analysis.HistoryRun, ids []int64) (Output, error) {
	res, err := analysis.RegressRuns(runs, o.regressOptions())
	if err != nil {
		return Output{}, err
	}
	if ids != nil {
		res.AddTable(runsTable(runs, ids))
		res.Params[runsKeyParam] = o.runsKey()
	}
	return Output{Result: res}, nil
}

// runsTable makes RunsTable of the runs.
func runsTable(runs []analysis.HistoryRun, ids []int64) result.Table {
	var id, vals []float64
	var regions []string
	unit := ""
	for _, r := range runs {
		unit = r.Unit
		id, regions, vals = append(id, float64(ids[r.Index])), append(regions, ""), append(vals, r.Program)
		for i, key := range r.Regions {
			id, regions, vals = append(id, float64(ids[r.Index])), append(regions, key), append(vals, r.Exclusive[i])
		}
	}
	tb := result.Table{Name: RunsTable, Title: "Each trial reduced: the program's and every region's value (kept for a longer history)"}
	tb.AddNum("trial_id", "", id)
	tb.AddText("region", regions)
	tb.AddNum("value", unit, vals)
	return tb
}

// Reuse says what RunReusing took from a stored result.
type Reuse struct {
	// From is the stored result's id; Trials the number of its trials
	// reused and Read the number of trials read.
	From         int64
	Trials, Read int
}

// RunReusing runs regress on the trials ids as Run does, but takes the
// reduced values of the trials that the newest stored regress result of
// the same reduction (metric, aggregate, names, order) holds in its
// RunsTable, and reads (read) only the other trials: a nightly history
// grows by one run at a time. With no such result it returns a zero Reuse
// and no output, and the caller runs Run. The result is the one Run gives
// (the reduction of a trial depends on that trial alone; the metric is the
// stored runs').
func (o *Regress) RunReusing(ctx context.Context, db *store.DB, ids []int64, read func([]int64) ([]*drg.Trial, error)) (Output, Reuse, error) {
	if err := o.Validate(); err != nil || o.FullHistory {
		return Output{}, Reuse{}, err
	}
	from, cached, err := o.storedRuns(ctx, db, ids)
	if err != nil || cached == nil {
		return Output{}, Reuse{}, err
	}
	h, err := o.gatherRuns(ctx, db, ids, cached, read)
	if err != nil || h == nil {
		return Output{}, Reuse{}, err
	}
	out, err := o.finish(h.runs, ids)
	return out, Reuse{From: from, Trials: len(ids) - h.read, Read: h.read}, err
}

// storedRuns returns the newest stored regress result of the same
// reduction all of whose trials are among ids, and its runs by trial id;
// nil when there is none.
func (o *Regress) storedRuns(ctx context.Context, db *store.DB, ids []int64) (int64, map[int64]*analysis.HistoryRun, error) {
	cands, err := db.ResultsWithParam(ctx, "regress", runsKeyParam, o.runsKey())
	if err != nil {
		return 0, nil, err
	}
	want := map[int64]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for _, c := range cands {
		if !subset(c.Trials, want) {
			continue
		}
		res, err := db.LoadResult(ctx, c.ID)
		if err != nil {
			return 0, nil, err
		}
		if runs := runsOf(res); runs != nil && len(runs) == len(c.Trials) {
			return c.ID, runs, nil
		}
	}
	return 0, nil, nil
}

// subset reports whether every id of ids is in want (and ids is not
// empty).
func subset(ids []int64, want map[int64]bool) bool {
	for _, id := range ids {
		if !want[id] {
			return false
		}
	}
	return len(ids) > 0
}

// runsOf reads RunsTable of a stored result into runs by trial id (their
// values, metric and unit; the caller fills the rest); nil when the
// result has no such table.
func runsOf(res *result.Result) map[int64]*analysis.HistoryRun {
	t := res.Table(RunsTable)
	if t == nil || t.Col("trial_id") == nil || t.Col("region") == nil || t.Col("value") == nil {
		return nil
	}
	unit := t.Col("value").Unit
	out := map[int64]*analysis.HistoryRun{}
	for i := 0; i < t.NumRows(); i++ {
		id := int64(t.Num("trial_id", i))
		r := out[id]
		if r == nil {
			r = &analysis.HistoryRun{Metric: res.Metric, Unit: unit, Program: math.NaN()}
			out[id] = r
		}
		if region := t.Text("region", i); region != "" {
			r.Regions, r.Exclusive = append(r.Regions, region), append(r.Exclusive, t.Num("value", i))
		} else {
			r.Program = t.Num("value", i)
		}
	}
	return out
}

// gathered is a history put together from stored and newly read runs.
type gathered struct {
	runs []analysis.HistoryRun
	read int
}

// gatherRuns completes the cached runs with each trial's name and
// metadata, reads and reduces the other trials, and ranks all of them by
// their order values. It returns nil when the stored runs cannot serve
// (the history's first trial is new and resolves another metric).
func (o *Regress) gatherRuns(ctx context.Context, db *store.DB, ids []int64, cached map[int64]*analysis.HistoryRun, read func([]int64) ([]*drg.Trial, error)) (*gathered, error) {
	stand, err := standIns(ctx, db, ids, cached)
	if err != nil {
		return nil, err
	}
	var newIDs []int64
	for _, id := range ids {
		if cached[id] == nil {
			newIDs = append(newIDs, id)
		}
	}
	fresh, err := read(newIDs)
	if err != nil {
		return nil, err
	}
	for _, t := range fresh {
		if err := t.MakeDense("regress"); err != nil {
			return nil, err
		}
	}
	trials := make([]*drg.Trial, len(ids))
	for i, k := 0, 0; i < len(ids); i++ {
		if trials[i] = stand[ids[i]]; trials[i] == nil {
			trials[i], k = fresh[k], k+1
		}
	}
	nameApart(trials, ids)
	vals, err := o.orderValues(trials, ids)
	if err != nil {
		return nil, err
	}
	return o.rankRuns(trials, ids, vals, cached, len(newIDs))
}

// standIns returns, for every cached trial, a trial holding only its name
// and metadata (what ordering and explaining a change read).
func standIns(ctx context.Context, db *store.DB, ids []int64, cached map[int64]*analysis.HistoryRun) (map[int64]*drg.Trial, error) {
	var refs []string
	for _, id := range ids {
		if cached[id] != nil {
			refs = append(refs, "id:"+strconv.FormatInt(id, 10))
		}
	}
	infos, err := db.SelectTrials(ctx, store.Selection{Trials: refs})
	if err != nil {
		return nil, err
	}
	out := map[int64]*drg.Trial{}
	for _, ti := range infos {
		meta, err := db.TrialMetadata(ctx, ti.ID)
		if err != nil {
			return nil, err
		}
		out[ti.ID] = &drg.Trial{Name: ti.Name, Metadata: meta}
	}
	return out, nil
}

// rankRuns reduces the new trials by the cached runs' metric (or, when
// the history's first trial is new, resolves it there as Run does) and
// gives every run its name, metadata, order value and rank.
func (o *Regress) rankRuns(trials []*drg.Trial, ids []int64, vals []string, cached map[int64]*analysis.HistoryRun, read int) (*gathered, error) {
	history, err := analysis.NewHistory(trials, vals)
	if err != nil {
		return nil, err
	}
	var some *analysis.HistoryRun
	for _, r := range cached {
		some = r
		break
	}
	first := firstByRank(history)
	metric, unit := some.Metric, some.Unit
	if cached[ids[first]] == nil {
		metric, unit = "", "" // resolved on the new first trial, as Run does
	}
	var newExps analysis.Series
	for i, e := range history {
		if cached[ids[i]] == nil {
			newExps = append(newExps, e)
		}
	}
	fresh := []analysis.HistoryRun{}
	if len(newExps) > 0 {
		if fresh, err = analysis.ReduceHistoryMetric(newExps, metric, unit, o.seriesOptions()); err != nil {
			return nil, err
		}
	}
	return mergeRuns(history, ids, cached, fresh, read, some.Metric)
}

// firstByRank returns the position of the first experiment in rank order
// (ties keep their order).
func firstByRank(s analysis.Series) int {
	best := 0
	for i, e := range s {
		if e.P < s[best].P {
			best = i
		}
	}
	return best
}

// mergeRuns puts the cached and fresh runs in the history's order with the
// history's names, order values and ranks; nil when the fresh runs read
// another metric than the cached ones.
func mergeRuns(history analysis.Series, ids []int64, cached map[int64]*analysis.HistoryRun, fresh []analysis.HistoryRun, read int, metric string) (*gathered, error) {
	byName := map[string]analysis.HistoryRun{}
	for _, r := range fresh {
		if r.Metric != metric {
			return nil, nil
		}
		byName[r.Name] = r
	}
	runs := make([]analysis.HistoryRun, len(history))
	for i, e := range history {
		r, ok := byName[e.Name]
		if c := cached[ids[i]]; c != nil {
			r, ok = *c, true
			r.Trial, r.Metadata = e.Trial.Name, e.Trial.Metadata
		}
		if !ok {
			return nil, fmt.Errorf("regress: trial %d was not reduced", ids[i])
		}
		r.Index, r.Name, r.P, r.Key = i, e.Name, e.P, e.Key
		runs[i] = r
	}
	return &gathered{runs: runs, read: read}, nil
}
