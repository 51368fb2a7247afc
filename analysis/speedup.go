package analysis

import (
	"fmt"
	"math"
	"strings"
)

// SpeedupOptions select how Speedup compares the experiments.
type SpeedupOptions struct {
	SeriesOptions
	// Baseline names the baseline experiment (an Experiment.Name or a
	// trial's name); "" selects the experiment with the smallest P (the
	// first given among equal P).
	Baseline string
	// Weak selects weak scaling (the problem grows with p, so the ideal
	// time is constant); the default is strong scaling (fixed problem).
	Weak bool
}

// Scaling returns the speedup, the ideal speedup and the parallel
// efficiency of a time tp measured on p processes against a baseline time
// tb on pb processes:
//
//	ideal      = p/pb
//	strong:    speedup = tb/tp              efficiency = (tb*pb)/(tp*p)
//	weak:      efficiency = tb/tp           speedup = (p/pb)*efficiency
//
// Weak-scaling speedup is the scaled speedup: the work done per unit of time
// relative to the baseline, since each run does p/pb times the baseline's
// work. Speedup and efficiency are NaN (undefined) unless tb > 0 and
// tp > 0. The baseline itself (tp = tb, p = pb) gets exactly 1 and 1.
func Scaling(tb, pb, tp, p float64, weak bool) (speedup, ideal, efficiency float64) {
	ideal = p / pb
	if !(tb > 0) || !(tp > 0) || math.IsInf(tb, 0) || math.IsInf(tp, 0) {
		return math.NaN(), ideal, math.NaN()
	}
	if weak {
		efficiency = tb / tp
		return ideal * efficiency, ideal, efficiency
	}
	return tb / tp, ideal, (tb * pb) / (tp * p)
}

// Speedup computes the speedup and parallel efficiency of every experiment
// against a baseline (SCALEA's speedup analysis, Fig. 14 right), for the
// whole program and for every region of the flat view.
//
// The baseline is the experiment with the smallest P unless
// SpeedupOptions.Baseline names one; p_b is its P. Formulas: see Scaling
// (strong scaling by default, weak with SpeedupOptions.Weak). A time T is
// the chosen metric (unit "us" for time metrics) aggregated over the
// experiment's threads by SeriesOptions.Aggregate: "max" (default, the
// slowest thread determines the run time) or "mean" (see AggregateMean).
// The program's T is the main region's inclusive value
// (drg.Trial.MainInclusive: per thread its largest inclusive value); a
// region's T is its exclusive or inclusive value. The baseline's speedup
// and efficiency are exactly 1.
//
// Table "program", one row per experiment in P order: experiment, p,
// relative_p = p/p_b, time, speedup, ideal_speedup = p/p_b, efficiency.
//
// Table "regions", one row per (region, experiment): the regions in
// decreasing order of the baseline's exclusive value (regions the baseline
// lacks last, in order of appearance), the experiments in P order; region,
// experiment, p, exclusive, inclusive, speedup_exclusive,
// efficiency_exclusive, speedup_inclusive, efficiency_inclusive. A region
// absent from an experiment (no thread has a record) has NaN values there,
// and NaN speedups everywhere when the baseline lacks it.
//
// Trials that all have the same p are refused with a *ConstantPError: a
// parameter study has no speedup.
func Speedup(exps []Experiment, opt SpeedupOptions) (*Result, error) {
	d, err := collect(exps, opt.SeriesOptions)
	if err != nil {
		return nil, err
	}
	if err := CheckPVaries("speedup", d.ps()); err != nil {
		return nil, err
	}
	b, err := d.baseline(opt.Baseline)
	if err != nil {
		return nil, err
	}
	res := d.newResult("speedup")
	res.Params["baseline"] = d.names[b]
	res.Params["baseline_p"] = formatNum(d.exps[b].P)
	res.Params["scaling"] = scalingName(opt.Weak)
	prog := speedupProgramTable(d, b, opt.Weak)
	res.AddTable(prog)
	res.AddTable(speedupRegionsTable(d, b, opt.Weak))
	speedupFindings(res, d, b, prog.Col("speedup").Num, prog.Col("efficiency").Num, opt.Weak)
	return res, nil
}

