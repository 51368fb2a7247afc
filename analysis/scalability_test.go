package analysis

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// modelRow returns the row of region in the models table.
func modelRow(t *testing.T, mt *Table, region string) int {
	t.Helper()
	return row(t, mt, "region", region)
}

// wantTableModel checks a models-table row against c0 + Σ coefs*terms.
func wantTableModel(t *testing.T, mt *Table, region string, c0 float64, terms []Term, coefs []float64) {
	t.Helper()
	i := modelRow(t, mt, region)
	m := Model{Constant: mt.Num("c0", i)}
	for k, col := range [][3]string{{"c1", "exp1", "log1"}, {"c2", "exp2", "log2"}} {
		if math.IsNaN(mt.Num(col[0], i)) {
			if k < len(terms) {
				t.Errorf("%s: model %q lacks term %v", region, mt.Text("model", i), terms[k])
			}
			continue
		}
		m.Terms = append(m.Terms, Term{Exp: mt.Num(col[1], i), Log: int(mt.Num(col[2], i))})
		m.Coefs = append(m.Coefs, mt.Num(col[0], i))
	}
	if m.String() != mt.Text("model", i) {
		t.Errorf("%s: text %q, columns give %q", region, mt.Text("model", i), m.String())
	}
	wantModel(t, region, m, c0, terms, coefs, 1e-6)
}

