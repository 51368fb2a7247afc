package serve

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// maxCompared bounds the trials of one comparison.
const maxCompared = 8

// compareSet is the trials of a comparison and what they are compared by.
type compareSet struct {
	Trials    []*cachedTrial
	Names     []string
	Metric    string
	Inclusive bool
	// IDs are the trials' ids; Metrics the metrics every trial has.
	IDs     []int64
	Metrics []string
	// Rows are the regions of every trial's flat view, aligned by name.
	Rows []compareRow
}

// compareRow is one region in every trial: Values[i] is the mean over
// trial i's threads with absent records as 0 (Σx/N, TAUdb's MEAN (nulls
// as 0), as the compare analysis takes it), Has[i] whether trial i has the
// region; Diffs[i-1] = Values[i] − Values[0] and Changes[i-1] =
// 100·(Values[i] − Values[0])/Values[0] (NaN when Values[0] = 0).
type compareRow struct {
	Name    string
	Values  []float64
	Has     []bool
	Diffs   []float64
	Changes []float64
	// Verdict is analysis.Verdict of the second trial against the first
	// at the default tolerance (two trials only).
	Verdict string
	// spread is the largest |diff|, the table's order.
	spread float64
}

// readCompare reads ?trials= (ids, repeated or comma-separated; two to
// maxCompared), ?metric= (the first trial's time metric by default) and
// ?value=, loads the trials and aligns their regions.
func (s *Server) readCompare(ctx context.Context, r *http.Request) (*compareSet, error) {
	ids, err := trialIDs(r)
	if err != nil {
		return nil, err
	}
	cs := &compareSet{Metric: r.URL.Query().Get("metric"), Inclusive: r.URL.Query().Get("value") == "incl"}
	for _, id := range ids {
		ct, err := s.cache.get(ctx, id)
		if err != nil {
			return nil, err
		}
		cs.Trials = append(cs.Trials, ct)
		cs.Names = append(cs.Names, ct.trial.Name)
		cs.IDs = append(cs.IDs, id)
	}
	cs.Metrics = commonMetrics(cs.Trials)
	if cs.Metric == "" {
		if tm := cs.Trials[0].trial.TimeMetric(); tm >= 0 {
			cs.Metric = cs.Trials[0].trial.Metrics[tm].Name
		}
	}
	if err := cs.align(); err != nil {
		return nil, err
	}
	return cs, nil
}

// trialIDs reads the ids of ?trials=.
func trialIDs(r *http.Request) ([]int64, error) {
	var ids []int64
	seen := map[int64]bool{}
	for _, v := range r.URL.Query()["trials"] {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			id, err := strconv.ParseInt(f, 10, 64)
			if err != nil || id <= 0 {
				return nil, &inputError{"parameter trials: " + strconv.Quote(f) + " is not a trial id"}
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	if len(ids) < 2 || len(ids) > maxCompared {
		return nil, &inputError{fmt.Sprintf("choose from 2 to %d trials to compare (%d chosen)", maxCompared, len(ids))}
	}
	return ids, nil
}

// align builds the rows: the regions of every trial's flat view by name.
func (cs *compareSet) align() error {
	k := len(cs.Trials)
	at := map[string]int{}
	for i, ct := range cs.Trials {
		col, err := ct.column(columnKey{Metric: cs.Metric, Inclusive: cs.Inclusive})
		if err != nil {
			return &inputError{fmt.Sprintf("trial %s: %v", ct.trial.Name, err)}
		}
		for _, n := range ct.trial.Flat() {
			name := ct.trial.Nodes[n].Name
			j, ok := at[name]
			if !ok {
				j = len(cs.Rows)
				at[name] = j
				cs.Rows = append(cs.Rows, compareRow{Name: name, Values: make([]float64, k), Has: make([]bool, k)})
			}
			cs.Rows[j].Values[i] += col.stats[n].MeanAll
			cs.Rows[j].Has[i] = cs.Rows[j].Has[i] || col.stats[n].Count > 0
		}
	}
	isTime := drg.Metric{Name: cs.Metric}.IsTime()
	for j := range cs.Rows {
		cs.Rows[j].derive(isTime)
	}
	sort.SliceStable(cs.Rows, func(a, b int) bool {
		if cs.Rows[a].spread != cs.Rows[b].spread {
			return cs.Rows[a].spread > cs.Rows[b].spread
		}
		return cs.Rows[a].Name < cs.Rows[b].Name
	})
	return nil
}

// derive computes the differences against the first trial.
func (row *compareRow) derive(isTime bool) {
	a := row.Values[0]
	for _, b := range row.Values[1:] {
		d := b - a
		c := math.NaN()
		if a != 0 {
			c = 100 * d / a
		}
		row.Diffs = append(row.Diffs, d)
		row.Changes = append(row.Changes, c)
		row.spread = max(row.spread, math.Abs(d))
	}
	if len(row.Values) == 2 {
		row.Verdict = analysis.Verdict(a, row.Values[1], analysis.DefaultTolerance, isTime)
		switch {
		case !row.Has[0]:
			row.Verdict = "only in " + "B"
		case !row.Has[1]:
			row.Verdict = "only in " + "A"
		}
	}
}

// commonMetrics lists the metrics of the first trial that every trial has.
func commonMetrics(ts []*cachedTrial) []string {
	var out []string
	for _, m := range ts[0].trial.Metrics {
		all := true
		for _, ct := range ts[1:] {
			all = all && ct.trial.MetricIndex(m.Name) >= 0
		}
		if all {
			out = append(out, m.Name)
		}
	}
	return out
}
