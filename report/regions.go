package report

import (
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func init() { register("regions", regionsCharts) }

// regionsCharts draws the top regions' exclusive and inclusive values, and
// the call graph as a tree when the result has one.
func regionsCharts(res *analysis.Result) []Chart {
	var out []Chart
	if t := res.Table("regions"); t != nil && t.NumRows() > 0 && hasCols(t, "region", "exclusive", "inclusive") {
		rows := firstRows(t, maxBars)
		out = append(out, Chart{
			Title: "Top regions",
			Chart: barChart("Top regions ("+res.Metric+")", t, "region", rows, []string{"exclusive", "inclusive"}, false),
			Table: subTable(t, "The numbers drawn", rows, "region", "exclusive", "exclusive_percent", "inclusive", "inclusive_percent", "calls"),
		})
	}
	if t := res.Table("callgraph"); t != nil && t.NumRows() > 0 && hasCols(t, "node", "parent", "region", "inclusive", "depth") {
		out = append(out, Chart{
			Title:  "Call graph",
			Chart:  callTree(t, res.Metric),
			Table:  subTable(t, "The numbers drawn — "+t.Title, nil, "node", "parent", "region", "inclusive", "depth"),
			Height: "720px",
		})
	}
	return out
}

// callTree draws the "callgraph" table as a collapsible tree, each node
// labelled by its region and valued by its inclusive value. Several roots
// hang from one unnamed root.
func callTree(t *analysis.Table, metric string) *charts.Tree {
	nodes, parents, regions, incl := texts(t, "node"), texts(t, "parent"), texts(t, "region"), nums(t, "inclusive")
	byName := make(map[string]*opts.TreeData, len(nodes))
	var roots []*opts.TreeData
	for i, n := range nodes {
		d := &opts.TreeData{Name: shorten(regions[i]), Value: value(incl[i])}
		byName[n] = d
		if p, ok := byName[parents[i]]; ok && parents[i] != "" {
			p.Children = append(p.Children, d)
		} else {
			roots = append(roots, d)
		}
	}
	root := roots[0]
	if len(roots) > 1 {
		root = &opts.TreeData{Name: "(roots)", Children: roots}
	}
	tr := charts.NewTree()
	tr.SetGlobalOptions(append(initOpts(withUnit("Call graph, inclusive "+metric, unitOf(t, "inclusive"))),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
	)...)
	tr.AddSeries("call graph", []opts.TreeData{*root}, charts.WithTreeOpts(opts.TreeChart{
		Layout: "orthogonal", Orient: "LR", Roam: opts.Bool(true), ExpandAndCollapse: opts.Bool(true), InitialTreeDepth: 2,
		Left: "12%", Right: "25%", Top: "60", Bottom: "40",
		Label:  &opts.Label{Show: opts.Bool(true), Position: "left"},
		Leaves: &opts.TreeLeaves{Label: &opts.Label{Show: opts.Bool(true), Position: "right"}},
	}))
	return tr
}
