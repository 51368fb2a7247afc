package report

import (
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// maxBars bounds the categories of a bar chart (the table under it keeps
// every row).
const maxBars = 25

// initOpts are the go-echarts options every chart shares; AssetsHost points
// at the report's own copy of ECharts instead of go-echarts' CDN default.
func initOpts(title string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{AssetsHost: assetsDir, Width: "100%", Height: "420px"}),
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true)}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Bottom: "0"}),
		charts.WithAnimation(false),
	}
}

// value returns v for a chart's data, nil (no point) when it is undefined:
// JSON has no NaN or infinities.
func value(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// point returns an (x, y) pair for a chart's data, nil when either is
// undefined.
func point(x, y float64) any {
	if value(x) == nil || value(y) == nil {
		return nil
	}
	return []float64{x, y}
}

// nums returns the values of number column name of t, nil if absent.
func nums(t *analysis.Table, name string) []float64 {
	if c := t.Col(name); c != nil && c.Kind == analysis.Number {
		return c.Num
	}
	return nil
}

// texts returns the values of text column name of t, nil if absent.
func texts(t *analysis.Table, name string) []string {
	if c := t.Col(name); c != nil && c.Kind == analysis.Text {
		return c.Text
	}
	return nil
}

// unitOf returns the unit of column name of t ("" if absent).
func unitOf(t *analysis.Table, name string) string {
	if c := t.Col(name); c != nil {
		return c.Unit
	}
	return ""
}

// withUnit appends " [unit]" to s when unit is set.
func withUnit(s, unit string) string {
	if unit == "" {
		return s
	}
	return s + " [" + unit + "]"
}

// subTable returns the rows (all when rows is nil) and the named columns of
// t as a new table, for the numbers under a chart.
func subTable(t *analysis.Table, title string, rows []int, cols ...string) *analysis.Table {
	out := &analysis.Table{Name: t.Name, Title: title}
	if rows == nil {
		for i := 0; i < t.NumRows(); i++ {
			rows = append(rows, i)
		}
	}
	for _, name := range cols {
		c := t.Col(name)
		if c == nil {
			continue
		}
		if c.Kind == analysis.Text {
			v := make([]string, len(rows))
			for i, r := range rows {
				v[i] = c.Text[r]
			}
			out.AddText(c.Name, v)
		} else {
			v := make([]float64, len(rows))
			for i, r := range rows {
				v[i] = c.Num[r]
			}
			out.AddNum(c.Name, c.Unit, v)
		}
	}
	return out
}

// firstRows returns the indices 0..min(n, rows)-1.
func firstRows(t *analysis.Table, n int) []int {
	idx := make([]int, min(n, t.NumRows()))
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// barChart draws one bar series per column of cols over the labels of
// rows; stack stacks them.
func barChart(title string, t *analysis.Table, label string, rows []int, cols []string, stack bool) *charts.Bar {
	bar := charts.NewBar()
	yName := ""
	if len(cols) > 0 {
		yName = unitOf(t, cols[0])
	}
	bar.SetGlobalOptions(append(initOpts(title),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", AxisLabel: &opts.AxisLabel{Rotate: 30, Interval: "0"}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: yName}),
		charts.WithGridOpts(opts.Grid{Bottom: "30%", ContainLabel: opts.Bool(true)}),
	)...)
	names := texts(t, label)
	x := make([]string, len(rows))
	for i, r := range rows {
		x[i] = shorten(names[r])
	}
	bar.SetXAxis(x)
	for _, c := range cols {
		v := nums(t, c)
		data := make([]opts.BarData, len(rows))
		for i, r := range rows {
			data[i] = opts.BarData{Value: value(v[r])}
		}
		var so []charts.SeriesOpts
		if stack {
			so = append(so, charts.WithBarChartOpts(opts.BarChart{Stack: "total"}))
		}
		bar.AddSeries(c, data, so...)
	}
	return bar
}

// shorten cuts a long label for an axis (the table keeps it whole).
func shorten(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}

// hasCols reports whether t has every named column.
func hasCols(t *analysis.Table, cols ...string) bool {
	if t == nil {
		return false
	}
	for _, c := range cols {
		if t.Col(c) == nil {
			return false
		}
	}
	return true
}

// suffixed returns the names of t's number columns ending in suffix.
func suffixed(t *analysis.Table, suffix string) []string {
	var out []string
	for _, c := range t.Columns {
		if c.Kind == analysis.Number && strings.HasSuffix(c.Name, suffix) {
			out = append(out, c.Name)
		}
	}
	return out
}