func TestScalabilityGenerated(t *testing.T) {
	s := lawSeries(t, powers, 2, progLaw, testLaws, nil)
	res, err := Scalability(s, ScalabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Validate(); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"threshold": "0.5", "predict_p": "128", "value": "exclusive", "scaling": "strong",
		"baseline": "p1", "model_log_exponents": "-2,-1,0,1,2"} {
		if res.Params[k] != v {
			t.Errorf("param %s = %q, want %q", k, res.Params[k], v)
		}
	}

	// Program: efficiency and Karp-Flatt by hand.
	pt := mustTable(t, res, "program")
	t1 := progLaw(1)
	for i, p := range powers {
		x := float64(p)
		sp := t1 / progLaw(x)
		near(t, "efficiency", pt.Num("efficiency", i), sp/x)
		kf := math.NaN()
		if p > 1 {
			kf = (1/sp - 1/x) / (1 - 1/x)
		}
		near(t, "karp-flatt", pt.Num("karp_flatt", i), kf)
	}
	// By hand at p = 2: S = 1000/555, e = (555/1000 − 1/2)/(1/2) = 0.11.
	near(t, "karp-flatt at 2", pt.Num("karp_flatt", 1), 0.11)

	mt := mustTable(t, res, "models")
	if mt.Text("kind", 0) != "program" || mt.Text("region", 0) != "main" {
		t.Errorf("first model row %s %s", mt.Text("kind", 0), mt.Text("region", 0))
	}
	if mt.Text("model", 0) != "100 + 900 * p^-1 + 5 * log2(p)" {
		t.Errorf("program model %q", mt.Text("model", 0))
	}
	wantTableModel(t, mt, "main", 100, []Term{{Exp: -1}, {Log: 1}}, []float64{900, 5})
	if mt.Num("points", 0) != 7 || mt.Num("rss", 0) > 1e-12 || math.Abs(mt.Num("adj_r2", 0)-1) > 1e-12 || mt.Num("smape_percent", 0) > 1e-9 {
		t.Errorf("program fit: points %v rss %v adj %v smape %v", mt.Num("points", 0), mt.Num("rss", 0), mt.Num("adj_r2", 0), mt.Num("smape_percent", 0))
	}
	relNear(t, "prediction at 128", mt.Num("predicted", 0), progLaw(128), 1e-9)
	wantTableModel(t, mt, "const_region", 50, nil, nil)
	wantTableModel(t, mt, "inv_region", 0, []Term{{Exp: -1}}, []float64{800})
	wantTableModel(t, mt, "log_region", 0, []Term{{Log: 1}}, []float64{5})
	wantTableModel(t, mt, "lin_region", 0, []Term{{Exp: 1}}, []float64{0.25})
	wantTableModel(t, mt, "sqrtlog_region", 0, []Term{{Exp: 0.5, Log: 1}}, []float64{0.5})
	if mt.Text("model", modelRow(t, mt, "inv_region")) != "800 * p^-1" || mt.Text("model", modelRow(t, mt, "const_region")) != "50" {
		t.Errorf("texts %q %q", mt.Text("model", modelRow(t, mt, "inv_region")), mt.Text("model", modelRow(t, mt, "const_region")))
	}

	// Amdahl by hand: least squares of T = a + b*x, x = 1/p.
	amdahl := func(f func(float64) float64) (float64, float64) {
		var sx, sy, sxx, sxy float64
		for _, p := range powers {
			x, y := 1/float64(p), f(float64(p))
			sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
		}
		n := float64(len(powers))
		b := (n*sxy - sx*sy) / (n*sxx - sx*sx)
		a := (sy - b*sx) / n
		return a / (a + b), a + b
	}
	f, t1fit := amdahl(progLaw)
	relNear(t, "program serial fraction", mt.Num("amdahl_serial_fraction", 0), f, 1e-9)
	relNear(t, "program T1", mt.Num("amdahl_t1", 0), t1fit, 1e-9)
	relNear(t, "program max speedup", mt.Num("amdahl_max_speedup", 0), 1/f, 1e-9)
	i := modelRow(t, mt, "inv_region")
	if math.Abs(mt.Num("amdahl_serial_fraction", i)) > 1e-12 || math.Abs(mt.Num("amdahl_t1", i)-800) > 1e-9 || !math.IsNaN(mt.Num("amdahl_max_speedup", i)) {
		t.Errorf("inv Amdahl: f %v T1 %v max %v", mt.Num("amdahl_serial_fraction", i), mt.Num("amdahl_t1", i), mt.Num("amdahl_max_speedup", i))
	}
	i = modelRow(t, mt, "const_region")
	near(t, "const serial fraction", mt.Num("amdahl_serial_fraction", i), 1)
	near(t, "const karp-flatt at 64", mt.Num("karp_flatt_max_p", i), 1)
	near(t, "const efficiency at 64", mt.Num("efficiency_max_p", i), 1.0/64)

	// Regions table: value, efficiency, Karp-Flatt and share.
	rt := mustTable(t, res, "regions")
	i = row(t, rt, "region", "lin_region")
	for k, p := range powers {
		x := float64(p)
		near(t, "lin value", rt.Num("value", i+k), 0.25*x)
		near(t, "lin efficiency", rt.Num("efficiency", i+k), 0.25/(0.25*x*x))
		near(t, "lin share", rt.Num("share_percent", i+k), 100*0.25*x/progLaw(x))
	}

	// Stop scaling (threshold 0.5): lin at p = 2 (1/p² = 0.25), const at
	// p = 4 (1/p = 0.25; 0.5 at p = 2 is not below), inv never (1), log
	// and sqrtlog never (their baseline value is 0: undefined). Ranked by
	// the time held at p = 64: const 50/progLaw(64) = 34.7% before lin
	// 16/progLaw(64) = 11.1%, although lin stops first.
	st := mustTable(t, res, "stop_scaling")
	lin, cst := row(t, st, "region", "lin_region"), row(t, st, "region", "const_region")
	near(t, "const share at p=64", st.Num("share_max_p_percent", cst), 100*50/progLaw(64))
	near(t, "lin share at p=64", st.Num("share_max_p_percent", lin), 100*16/progLaw(64))
	if st.Num("stop_p", lin) != 2 || st.Num("stop_p", cst) != 4 || cst > lin {
		t.Errorf("stop: lin p=%v rank %v, const p=%v rank %v", st.Num("stop_p", lin), st.Num("rank", lin), st.Num("stop_p", cst), st.Num("rank", cst))
	}
	near(t, "lin efficiency at stop", st.Num("efficiency", lin), 0.25)
	near(t, "const share at stop", st.Num("share_percent", cst), 100*50/progLaw(4))
	for _, r := range []string{"inv_region", "log_region", "sqrtlog_region"} {
		if st.Find("region", r) >= 0 {
			t.Errorf("%s listed as stopping", r)
		}
	}
	for k := 1; k < st.NumRows(); k++ {
		if st.Num("share_max_p_percent", k) > st.Num("share_max_p_percent", k-1) || st.Num("rank", k) != float64(k+1) {
			t.Errorf("stop_scaling row %d out of order", k)
		}
	}

	// Share growth: slopes by hand (least squares of share against p).
	gt := mustTable(t, res, "share_growth")
	slope := func(f func(float64) float64) float64 {
		var sx, sy, sxx, sxy float64
		for _, p := range powers {
			x := float64(p)
			y := 100 * f(x) / progLaw(x)
			sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
		}
		n := float64(len(powers))
		return (n*sxy - sx*sy) / (n*sxx - sx*sx)
	}
	for _, l := range testLaws {
		near(t, l.name+" share slope", gt.Num("slope", row(t, gt, "region", l.name)), slope(l.f))
	}
	for k := 1; k < gt.NumRows(); k++ {
		if gt.Num("slope", k) > gt.Num("slope", k-1) {
			t.Errorf("share_growth not descending at %d", k)
		}
	}
	if gt.Num("slope", row(t, gt, "region", "inv_region")) >= 0 || gt.Num("slope", row(t, gt, "region", "lin_region")) <= 0 {
		t.Error("share slopes have the wrong signs")
	}
	if len(res.Findings) < 4 {
		t.Errorf("findings %q", res.Findings)
	}
}

