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
	// Suggest, when > 0, adds table "suggestions": the Suggest values of p
	// whose measurement would most narrow the program's prediction at
	// Predict (SuggestMeasurements), with each run's estimated cost.
	Suggest int
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
	st, err := newScalStudy(exps, opt)
	if err != nil {
		return nil, err
	}
	res := st.newResult()
	res.AddTable(st.programTable())
	res.AddTable(st.regionsTable())
	res.AddTable(st.modelsTable())
	if len(st.points[0]) > 0 {
		res.AddTable(st.curveTable())
	}
	stops := st.stops()
	res.AddTable(st.stopTable(stops))
	grows := st.growth()
	res.AddTable(st.growthTable(grows))
	st.findings(res, stops, grows)
	if opt.Suggest > 0 {
		if err := st.suggest(res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// suggest adds table "suggestions" and its finding for the program.
func (st *scalStudy) suggest(res *Result) error {
	x, _ := st.xy(0)
	sug, err := SuggestMeasurements(st.models[0], x, st.predict, st.opt.Suggest)
	if err != nil {
		return err
	}
	t := Table{Name: "suggestions", Title: fmt.Sprintf("Where to measure next to narrow the program's prediction at p = %s: the 95%% confidence half-width of the model's value there now and after one more run at p, and that run's time and process-time (p × time) from the model", formatNum(st.predict))}
	var rank, p, before, after, red, tm, cost []float64
	for i, s := range sug {
		rank, p, before, after = append(rank, float64(i+1)), append(p, s.P), append(before, s.HalfBefore), append(after, s.HalfAfter)
		red, tm, cost = append(red, 100*s.Reduction), append(tm, s.Time), append(cost, s.Cost)
	}
	t.AddNum("rank", "", rank)
	t.AddNum("p", "", p)
	t.AddNum("half_width_now", st.d.unit, before)
	t.AddNum("half_width_after", st.d.unit, after)
	t.AddNum("reduction_percent", "%", red)
	t.AddNum("run_time", st.d.unit, tm)
	t.AddNum("process_time", "", cost)
	res.AddTable(t)
	if len(sug) == 0 {
		res.Findf("No measurement to suggest: the program's model has no interval (too few points) or every candidate p is measured.")
		return nil
	}
	s := sug[0]
	if !(s.HalfBefore > 1e-6*math.Abs(st.models[0].Eval(st.predict))) { // rounding noise: an exact fit
		res.Findf("The program's model fits its points exactly (no residual): its prediction at p = %s has no interval to narrow; table suggestions lists candidate runs and their cost only.", formatNum(st.predict))
		return nil
	}
	res.Findf("To narrow the prediction at p = %s, measure next at p = %s: the 95%% confidence half-width there falls from %s to %s (−%.0f%%), for a run of about %s (model estimate; table suggestions ranks %d).",
		formatNum(st.predict), formatNum(s.P), formatMicrosOrValue(st.d, s.HalfBefore), formatMicrosOrValue(st.d, s.HalfAfter), 100*s.Reduction,
		formatMicrosOrValue(st.d, s.Time), len(sug))
	return nil
}

// ModelUnreliableSMAPE is the in-sample SMAPE (percent) above which
// Scalability calls a fitted model unreliable and gives no prediction in
// its findings.
const ModelUnreliableSMAPE = 20

// ExtrapolationLimit is the factor beyond the largest measured p from
// which Scalability warns that a prediction is an extrapolation.
const ExtrapolationLimit = 2

// MinFindingShare is the share of the program's time (percent) a region
// must hold for the stop-scaling and share-growth findings to name it.
const MinFindingShare = 1.0

// scalStudy holds one scalability study: the checked options, the rows
// (row 0 the program, then the regions) and what is computed per row.
type scalStudy struct {
	d                  *seriesData
	opt                ScalabilityOptions
	b                  int
	ps                 []float64
	pb, thr, predict   float64
	names              []string
	vals               [][]float64 // per row, per experiment
	sp, ideal, eff, kf [][]float64
	points             [][]int // per row, the experiments with a value
	models             []Model
	segs               []SegModel // two-segment models, where they beat one (segOK)
	segOK              []bool
	amdahl             []amdahlFit
}

// amdahlFit is an Amdahl fit and whether it fits: f, T_1 and 1/f are NaN
// when f is outside [0, 1], and note says why.
type amdahlFit struct {
	f, t1, max float64
	note       string
}

func newScalStudy(exps []Experiment, opt ScalabilityOptions) (*scalStudy, error) {
	d, err := collect(exps, opt.SeriesOptions)
	if err != nil {
		return nil, err
	}
	st := &scalStudy{d: d, opt: opt, ps: d.ps()}
	if err := CheckPVaries("scalability", st.ps); err != nil {
		return nil, err
	}
	if st.b, err = d.baseline(opt.Baseline); err != nil {
		return nil, err
	}
	st.pb = st.ps[st.b]
	switch st.thr = opt.Threshold; {
	case st.thr == 0:
		st.thr = DefaultEfficiencyThreshold
	case !(st.thr > 0) || math.IsInf(st.thr, 0):
		return nil, fmt.Errorf("efficiency threshold %v: want a number > 0", opt.Threshold)
	}
	switch st.predict = opt.Predict; {
	case st.predict == 0:
		st.predict = 2 * st.ps[len(st.ps)-1]
	case !(st.predict > 0) || math.IsInf(st.predict, 0):
		return nil, fmt.Errorf("prediction point p = %v: want a number > 0", opt.Predict)
	}
	st.rows()
	st.scaling()
	st.fit()
	return st, nil
}

// rows lists the program, then the regions in decreasing baseline value.
func (st *scalStudy) rows() {
	vals := st.d.excl
	if st.opt.Inclusive {
		vals = st.d.incl
	}
	st.vals = append(st.vals, st.d.main)
	st.names = append(st.names, st.d.mainName)
	for _, r := range regionOrder(st.d, vals, st.b) {
		st.vals = append(st.vals, vals[r])
		st.names = append(st.names, st.d.regions[r])
	}
}

// scaling computes speedup, efficiency and the Karp-Flatt fraction of
// every row and experiment; a Karp-Flatt fraction outside [0, 1] is NaN
// (karpFlattNote says why).
func (st *scalStudy) scaling() {
	n := len(st.ps)
	for _, v := range st.vals {
		sp, ideal, eff, kf := make([]float64, n), make([]float64, n), make([]float64, n), nanSlice(n)
		for k := range n {
			sp[k], ideal[k], eff[k] = Scaling(v[st.b], st.pb, v[k], st.ps[k], st.opt.Weak)
			if !st.opt.Weak {
				if e := KarpFlatt(sp[k], st.ps[k]/st.pb); e >= 0 && e <= 1 {
					kf[k] = e
				}
			}
		}
		st.sp, st.ideal, st.eff, st.kf = append(st.sp, sp), append(st.ideal, ideal), append(st.eff, eff), append(st.kf, kf)
	}
}

// karpFlattNote says why the Karp-Flatt fraction of row i at experiment k
// is undefined, "" when it is defined or not applicable.
func (st *scalStudy) karpFlattNote(i, k int) string {
	if st.opt.Weak || !(st.ps[k] > st.pb) {
		return ""
	}
	switch e := KarpFlatt(st.sp[i][k], st.ps[k]/st.pb); {
	case e > 1:
		return "undefined: slower than the baseline (speedup below 1)"
	case e < 0:
		return "undefined: superlinear speedup"
	}
	return ""
}

// fit fits the model and Amdahl's law of every row with at least one point.
func (st *scalStudy) fit() {
	n := len(st.ps)
	bases := map[string]*modelBasis{}
	keys := make([]string, len(st.vals))
	st.points = make([][]int, len(st.vals))
	for i, v := range st.vals {
		var mask strings.Builder
		for k := range n {
			if defined(v[k]) && v[k] >= 0 {
				st.points[i] = append(st.points[i], k)
				mask.WriteByte('1')
			} else {
				mask.WriteByte('0')
			}
		}
		keys[i] = mask.String()
		if _, ok := bases[keys[i]]; !ok && len(st.points[i]) > 0 {
			x, _ := st.xy(i)
			bases[keys[i]] = newModelBasis(x)
		}
	}
	st.models = make([]Model, len(st.vals))
	st.amdahl = make([]amdahlFit, len(st.vals))
	st.segs, st.segOK = make([]SegModel, len(st.vals)), make([]bool, len(st.vals))
	parallelRows(len(st.vals), func(i int) {
		if len(st.points[i]) == 0 {
			return
		}
		x, y := st.xy(i)
		st.models[i] = bases[keys[i]].fit(y)
		st.amdahl[i] = fitAmdahl(x, y, st.opt.Weak)
		if st.distinctP(i) >= 2*ModelSegmentMinPoints {
			st.segs[i], st.segOK[i], _ = FitSegmented(x, y)
		}
	})
}

// xy returns the p and values of row i's points.
func (st *scalStudy) xy(i int) (x, y []float64) {
	for _, k := range st.points[i] {
		x, y = append(x, st.ps[k]), append(y, st.vals[i][k])
	}
	return x, y
}

// fitAmdahl fits Amdahl's law and keeps f only inside [0, 1].
func fitAmdahl(x, y []float64, weak bool) amdahlFit {
	a := amdahlFit{f: math.NaN(), t1: math.NaN(), max: math.NaN()}
	if weak {
		a.note = "not applicable (weak scaling)"
		return a
	}
	f, t1, ok := Amdahl(x, y)
	switch {
	case !ok:
		a.note = "not defined (fewer than two distinct p)"
	case f > 1:
		a.note = "does not fit Amdahl: the time grows with p"
	case f < 0:
		a.note = "does not fit Amdahl: the time falls faster than 1/p"
	default:
		a.f, a.t1, a.note = f, t1, "fits"
		if f > 0 {
			a.max = 1 / f
		}
	}
	return a
}

func (st *scalStudy) newResult() *Result {
	res := st.d.newResult("scalability")
	res.Params["baseline"] = st.d.names[st.b]
	res.Params["baseline_p"] = formatNum(st.pb)
	res.Params["scaling"] = scalingName(st.opt.Weak)
	res.Params["value"] = valueKind(st.opt.Inclusive)
	res.Params["threshold"] = formatNum(st.thr)
	res.Params["predict_p"] = formatNum(st.predict)
	res.Params["model_exponents"] = modelExponentsParam()
	res.Params["model_log_exponents"] = "-2,-1,0,1,2"
	res.Params["model_selection"] = ModelSelection
	return res
}

// share is 100*v/T_program of experiment k.
func (st *scalStudy) share(v float64, k int) float64 {
	if st.d.main[k] > 0 && defined(v) {
		return 100 * v / st.d.main[k]
	}
	return math.NaN()
}

func (st *scalStudy) programTable() Table {
	d := st.d
	t := Table{Name: "program", Title: fmt.Sprintf("Program %s scaling of %s (main region's inclusive value, %s) against %s (p_b = %s); %s; karp_flatt = (1/S − 1/p')/(1 − 1/p'), p' = p/p_b, shown only within [0, 1]",
		scalingName(st.opt.Weak), d.metric, d.aggregateLabel(), d.names[st.b], formatNum(st.pb), scalingFormula(st.opt.Weak))}
	notes := make([]string, len(st.ps))
	for k := range st.ps {
		notes[k] = st.karpFlattNote(0, k)
	}
	t.AddText("experiment", append([]string(nil), d.names...))
	t.AddNum("p", "", append([]float64(nil), st.ps...))
	t.AddNum("time", d.unit, append([]float64(nil), d.main...))
	t.AddNum("speedup", "", st.sp[0])
	t.AddNum("ideal_speedup", "", st.ideal[0])
	t.AddNum("efficiency", "", st.eff[0])
	t.AddNum("karp_flatt", "", st.kf[0])
	t.AddText("karp_flatt_note", notes)
	return t
}

func (st *scalStudy) regionsTable() Table {
	d := st.d
	t := Table{Name: "regions", Title: fmt.Sprintf("Per-region %s scaling of the %s %s (%s) against %s; share = 100*T/T_program; karp_flatt only within [0, 1]",
		scalingName(st.opt.Weak), valueKind(st.opt.Inclusive), d.metric, d.aggregateLabel(), d.names[st.b])}
	var rn, en []string
	var rp, rv, rs, re, rk, rsh []float64
	for i := 1; i < len(st.vals); i++ {
		for k := range st.ps {
			rn, en = append(rn, st.names[i]), append(en, d.names[k])
			rp, rv = append(rp, st.ps[k]), append(rv, st.vals[i][k])
			rs, re, rk = append(rs, st.sp[i][k]), append(re, st.eff[i][k]), append(rk, st.kf[i][k])
			rsh = append(rsh, st.share(st.vals[i][k], k))
		}
	}
	t.AddText("region", rn)
	t.AddText("experiment", en)
	t.AddNum("p", "", rp)
	t.AddNum("value", d.unit, rv)
	t.AddNum("speedup", "", rs)
	t.AddNum("efficiency", "", re)
	t.AddNum("karp_flatt", "", rk)
	t.AddNum("share_percent", "%", rsh)
	return t
}

// reliability lists what limits the trust in row i's model and its
// prediction: a poor fit, an extrapolation beyond ExtrapolationLimit times
// the largest measured p, a non-positive prediction, near ties; "ok" when
// nothing does.
func (st *scalStudy) reliability(i int) string {
	m := st.models[i]
	var notes []string
	if m.SMAPE > ModelUnreliableSMAPE {
		notes = append(notes, fmt.Sprintf("unreliable fit: SMAPE %.3g%% > %d%%", m.SMAPE, ModelUnreliableSMAPE))
	}
	if last := st.ps[st.points[i][len(st.points[i])-1]]; st.predict > ExtrapolationLimit*last {
		notes = append(notes, fmt.Sprintf("extrapolated %.3g× beyond the largest measured p (%s)", st.predict/last, formatNum(last)))
	}
	if !(m.Eval(st.predict) > 0) {
		notes = append(notes, "non-positive prediction")
	}
	if b := ModelTermBound(st.distinctP(i)); b != "" {
		notes = append(notes, b)
	}
	if len(m.NearTies) > 0 {
		notes = append(notes, fmt.Sprintf("%d near tie(s) within Δcriterion < %d", len(m.NearTies), ModelNearTie))
	}
	if len(notes) == 0 {
		return "ok"
	}
	return strings.Join(notes, "; ")
}

// distinctP returns the number of distinct p among row i's points.
func (st *scalStudy) distinctP(i int) int {
	seen := map[float64]bool{}
	for _, k := range st.points[i] {
		seen[st.ps[k]] = true
	}
	return len(seen)
}

// ModelTermBound says how n distinct parameter values bound the model's
// terms (a hypothesis with k coefficients needs k + 2 distinct values:
// one left for the leave-one-out error, one for the residual): "" from
// ModelMinPointsTwoTerm (5) on, else what is left out.
func ModelTermBound(n int) string {
	switch {
	case n >= ModelMinPointsTwoTerm:
		return ""
	case n >= ModelMinPointsOneTerm:
		return fmt.Sprintf("%d distinct p: at most one term (two terms need %d)", n, ModelMinPointsTwoTerm)
	}
	return fmt.Sprintf("%d distinct p: constant only (a term needs %d)", n, ModelMinPointsOneTerm)
}

// positive returns v when it is a positive number, else NaN.
func positive(v float64) float64 {
	if v > 0 && !math.IsInf(v, 0) {
		return v
	}
	return math.NaN()
}

func (st *scalStudy) modelsTable() Table {
	d := st.d
	t := Table{Name: "models", Title: fmt.Sprintf("Scaling models of the program and of each region's %s %s: Amdahl T(p) = T_1*(f + (1−f)/p), shown only when f is in [0, 1]; model y = c0 + c1*p^exp1*log2(p)^log1 + c2*p^exp2*log2(p)^log2 fitted on relative errors and chosen by leave-one-out error (model_selection); predicted at p = %s with its 95%% prediction interval (non-positive predictions left out); reliability and the best near tie (Δcriterion < %d)",
		valueKind(st.opt.Inclusive), d.metric, formatNum(st.predict), ModelNearTie)}
	var name, kind, model, amd, rel, tie []string
	var pts, pFirst, pLast, eff, kf, aF, aT1, aMax, c0, c1, e1, l1, c2, e2, l2, rss, adj, smape, cv, pred, lo, hi, nTies, tiePred []float64
	for i := range st.vals {
		if len(st.points[i]) == 0 {
			continue
		}
		m, a := st.models[i], st.amdahl[i]
		first, lastK := st.points[i][0], st.points[i][len(st.points[i])-1]
		name, kind = append(name, st.names[i]), append(kind, map[bool]string{true: "program", false: "region"}[i == 0])
		pts, pFirst, pLast = append(pts, float64(len(st.points[i]))), append(pFirst, st.ps[first]), append(pLast, st.ps[lastK])
		eff, kf = append(eff, st.eff[i][lastK]), append(kf, st.kf[i][lastK])
		aF, aT1, aMax, amd = append(aF, a.f), append(aT1, a.t1), append(aMax, a.max), append(amd, a.note)
		model, c0 = append(model, m.String()), append(c0, m.Constant)
		for j, cols := range [2][3]*[]float64{{&c1, &e1, &l1}, {&c2, &e2, &l2}} {
			c, e, l := math.NaN(), math.NaN(), math.NaN()
			if j < len(m.Terms) {
				c, e, l = m.Coefs[j], m.Terms[j].Exp, float64(m.Terms[j].Log)
			}
			*cols[0], *cols[1], *cols[2] = append(*cols[0], c), append(*cols[1], e), append(*cols[2], l)
		}
		rss, adj, smape, cv = append(rss, m.RSS), append(adj, m.AdjR2), append(smape, m.SMAPE), append(cv, m.CVSMAPE)
		l, h := m.PredictionInterval(st.predict, 0.95)
		pred, lo, hi = append(pred, positive(m.Eval(st.predict))), append(lo, l), append(hi, h)
		rel, nTies = append(rel, st.reliability(i)), append(nTies, float64(len(m.NearTies)))
		tm, tp := "", math.NaN()
		if len(m.NearTies) > 0 {
			tm, tp = m.NearTies[0].String(), positive(m.NearTies[0].Eval(st.predict))
		}
		tie, tiePred = append(tie, tm), append(tiePred, tp)
	}
	t.AddText("region", name)
	t.AddText("kind", kind)
	t.AddNum("points", "", pts)
	t.AddNum("p_first", "", pFirst)
	t.AddNum("p_last", "", pLast)
	t.AddNum("efficiency_max_p", "", eff)
	t.AddNum("karp_flatt_max_p", "", kf)
	t.AddNum("amdahl_serial_fraction", "", aF)
	t.AddNum("amdahl_t1", d.unit, aT1)
	t.AddNum("amdahl_max_speedup", "", aMax)
	t.AddText("amdahl", amd)
	t.AddText("model", model)
	for _, c := range []struct {
		name, unit string
		v          []float64
	}{{"c0", d.unit, c0}, {"c1", d.unit, c1}, {"exp1", "", e1}, {"log1", "", l1}, {"c2", d.unit, c2}, {"exp2", "", e2}, {"log2", "", l2}} {
		t.AddNum(c.name, c.unit, c.v)
	}
	rssUnit := ""
	if d.unit == "us" {
		rssUnit = "us^2"
	}
	t.AddNum("rss", rssUnit, rss)
	t.AddNum("adj_r2", "", adj)
	t.AddNum("smape_percent", "%", smape)
	t.AddNum("cv_smape_percent", "%", cv)
	t.AddNum("predicted", d.unit, pred)
	t.AddNum("predicted_low", d.unit, lo)
	t.AddNum("predicted_high", d.unit, hi)
	t.AddText("reliability", rel)
	st.addSegmentColumns(&t)
	t.AddNum("near_ties", "", nTies)
	t.AddText("tie_model", tie)
	t.AddNum("tie_predicted", d.unit, tiePred)
	return t
}

// addSegmentColumns adds the two-segment model of every row with a model
// (segmented_model, "" when one model is enough) and its change point
// (change_p, the first p of the right segment; NaN).
func (st *scalStudy) addSegmentColumns(t *Table) {
	var segText []string
	var change []float64
	for i := range st.vals {
		if len(st.points[i]) == 0 {
			continue
		}
		if st.segOK[i] {
			segText, change = append(segText, st.segs[i].String()), append(change, st.segs[i].FirstRight)
		} else {
			segText, change = append(segText, ""), append(change, math.NaN())
		}
	}
	t.AddText("segmented_model", segText)
	t.AddNum("change_p", "", change)
}

// curvePoints is the number of p at which table program_curve evaluates
// the program's model.
const curvePoints = 24

// curveTable evaluates the program's model, its 95% prediction interval
// and its two-segment model (when one was found) at curvePoints values of
// p spaced geometrically from the smallest measured p to the larger of
// the largest measured p and the prediction point: the data of the
// report's model chart.
func (st *scalStudy) curveTable() Table {
	m := st.models[0]
	x, _ := st.xy(0)
	lo, hi := x[0], math.Max(x[len(x)-1], st.predict)
	t := Table{Name: "program_curve", Title: fmt.Sprintf("The program's model at %d values of p from %s to %s, with its 95%% prediction interval and, where a change of regime was found, the two-segment model (NaN elsewhere)", curvePoints, formatNum(lo), formatNum(hi))}
	var ps, model, low, high, seg []float64
	for k := range curvePoints {
		p := lo * math.Pow(hi/lo, float64(k)/float64(curvePoints-1))
		if lo == hi {
			p = lo
		}
		l, h := m.PredictionInterval(p, 0.95)
		sv := math.NaN()
		if st.segOK[0] {
			sv = st.segs[0].Eval(p)
		}
		ps, model, low, high, seg = append(ps, p), append(model, m.Eval(p)), append(low, l), append(high, h), append(seg, sv)
	}
	t.AddNum("p", "", ps)
	t.AddNum("model", st.d.unit, model)
	t.AddNum("predicted_low", st.d.unit, low)
	t.AddNum("predicted_high", st.d.unit, high)
	t.AddNum("segmented", st.d.unit, seg)
	return t
}

// stopRow is a region whose efficiency falls below the threshold.
type stopRow struct {
	row, k        int     // region row, experiment where it stops
	eff, share    float64 // at k
	shareMax      float64 // share at the series' largest p (0 when absent there)
	lastEff       float64 // efficiency at the region's largest p
	pFirst, pLast float64 // the p range where the region exists
}

// stops finds the regions whose efficiency falls below the threshold at
// some p > p_b, ranked by the share of the time they hold at the series'
// largest p (the time they cost at scale), then by the p where they stop.
func (st *scalStudy) stops() []stopRow {
	last := len(st.ps) - 1
	var out []stopRow
	for i := 1; i < len(st.vals); i++ {
		pts := st.points[i]
		if len(pts) == 0 {
			continue
		}
		for k := range st.ps {
			if st.ps[k] > st.pb && defined(st.eff[i][k]) && st.eff[i][k] < st.thr {
				s := stopRow{row: i, k: k, eff: st.eff[i][k], share: st.share(st.vals[i][k], k),
					lastEff: st.eff[i][pts[len(pts)-1]], pFirst: st.ps[pts[0]], pLast: st.ps[pts[len(pts)-1]]}
				if s.shareMax = st.share(st.vals[i][last], last); !defined(s.shareMax) {
					s.shareMax = 0
				}
				out = append(out, s)
				break
			}
		}
	}
	sort.SliceStable(out, func(x, y int) bool {
		a, c := out[x], out[y]
		if a.shareMax != c.shareMax {
			return a.shareMax > c.shareMax
		}
		if st.ps[a.k] != st.ps[c.k] {
			return st.ps[a.k] < st.ps[c.k]
		}
		return st.names[a.row] < st.names[c.row]
	})
	return out
}

func (st *scalStudy) stopTable(stops []stopRow) Table {
	t := Table{Name: "stop_scaling", Title: fmt.Sprintf("Regions whose %s efficiency falls below %s, by the share of the time they hold at the largest p (%s), then by the smallest p where they stop; p_first..p_last is where the region exists",
		scalingName(st.opt.Weak), formatNum(st.thr), formatNum(st.ps[len(st.ps)-1]))}
	var rank, stopP, eff, share, shareMax, pFirst, pLast, lastEff []float64
	var name []string
	for i, s := range stops {
		rank, name, stopP = append(rank, float64(i+1)), append(name, st.names[s.row]), append(stopP, st.ps[s.k])
		eff, share, shareMax = append(eff, s.eff), append(share, s.share), append(shareMax, s.shareMax)
		pFirst, pLast, lastEff = append(pFirst, s.pFirst), append(pLast, s.pLast), append(lastEff, s.lastEff)
	}
	t.AddNum("rank", "", rank)
	t.AddText("region", name)
	t.AddNum("stop_p", "", stopP)
	t.AddNum("efficiency", "", eff)
	t.AddNum("share_percent", "%", share)
	t.AddNum("share_max_p_percent", "%", shareMax)
	t.AddNum("p_first", "", pFirst)
	t.AddNum("p_last", "", pLast)
	t.AddNum("efficiency_max_p", "", lastEff)
	return t
}

// growthRow is a region's share of the time against p.
type growthRow struct {
	row                int
	first, last, slope float64
	pFirst, pLast      float64
	atMax              bool // the region exists at the series' largest p
}

// growth ranks the regions with a share at two or more distinct p by the
// least-squares slope of their share against p: first those that exist
// at the series' largest p, then the others (their trend stops before it).
func (st *scalStudy) growth() []growthRow {
	maxP := st.ps[len(st.ps)-1]
	var out []growthRow
	for i := 1; i < len(st.vals); i++ {
		var x, y []float64
		for k := range st.ps {
			if s := st.share(st.vals[i][k], k); defined(s) {
				x, y = append(x, st.ps[k]), append(y, s)
			}
		}
		if len(x) < 2 || x[0] == x[len(x)-1] {
			continue
		}
		_, slope := stat.LinearRegression(x, y, nil, false)
		out = append(out, growthRow{i, y[0], y[len(y)-1], slope, x[0], x[len(x)-1], x[len(x)-1] == maxP})
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].atMax != out[b].atMax {
			return out[a].atMax
		}
		if out[a].slope != out[b].slope {
			return out[a].slope > out[b].slope
		}
		return st.names[out[a].row] < st.names[out[b].row]
	})
	return out
}

