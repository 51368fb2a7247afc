package report

import (
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/classify"
)

func init() { register("overhead", overheadCharts) }

// overheadCharts stacks the overhead categories per experiment.
func overheadCharts(res *analysis.Result) []Chart {
	t := res.Table("totals")
	if t == nil || t.NumRows() == 0 || !hasCols(t, "experiment") {
		return nil
	}
	var cols []string
	for _, c := range classify.OverheadCategories() {
		if name := strings.ReplaceAll(string(c), " ", "_"); t.Col(name) != nil {
			cols = append(cols, name)
		}
	}
	if t.Col("unidentified") != nil {
		cols = append(cols, "unidentified")
	}
	if len(cols) == 0 {
		return nil
	}
	return []Chart{{
		Title: "Overhead categories per experiment",
		Chart: barChart("Overhead per experiment ("+res.Metric+")", t, "experiment", firstRows(t, t.NumRows()), cols, true),
		Table: subTable(t, "The numbers drawn", nil, append(append([]string{"experiment", "p", "t_p", "t_o"}, cols...), "overhead_percent")...),
	}}
}