// speedupProgramTable builds Speedup's "program" table: one row per
// experiment, against baseline b.
func speedupProgramTable(d *seriesData, b int, weak bool) Table {
	ps := d.ps()
	pb := ps[b]
	n := len(d.exps)
	prog := Table{Name: "program", Title: fmt.Sprintf("Program %s speedup and efficiency of %s (main region's inclusive value, %s) against %s (p_b = %s); %s",
		scalingName(weak), d.metric, d.aggregateLabel(), d.names[b], formatNum(pb), scalingFormula(weak))}
	rel := make([]float64, n)
	sp := make([]float64, n)
	ideal := make([]float64, n)
	eff := make([]float64, n)
	for k := range n {
		sp[k], ideal[k], eff[k] = Scaling(d.main[b], pb, d.main[k], ps[k], weak)
		rel[k] = ps[k] / pb
	}
	prog.AddText("experiment", append([]string(nil), d.names...))
	prog.AddNum("p", "", append([]float64(nil), ps...))
	prog.AddNum("relative_p", "", rel)
	prog.AddNum("time", d.unit, append([]float64(nil), d.main...))
	prog.AddNum("speedup", "", sp)
	prog.AddNum("ideal_speedup", "", ideal)
	prog.AddNum("efficiency", "", eff)
	return prog
}

// speedupRegionsTable builds Speedup's "regions" table: one row per
// region and experiment, against baseline b.
func speedupRegionsTable(d *seriesData, b int, weak bool) Table {
	ps := d.ps()
	pb := ps[b]
	regs := Table{Name: "regions", Title: fmt.Sprintf("Per-region %s speedup and efficiency of %s (%s) against %s; %s",
		scalingName(weak), d.metric, d.aggregateLabel(), d.names[b], scalingFormula(weak))}
	var names, expNames []string
	var pc, ex, in, spE, efE, spI, efI []float64
	for _, r := range regionOrder(d, d.excl, b) {
		for k := range d.exps {
			names = append(names, d.regions[r])
			expNames = append(expNames, d.names[k])
			pc = append(pc, ps[k])
			ex = append(ex, d.excl[r][k])
			in = append(in, d.incl[r][k])
			s, _, e := Scaling(d.excl[r][b], pb, d.excl[r][k], ps[k], weak)
			spE, efE = append(spE, s), append(efE, e)
			s, _, e = Scaling(d.incl[r][b], pb, d.incl[r][k], ps[k], weak)
			spI, efI = append(spI, s), append(efI, e)
		}
	}
	regs.AddText("region", names)
	regs.AddText("experiment", expNames)
	regs.AddNum("p", "", pc)
	regs.AddNum("exclusive", d.unit, ex)
	regs.AddNum("inclusive", d.unit, in)
	regs.AddNum("speedup_exclusive", "", spE)
	regs.AddNum("efficiency_exclusive", "", efE)
	regs.AddNum("speedup_inclusive", "", spI)
	regs.AddNum("efficiency_inclusive", "", efI)
	return regs
}

// scalingName returns "strong" or "weak".
func scalingName(weak bool) string {
	if weak {
		return "weak"
	}
	return "strong"
}

// scalingFormula states the formulas for table titles.
func scalingFormula(weak bool) string {
	if weak {
		return "efficiency = T_b/T_p, speedup = (p/p_b)*efficiency"
	}
	return "speedup = T_b/T_p, efficiency = (T_b*p_b)/(T_p*p)"
}

// regionOrder returns the region indexes by decreasing value of vals at
// experiment b (regions b lacks last, in order of appearance).
func regionOrder(d *seriesData, vals [][]float64, b int) []int {
	return order(len(d.regions), func(i, j int) bool {
		vi, vj := vals[i][b], vals[j][b]
		di, dj := !math.IsNaN(vi), !math.IsNaN(vj)
		if di != dj {
			return di
		}
		return di && vi > vj
	})
}

// speedupFindings states the program's scaling and the least scalable
// significant region.
func speedupFindings(res *Result, d *seriesData, b int, sp, eff []float64, weak bool) {
	d.seriesCaveats(res, weak)
	n := len(d.exps)
	if n == 1 {
		res.Findf("Only one experiment, %s: nothing to compare.", d.names[0])
		return
	}
	// Compare at the largest p, or below the baseline when it is there.
	last := n - 1
	if last == b {
		last = 0
	}
	ps := d.ps()
	res.Findf("At p = %s (%s) the program's %s speedup is %s against %s at p = %s (ideal %s), efficiency %s.",
		formatNum(ps[last]), d.names[last], scalingName(weak), fmtRatio3(sp[last]), d.names[b], formatNum(ps[b]),
		formatNum(ps[last]/ps[b]), fmtPercent(eff[last]))
	if !weak && sp[last] < 1 {
		res.Findf("The program runs slower with more processes: %s at p = %s against %s at p = %s.",
			formatMicrosOrValue(d, d.main[last]), formatNum(ps[last]), formatMicrosOrValue(d, d.main[b]), formatNum(ps[b]))
	}
	best := b
	for k := range n {
		if defined(sp[k]) && sp[k] > sp[best] {
			best = k
		}
	}
	if best != n-1 && best != b {
		res.Findf("The best speedup, %s, is at p = %s (%s), not at the largest p.", fmtRatio3(sp[best]), formatNum(ps[best]), d.names[best])
	}
	// The least efficient region among those holding at least 1% of the
	// baseline's program time.
	worst, worstEff := -1, math.Inf(1)
	for r := range d.regions {
		if !(d.excl[r][b] >= 0.01*d.main[b]) {
			continue
		}
		_, _, e := Scaling(d.excl[r][b], ps[b], d.excl[r][last], ps[last], weak)
		if defined(e) && e < worstEff {
			worst, worstEff = r, e
		}
	}
	if worst >= 0 {
		res.Findf("Least efficient region (exclusive, ≥ 1%% of the baseline's time) at p = %s: %s, efficiency %s.",
			formatNum(ps[last]), d.regions[worst], fmtPercent(worstEff))
	}
}