func (st *scalStudy) growthTable(grows []growthRow) Table {
	t := Table{Name: "share_growth", Title: "Regions by the least-squares slope of their share of the program's time against p (percentage points per process), largest first; those that exist at the largest p first, then those whose trend stops at p_last"}
	var rank, first, last, slope, pFirst, pLast []float64
	var name []string
	for i, g := range grows {
		rank, name = append(rank, float64(i+1)), append(name, st.names[g.row])
		first, last, slope = append(first, g.first), append(last, g.last), append(slope, g.slope)
		pFirst, pLast = append(pFirst, g.pFirst), append(pLast, g.pLast)
	}
	t.AddNum("rank", "", rank)
	t.AddText("region", name)
	t.AddNum("share_first_percent", "%", first)
	t.AddNum("share_last_percent", "%", last)
	t.AddNum("slope", "%/process", slope)
	t.AddNum("p_first", "", pFirst)
	t.AddNum("p_last", "", pLast)
	return t
}

func (st *scalStudy) findings(res *Result, stops []stopRow, grows []growthRow) {
	st.d.seriesCaveats(res, st.opt.Weak)
	st.programFindings(res)
	st.modelFindings(res)
	named, small := 0, 0
	for _, s := range stops {
		if s.shareMax < MinFindingShare {
			small++
			continue
		}
		if named < 3 {
			res.Findf("Stops scaling at p = %s: %s (efficiency %s, %.1f%% of the time there, %.1f%% at p = %s).",
				formatNum(st.ps[s.k]), st.names[s.row], fmtPercent(s.eff), s.share, s.shareMax, formatNum(st.ps[len(st.ps)-1]))
		}
		named++
	}
	switch {
	case len(stops) == 0:
		res.Findf("No region's efficiency falls below %s.", formatNum(st.thr))
	case named == 0:
		res.Findf("%d region(s) fall below efficiency %s, none holding %.0f%% of the time at the largest p (table stop_scaling).", small, formatNum(st.thr), MinFindingShare)
	}
	n := 0
	for _, g := range grows {
		if n == 3 || !g.atMax || !(g.slope > 0) {
			break
		}
		if g.last < MinFindingShare {
			continue
		}
		res.Findf("Share growing fastest: %s, %.2f%% at p = %s → %.2f%% at p = %s (%+.3g points per process).",
			st.names[g.row], g.first, formatNum(g.pFirst), g.last, formatNum(g.pLast), g.slope)
		n++
	}
}

