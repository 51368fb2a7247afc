package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// ScalabilityMulti models the program and every region over several
// parameters (FitMultiModel): params name how each trial's coordinate is
// read, as ProcessCount reads p ("p" for the process count, "threads",
// "nodes", "hosts", "meta:KEY" for a numeric metadata value). Trials at
// the same coordinates are repetitions; their median (opt.Reduce) is
// fitted and their spread is the noise estimate.
//
// Table "models", the program first (kind "program", its main region's
// inclusive value), then every region with a value in every trial
// (exclusive, or inclusive with opt.Inclusive): region, kind, points
// (distinct coordinates), repetitions_min, rep_noise_percent (pooled
// relative standard deviation of the repetitions), model, terms (each
// term as a product, "; "-separated), c0, coefficients (of the terms, in
// their order, "; "-separated), rss, adj_r2, smape_percent,
// predicted at the largest coordinates with the first parameter doubled
// (or opt.Predict), predicted_low, predicted_high (95% prediction
// interval), reliability. Findings state the program's model with its
// caveats (extrapolation, single repetitions, poor fit). With opt.Suggest
// > 0, table "suggestions" lists the runs that would together most narrow
// the program's prediction (SuggestMultiMeasurements).
func ScalabilityMulti(trials []*drg.Trial, params []string, opt ScalabilityOptions, reduce MultiReduce) (*Result, error) {
	if len(params) < 2 {
		return nil, fmt.Errorf("scalability over parameters: %d --param given, want at least 2 (one parameter is the plain scalability)", len(params))
	}
	s, err := NewSeries(trials, paramFrom(params[0]), "")
	if err != nil {
		return nil, err
	}
	d, err := collect(s, opt.SeriesOptions)
	if err != nil {
		return nil, err
	}
	coords := make([][]float64, len(d.exps))
	for e, ex := range d.exps {
		for _, p := range params {
			v, err := ProcessCount(ex.Trial, paramFrom(p))
			if err != nil {
				return nil, fmt.Errorf("--param %s: %w", p, err)
			}
			if !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("--param %s: trial %q has %v: want a number > 0", p, ex.Trial.Name, v)
			}
			coords[e] = append(coords[e], v)
		}
	}
	at := make([]float64, len(params))
	for _, c := range coords {
		for k, v := range c {
			at[k] = max(at[k], v)
		}
	}
	at[0] *= 2
	if opt.Predict > 0 {
		at[0] = opt.Predict
	}
	res := d.newResult("scalability")
	res.Params["parameters"] = strings.Join(params, ",")
	res.Params["predict_at"] = fmt.Sprint(at)
	res.Params["repetitions"] = map[MultiReduce]string{ReduceMedian: "median", ReduceMean: "mean"}[reduce]
	res.Params["value"] = valueKind(opt.Inclusive)
	res.Params["model_selection"] = MultiModelSelection
	rows, names := multiRows(d, opt.Inclusive)
	models := make([]MultiModel, len(rows))
	errs := make([]error, len(rows))
	parallelRows(len(rows), func(i int) {
		reps := make([][]float64, len(rows[i]))
		for e, v := range rows[i] {
			reps[e] = []float64{v}
		}
		models[i], errs[i] = FitMultiModel(params, coords, reps, reduce)
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("model of %s: %w", names[i], err)
		}
	}
	res.AddTable(multiTable(d, names, models, at, coords))
	if len(params) == 2 {
		res.AddTable(surfaceTable(d, models[0], coords, rows[0], reduce))
	}
	multiFindings(res, d, models[0], at, coords)
	if opt.Suggest > 0 {
		if err := multiSuggest(res, d, models[0], coords, at, opt.Suggest); err != nil {
			return nil, fmt.Errorf("--suggest: %w", err)
		}
	}
	return res, nil
}

