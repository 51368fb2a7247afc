package analysis

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/stat"
)

// DefaultEfficiencyThreshold is the efficiency below which Scalability says
// a region has stopped scaling, when ScalabilityOptions.Threshold is 0.
const DefaultEfficiencyThreshold = 0.5

// ScalabilityOptions select how Scalability studies the series.
type ScalabilityOptions struct {
	SeriesOptions
	// Baseline names the baseline experiment (see SpeedupOptions.Baseline).
	Baseline string
	// Weak selects weak scaling (see Scaling); Karp-Flatt and Amdahl, laws
	// of strong scaling, are then left undefined (NaN).
	Weak bool
	// Inclusive studies the regions' inclusive values; the default is
	// exclusive. The program is always the main region's inclusive value.
	Inclusive bool
	// Threshold is the efficiency below which a region has stopped
	// scaling: 0 means DefaultEfficiencyThreshold (0.5).
	Threshold float64
	// Predict is the p at which every fitted model is evaluated: 0 means
	// twice the largest P of the series.
	Predict float64
}

// Scalability studies how the program and each region of the flat view
// scale across the experiments (PerfExplorer's scalability analysis,
// SCALEA's multi-experiment analysis): efficiency and Karp-Flatt serial
// fraction per experiment, an Amdahl fit and a fitted performance model
// (FitModel) per region, and the regions that stop scaling first or whose
// share of the time grows fastest.
//
// Values are as in Speedup: the chosen metric aggregated over each
// experiment's threads (SeriesOptions.Aggregate, "max" by default), the
// program's time being the main region's inclusive value. Against the
// baseline (T_b on p_b processes), for each experiment on p processes:
//
//	speedup, efficiency  Scaling (strong: T_b/T_p and (T_b*p_b)/(T_p*p))
//	karp_flatt           KarpFlatt(speedup, p/p_b) = (1/S − 1/p')/(1 − 1/p'),
//	                     p' = p/p_b, for p' > 1 (NaN otherwise, and for weak
//	                     scaling)
//	share_percent        100*T/T_program of the same experiment
//
// Table "program" (one row per experiment in P order): experiment, p, time,
// speedup, ideal_speedup, efficiency, karp_flatt. Table "regions" (one row
// per region and experiment, regions by decreasing baseline value): region,
// experiment, p, value, speedup, efficiency, karp_flatt, share_percent.
//
// Table "models", the program first (kind "program", named after its main
// region), then every region with at least one value: points (experiments
// that have it), efficiency_max_p and karp_flatt_max_p (at the largest p
// the region has), the Amdahl fit (Amdahl: amdahl_serial_fraction f,
// amdahl_t1 = T_1 estimated, amdahl_max_speedup = 1/f for f > 0; strong
// scaling only), the fitted model (FitModel over the actual p; model text,
// c0, c1, exp1, log1, c2, exp2, log2: y = c0 + c1*p^exp1*log2(p)^log1 +
// c2*p^exp2*log2(p)^log2, NaN for absent terms), rss, adj_r2,
// smape_percent, cv_smape_percent, and predicted = the model at p =
// Predict.
//
// Table "stop_scaling": the regions whose efficiency falls below Threshold
// at some p > p_b, ranked by that smallest p, then by their share of the
// time there (largest first): rank, region, stop_p, efficiency (at stop_p),
// share_percent (at stop_p), efficiency_max_p.
//
// Table "share_growth" (PerfExplorer's "negative reasons" for poor
// scaling): every region with a share at two or more distinct p, ranked by
// slope = the least-squares slope of share_percent against p (percentage
// points per process, gonum's stat.LinearRegression), largest first: rank,
// region, share_first_percent (at its smallest p), share_last_percent (at
// its largest), slope.
func Scalability(exps []Experiment, opt ScalabilityOptions) (*Result, error) {
	d, err := collect(exps, opt.SeriesOptions)
	if err != nil {
		return nil, err
	}
	b, err := d.baseline(opt.Baseline)
	if err != nil {
		return nil, err
	}
	thr := opt.Threshold
	switch {
	case thr == 0:
		thr = DefaultEfficiencyThreshold
	case !(thr > 0) || math.IsInf(thr, 0):
		return nil, fmt.Errorf("efficiency threshold %v: want a number > 0", opt.Threshold)
	}
	ps := d.ps()
	predict := opt.Predict
	switch {
	case predict == 0:
		predict = 2 * ps[len(ps)-1]
	case !(predict > 0) || math.IsInf(predict, 0):
		return nil, fmt.Errorf("prediction point p = %v: want a number > 0", opt.Predict)
	}
	vals := d.excl
	if opt.Inclusive {
		vals = d.incl
	}
	res := d.newResult("scalability")
	res.Params["baseline"] = d.names[b]
	res.Params["baseline_p"] = formatNum(ps[b])
	res.Params["scaling"] = scalingName(opt.Weak)
	res.Params["value"] = valueKind(opt.Inclusive)
	res.Params["threshold"] = formatNum(thr)
	res.Params["predict_p"] = formatNum(predict)
	res.Params["model_exponents"] = modelExponentsParam()
	res.Params["model_log_exponents"] = "0,1,2"
	res.Params["model_selection"] = "AICc (k = coefficients), term contribution >= 0.0005"

	n := len(d.exps)
	pb := ps[b]
	// Rows: the program (row 0), then the regions in decreasing baseline
	// value.
	ord := regionOrder(d, vals, b)
	rowVals := make([][]float64, 0, len(ord)+1)
	rowNames := make([]string, 0, len(ord)+1)
	rowVals = append(rowVals, d.main)
	rowNames = append(rowNames, d.mainName)
	for _, r := range ord {
		rowVals = append(rowVals, vals[r])
		rowNames = append(rowNames, d.regions[r])
	}
	type perExp struct{ sp, ideal, eff, kf []float64 }
	series := make([]perExp, len(rowVals))
	for i, v := range rowVals {
		s := perExp{make([]float64, n), make([]float64, n), make([]float64, n), nanSlice(n)}
		for k := range n {
			s.sp[k], s.ideal[k], s.eff[k] = Scaling(v[b], pb, v[k], ps[k], opt.Weak)
			if !opt.Weak {
				s.kf[k] = KarpFlatt(s.sp[k], ps[k]/pb)
			}
		}
		series[i] = s
	}

	prog := Table{Name: "program", Title: fmt.Sprintf("Program %s scaling of %s (main region's inclusive value, %s) against %s (p_b = %s); %s; karp_flatt = (1/S − 1/p')/(1 − 1/p'), p' = p/p_b",
		scalingName(opt.Weak), d.metric, d.aggregateLabel(), d.names[b], formatNum(pb), scalingFormula(opt.Weak))}
	prog.AddText("experiment", append([]string(nil), d.names...))
	prog.AddNum("p", "", append([]float64(nil), ps...))
	prog.AddNum("time", d.unit, append([]float64(nil), d.main...))
	prog.AddNum("speedup", "", series[0].sp)
	prog.AddNum("ideal_speedup", "", series[0].ideal)
	prog.AddNum("efficiency", "", series[0].eff)
	prog.AddNum("karp_flatt", "", series[0].kf)
	res.AddTable(prog)

	share := func(v float64, k int) float64 {
		if d.main[k] > 0 && defined(v) {
			return 100 * v / d.main[k]
		}
		return math.NaN()
	}
	regs := Table{Name: "regions", Title: fmt.Sprintf("Per-region %s scaling of the %s %s (%s) against %s; share = 100*T/T_program",
		scalingName(opt.Weak), valueKind(opt.Inclusive), d.metric, d.aggregateLabel(), d.names[b])}
	var rn, en []string
	var rp, rv, rs, re, rk, rsh []float64
	for i := 1; i < len(rowVals); i++ {
		for k := range n {
			rn = append(rn, rowNames[i])
			en = append(en, d.names[k])
			rp = append(rp, ps[k])
			rv = append(rv, rowVals[i][k])
			rs = append(rs, series[i].sp[k])
			re = append(re, series[i].eff[k])
			rk = append(rk, series[i].kf[k])
			rsh = append(rsh, share(rowVals[i][k], k))
		}
	}
	regs.AddText("region", rn)
	regs.AddText("experiment", en)
	regs.AddNum("p", "", rp)
	regs.AddNum("value", d.unit, rv)
	regs.AddNum("speedup", "", rs)
	regs.AddNum("efficiency", "", re)
	regs.AddNum("karp_flatt", "", rk)
	regs.AddNum("share_percent", "%", rsh)
	res.AddTable(regs)

	// Models: the points of each row are the experiments that have a value.
	points := make([][]int, len(rowVals))
	bases := map[string]*modelBasis{}
	keys := make([]string, len(rowVals))
	for i, v := range rowVals {
		var mask strings.Builder
		for k := range n {
			if defined(v[k]) && v[k] >= 0 {
				points[i] = append(points[i], k)
				mask.WriteByte('1')
			} else {
				mask.WriteByte('0')
			}
		}
		keys[i] = mask.String()
		if _, ok := bases[keys[i]]; !ok && len(points[i]) > 0 {
			x := make([]float64, len(points[i]))
			for j, k := range points[i] {
				x[j] = ps[k]
			}
			bases[keys[i]] = newModelBasis(x)
		}
	}
	models := make([]Model, len(rowVals))
	parallelRows(len(rowVals), func(i int) {
		if len(points[i]) == 0 {
			return
		}
		y := make([]float64, len(points[i]))
		for j, k := range points[i] {
			y[j] = rowVals[i][k]
		}
		models[i] = bases[keys[i]].fit(y)
	})

	mt := Table{Name: "models", Title: fmt.Sprintf("Scaling models of the program and of each region's %s %s: Amdahl T(p) = T_1*(f + (1−f)/p); model y = c0 + c1*p^exp1*log2(p)^log1 + c2*p^exp2*log2(p)^log2 chosen by AICc; predicted at p = %s",
		valueKind(opt.Inclusive), d.metric, formatNum(predict))}
	var mName, mKind, mText []string
	var mPts, mEff, mKF, aF, aT1, aMax, c0, c1, e1, l1, c2, e2, l2, rss, adj, smape, cv, pred []float64
	for i := range rowVals {
		if len(points[i]) == 0 {
			continue
		}
		kind := "region"
		if i == 0 {
			kind = "program"
		}
		mName = append(mName, rowNames[i])
		mKind = append(mKind, kind)
		mPts = append(mPts, float64(len(points[i])))
		lastK := points[i][len(points[i])-1]
		mEff = append(mEff, series[i].eff[lastK])
		mKF = append(mKF, series[i].kf[lastK])
		f, t1, mx := math.NaN(), math.NaN(), math.NaN()
		if !opt.Weak {
			x := make([]float64, len(points[i]))
			y := make([]float64, len(points[i]))
			for j, k := range points[i] {
				x[j], y[j] = ps[k], rowVals[i][k]
			}
			if ff, tt, ok := Amdahl(x, y); ok {
				f, t1 = ff, tt
				if f > 0 {
					mx = 1 / f
				}
			}
		}
		aF, aT1, aMax = append(aF, f), append(aT1, t1), append(aMax, mx)
		m := models[i]
		mText = append(mText, m.String())
		c0 = append(c0, m.Constant)
		termAt := func(j int) (c, e, l float64) {
			if j < len(m.Terms) {
				return m.Coefs[j], m.Terms[j].Exp, float64(m.Terms[j].Log)
			}
			return math.NaN(), math.NaN(), math.NaN()
		}
		c, e, l := termAt(0)
		c1, e1, l1 = append(c1, c), append(e1, e), append(l1, l)
		c, e, l = termAt(1)
		c2, e2, l2 = append(c2, c), append(e2, e), append(l2, l)
		rss = append(rss, m.RSS)
		adj = append(adj, m.AdjR2)
		smape = append(smape, m.SMAPE)
		cv = append(cv, m.CVSMAPE)
		pred = append(pred, m.Eval(predict))
	}
	mt.AddText("region", mName)
	mt.AddText("kind", mKind)
	mt.AddNum("points", "", mPts)
	mt.AddNum("efficiency_max_p", "", mEff)
	mt.AddNum("karp_flatt_max_p", "", mKF)
	mt.AddNum("amdahl_serial_fraction", "", aF)
	mt.AddNum("amdahl_t1", d.unit, aT1)
	mt.AddNum("amdahl_max_speedup", "", aMax)
	mt.AddText("model", mText)
	mt.AddNum("c0", d.unit, c0)
	mt.AddNum("c1", d.unit, c1)
	mt.AddNum("exp1", "", e1)
	mt.AddNum("log1", "", l1)
	mt.AddNum("c2", d.unit, c2)
	mt.AddNum("exp2", "", e2)
	mt.AddNum("log2", "", l2)
	rssUnit := ""
	if d.unit == "us" {
		rssUnit = "us^2"
	}
	mt.AddNum("rss", rssUnit, rss)
	mt.AddNum("adj_r2", "", adj)
	mt.AddNum("smape_percent", "%", smape)
	mt.AddNum("cv_smape_percent", "%", cv)
	mt.AddNum("predicted", d.unit, pred)
	res.AddTable(mt)

	// Regions that stop scaling first.
	type stop struct {
		row        int
		k          int
		eff, share float64
		lastEff    float64
	}
	var stops []stop
	for i := 1; i < len(rowVals); i++ {
		lastEff := math.NaN()
		if pts := points[i]; len(pts) > 0 {
			lastEff = series[i].eff[pts[len(pts)-1]]
		}
		for k := range n {
			if ps[k] > pb && defined(series[i].eff[k]) && series[i].eff[k] < thr {
				stops = append(stops, stop{i, k, series[i].eff[k], share(rowVals[i][k], k), lastEff})
				break
			}
		}
	}
	sort.SliceStable(stops, func(x, y int) bool {
		a, c := stops[x], stops[y]
		if ps[a.k] != ps[c.k] {
			return ps[a.k] < ps[c.k]
		}
		sa, sc := a.share, c.share
		if sa != sc {
			return sa > sc || math.IsNaN(sc)
		}
		return rowNames[a.row] < rowNames[c.row]
	})
	st := Table{Name: "stop_scaling", Title: fmt.Sprintf("Regions whose %s efficiency falls below %s, by the smallest p where it does, then by their share of the time there",
		scalingName(opt.Weak), formatNum(thr))}
	var sRank, sP, sEff, sShare, sLast []float64
	var sName []string
	for i, s := range stops {
		sRank = append(sRank, float64(i+1))
		sName = append(sName, rowNames[s.row])
		sP = append(sP, ps[s.k])
		sEff = append(sEff, s.eff)
		sShare = append(sShare, s.share)
		sLast = append(sLast, s.lastEff)
	}
	st.AddNum("rank", "", sRank)
	st.AddText("region", sName)
	st.AddNum("stop_p", "", sP)
	st.AddNum("efficiency", "", sEff)
	st.AddNum("share_percent", "%", sShare)
	st.AddNum("efficiency_max_p", "", sLast)
	res.AddTable(st)

	// Regions whose share grows fastest.
	type growth struct {
		row                int
		first, last, slope float64
	}
	var grows []growth
	for i := 1; i < len(rowVals); i++ {
		var x, y []float64
		for k := range n {
			if s := share(rowVals[i][k], k); defined(s) {
				x, y = append(x, ps[k]), append(y, s)
			}
		}
		if len(x) < 2 || x[0] == x[len(x)-1] {
			continue
		}
		_, slope := stat.LinearRegression(x, y, nil, false)
		grows = append(grows, growth{i, y[0], y[len(y)-1], slope})
	}
	sort.SliceStable(grows, func(x, y int) bool {
		if grows[x].slope != grows[y].slope {
			return grows[x].slope > grows[y].slope
		}
		return rowNames[grows[x].row] < rowNames[grows[y].row]
	})
	gt := Table{Name: "share_growth", Title: "Regions by the least-squares slope of their share of the program's time against p (percentage points per process), largest first"}
	var gRank, gFirst, gLast, gSlope []float64
	var gName []string
	for i, g := range grows {
		gRank = append(gRank, float64(i+1))
		gName = append(gName, rowNames[g.row])
		gFirst = append(gFirst, g.first)
		gLast = append(gLast, g.last)
		gSlope = append(gSlope, g.slope)
	}
	gt.AddNum("rank", "", gRank)
	gt.AddText("region", gName)
	gt.AddNum("share_first_percent", "%", gFirst)
	gt.AddNum("share_last_percent", "%", gLast)
	gt.AddNum("slope", "%/process", gSlope)
	res.AddTable(gt)

	// Findings.
	last := n - 1
	if last != b {
		res.Findf("Program: efficiency %s at p = %s (speedup %s against %s at p = %s)%s.",
			fmtPercent(series[0].eff[last]), formatNum(ps[last]), fmtRatio3(series[0].sp[last]), d.names[b], formatNum(pb),
			kfClause(series[0].kf[last]))
	}
	if len(models) > 0 && len(points[0]) > 0 {
		res.Findf("Program model: T(p) = %s (SMAPE %.3g%%), predicting %s at p = %s.",
			models[0].String(), models[0].SMAPE, formatMicrosOrValue(d, models[0].Eval(predict)), formatNum(predict))
		if !opt.Weak && defined(aF[0]) {
			res.Findf("Amdahl fit of the program: serial fraction %.4g, T_1 ≈ %s.", aF[0], formatMicrosOrValue(d, aT1[0]))
		}
	}
	for i, s := range stops {
		if i == 3 {
			break
		}
		res.Findf("Stops scaling at p = %s: %s (efficiency %s, %.1f%% of the time there).",
			formatNum(ps[s.k]), rowNames[s.row], fmtPercent(s.eff), s.share)
	}
	if len(stops) == 0 {
		res.Findf("No region's efficiency falls below %s.", formatNum(thr))
	}
	for i, g := range grows {
		if i == 3 || !(g.slope > 0) {
			break
		}
		res.Findf("Share growing fastest: %s, %.2f%% → %.2f%% (%+.3g points per process).",
			rowNames[g.row], g.first, g.last, g.slope)
	}
	return res, nil
}

// kfClause renders the Karp-Flatt fraction for a finding.
func kfClause(kf float64) string {
	if !defined(kf) {
		return ""
	}
	return fmt.Sprintf(", Karp-Flatt serial fraction %.4g", kf)
}

// modelExponentsParam lists ModelExponents as fractions ("-1,-1/2,0,...").
func modelExponentsParam() string {
	s := make([]string, len(ModelExponents))
	for i, e := range ModelExponents {
		num, den := fraction(e)
		if den == 1 {
			s[i] = fmt.Sprint(num)
		} else {
			s[i] = fmt.Sprintf("%d/%d", num, den)
		}
	}
	return strings.Join(s, ",")
}

// parallelRows runs work(i) for every i in [0, n), spread over the
// processors.
func parallelRows(n int, work func(i int)) {
	w := min(runtime.GOMAXPROCS(0), n)
	if w <= 1 {
		for i := range n {
			work(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				work(i)
			}
		}()
	}
	wg.Wait()
}
