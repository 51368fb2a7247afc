package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// analysisLabels name the analyses in the table.
var analysisLabels = map[string]string{
	"statistics": "statistics (Trial.Statistics)",
	"summary":    "summary by thread",
	"imbalance":  "imbalance",
	"speedup":    "speedup",
	"cluster":    "cluster (k-means, automatic k)",
}

// analyses measures row 5: each analysis at each size of the mode, in a
// child process (time, peak RSS), next to one pass over the same values,
// with the growth exponent from the previous size.
func (b *bench) analyses(ctx context.Context) error {
	for _, kind := range AnalysisKinds {
		var prev childResult
		for i, n := range b.mode.Analyses {
			m, err := Run(ctx, true, b.self, childCommand, "-kind", kind, "-threads", strconv.Itoa(n), "-regions", strconv.Itoa(b.mode.AnalysisRegions))
			if err != nil {
				return fmt.Errorf("%s on %d threads: %w", kind, n, err)
			}
			var r childResult
			if err := json.Unmarshal(m.Stdout, &r); err != nil {
				return fmt.Errorf("%s on %d threads: read the child's result %q: %w", kind, n, m.Stdout, err)
			}
			notes := fmt.Sprintf("%s values; peak %s MB (%s MB before the analysis)", Num(float64(r.Values)), Num(m.PeakMB), Num(r.DataMB))
			if i > 0 {
				notes += "; " + GrowthNote(Growth(prev.Seconds, r.Seconds, float64(prev.Values), float64(r.Values)))
			}
			what := fmt.Sprintf("%d threads × %d regions", n, b.mode.AnalysisRegions)
			if kind == "speedup" {
				what = fmt.Sprintf("series of 4 trials of %d…%d threads × %d regions", max(1, n/8), n, b.mode.AnalysisRegions)
			}
			b.add(Row{Step: 5, Figure: analysisLabels[kind] + ", " + what, Value: r.Seconds * 1e3, Unit: "ms",
				Ref: r.RefSeconds * 1e3, RefUnit: "ms", RefWhat: "one pass summing every value", Notes: notes})
			prev = r
		}
	}
	return nil
}