// fmtRatio3 writes a ratio with three decimals ("undefined" for NaN).
func fmtRatio3(x float64) string {
	if !defined(x) {
		return "undefined"
	}
	return fmt.Sprintf("%.3f", x)
}

// fmtPercent writes a fraction as a percentage with one decimal.
func fmtPercent(x float64) string {
	if !defined(x) {
		return "undefined"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// formatMicrosOrValue renders a value of the series' metric.
func formatMicrosOrValue(d *seriesData, v float64) string {
	if d.isTime {
		return FormatMicros(v)
	}
	return fmt.Sprintf("%.3g %s", v, d.metric)
}

// Improvement compares two versions of a program (A and B) run at the same
// process counts (Result.Trials: A's trials, then B's, each in P order;
// Params "a" and "b": the experiments' names): for every p that both series have (each at most once),
// improvement = T_a/T_b (above 1 when B is faster) and change_percent =
// 100*(T_b − T_a)/T_a (negative when B is faster), for the whole program
// and for every region of the flat view. T is as in Speedup (the options'
// metric and aggregate; B must have A's metric). Undefined ratios (a zero
// or absent value) are NaN.
//
// Table "program", one row per common p ascending: p, a, b (the
// experiments' names), time_a, time_b, improvement, change_percent, and
// b_vs_a (Verdict with DefaultTolerance: "same", "faster" or "slower").
//
// Table "regions", one row per (region, common p) where either version has
// the region: region, p, exclusive_a, exclusive_b, improvement_exclusive,
// change_exclusive_percent, inclusive_a, inclusive_b,
// improvement_inclusive, change_inclusive_percent; regions in order of A's
// exclusive value at its smallest p (B's own regions after them).
func Improvement(a, b []Experiment, opt SeriesOptions) (*Result, error) {
	da, err := collect(a, opt)
	if err != nil {
		return nil, fmt.Errorf("version A: %w", err)
	}
	ob := opt
	ob.Metric = da.metric
	db, err := collect(b, ob)
	if err != nil {
		return nil, fmt.Errorf("version B: %w", err)
	}
	pairs, err := commonPs(da, db)
	if err != nil {
		return nil, err
	}
	res := &Result{
		Analysis: "improvement",
		Trials:   append(append([]string(nil), da.trials...), db.trials...),
		Metric:   da.metric,
		Params: map[string]string{
			"metric":    da.metric,
			"aggregate": string(da.agg),
			"align":     da.align,
			"a":         joinNames(da.names),
			"b":         joinNames(db.names),
			"p_a":       formatList(da.ps()),
			"p_b":       formatList(db.ps()),
			"tolerance": formatNum(DefaultTolerance),
		},
		Findings: []string{},
	}
	prog := programImprovement(da, db, pairs)
	res.AddTable(prog)
	res.AddTable(regionImprovement(da, db, pairs))
	an, bn, verdict := prog.Col("a").Text, prog.Col("b").Text, prog.Col("b_vs_a").Text
	ta, tb := prog.Col("time_a").Num, prog.Col("time_b").Num
	imp, chg := prog.Col("improvement").Num, prog.Col("change_percent").Num
	for k, pr := range pairs {
		res.Findf("At p = %s, B (%s) takes %s against %s for A (%s): improvement %s (%+.1f%%), B is %s.",
			formatNum(pr.p), bn[k], formatMicrosOrValue(da, tb[k]), formatMicrosOrValue(da, ta[k]), an[k],
			fmtRatio3(imp[k]), chg[k], verdict[k])
	}
	return res, nil
}

// pPair is a process count both versions have: the experiment of A and
// of B there.
type pPair struct {
	p    float64
	a, b int
}

// commonPs checks that neither version has two experiments at one p and
// returns the process counts they share, in A's order.
func commonPs(da, db *seriesData) ([]pPair, error) {
	byP := func(d *seriesData, which string) (map[float64]int, error) {
		out := map[float64]int{}
		for k, e := range d.exps {
			if j, dup := out[e.P]; dup {
				return nil, fmt.Errorf("version %s has two experiments at p = %s (%s and %s): keep one per p",
					which, formatNum(e.P), d.names[j], d.names[k])
			}
			out[e.P] = k
		}
		return out, nil
	}
	if _, err := byP(da, "A"); err != nil {
		return nil, err
	}
	pb, err := byP(db, "B")
	if err != nil {
		return nil, err
	}
	var pairs []pPair
	for k, e := range da.exps {
		if j, ok := pb[e.P]; ok {
			pairs = append(pairs, pPair{e.P, k, j})
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("versions A (p = %s) and B (p = %s) share no process count", formatList(da.ps()), formatList(db.ps()))
	}
	return pairs, nil
}

// programImprovement builds Improvement's "program" table: one row per
// common p.
func programImprovement(da, db *seriesData, pairs []pPair) Table {
	prog := Table{Name: "program", Title: fmt.Sprintf("Program time (%s, main region's inclusive value, %s): improvement = T_a/T_b, change = 100*(T_b − T_a)/T_a",
		da.metric, da.aggregateLabel())}
	var ps, ta, tb, imp, chg []float64
	var an, bn, verdict []string
	for _, pr := range pairs {
		x, y := da.main[pr.a], db.main[pr.b]
		ps = append(ps, pr.p)
		an = append(an, da.names[pr.a])
		bn = append(bn, db.names[pr.b])
		ta, tb = append(ta, x), append(tb, y)
		i, c := improvement(x, y)
		imp, chg = append(imp, i), append(chg, c)
		verdict = append(verdict, Verdict(x, y, DefaultTolerance, da.isTime))
	}
	prog.AddNum("p", "", ps)
	prog.AddText("a", an)
	prog.AddText("b", bn)
	prog.AddNum("time_a", da.unit, ta)
	prog.AddNum("time_b", da.unit, tb)
	prog.AddNum("improvement", "", imp)
	prog.AddNum("change_percent", "%", chg)
	prog.AddText("b_vs_a", verdict)
	return prog
}

// regionImprovement builds Improvement's "regions" table: A's regions in
// A's order, then B's new ones, each at every common p where either
// version has it.
func regionImprovement(da, db *seriesData, pairs []pPair) Table {
	keys := make([]string, 0, len(da.regions)+len(db.regions))
	ra := map[string]int{}
	for _, r := range regionOrder(da, da.excl, 0) {
		ra[da.regions[r]] = r
		keys = append(keys, da.regions[r])
	}
	rb := map[string]int{}
	for r, k := range db.regions {
		rb[k] = r
		if _, ok := ra[k]; !ok {
			keys = append(keys, k)
		}
	}
	get := func(idx map[string]int, vals [][]float64, key string, k int) float64 {
		if r, ok := idx[key]; ok {
			return vals[r][k]
		}
		return math.NaN()
	}
	regs := Table{Name: "regions", Title: "Per-region improvement = T_a/T_b and change = 100*(T_b − T_a)/T_a at each common p"}
	var names []string
	var rp, ea, eb, ie, ce, ia, ib, ii, ci []float64
	for _, key := range keys {
		for _, pr := range pairs {
			xe, ye := get(ra, da.excl, key, pr.a), get(rb, db.excl, key, pr.b)
			xi, yi := get(ra, da.incl, key, pr.a), get(rb, db.incl, key, pr.b)
			if math.IsNaN(xe) && math.IsNaN(ye) {
				continue
			}
			names = append(names, key)
			rp = append(rp, pr.p)
			ea, eb = append(ea, xe), append(eb, ye)
			i, c := improvement(xe, ye)
			ie, ce = append(ie, i), append(ce, c)
			ia, ib = append(ia, xi), append(ib, yi)
			i, c = improvement(xi, yi)
			ii, ci = append(ii, i), append(ci, c)
		}
	}
	regs.AddText("region", names)
	regs.AddNum("p", "", rp)
	regs.AddNum("exclusive_a", da.unit, ea)
	regs.AddNum("exclusive_b", da.unit, eb)
	regs.AddNum("improvement_exclusive", "", ie)
	regs.AddNum("change_exclusive_percent", "%", ce)
	regs.AddNum("inclusive_a", da.unit, ia)
	regs.AddNum("inclusive_b", da.unit, ib)
	regs.AddNum("improvement_inclusive", "", ii)
	regs.AddNum("change_inclusive_percent", "%", ci)
	return regs
}

// improvement returns T_a/T_b and 100*(T_b − T_a)/T_a, NaN where undefined.
func improvement(ta, tb float64) (ratio, change float64) {
	ratio, change = math.NaN(), math.NaN()
	if ta > 0 && tb > 0 {
		ratio = ta / tb
	}
	if ta > 0 && defined(tb) {
		change = 100 * (tb - ta) / ta
	}
	return ratio, change
}

// joinNames joins experiment names with ", " for Params.
func joinNames(names []string) string { return strings.Join(names, ", ") }
