package analysis

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
)

// RegressOptions tune Regress.
type RegressOptions struct {
	SeriesOptions
	// Detect tunes the change-point detection (EDivisive); its Seed is
	// combined with each series' name, so a series' result does not depend
	// on the other series.
	Detect EDivisiveOptions
	// Explain is the share of a program change that the explaining regions
	// must cover (default 0.8).
	Explain float64
	// Bootstrap is the number of bootstrap resamples of a shift's
	// confidence interval (default 1000, at most 100,000).
	Bootstrap int
	// OrderBy records how the history was ordered (Params "order_by").
	OrderBy string
}

// Verdicts of a change: the metric went up (a regression, for a time or a
// cost counter) or down (an improvement).
const (
	VerdictRegression  = "regression"
	VerdictImprovement = "improvement"
)

// histPoint is one point of a history: its order value and the
// experiments (positions in seriesData.exps) run there.
type histPoint struct {
	key  string
	exps []int
}

// historyData is a history reduced to per-point medians.
type historyData struct {
	d      *seriesData
	points []histPoint
	prog   []float64   // program time per point (median over repetitions)
	regs   [][]float64 // per region, exclusive value per point (NaN: absent)
}

// regressChange is a change point of one series with its size.
type regressChange struct {
	series  string // "program" or the region's name
	region  int    // -1 for the program
	point   int    // index in historyData.points of the first point after
	prev    int    // first point of the segment before
	next    int    // end (exclusive) of the segment after
	before  float64
	after   float64
	shift   float64 // after/before − 1
	lo, hi  float64 // 95% bootstrap interval of shift
	p       float64
	current bool // the segment after reaches the newest point
}

// ProgramSeries names the program's series in Regress's tables.
const ProgramSeries = "program"

// Regress finds performance regressions and improvements in a history: the
// experiments in P order (see NewHistory: P is a point's rank, experiments
// of equal P are repetitions of one point), for the program (the main
// region's inclusive value) and for every region of the flat view (its
// exclusive value), each reduced per point to the median over the
// repetitions (the repetitions' spread is the noise).
//
// Change points are found by E-divisive means (EDivisive: energy statistic
// with α = 1, permutation test) on each series of per-point medians. A
// change at point k (1-based) splits the series' segment [prev, next) at k;
// before and after are the medians of the per-point medians of the two
// sides, shift = after/before − 1 (positive: the metric went up, a
// regression for a time) with a 95% percentile bootstrap interval
// (resampling the points of each side). A program change is explained by
// the regions whose own shift across the same two sides, Δ_r = median
// after − median before (absent = 0), has the program's sign, largest
// first, until Σ Δ_r covers Explain of the program's Δ; and by the
// metadata keys whose values on the two sides are disjoint (keys with
// more distinct values than half the points, such as dates and commit ids,
// are left out).
//
// Tables: "history" (one row per point), "changes" (one row per change,
// program first, then regions by |shift|), "explain" (per program change,
// the explaining regions) and "metadata" (per program change, the keys
// that changed), "series" (every series with its last change) and "moved"
// (the per-point values of the regions that changed or explain a change).
func Regress(exps []Experiment, opt RegressOptions) (*Result, error) {
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	runs, err := ReduceHistory(exps, o.SeriesOptions)
	if err != nil {
		return nil, err
	}
	return RegressRuns(runs, o)
}

// regressData is Regress on the reduced history d, with the options'
// defaults filled.
func regressData(d *seriesData, o RegressOptions) (*Result, error) {
	h, err := newHistoryData(d)
	if err != nil {
		return nil, err
	}
	changes, err := h.detectAll(o)
	if err != nil {
		return nil, err
	}
	res := h.d.newResult("regress")
	o.params(res)
	res.Params["points"] = fmt.Sprint(len(h.points))
	h.historyTable(res, changes)
	h.changesTable(res, changes, o.Explain)
	h.explainTables(res, changes, o.Explain)
	h.seriesTable(res, changes)
	h.movedTable(res, changes, o.Explain)
	h.regressFindings(res, changes, o.Explain)
	return res, nil
}

// withDefaults fills and checks the options.
func (o RegressOptions) withDefaults() (RegressOptions, error) {
	var err error
	if o.Detect, err = o.Detect.withDefaults(); err != nil {
		return o, err
	}
	if o.Explain == 0 {
		o.Explain = 0.8
	}
	if o.Bootstrap == 0 {
		o.Bootstrap = 1000
	}
	if !(o.Explain > 0 && o.Explain <= 1) {
		return o, fmt.Errorf("explained share %v: want (0, 1]", o.Explain)
	}
	if o.Bootstrap < 10 || o.Bootstrap > 100000 {
		return o, fmt.Errorf("bootstrap resamples %d: want 10 to 100000", o.Bootstrap)
	}
	return o, nil
}

// params records every option that changes the result.
func (o RegressOptions) params(res *Result) {
	res.Params["order_by"] = o.OrderBy
	res.Params["method"] = "E-divisive means (alpha = 1), permutation test"
	res.Params["significance"] = formatNum(o.Detect.Significance)
	res.Params["permutations"] = fmt.Sprint(o.Detect.Permutations)
	res.Params["min_size"] = fmt.Sprint(o.Detect.MinSize)
	res.Params["max_changes"] = fmt.Sprint(o.Detect.MaxChanges)
	res.Params["seed"] = fmt.Sprint(o.Detect.Seed)
	res.Params["explain"] = formatNum(o.Explain)
	res.Params["bootstrap"] = fmt.Sprint(o.Bootstrap)
}