// programFindings states the program's efficiency, where its time turns
// around, and its Amdahl fit or why there is none.
func (st *scalStudy) programFindings(res *Result) {
	d, last := st.d, len(st.ps)-1
	if last != st.b {
		kf := kfClause(st.kf[0][last])
		if note := st.karpFlattNote(0, last); note != "" {
			kf = ", Karp-Flatt serial fraction " + note
		}
		res.Findf("Program: efficiency %s at p = %s (speedup %s against %s at p = %s)%s.",
			fmtPercent(st.eff[0][last]), formatNum(st.ps[last]), fmtRatio3(st.sp[0][last]), d.names[st.b], formatNum(st.pb), kf)
	}
	if k := st.turnAround(); k >= 0 {
		res.Findf("The program's time turns around: it falls to %s at p = %s, then rises to %s at p = %s (%+.1f%%); beyond p = %s more processes make it slower.",
			formatMicrosOrValue(d, d.main[k]), formatNum(st.ps[k]), formatMicrosOrValue(d, d.main[last]), formatNum(st.ps[last]),
			100*(d.main[last]/d.main[k]-1), formatNum(st.ps[k]))
	}
	switch a := st.amdahl[0]; {
	case st.opt.Weak || len(st.points[0]) == 0:
	case a.note == "fits":
		res.Findf("Amdahl fit of the program: serial fraction %.4g, T_1 ≈ %s.", a.f, formatMicrosOrValue(d, a.t1))
	default:
		res.Findf("The program %s (Amdahl's law T_1*(f + (1−f)/p) needs f in [0, 1]).", strings.Replace(a.note, "does not fit Amdahl", "does not fit Amdahl's law", 1))
	}
}

