package report

import (
	"fmt"
	"sort"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func init() { register("regress", regressCharts) }

// regressCharts draws a regress result: the program's history with its
// change points and the level of each segment, then a section per program
// regression: the history of the regions that explain it, and their
// medians before and after.
func regressCharts(res *analysis.Result) []Chart {
	h := res.Table("history")
	if h == nil || h.NumRows() == 0 || !hasCols(h, "point", "time", "time_min", "time_max") {
		return nil
	}
	ch := res.Table("changes")
	var prog []int
	if ch != nil && hasCols(ch, "series", "point", "before", "after", "verdict") {
		for i := 0; i < ch.NumRows(); i++ {
			if ch.Text("series", i) == analysis.ProgramSeries {
				prog = append(prog, i)
			}
		}
		sort.SliceStable(prog, func(a, b int) bool { return ch.Num("point", prog[a]) < ch.Num("point", prog[b]) })
	}
	out := []Chart{programHistory(res, h, ch, prog)}
	for _, i := range prog {
		if ch.Text("verdict", i) == analysis.VerdictRegression {
			out = append(out, regressionCharts(res, ch, i)...)
		}
	}
	return out
}

// programHistory draws the program's median, min and max time per point,
// the level of each segment between change points, and the change points.
func programHistory(res *analysis.Result, h, ch *analysis.Table, prog []int) Chart {
	x := nums(h, "point")
	med := nums(h, "time")
	level := make([]float64, len(x))
	var cx, cy []float64
	for k, p := range x {
		level[k] = med[k]
		for j, i := range prog {
			if j == 0 && p < ch.Num("point", i) {
				level[k] = ch.Num("before", i)
			}
			if p >= ch.Num("point", i) {
				level[k] = ch.Num("after", i)
			}
		}
	}
	for _, i := range prog {
		cx, cy = append(cx, ch.Num("point", i)), append(cy, med[int(ch.Num("point", i))-1])
	}
	series := []lineSeries{
		{name: "median", y: med},
		{name: "min", y: nums(h, "time_min"), dashed: true},
		{name: "max", y: nums(h, "time_max"), dashed: true},
	}
	if len(prog) > 0 {
		series = append(series, lineSeries{name: "segment level", y: level, dashed: true},
			lineSeries{name: "change points", x: cx, y: cy, points: true})
	}
	return Chart{
		Title: "Program " + res.Metric + " across the history, change points marked",
		Chart: lineChartXY("Program history", "point", withUnit(res.Metric, unitOf(h, "time")), x, series),
		Table: subTable(h, "The numbers drawn", nil, "point", "order_value", "repetitions", "time", "time_min", "time_max", "change"),
	}
}

// regressionCharts draws, for the program regression at row i of the
// changes table, the history of the regions that explain it and their
// medians on the two sides.
func regressionCharts(res *analysis.Result, ch *analysis.Table, i int) []Chart {
	ex, mv := res.Table("explain"), res.Table("moved")
	if ex == nil || mv == nil || !hasCols(ex, "point", "region", "before", "after") || !hasCols(mv, "region", "point", "value") {
		return nil
	}
	at := ch.Num("point", i)
	var rows []int
	for r := 0; r < ex.NumRows(); r++ {
		if ex.Num("point", r) == at {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	_, byRegion := groupRows(mv, "region")
	var series []lineSeries
	var drawn []int
	for _, r := range rows {
		name := ex.Text("region", r)
		mr := byRegion[name]
		series = append(series, lineSeries{name: shorten(name), x: pick(nums(mv, "point"), mr), y: pick(nums(mv, "value"), mr)})
		drawn = append(drawn, mr...)
	}
	title := fmt.Sprintf("Regression at point %g (%s): %+.1f%%", at, ch.Text("order_value", i), ch.Num("shift_percent", i))
	return []Chart{{
		Title: title + ", the regions that moved",
		Chart: lineChartXY("Regions explaining the regression", "point", withUnit("exclusive "+res.Metric, unitOf(mv, "value")), nil, series),
		Table: subTable(mv, "The numbers drawn", drawn, "region", "point", "value"),
	}, {
		Title: title + ", medians before and after",
		Chart: barChart("Before and after the change", ex, "region", rows, []string{"before", "after"}, false),
		Table: subTable(ex, "The numbers drawn", rows, "region", "before", "after", "shift", "share_percent", "cumulative_percent"),
	}}
}
