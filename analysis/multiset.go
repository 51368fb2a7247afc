package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// MultiSetOptions select how MultiSet compares the sets.
type MultiSetOptions struct {
	SeriesOptions
	// Weak selects weak scaling within each set (see Scaling).
	Weak bool
}

// MultiSet is SCALEA's analysis of several sets of experiments (Fig. 12):
// the experiments are grouped into sets by a property (a problem size, a
// network, a power cap ...), and each set is a series of its own, compared
// against its own baseline.
//
// key names the property: one metadata key, or several separated by
// commas ("atoms,network"), each looked up with ByKey; a set's label is
// the values joined by ", ". With key "" the experiments' own Key fields
// are the labels ("(none)" for an empty Key). Sets are listed by label (numerically when every label
// is a number).
//
// The series parameter x is each experiment's P, and a set's baseline is
// its experiment with the smallest P (the first given among equal P);
// speedup, ideal_speedup and efficiency follow Scaling (strong, or weak with
// MultiSetOptions.Weak). When every experiment has the same P the study is
// a parameter study instead: key must name one numeric property, there is
// one set (labelled by the key), x is the property's value, the baseline is
// the smallest x, speedup = T_b/T_x (how much faster than at the baseline
// setting; below 1 when slower) and ideal_speedup and efficiency, which
// only make sense for a change of process count, are NaN.
//
// T is the program's time: the main region's inclusive value of the metric
// aggregated over the experiment's threads (SeriesOptions.Aggregate).
//
// Table "series", one row per experiment, by set then x: set, experiment,
// p, x, time, speedup, ideal_speedup, efficiency.
//
// Table "split", one row per experiment in the order of "series": set,
// experiment, x, the time of the computation, mpi, openmp, io and other
// classes of package classify (SeriesOptions.Rules; mean over the threads,
// see splitTable) and each class's percentage of their sum.
//
// Table "sets", one row per set: set, experiments, baseline (its name),
// x_min, x_max, time_baseline, time_max_x, speedup_max_x,
// efficiency_max_x.
//
// Findings compare the sets at every x that several sets share: the
// fastest and the slowest set there and their time ratio.
func MultiSet(exps []Experiment, key string, opt MultiSetOptions) (*Result, error) {
	all, err := collect(exps, opt.SeriesOptions)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, k := range strings.Split(key, ",") {
		if k = strings.TrimSpace(k); k != "" {
			keys = append(keys, k)
		}
	}
	n := len(all.exps)
	ps := all.ps()
	sameP := n > 1 && ps[0] == ps[n-1]
	res := all.newResult("multiset")
	res.Params["key"] = strings.Join(keys, ",")
	res.Params["scaling"] = scalingName(opt.Weak)
	res.Params["x"] = "p"
	labels, xs, err := setLabels(all, keys, key, sameP)
	if err != nil {
		return nil, err
	}
	xName := "p"
	if sameP {
		res.Params["x"] = "property:" + keys[0]
		xName = keys[0]
	}
	setNames, members := groupSets(labels, xs)
	ms := multisetRows(all, setNames, members, xs, sameP, opt.Weak)
	res.AddTable(ms.seriesTable(all, xName, multisetFormula(sameP, opt.Weak)))
	res.AddTable(splitTable(all, ms.rows, ms.sName, ms.sx, xName))
	res.AddTable(ms.setsTable(all.unit))
	res.Findf("%s grouped into %s by %s.", plural(n, "experiment"), plural(len(setNames), "set"), setKeyLabel(keys))
	compareSets(res, all, ms.timeAt, setNames, xName)
	return res, nil
}

