package report

import (
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func init() { register("cluster", clusterCharts) }

// clusterCharts draws the threads on the first two principal components,
// one colour per cluster, and the clusters' sizes.
func clusterCharts(res *analysis.Result) []Chart {
	var out []Chart
	if t := res.Table("pca"); t != nil && t.NumRows() > 0 && hasCols(t, "pc1", "pc2", "cluster") {
		sc := charts.NewScatter()
		sc.SetGlobalOptions(append(initOpts("Threads on the first two principal components"),
			charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
			charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "pc1"}),
			charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "pc2"}),
		)...)
		pc1, pc2, cl := nums(t, "pc1"), nums(t, "pc2"), nums(t, "cluster")
		var order []float64
		byCluster := map[float64][]opts.ScatterData{}
		for i := range cl {
			if _, ok := byCluster[cl[i]]; !ok {
				order = append(order, cl[i])
			}
			if pt := point(pc1[i], pc2[i]); pt != nil {
				byCluster[cl[i]] = append(byCluster[cl[i]], opts.ScatterData{Value: pt, SymbolSize: 10})
			}
		}
		for _, c := range order {
			sc.AddSeries("cluster "+ftoa(c), byCluster[c])
		}
		out = append(out, Chart{Title: "PCA scatter coloured by cluster", Chart: sc,
			Table: subTable(t, "The numbers drawn", nil, "trial", "node", "context", "thread", "cluster", "pc1", "pc2")})
	}
	if t := res.Table("averages"); t != nil && t.NumRows() > 0 && hasCols(t, "cluster", "region", "value") {
		// Per-cluster average profiles: one bar series per cluster over the
		// regions that separate the clusters most (at most 12).
		regions := map[string]bool{}
		var order []string
		if s := res.Table("separating"); s != nil && hasCols(s, "region") {
			for i := 0; i < s.NumRows() && len(order) < 12; i++ {
				order = append(order, s.Text("region", i))
				regions[s.Text("region", i)] = true
			}
		}
		bar := charts.NewBar()
		bar.SetGlobalOptions(append(initOpts("Cluster averages of the regions that separate the clusters most"),
			charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}))...)
		bar.SetXAxis(order)
		vals := map[float64]map[string]float64{}
		var cls []float64
		var rows []int
		for i := 0; i < t.NumRows(); i++ {
			c, r := t.Num("cluster", i), t.Text("region", i)
			if !regions[r] {
				continue
			}
			if vals[c] == nil {
				vals[c] = map[string]float64{}
				cls = append(cls, c)
			}
			vals[c][r] = t.Num("value", i)
			rows = append(rows, i)
		}
		for _, c := range cls {
			data := make([]opts.BarData, len(order))
			for k, r := range order {
				data[k] = opts.BarData{Value: finiteOrNil(vals[c][r])}
			}
			bar.AddSeries("cluster "+ftoa(c), data)
		}
		if len(order) > 0 {
			out = append(out, Chart{Title: "Per-cluster average profiles", Chart: bar,
				Table: subTable(t, "The numbers drawn", rows, "cluster", "region", "value")})
		}
	}
	if t := res.Table("sizes"); t != nil && t.NumRows() > 0 && hasCols(t, "cluster", "size") {
		labels := make([]string, t.NumRows())
		for i, c := range nums(t, "cluster") {
			labels[i] = "cluster " + ftoa(c)
		}
		lt := subTable(t, "", nil, "size")
		lt.AddText("label", labels)
		out = append(out, Chart{Title: "Cluster sizes",
			Chart: barChart("Threads per cluster", lt, "label", firstRows(lt, lt.NumRows()), []string{"size"}, false),
			Table: subTable(t, "The numbers drawn", nil, "cluster", "size", "silhouette")})
	}
	return out
}

// finiteOrNil gives nil for an undefined value so that the chart leaves a
// gap.
func finiteOrNil(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}
