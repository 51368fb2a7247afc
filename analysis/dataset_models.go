package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/extrap"
)

// DatasetOptions select how ModelDataset models a measurement file.
type DatasetOptions struct {
	// Source names the file, for the result's parameters and findings.
	Source string
	// Mean fits the mean of each point's repetitions; the default is the
	// median (robust to one slow run).
	Mean bool
	// Predict is the parameter value at which every model is evaluated: 0
	// means twice the largest measured value.
	Predict float64
}

// ModelDataset fits the performance model (FitModel) of every series of a
// measurement file read by package extrap (Extra-P's text or JSON
// formats). Repetitions (several values at one point) are reduced to
// their median (or mean, DatasetOptions.Mean), and their spread is
// reported as the noise: rep_spread_percent = the median over the points
// of 100*(max − min)/median of the repetitions (NaN when every point has
// one repetition, which the reliability column then says).
//
// Table "models", one row per series in the file's order: region, metric,
// points (distinct parameter values), repetitions_min, repetitions_max,
// rep_spread_percent, model, c0, c1, exp1, log1, c2, exp2, log2, rss,
// adj_r2, smape_percent, cv_smape_percent, predicted (at Predict, NaN
// when not positive), predicted_low, predicted_high (95% prediction
// interval), reliability (as in Scalability). A file with several
// parameters is modelled by FitMultiModel (modelDatasetMulti).
func ModelDataset(d *extrap.Dataset, opt DatasetOptions) (*Result, error) {
	if len(d.Params) > 1 {
		return modelDatasetMulti(d, opt)
	}
	if len(d.Params) != 1 {
		return nil, fmt.Errorf("%s: no parameter", opt.Source)
	}
	if !(opt.Predict >= 0) || math.IsInf(opt.Predict, 0) {
		return nil, fmt.Errorf("prediction point %v: want a number > 0", opt.Predict)
	}
	res := &Result{Analysis: "scalability", Params: map[string]string{"input": opt.Source, "parameter": d.Params[0],
		"repetitions": map[bool]string{true: "mean", false: "median"}[opt.Mean], "model_selection": ModelSelection}, Findings: []string{}}
	rows := make([]datasetRow, len(d.Kernels))
	for i, k := range d.Kernels {
		r, err := fitKernel(k, opt)
		if err != nil {
			return nil, fmt.Errorf("%s: region %q metric %q: %w", opt.Source, k.Region, k.Metric, err)
		}
		rows[i] = r
	}
	res.Params["predict_"+d.Params[0]] = formatNum(rows[0].predict)
	res.AddTable(datasetTable(d, rows))
	datasetFindings(res, d, rows)
	return res, nil
}

// modelDatasetMulti fits FitMultiModel to every series of a dataset with
// several parameters: table "models" (region, metric, points,
// repetitions_min, rep_noise_percent, model, terms, rss, adj_r2,
// smape_percent, predicted at the largest coordinates with the first
// doubled (or at Predict), predicted_low, predicted_high, reliability).
func modelDatasetMulti(d *extrap.Dataset, opt DatasetOptions) (*Result, error) {
	reduce := ReduceMedian
	if opt.Mean {
		reduce = ReduceMean
	}
	res := &Result{Analysis: "scalability", Params: map[string]string{"input": opt.Source, "parameters": strings.Join(d.Params, ","),
		"repetitions": map[bool]string{true: "mean", false: "median"}[opt.Mean], "model_selection": ModelSelection}, Findings: []string{}}
	t := Table{Name: "models", Title: fmt.Sprintf("Multi-parameter models (%s) of every series, fitted on relative errors and chosen by leave-one-out error, with the 95%% prediction interval", strings.Join(d.Params, ", "))}
	var region, metric, model, terms, rel []string
	var pts, reps, noise, rss, adj, smape, pred, lo, hi []float64
	for _, k := range d.Kernels {
		m, err := FitMultiModel(d.Params, k.Points, k.Values, reduce)
		if err != nil {
			return nil, fmt.Errorf("%s: region %q metric %q: %w", opt.Source, k.Region, k.Metric, err)
		}
		at := make([]float64, len(d.Params))
		for _, pt := range k.Points {
			for j, v := range pt {
				at[j] = max(at[j], v)
			}
		}
		at[0] *= 2
		if opt.Predict > 0 {
			at[0] = opt.Predict
		}
		region, metric, model = append(region, k.Region), append(metric, k.Metric), append(model, m.String())
		var ts []string
		for _, mt := range m.Terms {
			ts = append(ts, mt.String(m.Names))
		}
		terms, rel = append(terms, strings.Join(ts, "; ")), append(rel, multiReliability(m, at, k.Points))
		pts, reps, noise = append(pts, float64(m.Points)), append(reps, float64(m.MinReps)), append(noise, 100*m.RepNoise)
		rss, adj, smape = append(rss, m.RSS), append(adj, m.AdjR2), append(smape, m.SMAPE)
		l, h := m.PredictionInterval(at, 0.95)
		pred, lo, hi = append(pred, positive(m.Eval(at))), append(lo, l), append(hi, h)
		if len(res.Findings) < 5 {
			res.Findf("%s: %s (SMAPE %.3g%%), predicting %.4g at %s = %v; %s.", strings.TrimSpace(k.Region+" "+k.Metric), m, m.SMAPE, m.Eval(at),
				strings.Join(d.Params, ", "), at, multiReliability(m, at, k.Points))
		}
	}
	t.AddText("region", region)
	t.AddText("metric", metric)
	t.AddNum("points", "", pts)
	t.AddNum("repetitions_min", "", reps)
	t.AddNum("rep_noise_percent", "%", noise)
	t.AddText("model", model)
	t.AddText("terms", terms)
	t.AddNum("rss", "", rss)
	t.AddNum("adj_r2", "", adj)
	t.AddNum("smape_percent", "%", smape)
	t.AddNum("predicted", "", pred)
	t.AddNum("predicted_low", "", lo)
	t.AddNum("predicted_high", "", hi)
	t.AddText("reliability", rel)
	res.AddTable(t)
	return res, nil
}

