package analysis

import (
	"fmt"
	"math"
	"strconv"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// DefaultTolerance is the relative difference below which Compare calls two
// values "same" when CompareOptions.Tolerance is 0.
const DefaultTolerance = 0.05

// CompareOptions select what Compare compares.
type CompareOptions struct {
	// Metric is the metric's name, which both trials must have; "" selects
	// trial A's first time metric.
	Metric string
	// Inclusive compares inclusive values; the default is exclusive.
	Inclusive bool
	// Tolerance is the relative difference |b−a| ≤ Tolerance*a under which
	// the values count as "same": 0 means DefaultTolerance (5%), a negative
	// number exact equality only.
	Tolerance float64
	// ShortNames aligns regions by their name without the source location
	// (drg.Region.ShortName), so that a region whose line numbers moved
	// between versions still matches; regions of one trial sharing a short
	// name are summed. The default aligns by full name.
	ShortNames bool
}

// Compare compares two trials region by region: B relative to A.
//
// Regions of the flat view are aligned by name (see ShortNames). For each,
// the value in each trial is the mean over that trial's threads with absent
// records as 0 (Σx/N, TAUdb's MEAN (nulls as 0)); a region only one trial has
// counts as 0 in the other.
//
// Table "regions", largest |diff| first (then by name): region, status
// ("both", "only in A", "only in B"), a, b, diff = b − a, ratio = b/a (null
// when a = 0), change_percent = 100*(b − a)/a (null when a = 0), and b_vs_a,
// the verdict on B relative to A: "same" when |b − a| ≤ tolerance*a, else,
// for a time metric, "faster" (b < a) or "slower" (b > a), and for another
// metric "lower" or "higher"; "only in A" or "only in B" for unmatched
// regions.
//
// Table "main": the same columns for the main region of each trial (the
// mean over threads of drg.Trial.MainInclusive; the main regions may have
// different names, both listed).
func Compare(a, b *drg.Trial, opt CompareOptions) (*Result, error) {
	if a == nil || b == nil {
		return nil, fmt.Errorf("compare needs two trials")
	}
	ma, err := resolveMetric(a, opt.Metric)
	if err != nil {
		return nil, fmt.Errorf("trial A: %w", err)
	}
	name := a.Metrics[ma].Name
	mb := b.MetricIndex(name)
	if mb < 0 {
		return nil, fmt.Errorf("%w %q in trial B %q: it has %s", ErrUnknownMetric, name, b.Name, metricNames(b))
	}
	tol := opt.Tolerance
	switch {
	case tol == 0:
		tol = DefaultTolerance
	case tol < 0:
		tol = 0
	}
	res := &Result{
		Analysis: "compare",
		Trials:   []string{a.Name, b.Name},
		Metric:   name,
		Params: map[string]string{
			"metric":    name,
			"value":     valueKind(opt.Inclusive),
			"tolerance": strconv.FormatFloat(tol, 'g', -1, 64),
			"align":     "name",
		},
		Findings: []string{},
	}
	if opt.ShortNames {
		res.Params["align"] = "short_name"
	}
	isTime := a.Metrics[ma].IsTime()
	unit := unitOf(a, ma)

	keyOf := func(r *drg.Region) string {
		if opt.ShortNames {
			return r.ShortName
		}
		return r.Name
	}
	means := func(t *drg.Trial, m int) (map[string]float64, []string) {
		out := map[string]float64{}
		var keys []string
		nt := len(t.Threads)
		vals := column(t, m, opt.Inclusive)
		for _, f := range t.Flat() {
			k := keyOf(&t.Regions[t.Nodes[f].Region])
			if t.Present.Count(f*nt, (f+1)*nt) == 0 {
				continue
			}
			var sum float64
			for th := 0; th < nt; th++ {
				if t.Present.Get(f*nt + th) {
					sum += vals[f*nt+th]
				}
			}
			if _, seen := out[k]; !seen {
				keys = append(keys, k)
			}
			out[k] += sum / float64(nt)
		}
		return out, keys
	}
	va, ka := means(a, ma)
	vb, kb := means(b, mb)

	var names, status, verdict []string
	var av, bv, diff, rat, chg []float64
	row := func(n, st string, x, y float64) {
		names = append(names, n)
		status = append(status, st)
		av = append(av, x)
		bv = append(bv, y)
		diff = append(diff, y-x)
		rat = append(rat, ratio(y, x, math.NaN()))
		chg = append(chg, ratio(100*(y-x), x, math.NaN()))
		switch st {
		case "both":
			verdict = append(verdict, Verdict(x, y, tol, isTime))
		default:
			verdict = append(verdict, st)
		}
	}
	for _, k := range ka {
		if y, ok := vb[k]; ok {
			row(k, "both", va[k], y)
		} else {
			row(k, "only in A", va[k], 0)
		}
	}
	for _, k := range kb {
		if _, ok := va[k]; !ok {
			row(k, "only in B", 0, vb[k])
		}
	}
	tb := Table{Name: "regions", Title: fmt.Sprintf("%s %s per region, mean over threads (absent as 0): B (%s) relative to A (%s)",
		valueKind(opt.Inclusive), name, b.Name, a.Name)}
	addCompareColumns(&tb, "region", unit, names, status, av, bv, diff, rat, chg, verdict)
	permuteTable(&tb, order(len(names), func(i, j int) bool {
		di, dj := math.Abs(diff[i]), math.Abs(diff[j])
		if di != dj {
			return di > dj
		}
		return names[i] < names[j]
	}))
	rt := res.AddTable(tb)

	// Main regions.
	mainA := drg.DerivedMain(a.MainInclusive(ma), drg.Mean)
	mainB := drg.DerivedMain(b.MainInclusive(mb), drg.Mean)
	mainName := func(t *drg.Trial, m int) string {
		if r := t.MainRegion(m); r >= 0 {
			return t.Regions[r].Name
		}
		return ""
	}
	mn := mainName(a, ma)
	if nb := mainName(b, mb); nb != mn {
		mn += " | " + nb
	}
	mt := Table{Name: "main", Title: "Main region's inclusive " + name + ", mean over threads: B relative to A"}
	v := Verdict(mainA, mainB, tol, isTime)
	addCompareColumns(&mt, "region", unit, []string{mn}, []string{"both"}, []float64{mainA}, []float64{mainB},
		[]float64{mainB - mainA}, []float64{ratio(mainB, mainA, math.NaN())}, []float64{ratio(100*(mainB-mainA), mainA, math.NaN())}, []string{v})
	res.AddTable(mt)

	res.Findf("The main region takes %s in B (%s) against %s in A (%s): ratio b/a %s, B is %s.",
		formatValue(b, mb, mainB), b.Name, formatValue(a, ma, mainA), a.Name, fmtRatio(ratio(mainB, mainA, math.NaN())), v)
	worse, better := "slower", "faster"
	if !isTime {
		worse, better = "higher", "lower"
	}
	// A region only in B adds its value (a change towards worse), one only
	// in A removes it: both count, by |diff| like the others.
	oneSided := map[string]string{worse: "only in B", better: "only in A"}
	for _, want := range []string{worse, better} {
		for i := 0; i < rt.NumRows(); i++ {
			switch rt.Text("b_vs_a", i) {
			case want:
				res.Findf("Largest change, %s in B: %s, %s → %s (%+.1f%%).", want, rt.Text("region", i),
					formatValue(a, ma, rt.Num("a", i)), formatValue(b, mb, rt.Num("b", i)), rt.Num("change_percent", i))
			case oneSided[want]:
				val := formatValue(b, mb, rt.Num("b", i)) + " only in B"
				if want == better {
					val = formatValue(a, ma, rt.Num("a", i)) + " only in A"
				}
				res.Findf("Largest change, %s in B: %s, %s.", want, rt.Text("region", i), val)
			default:
				continue
			}
			break
		}
	}
	onlyA, onlyB := 0, 0
	for _, s := range status {
		switch s {
		case "only in A":
			onlyA++
		case "only in B":
			onlyB++
		}
	}
	if onlyA+onlyB > 0 {
		res.Findf("%d regions are only in A and %d only in B.", onlyA, onlyB)
	}
	return res, nil
}

// Verdict names b relative to a: "same" when |b − a| ≤ tol*|a|; otherwise
// "faster" (b < a) or "slower" (b > a) for a time metric, "lower" or
// "higher" for another metric.
func Verdict(a, b, tol float64, isTime bool) string {
	switch {
	case math.Abs(b-a) <= tol*math.Abs(a):
		return "same"
	case b < a && isTime:
		return "faster"
	case b < a:
		return "lower"
	case isTime:
		return "slower"
	}
	return "higher"
}

func addCompareColumns(tb *Table, label, unit string, names, status []string, a, b, diff, rat, chg []float64, verdict []string) {
	tb.AddText(label, names)
	tb.AddText("status", status)
	tb.AddNum("a", unit, a)
	tb.AddNum("b", unit, b)
	tb.AddNum("diff", unit, diff)
	tb.AddNum("ratio", "", rat)
	tb.AddNum("change_percent", "%", chg)
	tb.AddText("b_vs_a", verdict)
}

func fmtRatio(r float64) string {
	if math.IsNaN(r) {
		return "undefined (A is 0)"
	}
	return strconv.FormatFloat(r, 'f', 3, 64)
}
