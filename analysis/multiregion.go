package analysis

import (
	"fmt"
	"math"
	"regexp"
)

// MultiRegionOptions select what MultiRegion shows.
type MultiRegionOptions struct {
	SeriesOptions
	// Top is the number of regions shown when no pattern is given (the
	// regions with the largest exclusive value in any experiment): 0 means
	// DefaultTop (10), a negative number (All) every region. It does not
	// limit the regions a pattern selects.
	Top int
	// By, when not "", places the experiments along a trial property
	// instead of p (a parameter study): a metadata key ("meta:KEY") or a
	// trial field ("experiment", "application", "trial"; see ByKey). The
	// x of an experiment is the property's value when every experiment's
	// is a positive number, else the rank of its text in sorted order;
	// table "regions" then has columns x and x_value (the text) instead
	// of p, and the findings name the property.
	By string
}

// Thresholds of MultiRegion's findings: a region "does not scale" when its
// exclusive value at the largest p is at least MultiRegionFlat times its
// value at the smallest p (SCALEA: "remain almost constant although the
// number of processors is increased").
const MultiRegionFlat = 0.9

// MultiRegion is SCALEA's multiple region analysis (Fig. 14, left): the
// values of chosen regions across the experiments, to see which regions
// scale and which do not.
//
// pattern is a regular expression (Go syntax) matched against each
// region's name (the full name, or the short name with
// SeriesOptions.ShortNames) anywhere in it; "" selects the Top regions
// with the largest exclusive value in any experiment. The selected regions
// are listed by that largest exclusive value, descending.
//
// Table "regions", one row per (region, experiment), experiments in P
// order: region, experiment, p, exclusive and inclusive (the metric
// aggregated over the experiment's threads as SeriesOptions.Aggregate says;
// NaN where the experiment has no record of the region),
// exclusive_percent and inclusive_percent (100*value/T_program, T_program
// the main region's inclusive value aggregated the same way), and processes
// (the number of TAU node ranks, i.e. MPI processes, with a record of the
// region; 0 when absent).
//
// Findings name the regions whose exclusive value does not fall as p grows
// (value at the largest p ≥ MultiRegionFlat × value at the smallest p) and
// the regions executed by one process only in experiments that have more
// (sequential code, a candidate for parallelization).
func MultiRegion(exps []Experiment, pattern string, opt MultiRegionOptions) (*Result, error) {
	ax, exps, err := newAxis(exps, opt.By)
	if err != nil {
		return nil, err
	}
	d, err := collect(exps, opt.SeriesOptions)
	if err != nil {
		return nil, err
	}
	n := len(d.exps)
	res := d.newResult("multiregion")
	if ax.by != "" {
		res.Params["by"] = ax.by
	}
	chosen, err := chooseRegions(d, res, pattern, opt.Top)
	if err != nil {
		return nil, err
	}
	procsOf := make([]int, n)
	for k, e := range d.exps {
		procsOf[k], _, _, _ = e.Trial.Layout()
	}
	res.AddTable(multiRegionTable(d, chosen, ax))
	res.Findf("%s chosen across %s (%s = %s to %s).", plural(len(chosen), "region"), plural(n, "experiment"),
		ax.name(), ax.at(d, 0), ax.at(d, n-1))
	for _, r := range chosen {
		regionTrend(res, d, r, ax)
		seq, multi := 0, 0
		for k := range n {
			if procsOf[k] > 1 && d.procs[r][k] > 0 {
				multi++
				if d.procs[r][k] == 1 {
					seq++
				}
			}
		}
		if multi > 0 && seq == multi {
			res.Findf("%s runs on one process only in %s with several processes: sequential code, a candidate for parallelization.",
				d.regions[r], plural(multi, "experiment"))
		}
	}
	return res, nil
}