// datasetRow is one fitted series of a dataset.
type datasetRow struct {
	x, y           []float64 // distinct parameter values, reduced values
	repMin, repMax int
	spread         float64
	m              Model
	predict, lastX float64
	reliability    string
}

// fitKernel reduces the repetitions of k and fits its model.
func fitKernel(k extrap.Kernel, opt DatasetOptions) (datasetRow, error) {
	byX := map[float64][]float64{}
	for i, p := range k.Points {
		byX[p[0]] = append(byX[p[0]], k.Values[i]...)
	}
	r := datasetRow{repMin: math.MaxInt}
	for x := range byX {
		r.x = append(r.x, x)
	}
	sort.Float64s(r.x)
	var spreads []float64
	for _, x := range r.x {
		v := byX[x]
		r.repMin, r.repMax = min(r.repMin, len(v)), max(r.repMax, len(v))
		c := medianOf(v)
		if opt.Mean {
			c = meanOf(v)
		}
		r.y = append(r.y, c)
		if len(v) > 1 && c != 0 {
			lo, hi := v[0], v[0]
			for _, e := range v {
				lo, hi = min(lo, e), max(hi, e)
			}
			spreads = append(spreads, 100*(hi-lo)/math.Abs(c))
		}
	}
	r.spread = medianOf(spreads)
	m, err := FitModel(r.x, r.y)
	if err != nil {
		return r, err
	}
	r.m, r.lastX = m, r.x[len(r.x)-1]
	if r.predict = opt.Predict; r.predict == 0 {
		r.predict = 2 * r.lastX
	}
	r.reliability = r.notes()
	return r, nil
}

// notes lists what limits the trust in the row's model (as
// scalStudy.reliability), plus one repetition per point.
func (r datasetRow) notes() string {
	var notes []string
	if r.m.SMAPE > ModelUnreliableSMAPE {
		notes = append(notes, fmt.Sprintf("unreliable fit: SMAPE %.3g%% > %d%%", r.m.SMAPE, ModelUnreliableSMAPE))
	}
	if r.predict > ExtrapolationLimit*r.lastX {
		notes = append(notes, fmt.Sprintf("extrapolated %.3g× beyond the largest measured value (%s)", r.predict/r.lastX, formatNum(r.lastX)))
	}
	if !(r.m.Eval(r.predict) > 0) {
		notes = append(notes, "non-positive prediction")
	}
	if b := ModelTermBound(len(r.x)); b != "" {
		notes = append(notes, strings.Replace(b, "distinct p", "distinct values", 1))
	}
	if r.repMin == 1 {
		notes = append(notes, "one repetition at some point: no noise estimate there")
	}
	if len(r.m.NearTies) > 0 {
		notes = append(notes, fmt.Sprintf("%d near tie(s) within Δcriterion < %d", len(r.m.NearTies), ModelNearTie))
	}
	if len(notes) == 0 {
		return "ok"
	}
	return strings.Join(notes, "; ")
}

