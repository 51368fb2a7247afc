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
	va, ka := regionMeans(a, ma, opt)
	vb, kb := regionMeans(b, mb, opt)
	rows := &compareRows{tol: tol, isTime: isTime}
	for _, k := range ka {
		if y, ok := vb[k]; ok {
			rows.add(k, "both", va[k], y)
		} else {
			rows.add(k, "only in A", va[k], 0)
		}
	}
	for _, k := range kb {
		if _, ok := va[k]; !ok {
			rows.add(k, "only in B", 0, vb[k])
		}
	}
	rt := res.AddTable(rows.table(fmt.Sprintf("%s %s per region, mean over threads (absent as 0): B (%s) relative to A (%s)",
		valueKind(opt.Inclusive), name, b.Name, a.Name), unitOf(a, ma)))
	mt, mainA, mainB, v := compareMain(a, b, ma, mb, tol)
	res.AddTable(mt)
	res.Findf("The main region takes %s in B (%s) against %s in A (%s): ratio b/a %s, B is %s.",
		formatValue(b, mb, mainB), b.Name, formatValue(a, ma, mainA), a.Name, fmtRatio(ratio(mainB, mainA, math.NaN())), v)
	largestChanges(res, rt, a, b, ma, mb, isTime)
	onlyA, onlyB := 0, 0
	for _, s := range rows.status {
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

// regionMeans returns the mean over the threads (absent as 0) of the
// metric's value per region key (the name, or the short name with
// ShortNames, summing the regions that share one), and the keys in order
// of first appearance.
func regionMeans(t *drg.Trial, m int, opt CompareOptions) (map[string]float64, []string) {
	out := map[string]float64{}
	var keys []string
	nt := len(t.Threads)
	vals := trialValues(t, m, opt.Inclusive)
	for _, f := range t.Flat() {
		r := &t.Regions[t.Nodes[f].Region]
		k := r.Name
		if opt.ShortNames {
			k = r.ShortName
		}
		if t.RowLen(f) == 0 {
			continue
		}
		var sum float64
		for _, v := range vals.Row(f) {
			sum += v
		}
		if _, seen := out[k]; !seen {
			keys = append(keys, k)
		}
		out[k] += sum / float64(nt)
	}
	return out, keys
}

// compareRows collects the rows of Compare's "regions" table.
type compareRows struct {
	tol                    float64
	isTime                 bool
	names, status, verdict []string
	av, bv, diff, rat, chg []float64
}

// add appends the row of region n with status st, value x in A and y in B.
func (c *compareRows) add(n, st string, x, y float64) {
	c.names = append(c.names, n)
	c.status = append(c.status, st)
	c.av = append(c.av, x)
	c.bv = append(c.bv, y)
	c.diff = append(c.diff, y-x)
	c.rat = append(c.rat, ratio(y, x, math.NaN()))
	c.chg = append(c.chg, ratio(100*(y-x), x, math.NaN()))
	switch st {
	case "both":
		c.verdict = append(c.verdict, Verdict(x, y, c.tol, c.isTime))
	default:
		c.verdict = append(c.verdict, st)
	}
}

// table builds the "regions" table, largest |diff| first (then by name).
func (c *compareRows) table(title, unit string) Table {
	tb := Table{Name: "regions", Title: title}
	addCompareColumns(&tb, "region", unit, c.names, c.status, c.av, c.bv, c.diff, c.rat, c.chg, c.verdict)
	permuteTable(&tb, order(len(c.names), func(i, j int) bool {
		di, dj := math.Abs(c.diff[i]), math.Abs(c.diff[j])
		if di != dj {
			return di > dj
		}
		return c.names[i] < c.names[j]
	}))
	return tb
}

// compareMain builds the "main" table: the main regions' inclusive values
// (mean over threads) in A and B and B's verdict, which it also returns
// with the two values.
func compareMain(a, b *drg.Trial, ma, mb int, tol float64) (Table, float64, float64, string) {
	name := a.Metrics[ma].Name
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
	v := Verdict(mainA, mainB, tol, a.Metrics[ma].IsTime())
	addCompareColumns(&mt, "region", unitOf(a, ma), []string{mn}, []string{"both"}, []float64{mainA}, []float64{mainB},
		[]float64{mainB - mainA}, []float64{ratio(mainB, mainA, math.NaN())}, []float64{ratio(100*(mainB-mainA), mainA, math.NaN())}, []string{v})
	return mt, mainA, mainB, v
}

// largestChanges finds the first row of the sorted "regions" table that
// is worse in B and the first that is better.
func largestChanges(res *Result, rt *Table, a, b *drg.Trial, ma, mb int, isTime bool) {
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
