package report

import (
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func init() { register("imbalance", imbalanceCharts) }

// imbalanceCharts draws min, mean and max per region (the regions whose
// balancing saves the most, as the table is sorted), and a thread × class
// heat map of the per-thread split (percent of the main region). The result
// holds no thread × region matrix, so the heat map is per class.
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
