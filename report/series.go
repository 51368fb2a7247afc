package report

import (
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func init() {
	register("multiregion", multiRegionCharts)
	register("multiset", multiSetCharts)
	register("improvement", improvementCharts)
}

// groupRows returns the distinct values of text column col of t in order
// of first appearance and the rows of each.
func groupRows(t *analysis.Table, col string) ([]string, map[string][]int) {
	var keys []string
	rows := map[string][]int{}
	for i, k := range texts(t, col) {
		if _, ok := rows[k]; !ok {
			keys = append(keys, k)
		}
		rows[k] = append(rows[k], i)
	}
	return keys, rows
}

// pick returns v at rows.
func pick(v []float64, rows []int) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = v[r]
	}
	return out
}

// multiRegionCharts draws one line per region of its exclusive value
// against p.
func multiRegionCharts(res *analysis.Result) []Chart {
	t := res.Table("regions")
	x := "p"
	if t != nil && t.Col("x") != nil { // --by: a property, not p
		x = "x"
	}
	if t == nil || t.NumRows() == 0 || !hasCols(t, "region", x, "exclusive") {
		return nil
	}
	keys, rows := groupRows(t, "region")
	p, ex := nums(t, x), nums(t, "exclusive")
	var series []lineSeries
	var drawn []int
	for _, k := range keys {
		series = append(series, lineSeries{name: shorten(k), x: pick(p, rows[k]), y: pick(ex, rows[k])})
		drawn = append(drawn, rows[k]...)
	}
	return []Chart{{
		Title: "Exclusive " + res.Metric + " per region across the experiments",
		Chart: lineChartXY("Regions across experiments", axisName(res, x), withUnit("exclusive", unitOf(t, "exclusive")), nil, series),
		Table: subTable(t, "The numbers drawn", drawn, "region", "experiment", x, "exclusive", "exclusive_percent"),
	}}
}

// axisName names a multiregion chart's x axis: p, or the property of --by
// (its values' rank when they are not numbers).
func axisName(res *analysis.Result, x string) string {
	if x == "p" {
		return "p"
	}
	return strings.TrimPrefix(res.Params["by"], "meta:")
}

// multiSetCharts draws one line per set of its speedup against x.
func multiSetCharts(res *analysis.Result) []Chart {
	t := res.Table("series")
	if t == nil || t.NumRows() == 0 || !hasCols(t, "set", "x", "speedup") {
		return nil
	}
	keys, rows := groupRows(t, "set")
	x, sp := nums(t, "x"), nums(t, "speedup")
	var series []lineSeries
	var drawn []int
	for _, k := range keys {
		series = append(series, lineSeries{name: shorten(k), x: pick(x, rows[k]), y: pick(sp, rows[k])})
		drawn = append(drawn, rows[k]...)
	}
	charts := []Chart{{
		Title: "Speedup per set",
		Chart: lineChartXY("Speedup per set against its own baseline", "x", "speedup", nil, series),
		Table: subTable(t, "The numbers drawn", drawn, "set", "experiment", "p", "x", "time", "speedup", "ideal_speedup", "efficiency"),
	}}
	return append(charts, splitCharts(res)...)
}

// splitCharts stacks each experiment's computation, MPI, OpenMP, I/O and
// other time (the multiset result's "split" table), in the table's order
// of set and x: how the parameter moves time between them.
func splitCharts(res *analysis.Result) []Chart {
	t := res.Table("split")
	if t == nil || t.NumRows() == 0 || !hasCols(t, "experiment", "x") {
		return nil
	}
	var cols []string
	for _, c := range []string{"computation", "mpi", "openmp", "io", "other"} {
		if t.Col(c) != nil {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	return []Chart{{
		Title: "Computation, MPI and I/O per experiment",
		Chart: barChart("Time by class per experiment ("+res.Metric+")", t, "experiment", firstRows(t, t.NumRows()), cols, true),
		Table: subTable(t, "The numbers drawn", nil, append(append([]string{"set", "experiment", "x"}, cols...), "computation_percent", "mpi_percent", "io_percent")...),
	}}
}

// improvementCharts draws the program's improvement T_a/T_b per p, and
// both times.
func improvementCharts(res *analysis.Result) []Chart {
	t := res.Table("program")
	if t == nil || t.NumRows() == 0 || !hasCols(t, "p", "improvement") {
		return nil
	}
	lt := subTable(t, "", nil, "improvement", "time_a", "time_b")
	labels := make([]string, t.NumRows())
	for i, p := range nums(t, "p") {
		labels[i] = "p=" + ftoa(p)
	}
	lt.AddText("p", labels)
	rows := firstRows(lt, lt.NumRows())
	out := []Chart{{
		Title: "Improvement T_a/T_b per p",
		Chart: barChart("Improvement T_a/T_b (above 1: B is faster)", lt, "p", rows, []string{"improvement"}, false),
		Table: subTable(t, "The numbers drawn", nil, "p", "a", "b", "improvement", "change_percent", "b_vs_a"),
	}}
	if hasCols(t, "time_a", "time_b") {
		out = append(out, Chart{
			Title: "Program time of A and B per p",
			Chart: barChart("Program "+res.Metric+": A and B", lt, "p", rows, []string{"time_a", "time_b"}, false),
			Table: subTable(t, "The numbers drawn", nil, "p", "a", "b", "time_a", "time_b"),
		})
	}
	return out
}
