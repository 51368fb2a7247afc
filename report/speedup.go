package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func init() {
	register("speedup", speedupCharts)
	register("scalability", scalabilityCharts)
}

// speedupCharts draws the program's speedup and efficiency against p, each
// with its ideal.
func speedupCharts(res *analysis.Result) []Chart {
	t := res.Table("program")
	if t == nil || t.NumRows() == 0 || !hasCols(t, "p", "speedup", "ideal_speedup", "efficiency") {
		return nil
	}
	tbl := subTable(t, "The numbers drawn", nil, "experiment", "p", "time", "speedup", "ideal_speedup", "efficiency")
	p := nums(t, "p")
	ones := make([]float64, len(p))
	for i := range ones {
		ones[i] = 1
	}
	return []Chart{
		{Title: "Speedup against p", Chart: lineChart("Speedup", "speedup", p,
			[]lineSeries{{"measured", nums(t, "speedup"), false, false, nil}, {"ideal", nums(t, "ideal_speedup"), true, false, nil}}), Table: tbl},
		{Title: "Efficiency against p", Chart: lineChart("Efficiency", "efficiency", p,
			[]lineSeries{{"measured", nums(t, "efficiency"), false, false, nil}, {"ideal", ones, true, false, nil}}), Table: tbl},
	}
}

// scalabilityCharts draws the measured program time against p as points,
// and the speedup with its ideal.
func scalabilityCharts(res *analysis.Result) []Chart {
	if sf := res.Table("program_surface"); sf != nil && sf.NumRows() > 0 && hasCols(sf, "x1", "x2", "model", "measured") {
		return []Chart{surfaceChart(res, sf)}
	}
	t := res.Table("program")
	if t == nil || t.NumRows() == 0 || !hasCols(t, "p", "time") {
		return nil
	}
	p := nums(t, "p")
	series := []lineSeries{{"measured", nums(t, "time"), false, true, nil}}
	if ideal := idealTimes(t); ideal != nil {
		series = append(series, lineSeries{"ideal (T_b·p_b/p)", ideal, true, false, nil})
	}
	out := []Chart{{Title: "Measured program time against p (log-log, with the ideal line)",
		Chart: logLogChart("Measured time", withUnit("time", unitOf(t, "time")), p, series),
		Table: subTable(t, "The numbers drawn", nil, "experiment", "p", "time", "ideal_speedup")}}
	if m := res.Table("models"); m != nil && hasCols(m, "kind", "model", "c0", "c1", "exp1", "log1") {
		for i := 0; i < m.NumRows(); i++ {
			if m.Text("kind", i) != "program" {
				continue
			}
			if fit := modelCurve(m, i, p); fit != nil {
				out = append(out, Chart{Title: "Fitted model " + m.Text("model", i) + " with the measured points (log-log)",
					Chart: logLogChart("Program time: model and measurements", withUnit("time", unitOf(t, "time")), p,
						[]lineSeries{{"measured", nums(t, "time"), false, true, nil}, {"model", fit, false, false, nil}}),
					Table: subTable(m, "The numbers drawn (the model's terms)", []int{i}, "region", "model", "c0", "c1", "exp1", "log1", "c2", "exp2", "log2", "adj_r2", "smape_percent", "predicted")})
			}
			break
		}
	}
	if c := res.Table("program_curve"); c != nil && c.NumRows() > 0 && hasCols(c, "p", "model", "predicted_low", "predicted_high", "segmented") {
		out = append(out, curveChart(t, c))
	}
	if hasCols(t, "speedup", "ideal_speedup") {
		out = append(out, Chart{Title: "Speedup against p",
			Chart: lineChart("Speedup", "speedup", p, []lineSeries{{"measured", nums(t, "speedup"), false, true, nil}, {"ideal", nums(t, "ideal_speedup"), true, false, nil}}),
			Table: subTable(t, "The numbers drawn", nil, "experiment", "p", "speedup", "ideal_speedup", "efficiency", "karp_flatt")})
	}
	return out
}