// turnAround returns the experiment where the program's time is smallest
// when a later experiment takes at least 2% longer (the measured series
// turns around), else -1; only for strong scaling.
func (st *scalStudy) turnAround() int {
	if st.opt.Weak {
		return -1
	}
	m, k := st.d.main, 0
	for i := range m {
		if defined(m[i]) && m[i] < m[k] {
			k = i
		}
	}
	if last := len(m) - 1; k < last && m[last] > 1.02*m[k] {
		return k
	}
	return -1
}

// modelFindings states the program's model with its reliability: no
// prediction from a poor fit or of a non-positive time, the interval,
// extrapolation and turn-around warnings, and the near ties.
func (st *scalStudy) modelFindings(res *Result) {
	if len(st.points[0]) == 0 {
		return
	}
	d, m := st.d, st.models[0]
	p := formatNum(st.predict)
	if b := ModelTermBound(st.distinctP(0)); b != "" {
		res.Findf("The program's model is bounded by its points: %s.", b)
	}
	if st.segOK[0] {
		sg := st.segs[0]
		res.Findf("The program's time changes regime between p = %s and p = %s: T(p) = %s up to p = %s, T(p) = %s from p = %s on (two segments beat one model by Δcriterion = %.3g); the right segment predicts %s at p = %s.",
			formatNum(sg.LastLeft), formatNum(sg.FirstRight), sg.Left, formatNum(sg.LastLeft), sg.Right, formatNum(sg.FirstRight), sg.Gain,
			formatMicrosOrValue(d, sg.Right.Eval(st.predict)), p)
	}
	if m.SMAPE > ModelUnreliableSMAPE {
		res.Findf("Program model: T(p) = %s fits poorly (SMAPE %.3g%% > %d%%): no prediction is given.", m.String(), m.SMAPE, ModelUnreliableSMAPE)
		return
	}
	y := m.Eval(st.predict)
	if !(y > 0) {
		res.Findf("Program model: T(p) = %s (SMAPE %.3g%%) gives a non-positive time at p = %s: it cannot be used there.", m.String(), m.SMAPE, p)
		return
	}
	interval := ""
	if lo, hi := m.PredictionInterval(st.predict, 0.95); defined(lo) {
		interval = fmt.Sprintf(" (95%% prediction interval %s to %s)", formatMicrosOrValue(d, math.Max(lo, 0)), formatMicrosOrValue(d, hi))
	}
	res.Findf("Program model: T(p) = %s (SMAPE %.3g%%), predicting %s at p = %s%s.", m.String(), m.SMAPE, formatMicrosOrValue(d, y), p, interval)

	last := st.ps[st.points[0][len(st.points[0])-1]]
	if st.predict > ExtrapolationLimit*last {
		res.Findf("The prediction at p = %s extrapolates %.3g× beyond the largest measured p = %s: measure closer to it before relying on it.", p, st.predict/last, formatNum(last))
	}
	if k := st.turnAround(); k >= 0 && y < d.main[len(d.main)-1] {
		res.Findf("The model predicts %s at p = %s, below the %s measured at p = %s, although the measured time rises with p beyond p = %s: the model does not follow the turn.",
			formatMicrosOrValue(d, y), p, formatMicrosOrValue(d, d.main[len(d.main)-1]), formatNum(last), formatNum(st.ps[k]))
	}
	for _, t := range m.NearTies {
		tp := "a non-positive time"
		if v := t.Eval(st.predict); v > 0 {
			tp = formatMicrosOrValue(d, v)
		}
		res.Findf("Near tie (Δcriterion = %.2g): T(p) = %s fits about as well and predicts %s at p = %s.", t.Criterion-m.Criterion, t.String(), tp, p)
	}
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
