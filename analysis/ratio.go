package analysis

import (
	"fmt"
	"math"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/metrics"
)

// RatioOptions name a derived metric and its expression.
type RatioOptions struct {
	// Name is the derived metric's name ("FLOP_RATE").
	Name string
	// Expr is the expression over metric names (see package metrics), for
	// example "PAPI_FP_OPS / TIME".
	Expr string
}

// Ratio evaluates a derived metric (metric ratio analysis) on every node and
// thread of t, inclusive and exclusive, and summarizes it. The values of the
// expression come from package metrics: a cell whose value is undefined
// (any division by zero, log of 0, ...) is left out of the summaries and
// counted in "undefined".
//
// Table "regions", per region of the flat view: n (threads with a defined
// exclusive value), mean, min and max of the exclusive ratio over those
// threads, the same for the inclusive ratio, and "undefined" (threads that
// executed the region but whose exclusive ratio is undefined). Table
// "threads": per thread, the inclusive ratio of its main region (the whole
// program's ratio on that thread). The expression is returned in Params.
func Ratio(t *drg.Trial, opt RatioOptions) (*Result, error) {
	if opt.Name == "" {
		return nil, fmt.Errorf("ratio: the derived metric needs a name")
	}
	e, err := metrics.Compile(opt.Expr, metrics.Names(t))
	if err != nil {
		return nil, fmt.Errorf("ratio %s: %w", opt.Name, err)
	}
	incl, excl, err := metrics.Evaluate(t, e)
	if err != nil {
		return nil, fmt.Errorf("ratio %s: %w", opt.Name, err)
	}
	res := &Result{
		Analysis: "ratio",
		Trial:    t.Name,
		Metric:   opt.Name,
		Params:   map[string]string{"name": opt.Name, "expr": opt.Expr, "metric": opt.Name},
	}
	res.AddTable(ratioRegionsTable(t, opt, incl, excl))
	threads := ratioThreadsTable(t, opt, incl)
	res.AddTable(threads)
	if vals := threads.Col("main_inclusive").Num; len(vals) > 0 {
		s := summarizeRatio(vals, nil, 0)
		res.Findf("%s of the main region ranges from %.4g to %.4g over %d threads (mean %.4g)", opt.Name, s.min, s.max, s.n, s.mean)
	}
	return res, nil
}

// ratioRegionsTable builds Ratio's "regions" table: per flat region with
// a record, the derived metric's mean, min and max over the threads where
// it is defined.
func ratioRegionsTable(t *drg.Trial, opt RatioOptions, incl, excl []float64) Table {
	nt := len(t.Threads)
	regions := Table{Name: "regions", Title: "Derived metric " + opt.Name + " = " + opt.Expr + " per region"}
	var names []string
	var n, undef, emean, emin, emax, imean, imin, imax []float64
	for _, f := range t.Flat() {
		es := summarizeRatio(excl[f*nt:(f+1)*nt], &t.Present, f*nt)
		is := summarizeRatio(incl[f*nt:(f+1)*nt], &t.Present, f*nt)
		if es.present == 0 {
			continue
		}
		names = append(names, t.Regions[t.Nodes[f].Region].Name)
		n = append(n, float64(es.n))
		undef = append(undef, float64(es.present-es.n))
		emean, emin, emax = append(emean, es.mean), append(emin, es.min), append(emax, es.max)
		imean, imin, imax = append(imean, is.mean), append(imin, is.min), append(imax, is.max)
	}
	regions.AddText("region", names)
	regions.AddNum("n", "threads", n)
	regions.AddNum("undefined", "threads", undef)
	regions.AddNum("exclusive_mean", "", emean)
	regions.AddNum("exclusive_min", "", emin)
	regions.AddNum("exclusive_max", "", emax)
	regions.AddNum("inclusive_mean", "", imean)
	regions.AddNum("inclusive_min", "", imin)
	regions.AddNum("inclusive_max", "", imax)
	return regions
}

// ratioThreadsTable builds Ratio's "threads" table: the derived metric's
// inclusive value of each thread's main region (its node with the largest
// inclusive value of the first time metric; empty without a time metric).
func ratioThreadsTable(t *drg.Trial, opt RatioOptions, incl []float64) Table {
	nt := len(t.Threads)
	threads := Table{Name: "threads", Title: "Derived metric " + opt.Name + " of the main region per thread"}
	m := t.TimeMetric()
	var labels []string
	var vals []float64
	if m >= 0 {
		for th := 0; th < nt; th++ {
			best, bestV := -1, math.Inf(-1)
			for node := range t.Nodes {
				c := node*nt + th
				if t.Present.Get(c) && t.Values[m].Inclusive[c] > bestV {
					best, bestV = node, t.Values[m].Inclusive[c]
				}
			}
			if best < 0 {
				continue
			}
			labels = append(labels, threadLabel(t, th))
			vals = append(vals, incl[best*nt+th])
		}
	}
	threads.AddText("thread", labels)
	threads.AddNum("main_inclusive", "", vals)
	return threads
}

// ratioSummary is the mean, min and max of the defined values of a row.
type ratioSummary struct {
	present, n     int
	mean, min, max float64
}

// summarizeRatio takes the present cells of row (bit off+i of present; every
// cell when present is nil) and summarizes the defined (non-NaN) ones;
// with none, mean, min and max are NaN (undefined).
func summarizeRatio(row []float64, present *drg.Bitmap, off int) ratioSummary {
	s := ratioSummary{min: math.Inf(1), max: math.Inf(-1)}
	var sum float64
	for i, v := range row {
		if present != nil && !present.Get(off+i) {
			continue
		}
		s.present++
		if math.IsNaN(v) {
			continue
		}
		s.n++
		sum += v
		s.min = math.Min(s.min, v)
		s.max = math.Max(s.max, v)
	}
	if s.n == 0 {
		s.mean, s.min, s.max = math.NaN(), math.NaN(), math.NaN()
		return s
	}
	s.mean = sum / float64(s.n)
	return s
}
