package analysis

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// DefaultCorrelations is the number of pairs Correlate lists when
// CorrelateOptions.Top is 0.
const DefaultCorrelations = 20

// DefaultCorrelateRegions is the number of regions Correlate pairs when
// CorrelateOptions.MaxRegions is 0.
const DefaultCorrelateRegions = 100

// MinCorrelationThreads is the smallest number of threads a correlation is
// computed over: with two points every non-constant pair has r = ±1.
const MinCorrelationThreads = 3

// CorrelateOptions select what Correlate relates.
type CorrelateOptions struct {
	// Metric is the metric's name; "" selects the first time metric.
	Metric string
	// Inclusive correlates inclusive values; the default is exclusive.
	Inclusive bool
	// Top is the number of pairs listed: 0 means DefaultCorrelations (20),
	// a negative number (All) every pair.
	Top int
	// MaxRegions bounds the regions taken (the ones with the largest mean
	// value over all threads, absent as 0; ties by trial order), since the
	// pairs grow as its square: 0 means DefaultCorrelateRegions (100), a
	// negative number every region.
	MaxRegions int
	// IncludeIDs also correlates the metadata attributes that IsIdentifier
	// recognizes (process and thread ids, ranks, time stamps), which are
	// left out by default: their correlation with anything is an artifact
	// of the launch order, not a property of the program.
	IncludeIDs bool
}

// identifierRE matches metadata keys that name an identifier or a clock
// reading rather than a measured property: pid, tid, rank, id, uuid, any
// "timestamp", "time stamp", "date", "Local Time", "Starting ...".
var identifierRE = regexp.MustCompile(`(?i)(^|[^a-z])(pid|tid|ppid|rank|id|uuid|guid)([^a-z]|$)|time ?stamp|date|local time|^starting|process id|thread id`)

// IsIdentifier reports whether a metadata key names an identifier or a
// time stamp (identifierRE) rather than a property worth correlating.
func IsIdentifier(key string) bool { return identifierRE.MatchString(key) }

// Correlate computes Pearson's correlation coefficient across threads
// between the values of every pair of regions of the flat view, and between
// every region and every numeric per-thread metadata attribute.
//
// A pair is computed over the n threads that have both values (a region
// absent on a thread gives no point there; a metadata attribute gives a
// point where its value parses as a finite number); it is skipped when
// n < MinCorrelationThreads or either series is constant (r undefined).
// Metadata attributes are the threads' own (drg.Thread.Metadata; the
// trial-level ones are the same on every thread) that are numeric on at
// least MinCorrelationThreads threads and not constant there, identifiers
// and time stamps (IsIdentifier) left out unless IncludeIDs.
//
// Table "correlations", strongest |r| first (then larger n, then names):
// x, y (the two series: for region pairs x is the region earlier in trial
// order; for metadata pairs x is the attribute), kind ("region" or
// "metadata"), r (gonum's stat.Correlation), r_squared, the least-squares
// line y = intercept + slope*x (gonum's stat.LinearRegression; units of y
// per unit of x), and n.
func Correlate(t *drg.Trial, opt CorrelateOptions) (*Result, error) {
	m, err := resolveMetric(t, opt.Metric)
	if err != nil {
		return nil, err
	}
	res := newResult("correlate", t, m)
	res.Params["value"] = valueKind(opt.Inclusive)
	res.Params["top"] = topParam(opt.Top, DefaultCorrelations)
	res.Params["max_regions"] = topParam(opt.MaxRegions, DefaultCorrelateRegions)
	res.Params["min_threads"] = strconv.Itoa(MinCorrelationThreads)
	res.Params["include_ids"] = strconv.FormatBool(opt.IncludeIDs)

	vals := column(t, m, opt.Inclusive)
	regs, skippedConst := corrRegions(t, vals)
	keep := topN(opt.MaxRegions, DefaultCorrelateRegions, len(regs))
	if keep < len(regs) {
		byMean := order(len(regs), func(i, j int) bool { return regs[i].meanAll > regs[j].meanAll })[:keep]
		sort.Ints(byMean)
		res.Findf("Only the %d regions with the largest mean %s %s were correlated, of %d candidates.",
			keep, valueKind(opt.Inclusive), t.Metrics[m].Name, len(regs))
		regs = permute(regs, byMean)
	}
	metas, skippedIDs := corrMetadata(t, opt.IncludeIDs)
	var pr corrPairs
	pr.regionPairs(t, vals, regs)
	pr.metadataPairs(t, vals, regs, metas)
	tb, total := pr.table(opt.Top, fmt.Sprintf("Pearson correlation across threads of %s %s values, strongest first; y = intercept + slope*x",
		valueKind(opt.Inclusive), t.Metrics[m].Name), unitOf(t, m))
	ct := res.AddTable(tb)

	res.Findf("The %d strongest of %d pairs are listed (top %s).", ct.NumRows(), total, res.Params["top"])
	if len(skippedIDs) > 0 {
		res.Findf("Metadata left out as identifiers or time stamps (IncludeIDs / --include-ids keeps them): %s.", strings.Join(skippedIDs, ", "))
	}
	if skippedConst > 0 {
		res.Findf("%d regions have the same value on every thread that has them (r undefined) and were skipped.", skippedConst)
	}
	if ct.NumRows() == 0 {
		res.Findf("No pair of series could be correlated (a pair needs %d threads with both values and no constant series).", MinCorrelationThreads)
		return res, nil
	}
	res.Findf("%d pairs correlated (%d regions, %d numeric metadata attributes); the strongest: r = %.3f between %s and %s over %d threads.",
		total, len(regs), len(metas), ct.Num("r", 0), ct.Text("x", 0), ct.Text("y", 0), int(ct.Num("n", 0)))
	return res, nil
}