// setLabels returns each experiment's set label and its x: for a
// parameter study (sameP) the value of the one numeric key, else P with
// the label the keys' values (or the experiment's Key with no key).
func setLabels(all *seriesData, keys []string, key string, sameP bool) ([]string, []float64, error) {
	n := len(all.exps)
	ps := all.ps()
	labels := make([]string, n)
	xs := append([]float64(nil), ps...)
	switch {
	case sameP:
		if len(keys) != 1 {
			return nil, nil, fmt.Errorf("every experiment has p = %s: a parameter study needs one numeric metadata key to vary, got %q",
				formatNum(ps[0]), key)
		}
		for k, e := range all.exps {
			prop, err := ByKey(e.Trial, keys[0])
			if err != nil {
				return nil, nil, err
			}
			if !prop.Numeric() {
				return nil, nil, fmt.Errorf("experiment %q: metadata %q = %q is not a number: cannot vary a parameter study", all.names[k], prop.Key, prop.Text)
			}
			xs[k] = prop.Num
			labels[k] = keys[0]
		}
	case len(keys) > 0:
		for k, e := range all.exps {
			var vals []string
			for _, key := range keys {
				prop, err := ByKey(e.Trial, key)
				if err != nil {
					return nil, nil, err
				}
				vals = append(vals, prop.Text)
			}
			labels[k] = strings.Join(vals, ", ")
		}
	default:
		for k, e := range all.exps {
			labels[k] = e.Key
			if labels[k] == "" {
				labels[k] = "(none)"
			}
		}
	}
	return labels, xs, nil
}

// groupSets groups the experiments by label: the set names in label order
// and each set's experiments in x order (then given order).
func groupSets(labels []string, xs []float64) ([]string, map[string][]int) {
	members := map[string][]int{}
	var setNames []string
	for k := range labels {
		if _, ok := members[labels[k]]; !ok {
			setNames = append(setNames, labels[k])
		}
		members[labels[k]] = append(members[labels[k]], k)
	}
	sortLabels(setNames)
	for _, s := range setNames {
		m := members[s]
		sort.SliceStable(m, func(i, j int) bool { return xs[m[i]] < xs[m[j]] })
	}
	return setNames, members
}

// multisetData holds the columns of MultiSet's "series" (one entry per
// experiment, by set then x) and "sets" tables (one per set), and the
// first time of every set at every x.
type multisetData struct {
	sName, eName                                            []string
	rows                                                    []int
	sp, sx, st, ss, si, se                                  []float64
	tSet, tBase                                             []string
	tCount, tXMin, tXMax, tTimeB, tTimeMax, tSpMax, tEffMax []float64
	timeAt                                                  map[float64]map[string]float64
}

// multisetRows computes every set's scaling against its own baseline.
func multisetRows(all *seriesData, setNames []string, members map[string][]int, xs []float64, sameP, weak bool) *multisetData {
	ps := all.ps()
	d := &multisetData{timeAt: map[float64]map[string]float64{}}
	for _, s := range setNames {
		m := members[s]
		b := m[0]
		var lastSp, lastEff float64
		for _, k := range m {
			var spd, ideal, eff float64
			if sameP {
				spd, ideal, eff = math.NaN(), math.NaN(), math.NaN()
				if all.main[b] > 0 && all.main[k] > 0 {
					spd = all.main[b] / all.main[k]
				}
			} else {
				spd, ideal, eff = Scaling(all.main[b], xs[b], all.main[k], xs[k], weak)
			}
			d.sName = append(d.sName, s)
			d.eName = append(d.eName, all.names[k])
			d.rows = append(d.rows, k)
			d.sp = append(d.sp, ps[k])
			d.sx = append(d.sx, xs[k])
			d.st = append(d.st, all.main[k])
			d.ss, d.si, d.se = append(d.ss, spd), append(d.si, ideal), append(d.se, eff)
			lastSp, lastEff = spd, eff
			if d.timeAt[xs[k]] == nil {
				d.timeAt[xs[k]] = map[string]float64{}
			}
			if _, dup := d.timeAt[xs[k]][s]; !dup {
				d.timeAt[xs[k]][s] = all.main[k]
			}
		}
		last := m[len(m)-1]
		d.tSet = append(d.tSet, s)
		d.tCount = append(d.tCount, float64(len(m)))
		d.tBase = append(d.tBase, all.names[b])
		d.tXMin, d.tXMax = append(d.tXMin, xs[b]), append(d.tXMax, xs[last])
		d.tTimeB, d.tTimeMax = append(d.tTimeB, all.main[b]), append(d.tTimeMax, all.main[last])
		d.tSpMax, d.tEffMax = append(d.tSpMax, lastSp), append(d.tEffMax, lastEff)
	}
	return d
}