// newHistoryData groups the reduced experiments of d into points (equal
// P: repetitions) and takes each point's median.
func newHistoryData(d *seriesData) (*historyData, error) {
	h := &historyData{d: d}
	for k, e := range d.exps {
		if n := len(h.points); n > 0 && d.exps[h.points[n-1].exps[0]].P == e.P {
			h.points[n-1].exps = append(h.points[n-1].exps, k)
			continue
		}
		h.points = append(h.points, histPoint{key: e.Key, exps: []int{k}})
	}
	if len(h.points) < 2 {
		return nil, fmt.Errorf("regress: a history needs at least 2 points, got %d (trials at the same order value are repetitions)", len(h.points))
	}
	for _, pt := range h.points {
		h.prog = append(h.prog, medianAt(d.main, pt.exps))
	}
	h.regs = make([][]float64, len(d.regions))
	for r := range d.regions {
		for _, pt := range h.points {
			h.regs[r] = append(h.regs[r], medianAt(d.excl[r], pt.exps))
		}
	}
	return h, nil
}

// medianAt is the median of the defined values of vals at positions idx
// (NaN when none is).
func medianAt(vals []float64, idx []int) float64 {
	x := make([]float64, 0, len(idx))
	for _, i := range idx {
		if defined(vals[i]) {
			x = append(x, vals[i])
		}
	}
	return median(x)
}

// median returns the median of x (NaN when empty); x is reordered.
func median(x []float64) float64 {
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	sort.Float64s(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// detectAll finds the changes of the program and of every region.
func (h *historyData) detectAll(o RegressOptions) ([]regressChange, error) {
	out, err := detectSeries(h.prog, ProgramSeries, -1, o)
	if err != nil {
		return nil, fmt.Errorf("program: %w", err)
	}
	var regs []regressChange
	for r, vals := range h.regs {
		c, err := detectSeries(vals, h.d.regions[r], r, o)
		if err != nil {
			return nil, fmt.Errorf("region %q: %w", h.d.regions[r], err)
		}
		regs = append(regs, c...)
	}
	sort.SliceStable(regs, func(i, j int) bool { return math.Abs(regs[i].shift) > math.Abs(regs[j].shift) })
	return append(out, regs...), nil
}

// seriesSeed derives a series' seed from the options' seed and its name.
func seriesSeed(seed uint64, name string) uint64 {
	f := fnv.New64a()
	f.Write([]byte(name))
	return seed ^ f.Sum64()
}

// detectSeries finds the changes of one series of per-point values (NaN
// points, where the region is absent, are left out) and sizes them.
func detectSeries(vals []float64, name string, region int, o RegressOptions) ([]regressChange, error) {
	var idx []int
	var x []float64
	for i, v := range vals {
		if defined(v) {
			idx = append(idx, i)
			x = append(x, v)
		}
	}
	det := o.Detect
	det.Seed = seriesSeed(det.Seed, name)
	cps, err := EDivisive(x, det)
	if err != nil || len(cps) == 0 {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(det.Seed, 0x626f6f74))
	bounds := []int{0}
	for _, c := range cps {
		bounds = append(bounds, c.Index)
	}
	bounds = append(bounds, len(x))
	out := make([]regressChange, 0, len(cps))
	for j, c := range cps {
		bx, ax := x[bounds[j]:c.Index], x[c.Index:bounds[j+2]]
		ch := regressChange{series: name, region: region, point: idx[c.Index], prev: idx[bounds[j]], p: c.PValue,
			current: j == len(cps)-1}
		ch.next = len(vals)
		if bounds[j+2] < len(x) {
			ch.next = idx[bounds[j+2]]
		}
		ch.before, ch.after = median(append([]float64(nil), bx...)), median(append([]float64(nil), ax...))
		ch.shift = relShift(ch.before, ch.after)
		ch.lo, ch.hi = bootstrapShift(bx, ax, o.Bootstrap, rng)
		out = append(out, ch)
	}
	return out, nil
}

// bootstrapShift is the 95% percentile bootstrap interval of
// median(after)/median(before) − 1, resampling each side's values with
// replacement.
func bootstrapShift(before, after []float64, n int, rng *rand.Rand) (float64, float64) {
	shifts := make([]float64, 0, n)
	bs := make([]float64, len(before))
	as := make([]float64, len(after))
	for range n {
		for i := range bs {
			bs[i] = before[rng.IntN(len(before))]
		}
		for i := range as {
			as[i] = after[rng.IntN(len(after))]
		}
		if s := relShift(median(bs), median(as)); defined(s) {
			shifts = append(shifts, s)
		}
	}
	if len(shifts) == 0 {
		return math.NaN(), math.NaN()
	}
	sort.Float64s(shifts)
	q := func(p float64) float64 { return shifts[int(math.Round(p*float64(len(shifts)-1)))] }
	return q(0.025), q(0.975)
}

// relShift is after/before − 1, NaN (undefined) unless before > 0: a
// region that took no time before has no relative change.
func relShift(before, after float64) float64 {
	if !(before > 0) {
		return math.NaN()
	}
	return after/before - 1
}

// verdict names the direction of the change: up is a regression.
func (c regressChange) verdict() string {
	if c.after > c.before {
		return VerdictRegression
	}
	return VerdictImprovement
}

// pointLabel is "point K (value)" for findings.
func (h *historyData) pointLabel(i int) string {
	return fmt.Sprintf("point %d (%s)", i+1, h.points[i].key)
}

// joinQuoted joins names for findings, at most five.
func joinQuoted(names []string) string {
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}
