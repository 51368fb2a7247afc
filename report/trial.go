package report

import (
	"github.com/taudb-analyze/taudb-analyze/classify"
	"math"
	"sort"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func init() {
	register("ratio", ratioCharts)
	register("summary", summaryCharts)
	register("correlate", correlateCharts)
	register("compare", compareCharts)
}

// maxThreadBars bounds the threads of a per-thread bar chart.
const maxThreadBars = 256

// maxMembers bounds the members of the summary's stacked bars.
const maxMembers = 64

// ratioCharts draws the per-region exclusive mean of the derived metric
// with its min and max (the regions with the largest mean), and the main
// region's value per thread.
func ratioCharts(res *analysis.Result) []Chart {
	var out []Chart
	if t := res.Table("regions"); t != nil && t.NumRows() > 0 && hasCols(t, "region", "exclusive_mean", "exclusive_min", "exclusive_max") {
		mean := nums(t, "exclusive_mean")
		idx := make([]int, t.NumRows())
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return desc(mean[idx[i]], mean[idx[j]]) })
		rows := idx[:min(maxBars, len(idx))]
		out = append(out, Chart{
			Title: "Exclusive " + res.Metric + " per region: mean with min and max (largest means)",
			Chart: barChart(res.Metric+" per region (exclusive)", t, "region", rows, []string{"exclusive_min", "exclusive_mean", "exclusive_max"}, false),
			Table: subTable(t, "The numbers drawn", rows, "region", "n", "undefined", "exclusive_min", "exclusive_mean", "exclusive_max"),
		})
	}
	if t := res.Table("threads"); t != nil && t.NumRows() > 0 && hasCols(t, "thread", "main_inclusive") {
		rows := firstRows(t, maxThreadBars)
		title := "Main region's " + res.Metric + " per thread"
		if len(rows) < t.NumRows() {
			title += " (the first " + itoa(len(rows)) + " of " + itoa(t.NumRows()) + " threads)"
		}
		out = append(out, Chart{
			Title: title,
			Chart: barChart(res.Metric+" of the main region (inclusive)", t, "thread", rows, []string{"main_inclusive"}, false),
			Table: subTable(t, "The numbers drawn", rows, "thread", "main_inclusive"),
		})
	}
	return out
}

// desc orders a before b when a is larger, NaN last.
func desc(a, b float64) bool {
	if math.IsNaN(b) {
		return !math.IsNaN(a)
	}
	return a > b
}

// summaryCharts stacks the classes per member.
func summaryCharts(res *analysis.Result) []Chart {
	t := res.Table("members")
	if t == nil || t.NumRows() == 0 || len(t.Columns) == 0 || t.Columns[0].Kind != analysis.Text {
		return nil
	}
	var cols []string
	for _, c := range classify.SummedClasses() {
		if t.Col(c) != nil {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	label := t.Columns[0].Name
	rows := firstRows(t, maxMembers)
	title := "Computation, MPI, OpenMP, IO and other per " + label
	if len(rows) < t.NumRows() {
		title += " (the first " + itoa(len(rows)) + " of " + itoa(t.NumRows()) + ")"
	}
	return []Chart{{
		Title: title,
		Chart: barChart("Exclusive "+res.Metric+" per class and "+label, t, label, rows, cols, true),
		Table: subTable(t, "The numbers drawn", rows, append(append([]string{label}, cols...), "main_inclusive", "total")...),
	}}
}

// correlateCharts draws r for the strongest pairs (the table is sorted
// strongest first). The result holds no per-thread values, so no scatter.
func correlateCharts(res *analysis.Result) []Chart {
	t := res.Table("correlations")
	if t == nil || t.NumRows() == 0 || !hasCols(t, "x", "y", "r") {
		return nil
	}
	rows := firstRows(t, maxBars)
	xs, ys := texts(t, "x"), texts(t, "y")
	lt := subTable(t, "", rows, "r")
	labels := make([]string, len(rows))
	for i, r := range rows {
		labels[i] = shorten(xs[r]) + " ~ " + shorten(ys[r])
	}
	lt.AddText("pair", labels)
	return []Chart{{
		Title: "Pearson r of the strongest pairs",
		Chart: barChart("Correlation r across threads", lt, "pair", firstRows(lt, lt.NumRows()), []string{"r"}, false),
		Table: subTable(t, "The numbers drawn", rows, "x", "y", "kind", "r", "r_squared", "n"),
	}}
}

// compareCharts draws A and B per region (the largest differences, as the
// table is sorted) and their ratio b/a.
func compareCharts(res *analysis.Result) []Chart {
	t := res.Table("regions")
	if t == nil || t.NumRows() == 0 || len(t.Columns) == 0 || t.Columns[0].Kind != analysis.Text || !hasCols(t, "a", "b", "ratio") {
		return nil
	}
	label := t.Columns[0].Name
	rows := firstRows(t, maxBars)
	return []Chart{
		{
			Title: "A and B per " + label + " (largest differences)",
			Chart: barChart(res.Metric+" per "+label+": A and B", t, label, rows, []string{"a", "b"}, false),
			Table: subTable(t, "The numbers drawn", rows, label, "status", "a", "b", "diff", "b_vs_a"),
		},
		{
			Title: "Ratio b/a per " + label,
			Chart: barChart("Ratio b/a per "+label, t, label, rows, []string{"ratio"}, false),
			Table: subTable(t, "The numbers drawn", rows, label, "status", "a", "b", "ratio", "change_percent"),
		},
	}
}
