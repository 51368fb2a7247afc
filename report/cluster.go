package report

import (
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func init() { register("cluster", clusterCharts) }

// clusterCharts draws the threads on the first two principal components,
// one colour per cluster, the per-cluster average profiles, and the
// clusters' sizes.
func clusterCharts(res *analysis.Result) []Chart {
	var out []Chart
	if c, ok := clusterScatter(res.Table("pca")); ok {
		out = append(out, c)
	}
	if c, ok := clusterAverages(res.Table("averages"), res.Table("separating")); ok {
		out = append(out, c)
	}
	if c, ok := clusterSizes(res.Table("sizes")); ok {
		out = append(out, c)
	}
	return out
}

// clusterScatter draws the threads of the pca table on its first two
// principal components, one series per cluster.
func clusterScatter(t *analysis.Table) (Chart, bool) {
	if t == nil || t.NumRows() == 0 || !hasCols(t, "pc1", "pc2", "cluster") {
		return Chart{}, false
	}
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
	return Chart{Title: "PCA scatter coloured by cluster", Chart: sc,
		Table: subTable(t, "The numbers drawn", nil, "trial", "node", "context", "thread", "cluster", "pc1", "pc2")}, true
}

// clusterAverages draws the per-cluster average profiles of the averages
// table: one bar series per cluster over the regions that separate the
// clusters most (the first 12 of the separating table).
func clusterAverages(t, sep *analysis.Table) (Chart, bool) {
	if t == nil || t.NumRows() == 0 || !hasCols(t, "cluster", "region", "value") {
		return Chart{}, false
	}
	regions := map[string]bool{}
	var order []string
	if sep != nil && hasCols(sep, "region") {
		for i := 0; i < sep.NumRows() && len(order) < 12; i++ {
			order = append(order, sep.Text("region", i))
			regions[sep.Text("region", i)] = true
		}
	}
	if len(order) == 0 {
		return Chart{}, false
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
	return Chart{Title: "Per-cluster average profiles", Chart: bar,
		Table: subTable(t, "The numbers drawn", rows, "cluster", "region", "value")}, true
}

// clusterSizes draws the number of threads of each cluster of the sizes
// table.
func clusterSizes(t *analysis.Table) (Chart, bool) {
	if t == nil || t.NumRows() == 0 || !hasCols(t, "cluster", "size") {
		return Chart{}, false
	}
	labels := make([]string, t.NumRows())
	for i, c := range nums(t, "cluster") {
		labels[i] = "cluster " + ftoa(c)
	}
	lt := subTable(t, "", nil, "size")
	lt.AddText("label", labels)
	return Chart{Title: "Cluster sizes",
		Chart: barChart("Threads per cluster", lt, "label", firstRows(lt, lt.NumRows()), []string{"size"}, false),
		Table: subTable(t, "The numbers drawn", nil, "cluster", "size", "silhouette")}, true
}

// finiteOrNil gives nil for an undefined value so that the chart leaves a
// gap.
func finiteOrNil(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}
