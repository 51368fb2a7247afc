package report

import (
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// TestMultiRegionByChart: a multiregion result placed along a property
// (--by, columns x and x_value instead of p) still gets its chart, its x
// axis named after the property, and its drawn table keeps x.
func TestMultiRegionByChart(t *testing.T) {
	tb := analysis.Table{Name: "regions"}
	tb.AddText("region", []string{"compute", "compute"})
	tb.AddText("experiment", []string{"cap100", "cap200"})
	tb.AddNum("x", "", []float64{100, 200})
	tb.AddText("x_value", []string{"100 W", "200 W"})
	tb.AddNum("exclusive", "us", []float64{300, 150})
	tb.AddNum("exclusive_percent", "%", []float64{80, 70})
	res := &analysis.Result{Analysis: "multiregion", Metric: "TIME", Params: map[string]string{"by": "meta:Power Cap"}, Tables: []analysis.Table{tb}}
	cs := Charts(res)
	if len(cs) != 1 || cs[0].Table == nil || cs[0].Table.Col("x") == nil {
		t.Fatalf("charts %+v: want one chart drawing x", cs)
	}
	opt, err := chartJSON(cs[0].Chart)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(opt), `"name":"Power Cap"`) {
		t.Errorf("x axis not named after the property: %.400s", opt)
	}
}
