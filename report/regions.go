package report

import "github.com/taudb-analyze/taudb-analyze/analysis"

func init() { register("regions", regionsCharts) }

// regionsCharts draws the top regions' exclusive and inclusive values.
func regionsCharts(res *analysis.Result) []Chart {
	t := res.Table("regions")
	if t == nil || t.NumRows() == 0 || !hasCols(t, "region", "exclusive", "inclusive") {
		return nil
	}
	rows := firstRows(t, maxBars)
	return []Chart{{
		Title: "Top regions",
		Chart: barChart("Top regions ("+res.Metric+")", t, "region", rows, []string{"exclusive", "inclusive"}, false),
		Table: subTable(t, "The numbers drawn", rows, "region", "exclusive", "exclusive_percent", "inclusive", "inclusive_percent", "calls"),
	}}
}