// datasetTable builds table "models" of a dataset.
func datasetTable(d *extrap.Dataset, rows []datasetRow) Table {
	t := Table{Name: "models", Title: fmt.Sprintf("Models of every series against %s (repetitions reduced as parameter \"repetitions\" says), fitted on relative errors and chosen by leave-one-out error; predicted with its 95%% prediction interval", d.Params[0])}
	var region, metric, model, rel []string
	cols := map[string][]float64{}
	names := []string{"points", "repetitions_min", "repetitions_max", "rep_spread_percent", "c0", "c1", "exp1", "log1", "c2", "exp2", "log2",
		"rss", "adj_r2", "smape_percent", "cv_smape_percent", "predicted", "predicted_low", "predicted_high"}
	for i, r := range rows {
		region, metric = append(region, d.Kernels[i].Region), append(metric, d.Kernels[i].Metric)
		model, rel = append(model, r.m.String()), append(rel, r.reliability)
		lo, hi := r.m.PredictionInterval(r.predict, 0.95)
		v := []float64{float64(len(r.x)), float64(r.repMin), float64(r.repMax), r.spread, r.m.Constant}
		for j := range 2 {
			c, e, l := math.NaN(), math.NaN(), math.NaN()
			if j < len(r.m.Terms) {
				c, e, l = r.m.Coefs[j], r.m.Terms[j].Exp, float64(r.m.Terms[j].Log)
			}
			v = append(v, c, e, l)
		}
		v = append(v, r.m.RSS, r.m.AdjR2, r.m.SMAPE, r.m.CVSMAPE, positive(r.m.Eval(r.predict)), lo, hi)
		for j, n := range names {
			cols[n] = append(cols[n], v[j])
		}
	}
	t.AddText("region", region)
	t.AddText("metric", metric)
	for _, n := range names[:4] {
		t.AddNum(n, map[bool]string{true: "%"}[n == "rep_spread_percent"], cols[n])
	}
	t.AddText("model", model)
	for _, n := range names[4:] {
		t.AddNum(n, map[bool]string{true: "%"}[strings.HasSuffix(n, "_percent")], cols[n])
	}
	t.AddText("reliability", rel)
	return t
}

// datasetFindings states the first series' models with their caveats.
func datasetFindings(res *Result, d *extrap.Dataset, rows []datasetRow) {
	x := d.Params[0]
	ones := 0
	for _, r := range rows {
		if r.repMin == 1 {
			ones++
		}
	}
	if ones > 0 {
		res.Findf("%d of %d series have a point with a single repetition: the fit uses that value as is, with no noise estimate there.", ones, len(rows))
	}
	for i, r := range rows {
		if i == 5 {
			res.Findf("%d more series in table models.", len(rows)-5)
			break
		}
		k := d.Kernels[i]
		name := strings.TrimSpace(k.Region + " " + k.Metric)
		switch y := r.m.Eval(r.predict); {
		case r.m.SMAPE > ModelUnreliableSMAPE:
			res.Findf("%s: %s fits poorly (SMAPE %.3g%%): no prediction.", name, r.m, r.m.SMAPE)
		case !(y > 0):
			res.Findf("%s: %s gives a non-positive value at %s = %s.", name, r.m, x, formatNum(r.predict))
		default:
			lo, hi := r.m.PredictionInterval(r.predict, 0.95)
			res.Findf("%s: %s (SMAPE %.3g%%), predicting %.4g at %s = %s (95%% prediction interval %.4g to %.4g)%s.", name, r.m, r.m.SMAPE, y, x, formatNum(r.predict),
				math.Max(lo, 0), hi, datasetCaveat(r))
		}
	}
}

// datasetCaveat is the clause of a prediction's caveats.
func datasetCaveat(r datasetRow) string {
	var c []string
	if r.predict > ExtrapolationLimit*r.lastX {
		c = append(c, fmt.Sprintf("an extrapolation %.3g× beyond the largest measured value", r.predict/r.lastX))
	}
	if len(r.m.NearTies) > 0 {
		c = append(c, fmt.Sprintf("%d near tie(s) predict differently", len(r.m.NearTies)))
	}
	if len(c) == 0 {
		return ""
	}
	return "; " + strings.Join(c, "; ")
}

// medianOf returns the median of v (NaN for none), leaving v as it is.
func medianOf(v []float64) float64 {
	return median(append([]float64(nil), v...))
}
