// Package analysis holds the analyses of taudb-analyze: each takes one or two
// drg.Trial values and returns a *Result (tables of numbers plus one-line
// findings) that the store can persist and the CLI and reports can show.
//
// Single-trial analyses: Imbalance (load imbalance per region and the
// computation/MPI/OpenMP split per thread), Regions (SCALEA's
// inclusive/exclusive analysis), Summary (SCALEA's execution summary per
// node, process or thread), Correlate (Pearson correlation across threads),
// Ratio (a derived metric per region and thread). Two-trial analysis:
// Compare. Multi-trial analyses over a Series of experiments: Speedup,
// Improvement, Scalability (efficiency, Karp-Flatt, Amdahl and a fitted
// performance model per region), MultiRegion and MultiSet.
//
// Conventions shared by every analysis:
//
//   - Values of time metrics are microseconds (unit "us"); other metrics
//     carry their own name as unit.
//   - A region "absent" on a thread (no profile record, drg.Trial.Present) is
//     not the same as zero. Each statistic states whether it ignores absent
//     threads ("nulls ignored", TAUdb's MEAN) or counts them as 0 ("nulls
//     as 0", TAUdb's MEAN (nulls as 0)).
//   - Threads are named "N.C.T" (TAU's node, context and thread ranks); a
//     process is a TAU node rank N.
//   - Percentages are 100*value/main, where main is the inclusive value of
//     the main region (drg.Trial.MainInclusive: per thread the largest
//     inclusive value) aggregated the same way as value; 0 when main is 0.
//   - The flat view (drg.Trial.Flat) is used unless an option selects the
//     callpath (tree) view.
//   - An undefined number is NaN in memory and null in JSON.
package analysis

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// DefaultTop is the number of rows Regions lists when RegionsOptions.Top is 0.
const DefaultTop = 10

// All, given as a Top option, lists every row.
const All = -1

// newResult starts a result for trial t.
func newResult(analysis string, t *drg.Trial, metric int) *Result {
	return &Result{
		Analysis: analysis,
		Trial:    t.Name,
		Metric:   t.Metrics[metric].Name,
		Params:   map[string]string{"metric": t.Metrics[metric].Name},
		Findings: []string{},
	}
}

// resolveMetric returns the index of the metric named name in t, or of the
// first time metric (drg.Trial.TimeMetric) when name is "".
func resolveMetric(t *drg.Trial, name string) (int, error) {
	if t == nil {
		return -1, fmt.Errorf("no trial")
	}
	if len(t.Metrics) == 0 {
		return -1, fmt.Errorf("trial %q has no metric", t.Name)
	}
	if name == "" {
		return t.TimeMetric(), nil
	}
	if m := t.MetricIndex(name); m >= 0 {
		return m, nil
	}
	return -1, fmt.Errorf("%w %q: trial %q has %s", ErrUnknownMetric, name, t.Name, metricNames(t))
}

// ErrUnknownMetric is the cause of the error of an analysis asked for a
// metric that a trial does not have; the command line names its flag.
var ErrUnknownMetric = errors.New("unknown metric")

func metricNames(t *drg.Trial) string {
	names := make([]string, len(t.Metrics))
	for i, m := range t.Metrics {
		names[i] = strconv.Quote(m.Name)
	}
	return strings.Join(names, ", ")
}

// unitOf returns the unit of metric m's values: "us" for time metrics (TAU
// writes microseconds), the metric's name otherwise.
func unitOf(t *drg.Trial, m int) string {
	if t.Metrics[m].IsTime() {
		return "us"
	}
	return t.Metrics[m].Name
}

// valueKind returns "inclusive" or "exclusive".
func valueKind(inclusive bool) string {
	if inclusive {
		return "inclusive"
	}
	return "exclusive"
}

// column returns the inclusive or exclusive values of metric m.
func column(t *drg.Trial, m int, inclusive bool) []float64 {
	if inclusive {
		return t.Values[m].Inclusive
	}
	return t.Values[m].Exclusive
}

// trialValues returns the inclusive or exclusive values of metric m in
// either layout of the trial (drg.Trial.Col).
func trialValues(t *drg.Trial, m int, inclusive bool) drg.Vals {
	if inclusive {
		return t.Col(drg.ColInclusive, m)
	}
	return t.Col(drg.ColExclusive, m)
}

// threadLabel returns thread th as "N.C.T".
func threadLabel(t *drg.Trial, th int) string {
	x := t.Threads[th]
	return drg.ThreadID{Node: x.Node, Context: x.Context, Thread: x.Thread}.String()
}

// parseThreadID reads "N.C.T".
func parseThreadID(s string) (drg.ThreadID, bool) {
	parts := strings.Split(strings.TrimSpace(s), ".")
	if len(parts) != 3 {
		return drg.ThreadID{}, false
	}
	var v [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return drg.ThreadID{}, false
		}
		v[i] = n
	}
	return drg.ThreadID{Node: v[0], Context: v[1], Thread: v[2]}, true
}

