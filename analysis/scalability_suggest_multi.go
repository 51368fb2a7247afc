package analysis

import (
	"fmt"
	"math"
	"strings"
)

// multiSuggest adds table "suggestions" and its finding for the program's
// multi-parameter model: the n runs (SuggestMultiMeasurements) that
// together most narrow its prediction at at.
func multiSuggest(res *Result, d *seriesData, m MultiModel, coords [][]float64, at []float64, n int) error {
	s, err := SuggestMultiMeasurements(m, coords, at, n)
	if err != nil {
		return err
	}
	how := "every set compared"
	if !s.Exhaustive {
		how = "chosen one run at a time (too many sets to compare)"
	}
	t := Table{Name: "suggestions", Title: fmt.Sprintf("Runs that together most narrow the program's prediction at %s = %v, among %d unmeasured grid points (%s): each run's coordinates, the 95%% prediction and confidence half-widths there after it and the runs above it (now %s and %s), and its time and process-time (p × time, or time without p) from the model",
		strings.Join(m.Names, ", "), at, s.Candidates, how, formatMicrosOrValue(d, s.HalfBefore), formatMicrosOrValue(d, s.ConfBefore))}
	rank := make([]float64, len(s.Points))
	coord := make([][]float64, len(m.Names))
	for i, pt := range s.Points {
		rank[i] = float64(i + 1)
		for k, v := range pt {
			coord[k] = append(coord[k], v)
		}
	}
	t.AddNum("rank", "", rank)
	for k := range m.Names {
		t.AddNum(fmt.Sprintf("x%d", k+1), "", coord[k])
	}
	t.AddNum("half_width_after", d.unit, s.HalfAfter)
	t.AddNum("conf_half_width_after", d.unit, s.ConfAfter)
	t.AddNum("run_time", d.unit, s.Time)
	t.AddNum("process_time", "", s.Cost)
	res.AddTable(t)
	switch {
	case len(s.Points) == 0:
		res.Findf("No measurement to suggest: the program's model has no interval (too few points) or no unmeasured grid point has a positive model value.")
	case !(s.ConfBefore > 1e-6*math.Abs(m.Eval(at))):
		res.Findf("The program's model fits its points exactly (no residual): its prediction at %v has no interval to narrow; table suggestions lists candidate runs and their cost only.", at)
	default:
		var total float64
		for _, v := range s.Time {
			total += v
		}
		last := len(s.Points) - 1
		res.Findf("To narrow the prediction at %s = %v, measure next at %v: the 95%% prediction half-width there falls from %s to %s (−%.0f%%; the model's confidence half-width from %s to %s), for runs of about %s in all (model estimate; %s).",
			strings.Join(m.Names, ", "), at, s.Points, formatMicrosOrValue(d, s.HalfBefore), formatMicrosOrValue(d, s.HalfAfter[last]), 100*s.Reduction,
			formatMicrosOrValue(d, s.ConfBefore), formatMicrosOrValue(d, s.ConfAfter[last]), formatMicrosOrValue(d, total), how)
	}
	return nil
}