// seriesTable builds MultiSet's "series" table.
func (d *multisetData) seriesTable(all *seriesData, xName, formula string) Table {
	series := Table{Name: "series", Title: fmt.Sprintf("Program %s (main region's inclusive value, %s) per set across %s, against each set's own baseline; %s",
		all.metric, all.aggregateLabel(), xName, formula)}
	series.AddText("set", d.sName)
	series.AddText("experiment", d.eName)
	series.AddNum("p", "", d.sp)
	series.AddNum("x", "", d.sx)
	series.AddNum("time", all.unit, d.st)
	series.AddNum("speedup", "", d.ss)
	series.AddNum("ideal_speedup", "", d.si)
	series.AddNum("efficiency", "", d.se)
	return series
}

// setsTable builds MultiSet's "sets" table.
func (d *multisetData) setsTable(unit string) Table {
	sets := Table{Name: "sets", Title: "One row per set: its baseline (smallest x) and its scaling at its largest x"}
	sets.AddText("set", d.tSet)
	sets.AddNum("experiments", "", d.tCount)
	sets.AddText("baseline", d.tBase)
	sets.AddNum("x_min", "", d.tXMin)
	sets.AddNum("x_max", "", d.tXMax)
	sets.AddNum("time_baseline", unit, d.tTimeB)
	sets.AddNum("time_max_x", unit, d.tTimeMax)
	sets.AddNum("speedup_max_x", "", d.tSpMax)
	sets.AddNum("efficiency_max_x", "", d.tEffMax)
	return sets
}

// compareSets finds, at every x that several sets share, the fastest and
// the slowest set and their time ratio.
func compareSets(res *Result, all *seriesData, timeAt map[float64]map[string]float64, setNames []string, xName string) {
	var shared []float64
	for x, m := range timeAt {
		if len(m) > 1 {
			shared = append(shared, x)
		}
	}
	sort.Float64s(shared)
	for _, x := range shared {
		m := timeAt[x]
		fast, slow := "", ""
		for _, s := range setNames {
			t, ok := m[s]
			if !ok || !defined(t) {
				continue
			}
			if fast == "" || t < m[fast] {
				fast = s
			}
			if slow == "" || t > m[slow] {
				slow = s
			}
		}
		if fast == "" || fast == slow {
			continue
		}
		res.Findf("At %s = %s, set %q is fastest (%s) and set %q slowest (%s): ratio %s.", xName, formatNum(x),
			fast, formatMicrosOrValue(all, m[fast]), slow, formatMicrosOrValue(all, m[slow]), fmtRatio3(ratio(m[slow], m[fast], math.NaN())))
	}
}

// multisetFormula states the formulas for the series table's title.
func multisetFormula(sameP, weak bool) string {
	if sameP {
		return "speedup = T_b/T_x, ideal_speedup and efficiency undefined"
	}
	return scalingFormula(weak)
}

// setKeyLabel names the grouping for a finding.
func setKeyLabel(keys []string) string {
	if len(keys) == 0 {
		return "the experiments' keys"
	}
	return strings.Join(keys, ", ")
}

// sortLabels sorts set labels numerically when every label is a number,
// else lexicographically.
func sortLabels(labels []string) {
	nums := make(map[string]float64, len(labels))
	for _, l := range labels {
		p := parseProperty("", l)
		if !p.Numeric() || p.Unit != "" {
			sort.Strings(labels)
			return
		}
		nums[l] = p.Num
	}
	sort.SliceStable(labels, func(i, j int) bool { return nums[labels[i]] < nums[labels[j]] })
}