// curveChart draws the program's model from table program_curve with its
// 95% prediction interval (dashed), the two-segment model when there is
// one, and the measured times as points.
func curveChart(t, c *analysis.Table) Chart {
	series := []lineSeries{
		{"measured", nums(t, "time"), false, true, nums(t, "p")},
		{"model", nums(c, "model"), false, false, nil},
		{"95% prediction interval, low", nums(c, "predicted_low"), true, false, nil},
		{"95% prediction interval, high", nums(c, "predicted_high"), true, false, nil},
	}
	title := "Program model with its 95% prediction interval (log-log)"
	if seg := nums(c, "segmented"); hasDefined(seg) {
		series = append(series, lineSeries{"two segments", seg, false, false, nil})
		title = "Program model, its 95% prediction interval and its two segments (log-log)"
	}
	return Chart{Title: title, Chart: logLogChart("Program time: model, interval, segments", withUnit("time", unitOf(t, "time")), nums(c, "p"), series),
		Table: subTable(c, "The numbers drawn", nil, "p", "model", "predicted_low", "predicted_high", "segmented")}
}

// surfaceChart draws the two-parameter program model of table
// program_surface as a heat map over the measured values of both
// parameters (x the first, y the second); its numbers table has the
// measured values beside the model.
func surfaceChart(res *analysis.Result, sf *analysis.Table) Chart {
	names := strings.SplitN(res.Params["parameters"], ",", 2)
	if len(names) < 2 {
		names = []string{"x1", "x2"}
	}
	x1, x2, mv := nums(sf, "x1"), nums(sf, "x2"), nums(sf, "model")
	var xs, ys []string
	xi, yi := map[float64]int{}, map[float64]int{}
	lo, hi := math.Inf(1), math.Inf(-1)
	var data []opts.HeatMapData
	for i := range mv {
		if _, ok := xi[x1[i]]; !ok {
			xi[x1[i]], xs = len(xs), append(xs, strconv.FormatFloat(x1[i], 'g', -1, 64))
		}
		if _, ok := yi[x2[i]]; !ok {
			yi[x2[i]], ys = len(ys), append(ys, strconv.FormatFloat(x2[i], 'g', -1, 64))
		}
		if value(mv[i]) == nil {
			continue
		}
		lo, hi = math.Min(lo, mv[i]), math.Max(hi, mv[i])
		data = append(data, opts.HeatMapData{Value: []any{xi[x1[i]], yi[x2[i]], mv[i]}})
	}
	if !(hi > lo) {
		lo, hi = 0, math.Max(1, hi)
	}
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(append(initOpts(withUnit("Program model over "+names[0]+" and "+names[1], unitOf(sf, "model"))),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: names[0], Data: xs}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Name: names[1], Data: ys}),
		charts.WithGridOpts(opts.Grid{Top: "50", Bottom: "90", ContainLabel: opts.Bool(true)}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Min: float32(lo), Max: float32(hi), Orient: "horizontal", Left: "center", Bottom: "0",
			InRange: &opts.VisualMapInRange{Color: []string{"#f7fbff", "#6baed6", "#08306b"}}}),
	)...)
	hm.AddSeries("model", data)
	return Chart{Title: "Program model over " + names[0] + " and " + names[1] + " (heat map; the table gives the measured values beside it)",
		Chart: hm, Table: subTable(sf, "The numbers drawn", nil, "x1", "x2", "model", "measured")}
}

// hasDefined says whether v has a number that is not NaN.
func hasDefined(v []float64) bool {
	for _, x := range v {
		if !math.IsNaN(x) {
			return true
		}
	}
	return false
}

// lineSeries is one line of a chart against p.
type lineSeries struct {
	name   string
	y      []float64
	dashed bool
	points bool // points only, no line
	// x, when set, is the series' own x (otherwise the chart's).
	x []float64
}

