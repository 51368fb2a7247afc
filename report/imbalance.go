package report

import (
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func init() { register("imbalance", imbalanceCharts) }

// imbalanceCharts draws min, mean and max per region (the regions whose
// balancing saves the most, as the table is sorted), the thread × region
// heat map of the "heatmap" table, and a thread × class heat map of the
// per-thread split (percent of the main region).
func imbalanceCharts(res *analysis.Result) []Chart {
	var out []Chart
	if t := res.Table("imbalance"); t != nil && t.NumRows() > 0 && len(t.Columns) > 0 && t.Columns[0].Kind == analysis.Text &&
		hasCols(t, "min", "mean", "max") {
		label := t.Columns[0].Name
		rows := firstRows(t, maxBars)
		out = append(out, Chart{
			Title: "Min, mean and max per " + label,
			Chart: barChart("min / mean / max per "+label+" ("+res.Metric+")", t, label, rows, []string{"min", "mean", "max"}, false),
			Table: subTable(t, "The numbers drawn", rows, label, "min", "min_thread", "mean", "max", "max_thread", "max_minus_mean", "balance"),
		})
	}
	if t := res.Table("heatmap"); t != nil && t.NumRows() > 0 && hasCols(t, "thread", "region", "value") {
		hm, threads := regionHeatMap(t, res.Metric)
		out = append(out, Chart{
			Title:  "Thread × region heat map",
			Chart:  hm,
			Table:  subTable(t, "The numbers drawn — "+t.Title, nil, "thread", "region", "value"),
			Height: heatHeight(threads),
		})
	}
	if t := res.Table("split"); t != nil && t.NumRows() > 0 && hasCols(t, "thread") {
		if cols := suffixed(t, "_percent"); len(cols) > 0 {
			out = append(out, Chart{
				Title:  "Thread × class heat map (percent of the main region)",
				Chart:  splitHeatMap(t, cols),
				Table:  subTable(t, "The numbers drawn", nil, append([]string{"thread"}, cols...)...),
				Height: heatHeight(t.NumRows()),
			})
		}
	}
	return out
}

func heatHeight(rows int) string {
	h := min(max(rows*22+140, 300), 2000)
	return itoa(h) + "px"
}

func splitHeatMap(t *analysis.Table, cols []string) *charts.HeatMap {
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(append(initOpts("Share of the main region per thread and class [%]"),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Data: cols}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: texts(t, "thread")}),
		charts.WithGridOpts(opts.Grid{Top: "50", Bottom: "90", ContainLabel: opts.Bool(true)}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Min: 0, Max: 100, Orient: "horizontal", Left: "center", Bottom: "0",
			InRange: &opts.VisualMapInRange{Color: []string{"#f7fbff", "#6baed6", "#08306b"}}}),
	)...)
	var data []opts.HeatMapData
	for j, c := range cols {
		v := nums(t, c)
		for i := range v {
			if value(v[i]) != nil {
				data = append(data, opts.HeatMapData{Value: []any{j, i, v[i]}})
			}
		}
	}
	hm.AddSeries("percent", data)
	return hm
}

// regionHeatMap draws the long-form "heatmap" table: x = region, y =
// thread, in the table's order of first appearance; absent cells (NaN) are
// left empty. It returns the chart and the number of threads.
func regionHeatMap(t *analysis.Table, metric string) (*charts.HeatMap, int) {
	ths, regs, vals := texts(t, "thread"), texts(t, "region"), nums(t, "value")
	var xs, ys []string
	xi, yi := map[string]int{}, map[string]int{}
	lo, hi := math.Inf(1), math.Inf(-1)
	var data []opts.HeatMapData
	for i := range vals {
		x, ok := xi[regs[i]]
		if !ok {
			x = len(xs)
			xi[regs[i]] = x
			xs = append(xs, regs[i])
		}
		y, ok := yi[ths[i]]
		if !ok {
			y = len(ys)
			yi[ths[i]] = y
			ys = append(ys, ths[i])
		}
		if value(vals[i]) == nil {
			continue
		}
		lo, hi = math.Min(lo, vals[i]), math.Max(hi, vals[i])
		data = append(data, opts.HeatMapData{Value: []any{x, y, vals[i]}})
	}
	if len(data) == 0 {
		lo, hi = 0, 1
	}
	if hi <= lo {
		hi = lo + 1
	}
	short := make([]string, len(xs))
	for i, x := range xs {
		short[i] = shorten(x)
	}
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(append(initOpts(withUnit(metric+" per thread and region", unitOf(t, "value"))),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Data: short, AxisLabel: &opts.AxisLabel{Rotate: 30, Interval: "0"}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: ys}),
		charts.WithGridOpts(opts.Grid{Top: "50", Bottom: "90", ContainLabel: opts.Bool(true)}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Min: float32(lo), Max: float32(hi), Orient: "horizontal", Left: "center", Bottom: "0",
			InRange: &opts.VisualMapInRange{Color: []string{"#fff5eb", "#fd8d3c", "#7f2704"}}}),
	)...)
	hm.AddSeries("value", data)
	return hm, len(ys)
}