// TestScalabilityNoise perturbs every value of the generated series by a
// small deterministic relative error (at most 0.1%): the models still have
// the right terms.
func TestScalabilityNoise(t *testing.T) {
	noise := []float64{+1e-3, -0.7e-3, +0.4e-3, -1e-3, +0.8e-3, -0.2e-3, +0.6e-3}
	var s Series
	for k, p := range powers {
		e := 1 + noise[k]
		prog := func(x float64) float64 { return progLaw(x) * e }
		laws := make([]law, 0, len(testLaws))
		for _, l := range testLaws[:4] {
			laws = append(laws, law{l.name, func(x float64) float64 { return l.f(x) * e }})
		}
		laws[0].f = func(float64) float64 { return 50 * (1 - noise[k]) }
		name := fmt.Sprintf("p%d", p)
		s = append(s, Experiment{Trial: lawTrial(t, name, p, 1, prog, laws, nil), P: float64(p)})
	}
	res, err := Scalability(s, ScalabilityOptions{Predict: 256})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["predict_p"] != "256" {
		t.Errorf("predict %q", res.Params["predict_p"])
	}
	mt := mustTable(t, res, "models")
	for _, c := range []struct {
		region string
		terms  []Term
	}{
		{"main", []Term{{Exp: -1}, {Log: 1}}},
		{"const_region", nil},
		{"inv_region", []Term{{Exp: -1}}},
		{"log_region", []Term{{Log: 1}}},
		{"lin_region", []Term{{Exp: 1}}},
	} {
		i := modelRow(t, mt, c.region)
		got := []Term{}
		if !math.IsNaN(mt.Num("exp1", i)) {
			got = append(got, Term{mt.Num("exp1", i), int(mt.Num("log1", i))})
		}
		if !math.IsNaN(mt.Num("exp2", i)) {
			got = append(got, Term{mt.Num("exp2", i), int(mt.Num("log2", i))})
		}
		if fmt.Sprint(got) != fmt.Sprint(append([]Term{}, c.terms...)) {
			t.Errorf("%s: model %q, want terms %v", c.region, mt.Text("model", i), c.terms)
		}
	}
	i := modelRow(t, mt, "main")
	if p := mt.Num("predicted", i); math.Abs(p-progLaw(256)) > 0.01*progLaw(256) {
		t.Errorf("noisy prediction at 256: %v, want about %v", p, progLaw(256))
	}
}