// corrSeries is a candidate region of Correlate: its flat node and its
// mean over all threads (absent as 0).
type corrSeries struct {
	name    string
	node    int
	meanAll float64
}

// corrRegions returns the candidate regions of the flat view (present on
// at least MinCorrelationThreads threads and not constant there) and the
// number left out as constant.
func corrRegions(t *drg.Trial, vals []float64) ([]corrSeries, int) {
	nt := len(t.Threads)
	var regs []corrSeries
	skippedConst := 0
	for _, f := range t.Flat() {
		var xs []float64
		for th := 0; th < nt; th++ {
			if t.Present.Get(f*nt + th) {
				xs = append(xs, vals[f*nt+th])
			}
		}
		if len(xs) < MinCorrelationThreads {
			continue
		}
		if constant(xs) {
			skippedConst++
			continue
		}
		var sum float64
		for _, v := range xs {
			sum += v
		}
		regs = append(regs, corrSeries{name: t.Nodes[f].Name, node: f, meanAll: sum / float64(nt)})
	}
	return regs, skippedConst
}

// corrMeta is a numeric per-thread metadata attribute: its value on every
// thread where ok.
type corrMeta struct {
	key string
	val []float64
	ok  []bool
}

// corrMetadata returns the metadata attributes numeric on at least
// MinCorrelationThreads threads and not constant there (by key), and the
// keys left out as identifiers unless includeIDs.
func corrMetadata(t *drg.Trial, includeIDs bool) ([]corrMeta, []string) {
	nt := len(t.Threads)
	keys := map[string]bool{}
	for _, th := range t.Threads {
		for k := range th.Metadata {
			keys[k] = true
		}
	}
	sortedKeys := make([]string, 0, len(keys))
	for k := range keys {
		sortedKeys = append(sortedKeys, k)
	}
	sort.Strings(sortedKeys)
	var metas []corrMeta
	var skippedIDs []string
	for _, k := range sortedKeys {
		if !includeIDs && IsIdentifier(k) {
			skippedIDs = append(skippedIDs, k)
			continue
		}
		md := corrMeta{key: k, val: make([]float64, nt), ok: make([]bool, nt)}
		var xs []float64
		for th, x := range t.Threads {
			s, has := x.Metadata[k]
			if !has {
				continue
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			md.val[th], md.ok[th] = v, true
			xs = append(xs, v)
		}
		if len(xs) >= MinCorrelationThreads && !constant(xs) {
			metas = append(metas, md)
		}
	}
	return metas, skippedIDs
}

// corrPairs collects the correlated pairs, one entry per column.
type corrPairs struct {
	xName, yName, kind       []string
	rs, r2, slope, icept, ns []float64
}

// add correlates y with x and keeps the pair unless it has fewer than
// MinCorrelationThreads points, a constant series or an undefined r.
func (p *corrPairs) add(xn, yn, k string, x, y []float64) {
	if len(x) < MinCorrelationThreads || constant(x) || constant(y) {
		return
	}
	r := stat.Correlation(x, y, nil)
	if math.IsNaN(r) {
		return
	}
	alpha, beta := stat.LinearRegression(x, y, nil, false)
	p.xName = append(p.xName, xn)
	p.yName = append(p.yName, yn)
	p.kind = append(p.kind, k)
	p.rs = append(p.rs, r)
	p.r2 = append(p.r2, r*r)
	p.slope = append(p.slope, beta)
	p.icept = append(p.icept, alpha)
	p.ns = append(p.ns, float64(len(x)))
}

// regionPairs correlates every pair of regions over the threads that have
// both.
func (p *corrPairs) regionPairs(t *drg.Trial, vals []float64, regs []corrSeries) {
	nt := len(t.Threads)
	x := make([]float64, 0, nt)
	y := make([]float64, 0, nt)
	for i := range regs {
		a := regs[i].node
		for j := i + 1; j < len(regs); j++ {
			b := regs[j].node
			x, y = x[:0], y[:0]
			for th := 0; th < nt; th++ {
				if t.Present.Get(a*nt+th) && t.Present.Get(b*nt+th) {
					x = append(x, vals[a*nt+th])
					y = append(y, vals[b*nt+th])
				}
			}
			p.add(regs[i].name, regs[j].name, "region", x, y)
		}
	}
}

// metadataPairs correlates every region with every metadata attribute
// over the threads that have both.
func (p *corrPairs) metadataPairs(t *drg.Trial, vals []float64, regs []corrSeries, metas []corrMeta) {
	nt := len(t.Threads)
	x := make([]float64, 0, nt)
	y := make([]float64, 0, nt)
	for _, md := range metas {
		for _, rg := range regs {
			x, y = x[:0], y[:0]
			for th := 0; th < nt; th++ {
				if md.ok[th] && t.Present.Get(rg.node*nt+th) {
					x = append(x, md.val[th])
					y = append(y, vals[rg.node*nt+th])
				}
			}
			p.add(md.key, rg.name, "metadata", x, y)
		}
	}
}

// table builds the "correlations" table (unit: the intercept's, that of
// y): the top pairs, strongest |r| first, then larger n, then
// names; it also returns the number of pairs before the cut.
func (p *corrPairs) table(top int, title, unit string) (Table, int) {
	idx := order(len(p.rs), func(i, j int) bool {
		ai, aj := math.Abs(p.rs[i]), math.Abs(p.rs[j])
		if ai != aj {
			return ai > aj
		}
		if p.ns[i] != p.ns[j] {
			return p.ns[i] > p.ns[j]
		}
		if p.xName[i] != p.xName[j] {
			return p.xName[i] < p.xName[j]
		}
		return p.yName[i] < p.yName[j]
	})
	total := len(idx)
	idx = idx[:topN(top, DefaultCorrelations, len(idx))]
	tb := Table{Name: "correlations", Title: title}
	tb.AddText("x", p.xName)
	tb.AddText("y", p.yName)
	tb.AddText("kind", p.kind)
	tb.AddNum("r", "", p.rs)
	tb.AddNum("r_squared", "", p.r2)
	tb.AddNum("slope", "", p.slope)
	tb.AddNum("intercept", unit, p.icept)
	tb.AddNum("n", "threads", p.ns)
	permuteTable(&tb, idx)
	return tb, total
}

// constant reports whether every value of x is the same.
func constant(x []float64) bool {
	if len(x) == 0 {
		return true
	}
	for _, v := range x[1:] {
		if v != x[0] {
			return false
		}
	}
	return true
}
