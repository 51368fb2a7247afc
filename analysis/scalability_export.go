package analysis

import (
	"github.com/taudb-analyze/taudb-analyze/extrap"
)

// ScalabilityExport returns the series Scalability models as an Extra-P
// dataset (write it with extrap.WriteText): parameter "p", the program
// (its main region's inclusive value, region named after it, metric
// "program") and every region's exclusive (or, with opt.Inclusive,
// inclusive) value under the series' metric; experiments with the same p
// become repetitions of one point. Extra-P's text format has one list of
// points, so a region without a value at some p is left out; dropped
// counts them.
func ScalabilityExport(exps []Experiment, opt ScalabilityOptions) (d *extrap.Dataset, dropped int, err error) {
	sd, err := collect(exps, opt.SeriesOptions)
	if err != nil {
		return nil, 0, err
	}
	ps := sd.ps()
	var xs []float64
	index := map[float64]int{}
	for _, p := range ps {
		if _, ok := index[p]; !ok {
			index[p] = len(xs)
			xs = append(xs, p)
		}
	}
	kernel := func(region, metric string, v []float64) (extrap.Kernel, bool) {
		k := extrap.Kernel{Region: region, Metric: metric, Values: make([][]float64, len(xs))}
		for e, x := range v {
			if !defined(x) || x < 0 {
				return k, false
			}
			k.Values[index[ps[e]]] = append(k.Values[index[ps[e]]], x)
		}
		for _, x := range xs {
			k.Points = append(k.Points, []float64{x})
		}
		return k, true
	}
	d = &extrap.Dataset{Params: []string{"p"}}
	if k, ok := kernel(sd.mainName, "program", sd.main); ok {
		d.Kernels = append(d.Kernels, k)
	}
	vals := sd.excl
	if opt.Inclusive {
		vals = sd.incl
	}
	for r, name := range sd.regions {
		if k, ok := kernel(name, sd.metric, vals[r]); ok {
			d.Kernels = append(d.Kernels, k)
		} else {
			dropped++
		}
	}
	return d, dropped, nil
}