// MultiModelSelection describes FitMultiModel's method in one line (the
// result's parameter model_selection).
const MultiModelSelection = "per parameter: single-parameter hypotheses scored on every grid line at once (leave-one-out); then c0 + one or two columns among single-parameter terms and products of candidate terms, weighted least squares on relative errors (1/y^2), chosen by leave-one-out n*ln(PRESS/n) + 2 per coefficient"

// paramFrom maps a --param name to ProcessCount's source ("p" is the
// process count).
func paramFrom(p string) string {
	if strings.EqualFold(strings.TrimSpace(p), "p") {
		return ""
	}
	return p
}

// multiRows returns the program and the regions with a non-negative value
// in every experiment.
func multiRows(d *seriesData, inclusive bool) (rows [][]float64, names []string) {
	rows, names = append(rows, d.main), append(names, d.mainName)
	vals := d.excl
	if inclusive {
		vals = d.incl
	}
	for r, v := range vals {
		ok := true
		for _, x := range v {
			ok = ok && defined(x) && x >= 0
		}
		if ok {
			rows, names = append(rows, v), append(names, d.regions[r])
		}
	}
	return rows, names
}

// multiReliability lists what limits the trust in a multi-parameter model.
func multiReliability(m MultiModel, at []float64, coords [][]float64) string {
	var notes []string
	if m.SMAPE > ModelUnreliableSMAPE {
		notes = append(notes, fmt.Sprintf("unreliable fit: SMAPE %.3g%% > %d%%", m.SMAPE, ModelUnreliableSMAPE))
	}
	top := make([]float64, len(at))
	for _, c := range coords {
		for k, v := range c {
			top[k] = max(top[k], v)
		}
	}
	for k := range at {
		if at[k] > ExtrapolationLimit*top[k] {
			notes = append(notes, fmt.Sprintf("%s extrapolated %.3g× beyond its largest measured value", m.Names[k], at[k]/top[k]))
		}
	}
	if m.MinReps == 1 {
		notes = append(notes, "one repetition at some point: no noise estimate there")
	}
	if !(m.Eval(at) > 0) {
		notes = append(notes, "non-positive prediction")
	}
	if len(notes) == 0 {
		return "ok"
	}
	return strings.Join(notes, "; ")
}

// multiTable builds table "models".
func multiTable(d *seriesData, names []string, models []MultiModel, at []float64, coords [][]float64) Table {
	t := Table{Name: "models", Title: fmt.Sprintf("Multi-parameter models (%s) of the program and of every region present in every trial, fitted on relative errors and chosen by leave-one-out error; predicted at %v with the 95%% prediction interval", strings.Join(models[0].Names, ", "), at)}
	var region, kind, model, terms, coefs, rel []string
	var pts, reps, noise, c0, rss, adj, smape, pred, lo, hi []float64
	for i, m := range models {
		var cs []string
		for _, c := range m.Coefs {
			cs = append(cs, fmt.Sprintf("%.6g", c))
		}
		coefs, c0 = append(coefs, strings.Join(cs, "; ")), append(c0, m.Constant)
		region, kind = append(region, names[i]), append(kind, map[bool]string{true: "program", false: "region"}[i == 0])
		model, rel = append(model, m.String()), append(rel, multiReliability(m, at, coords))
		var ts []string
		for _, mt := range m.Terms {
			ts = append(ts, mt.String(m.Names))
		}
		terms = append(terms, strings.Join(ts, "; "))
		pts, reps, noise = append(pts, float64(m.Points)), append(reps, float64(m.MinReps)), append(noise, 100*m.RepNoise)
		rss, adj, smape = append(rss, m.RSS), append(adj, m.AdjR2), append(smape, m.SMAPE)
		l, h := m.PredictionInterval(at, 0.95)
		pred, lo, hi = append(pred, positive(m.Eval(at))), append(lo, l), append(hi, h)
	}
	t.AddText("region", region)
	t.AddText("kind", kind)
	t.AddNum("points", "", pts)
	t.AddNum("repetitions_min", "", reps)
	t.AddNum("rep_noise_percent", "%", noise)
	t.AddText("model", model)
	t.AddText("terms", terms)
	t.AddNum("c0", d.unit, c0)
	t.AddText("coefficients", coefs)
	t.AddNum("rss", "", rss)
	t.AddNum("adj_r2", "", adj)
	t.AddNum("smape_percent", "%", smape)
	t.AddNum("predicted", d.unit, pred)
	t.AddNum("predicted_low", d.unit, lo)
	t.AddNum("predicted_high", d.unit, hi)
	t.AddText("reliability", rel)
	return t
}