func TestScalabilityOptions(t *testing.T) {
	s := lawSeries(t, []int{1, 2, 4, 8}, 1, progLaw, testLaws, nil)
	res, err := Scalability(s, ScalabilityOptions{Inclusive: true, Threshold: 0.9, Baseline: "p2"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["value"] != "inclusive" || res.Params["threshold"] != "0.9" || res.Params["baseline_p"] != "2" {
		t.Errorf("params %v", res.Params)
	}
	pt := mustTable(t, res, "program")
	if pt.Num("speedup", 1) != 1 || pt.Num("efficiency", 1) != 1 {
		t.Error("baseline p2 not exactly 1")
	}
	near(t, "karp-flatt below the baseline", pt.Num("karp_flatt", 0), math.NaN())
	sp := progLaw(2) / progLaw(8)
	near(t, "karp-flatt relative to p_b", pt.Num("karp_flatt", 3), (1/sp-0.25)/0.75)
	// With threshold 0.9 relative to p = 2, inv_region (efficiency 1)
	// never stops; const_region does at p = 4 (efficiency 0.5).
	st := mustTable(t, res, "stop_scaling")
	if st.Find("region", "inv_region") >= 0 || st.Num("stop_p", row(t, st, "region", "const_region")) != 4 {
		t.Error("stop_scaling with threshold 0.9")
	}

	// Weak scaling: Karp-Flatt and Amdahl are undefined.
	res, err = Scalability(s, ScalabilityOptions{Weak: true})
	if err != nil {
		t.Fatal(err)
	}
	pt = mustTable(t, res, "program")
	mt := mustTable(t, res, "models")
	for i := range pt.NumRows() {
		if !math.IsNaN(pt.Num("karp_flatt", i)) {
			t.Errorf("weak karp-flatt %v", pt.Num("karp_flatt", i))
		}
	}
	near(t, "weak efficiency", pt.Num("efficiency", 3), progLaw(1)/progLaw(8))
	if !math.IsNaN(mt.Num("amdahl_serial_fraction", 0)) {
		t.Error("weak Amdahl defined")
	}

	_, err = Scalability(s, ScalabilityOptions{Threshold: -1})
	wantErr(t, "threshold", err, "threshold")
	_, err = Scalability(s, ScalabilityOptions{Predict: math.NaN()})
	wantErr(t, "predict", err, "prediction")
	_, err = Scalability(s, ScalabilityOptions{Baseline: "nope"})
	wantErr(t, "baseline", err, "nope")
}

// TestScalabilityAbsentRegion: a region only some experiments have is
// modelled over those experiments.
func TestScalabilityAbsentRegion(t *testing.T) {
	s := lawSeries(t, []int{1, 2, 4, 8, 16}, 1, progLaw, testLaws, nil)
	extra := append(append([]law{}, testLaws...), law{"late_region", func(p float64) float64 { return 2 * p }})
	for k := 2; k < len(s); k++ {
		s[k].Trial = lawTrial(t, s[k].Name, int(s[k].P), 1, progLaw, extra, nil)
	}
	res, err := Scalability(s, ScalabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mt := mustTable(t, res, "models")
	i := modelRow(t, mt, "late_region")
	// Three points (p = 4, 8, 16): only the constant, their
	// relative-weighted mean Σ(1/y)/Σ(1/y²) = (7/32)/(21/1024) = 32/3.
	if mt.Num("points", i) != 3 || !math.IsNaN(mt.Num("exp1", i)) {
		t.Errorf("late region: %v points, model %q", mt.Num("points", i), mt.Text("model", i))
	}
	near(t, "late region constant", mt.Num("c0", i), 32/3.0)
	rt := mustTable(t, res, "regions")
	j := row(t, rt, "region", "late_region")
	if !math.IsNaN(rt.Num("value", j)) || !math.IsNaN(rt.Num("efficiency", j+4)) || rt.Num("value", j+4) != 32 {
		t.Errorf("late region rows: %v %v %v", rt.Num("value", j), rt.Num("efficiency", j+4), rt.Num("value", j+4))
	}
	// Its share grows, from 2*4/T(4) at p = 4.
	gt := mustTable(t, res, "share_growth")
	near(t, "late share first", gt.Num("share_first_percent", row(t, gt, "region", "late_region")), 100*8/progLaw(4))
}

// benchSeries generates nTrials trials of nThreads threads (one per
// process) and nRegions regions whose values follow a few laws of p.
func benchSeries(b *testing.B, nTrials, nThreads, nRegions int) Series {
	b.Helper()
	var s Series
	for k := range nTrials {
		p := float64(int(1) << k)
		ids := make([]drg.ThreadID, nThreads)
		for i := range ids {
			ids[i] = drg.ThreadID{Node: i}
		}
		bl, err := drg.NewBuilder(ids)
		if err != nil {
			b.Fatal(err)
		}
		m := bl.Metric("TIME")
		bl.Reserve(nRegions + 1)
		main := bl.Node("main")
		nodes := make([]int, nRegions)
		for r := range nodes {
			nodes[r] = bl.Node(fmt.Sprintf("region_%d", r))
		}
		for th := range nThreads {
			jitter := 1 + float64((th*7+k*3)%11)/1000
			var sum float64
			for r := range nodes {
				var v float64
				switch r % 5 {
				case 0:
					v = 50 + float64(r)
				case 1:
					v = 800 / p
				case 2:
					v = 5 * math.Log2(p)
				case 3:
					v = 0.25 * p
				default:
					v = 10 + 400/p + 0.1*p*math.Log2(p)
				}
				v *= jitter
				sum += v
				bl.AddCalls(nodes[r], th, 1, 0)
				bl.AddValues(nodes[r], th, m, v, v)
			}
			bl.AddCalls(main, th, 1, float64(nRegions))
			bl.AddValues(main, th, m, 10, sum+10)
		}
		tr, err := bl.Finish(fmt.Sprintf("bench%d", k), drg.Source{Format: "profile"})
		if err != nil {
			b.Fatal(err)
		}
		s = append(s, Experiment{Trial: tr, P: p})
	}
	return s
}

func BenchmarkScalability(b *testing.B) {
	s := benchSeries(b, 8, 1024, 500)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Scalability(s, ScalabilityOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpeedup(b *testing.B) {
	s := benchSeries(b, 8, 1024, 500)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Speedup(s, SpeedupOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFitModel(b *testing.B) {
	ps := []float64{1, 2, 4, 8, 16, 32, 64, 128}
	y := make([]float64, len(ps))
	for i, p := range ps {
		y[i] = progLaw(p)
	}
	for b.Loop() {
		if _, err := FitModel(ps, y); err != nil {
			b.Fatal(err)
		}
	}
}

// realSeries reads the mm series (np = 1..8) or the ppk ring series.
func realSeries(t *testing.T, ring bool) Series {
	t.Helper()
	var rels []string
	if ring {
		for _, n := range []int{2, 4, 6, 8} {
			rels = append(rels, fmt.Sprintf("UO-OACISS-tau2/perfexplorer/StackedBarChart/%d.ppk", n))
		}
	} else {
		for k := range 8 {
			rels = append(rels, fmt.Sprintf("ParaToolsInc-taucmdr/jupyter/east02-mm-profile/%d", k))
		}
	}
	var trials []*drg.Trial
	for _, rel := range rels {
		trials = append(trials, readReal(t, rel))
	}
	s, err := NewSeries(trials, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range s {
		s[i].Name = fmt.Sprintf("np%v", s[i].P)
	}
	return s
}

// TestScalabilityReal runs the scalability study on both real series and
// checks Karp-Flatt and a region's efficiency against values computed here
// from the trials' value columns.
func TestScalabilityReal(t *testing.T) {
	for _, ring := range []bool{false, true} {
		s := realSeries(t, ring)
		res, err := Scalability(s, ScalabilityOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var buf strings.Builder
		if err := res.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		pt := mustTable(t, res, "program")
		// The program time: per thread the largest inclusive value, max
		// over threads, computed here.
		times := make([]float64, len(s))
		for k, e := range s {
			tr := e.Trial
			m := tr.TimeMetric()
			nt := len(tr.Threads)
			for n := range tr.Nodes {
				for th := range nt {
					times[k] = max(times[k], tr.Values[m].Inclusive[n*nt+th])
				}
			}
		}
		for k, e := range s {
			sp := times[0] / times[k]
			x := e.P / s[0].P
			kf := math.NaN()
			if x > 1 {
				kf = (1/sp - 1/x) / (1 - 1/x)
			}
			near(t, "real efficiency", pt.Num("efficiency", k), sp/x)
			near(t, "real karp-flatt", pt.Num("karp_flatt", k), kf)
		}
		mt := mustTable(t, res, "models")
		if mt.Text("kind", 0) != "program" || mt.Num("points", 0) != float64(len(s)) {
			t.Errorf("program model row %v", mt.Text("region", 0))
		}
		t.Logf("%s: program model %s (adj R² %.4g, SMAPE %.3g%%, cv SMAPE %.3g%%), Amdahl f = %.4g, predicted at p = %s: %.4g",
			s[0].Trial.Source.Format, mt.Text("model", 0), mt.Num("adj_r2", 0), mt.Num("smape_percent", 0), mt.Num("cv_smape_percent", 0),
			mt.Num("amdahl_serial_fraction", 0), res.Params["predict_p"], mt.Num("predicted", 0))
		for i := 1; i < min(mt.NumRows(), 5); i++ {
			t.Logf("  %-60.60s %s", mt.Text("region", i), mt.Text("model", i))
		}
		for _, f := range res.Findings {
			t.Logf("  finding: %s", f)
		}
	}
}

// TestMultiRegionAndSetReal runs MultiRegion on the mm series (SCALEA's
// Fig. 14 left) and MultiSet on both real series, grouped by their TAU
// version.
func TestMultiRegionAndSetReal(t *testing.T) {
	mm := realSeries(t, false)
	res, err := MultiRegion(mm, `^void compute`, MultiRegionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tb := mustTable(t, res, "regions")
	if tb.NumRows() != 2*8 {
		t.Errorf("%d rows, want compute and compute_interchange × 8", tb.NumRows())
	}
	for i := range tb.NumRows() {
		if tb.Num("processes", i) != tb.Num("p", i) {
			t.Errorf("%s at p = %v: %v processes", tb.Text("region", i), tb.Num("p", i), tb.Num("processes", i))
		}
	}
	for _, f := range res.Findings {
		t.Logf("finding: %s", f)
	}

	both := append(realSeries(t, true), mm...)
	for i := range both {
		both[i].Name = fmt.Sprintf("%s/%s", both[i].Trial.Metadata["TAU Version"], both[i].Name)
	}
	res, err = MultiSet(both, "TAU Version", MultiSetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sets := mustTable(t, res, "sets")
	if fmt.Sprint(sets.Columns[0].Text) != "[2.18.1-cvs 2.26.2p1]" || sets.Num("experiments", 0) != 4 || sets.Num("experiments", 1) != 8 {
		t.Errorf("sets %v %v", sets.Columns[0].Text, sets.Columns[1].Num)
	}
	st := mustTable(t, res, "series")
	for i := range st.NumRows() {
		if st.Num("x", i) == 2 && st.Text("set", i) == "2.18.1-cvs" && st.Num("speedup", i) != 1 {
			t.Errorf("ring baseline speedup %v", st.Num("speedup", i))
		}
	}
	for _, f := range res.Findings {
		t.Logf("finding: %s", f)
	}
}