// chooseRegions returns the regions MultiRegion shows, by largest peak
// exclusive value: the top ones present somewhere when pattern is "",
// else every region matching it (an error when none does).
func chooseRegions(d *seriesData, res *Result, pattern string, top int) ([]int, error) {
	n := len(d.exps)
	peak := make([]float64, len(d.regions))
	for r := range d.regions {
		peak[r] = math.Inf(-1)
		for k := range n {
			if v := d.excl[r][k]; defined(v) && v > peak[r] {
				peak[r] = v
			}
		}
	}
	byPeak := order(len(d.regions), func(i, j int) bool { return peak[i] > peak[j] })
	var chosen []int
	if pattern == "" {
		for _, r := range byPeak[:topN(top, DefaultTop, len(byPeak))] {
			if !math.IsInf(peak[r], -1) {
				chosen = append(chosen, r)
			}
		}
		res.Params["regions"] = ""
		res.Params["top"] = topParam(top, DefaultTop)
		return chosen, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("region pattern %q: %v", pattern, err)
	}
	for _, r := range byPeak {
		if re.MatchString(d.regions[r]) {
			chosen = append(chosen, r)
		}
	}
	if len(chosen) == 0 {
		return nil, fmt.Errorf("no region of the %d experiments matches %q", n, pattern)
	}
	res.Params["regions"] = pattern
	res.Params["top"] = "all"
	return chosen, nil
}

// multiRegionTable builds MultiRegion's "regions" table: one row per
// chosen region and experiment.
func multiRegionTable(d *seriesData, chosen []int, ax axis) Table {
	ps := d.ps()
	pct := func(v float64, k int) float64 {
		if d.main[k] > 0 && defined(v) {
			return 100 * v / d.main[k]
		}
		return math.NaN()
	}
	tb := Table{Name: "regions", Title: fmt.Sprintf("Chosen regions' %s across the experiments (%s); percent = 100*value/T_program",
		d.metric, d.aggregateLabel())}
	var names, en, xv []string
	var pc, ex, in, exP, inP, procs []float64
	for _, r := range chosen {
		for k := range d.exps {
			names = append(names, d.regions[r])
			en = append(en, d.names[k])
			xv = append(xv, d.exps[k].Key)
			pc = append(pc, ps[k])
			ex = append(ex, d.excl[r][k])
			in = append(in, d.incl[r][k])
			exP = append(exP, pct(d.excl[r][k], k))
			inP = append(inP, pct(d.incl[r][k], k))
			procs = append(procs, float64(d.procs[r][k]))
		}
	}
	tb.AddText("region", names)
	tb.AddText("experiment", en)
	if ax.by == "" {
		tb.AddNum("p", "", pc)
	} else {
		tb.AddNum("x", "", pc)
		tb.AddText("x_value", xv)
	}
	tb.AddNum("exclusive", d.unit, ex)
	tb.AddNum("inclusive", d.unit, in)
	tb.AddNum("exclusive_percent", "%", exP)
	tb.AddNum("inclusive_percent", "%", inP)
	tb.AddNum("processes", "", procs)
	return tb
}

// regionTrend finds whether region r's exclusive value grows or stays
// almost constant from the first to the last experiment that has it.
func regionTrend(res *Result, d *seriesData, r int, ax axis) {
	ps := d.ps()
	first, last := -1, -1
	for k := range d.exps {
		if defined(d.excl[r][k]) {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first < 0 || !(ps[last] > ps[first] && d.excl[r][first] > 0) {
		return
	}
	ratio := d.excl[r][last] / d.excl[r][first]
	at := func(k int) string {
		return fmt.Sprintf("%s at %s = %s", formatMicrosOrValue(d, d.excl[r][k]), ax.name(), ax.at(d, k))
	}
	switch {
	case ratio > 1/MultiRegionFlat:
		res.Findf("%s grows with %s: %s, %s.", d.regions[r], ax.name(), at(first), at(last))
	case ratio >= MultiRegionFlat:
		res.Findf("%s stays almost constant as %s grows: %s, %s.", d.regions[r], ax.name(), at(first), at(last))
	}
}