// findThread returns the column of thread "N.C.T" in t.
func findThread(t *drg.Trial, s string) (int, error) {
	id, ok := parseThreadID(s)
	if !ok {
		return -1, fmt.Errorf("thread %q: want N.C.T (node, context and thread ranks, such as 0.0.0)", s)
	}
	th := t.ThreadIndex(id.Node, id.Context, id.Thread)
	if th < 0 {
		return -1, fmt.Errorf("trial %q has no thread %s (it has %d threads, %s to %s)", t.Name, id,
			len(t.Threads), threadLabel(t, 0), threadLabel(t, len(t.Threads)-1))
	}
	return th, nil
}

// nodeByName finds a call-graph node by its full (callpath) name, trying the
// canonical form of the name too.
func nodeByName(t *drg.Trial, name string) (int, error) {
	if n := t.NodeIndex(name); n >= 0 {
		return n, nil
	}
	if n := t.NodeIndex(drg.CanonicalName(name)); n >= 0 {
		return n, nil
	}
	if r := t.MainRegion(t.TimeMetric()); r >= 0 {
		return -1, fmt.Errorf("trial %q has no call-graph node %q (give a region name such as %q, or a callpath \"A => B\")",
			t.Name, name, t.Regions[r].Name)
	}
	return -1, fmt.Errorf("trial %q has no call-graph node %q", t.Name, name)
}

// hostKeys are the metadata attributes naming the machine a thread ran on,
// in the order they are tried.
var hostKeys = []string{"Node Name", "Hostname", "MPI Processor Name"}

// hostOf returns the host name of every thread, or "" when no metadata
// names it. A thread's own attributes (drg.Thread.Metadata) come first,
// then those of the first thread of the same process (TAU node rank) that
// has one, then the trial's (drg.Trial.Metadata, where TAU's metadata merge
// puts attributes common to all ranks); hostKeys are tried in order at each
// step.
func hostOf(t *drg.Trial) []string {
	lookup := func(m map[string]string) string {
		for _, k := range hostKeys {
			if v := strings.TrimSpace(m[k]); v != "" {
				return v
			}
		}
		return ""
	}
	byProcess := map[int]string{}
	for _, th := range t.Threads {
		if _, done := byProcess[th.Node]; done {
			continue
		}
		if h := lookup(th.Metadata); h != "" {
			byProcess[th.Node] = h
		}
	}
	trial := lookup(t.Metadata)
	out := make([]string, len(t.Threads))
	for i, th := range t.Threads {
		switch h := lookup(th.Metadata); {
		case h != "":
			out[i] = h
		case byProcess[th.Node] != "":
			out[i] = byProcess[th.Node]
		default:
			out[i] = trial
		}
	}
	return out
}

// plural returns "1 member" or "n members".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// formatValue renders a value of metric m for a finding: times (µs) in µs,
// ms or s with three significant digits; other metrics as a number followed
// by the metric's name.
func formatValue(t *drg.Trial, m int, v float64) string {
	if !t.Metrics[m].IsTime() {
		return strconv.FormatFloat(v, 'g', 3, 64) + " " + t.Metrics[m].Name
	}
	return FormatMicros(v)
}

// FormatMicros writes a time in µs in one human unit with 3 significant
// digits: "1.5 s" from 1e6 µs up, "250 ms" from 1e3 µs, else "12 µs".
func FormatMicros(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + " s"
	case a >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + " ms"
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + " µs"
}

// meanOf returns Σx/len(x), 0 for an empty slice.
func meanOf(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// ratio returns a/b, or def when b is 0.
func ratio(a, b, def float64) float64 {
	if b == 0 {
		return def
	}
	return a / b
}

// topN applies a Top option (0 = def, negative = all) to n rows.
func topN(top, def, n int) int {
	switch {
	case top == 0:
		top = def
	case top < 0:
		return n
	}
	return min(top, n)
}

// topParam renders a Top option for Params.
func topParam(top, def int) string {
	switch {
	case top == 0:
		return strconv.Itoa(def)
	case top < 0:
		return "all"
	}
	return strconv.Itoa(top)
}

// order returns the permutation that sorts rows by less, stable.
func order(n int, less func(i, j int) bool) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return less(idx[a], idx[b]) })
	return idx
}

// permute returns x reordered by idx.
func permute[T any](x []T, idx []int) []T {
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = x[j]
	}
	return out
}

// permuteTable reorders every column of tb by idx (which may be shorter than
// the table, to keep only the first rows).
func permuteTable(tb *Table, idx []int) {
	for i := range tb.Columns {
		c := &tb.Columns[i]
		if c.Kind == Text {
			c.Text = permute(c.Text, idx)
		} else {
			c.Num = permute(c.Num, idx)
		}
	}
}