// multiFindings states the program's model and its caveats.
func multiFindings(res *Result, d *seriesData, m MultiModel, at []float64, coords [][]float64) {
	if m.MinReps == 1 {
		res.Findf("Some parameter points have a single trial: the model fits that value as is, with no noise estimate there.")
	}
	y := m.Eval(at)
	switch {
	case m.SMAPE > ModelUnreliableSMAPE:
		res.Findf("Program model: T = %s fits poorly (SMAPE %.3g%% > %d%%): no prediction is given.", m, m.SMAPE, ModelUnreliableSMAPE)
		return
	case !(y > 0):
		res.Findf("Program model: T = %s gives a non-positive time at %v: it cannot be used there.", m, at)
		return
	}
	lo, hi := m.PredictionInterval(at, 0.95)
	res.Findf("Program model: T = %s (SMAPE %.3g%%, repetition noise %.3g%%), predicting %s at %s = %v (95%% prediction interval %s to %s).",
		m, m.SMAPE, 100*m.RepNoise, formatMicrosOrValue(d, y), strings.Join(m.Names, ", "), at, formatMicrosOrValue(d, math.Max(lo, 0)), formatMicrosOrValue(d, hi))
	if rel := multiReliability(m, at, coords); rel != "ok" {
		res.Findf("Caveats of the program's prediction: %s.", rel)
	}
}

// surfaceTable lists, for two parameters, the program's model and its
// measured (reduced) value at every measured combination of the two
// parameters' values, in long form: x1, x2, model, measured (NaN where the
// combination was not measured), the data of the report's heat map.
func surfaceTable(d *seriesData, m MultiModel, coords [][]float64, vals []float64, reduce MultiReduce) Table {
	var xs1, xs2 []float64
	seen1, seen2 := map[float64]bool{}, map[float64]bool{}
	byPt := map[[2]float64][]float64{}
	for e, c := range coords {
		if !seen1[c[0]] {
			seen1[c[0]], xs1 = true, append(xs1, c[0])
		}
		if !seen2[c[1]] {
			seen2[c[1]], xs2 = true, append(xs2, c[1])
		}
		k := [2]float64{c[0], c[1]}
		byPt[k] = append(byPt[k], vals[e])
	}
	sort.Float64s(xs1)
	sort.Float64s(xs2)
	t := Table{Name: "program_surface", Title: fmt.Sprintf("The program's model and its measured value (%s of the repetitions) at every combination of %s and %s", map[MultiReduce]string{ReduceMedian: "median", ReduceMean: "mean"}[reduce], m.Names[0], m.Names[1])}
	var c1, c2, model, meas []float64
	for _, a := range xs1 {
		for _, b := range xs2 {
			v := math.NaN()
			if r := byPt[[2]float64{a, b}]; len(r) > 0 {
				v = medianOf(r)
				if reduce == ReduceMean {
					v = meanOf(r)
				}
			}
			c1, c2, model, meas = append(c1, a), append(c2, b), append(model, m.Eval([]float64{a, b})), append(meas, v)
		}
	}
	t.AddNum("x1", "", c1)
	t.AddNum("x2", "", c2)
	t.AddNum("model", d.unit, model)
	t.AddNum("measured", d.unit, meas)
	return t
}