// idealTimes is the time of perfect strong scaling from the baseline,
// T_b·p_b/p = T_b/ideal_speedup, per row of a program table; nil when the
// table has no baseline row (ideal_speedup = 1) or no ideal_speedup.
func idealTimes(t *analysis.Table) []float64 {
	if !hasCols(t, "ideal_speedup", "time") {
		return nil
	}
	is, tm := nums(t, "ideal_speedup"), nums(t, "time")
	b := -1
	for i, v := range is {
		if v == 1 {
			b = i
			break
		}
	}
	if b < 0 {
		return nil
	}
	out := make([]float64, len(is))
	for i, v := range is {
		out[i] = tm[b] / v
	}
	return out
}

// logLogChart draws series against x (p) with both axes logarithmic, where
// perfect scaling is a straight line; values that are not positive are
// left out (they have no place on a log axis).
func logLogChart(title, yName string, x []float64, series []lineSeries) *charts.Line {
	pos := make([]lineSeries, len(series))
	for k, s := range series {
		pos[k] = s
		pos[k].y = make([]float64, len(s.y))
		sx := x
		if s.x != nil {
			sx = s.x
		}
		for i, v := range s.y {
			pos[k].y[i] = v
			if !(v > 0) || !(sx[i] > 0) {
				pos[k].y[i] = math.NaN()
			}
		}
	}
	line := lineChartXY(title, "p", yName, x, pos)
	line.SetGlobalOptions(
		charts.WithXAxisOpts(opts.XAxis{Type: "log", Name: "p"}),
		charts.WithYAxisOpts(opts.YAxis{Type: "log", Name: yName}),
	)
	return line
}

// lineChart draws series against x (p) on value axes.
func lineChart(title, yName string, x []float64, series []lineSeries) *charts.Line {
	return lineChartXY(title, "p", yName, x, series)
}

// lineChartXY draws series against x on value axes named xName and yName.
func lineChartXY(title, xName, yName string, x []float64, series []lineSeries) *charts.Line {
	line := charts.NewLine()
	line.SetGlobalOptions(append(initOpts(title),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: xName}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: yName}),
	)...)
	for _, s := range series {
		x := x
		if s.x != nil {
			x = s.x
		}
		data := make([]opts.LineData, 0, len(x))
		for i := range x {
			if pt := point(x[i], s.y[i]); pt != nil {
				data = append(data, opts.LineData{Value: pt})
			}
		}
		var so []charts.SeriesOpts
		if s.dashed {
			so = append(so, charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed"}))
		}
		if s.points {
			so = append(so, charts.WithLineStyleOpts(opts.LineStyle{Width: 0.0001}),
				charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), SymbolSize: 10}))
		}
		line.AddSeries(s.name, data, so...)
	}
	return line
}

// modelCurve evaluates row i of a models table, c0 + c1·p^exp1·log2(p)^log1
// (+ c2·p^exp2·log2(p)^log2 when present), at the given p; nil when the
// row has no model.
func modelCurve(m *analysis.Table, i int, ps []float64) []float64 {
	c0 := m.Num("c0", i)
	if math.IsNaN(c0) {
		return nil
	}
	term := func(c, e, l string) func(p float64) float64 {
		cv, ev, lv := m.Num(c, i), m.Num(e, i), m.Num(l, i)
		if m.Col(c) == nil || math.IsNaN(cv) || math.IsNaN(ev) || math.IsNaN(lv) {
			return func(float64) float64 { return 0 }
		}
		return func(p float64) float64 { return cv * math.Pow(p, ev) * math.Pow(math.Log2(p), lv) }
	}
	t1, t2 := term("c1", "exp1", "log1"), term("c2", "exp2", "log2")
	out := make([]float64, len(ps))
	for k, p := range ps {
		out[k] = c0 + t1(p) + t2(p)
	}
	return out
}
