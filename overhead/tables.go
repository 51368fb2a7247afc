package overhead

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// unitOfMetric returns the unit of the values: "us" for a time metric.
func (c *config) unitOfMetric() string {
	t := c.trials[0]
	if t.Metrics[c.metrics[0]].IsTime() {
		return "us"
	}
	return c.metric
}

// result builds the tables and findings.
func (c *config) result(exps []*expStats) (*analysis.Result, error) {
	res := &analysis.Result{Analysis: "overhead", Metric: c.metric, Params: map[string]string{}, Findings: []string{}}
	for _, t := range c.trials {
		res.Trials = append(res.Trials, t.Name)
	}
	c.params(res)
	unit := c.unitOfMetric()
	c.collectSubs(exps)
	res.AddTable(c.experimentsTable(exps, unit))
	res.AddTable(c.totalsTable(exps, unit))
	res.AddTable(c.regionsTable(exps, unit))
	res.AddTable(c.categoryTable(exps, unit))
	c.findings(res, exps)
	if err := res.Validate(); err != nil {
		return nil, err
	}
	return res, nil
}

func (c *config) params(res *analysis.Result) {
	ps := make([]string, len(c.p))
	for i, x := range c.p {
		ps[i] = strconv.FormatFloat(x, 'f', -1, 64)
	}
	res.Params["metric"] = c.metric
	res.Params["aggregate"] = string(c.agg)
	res.Params["unit"] = c.unit
	res.Params["p"] = strings.Join(ps, ",")
	res.Params["baseline"] = strconv.Itoa(c.baseline)
	res.Params["baseline_trial"] = c.trials[c.baseline].Name
	res.Params["baseline_p"] = ps[c.baseline]
	res.Params["t_s"] = strconv.FormatFloat(c.ts, 'g', -1, 64)
	res.Params["t_s_rule"] = c.tsRule
	res.Params["sequential_time"] = "baseline"
	if c.opt.SequentialTime > 0 {
		res.Params["sequential_time"] = strconv.FormatFloat(c.opt.SequentialTime, 'g', -1, 64)
	}
	res.Params["restrict"] = c.restrict.text
	res.Params["region"] = orAll(c.regionQ)
	res.Params["category"] = orAll(string(c.catFilter))
	res.Params["top"] = "all"
	if c.opt.Top > 0 {
		res.Params["top"] = strconv.Itoa(c.opt.Top)
	}
	res.Params["replicated_threshold"] = strconv.FormatFloat(c.theta, 'g', -1, 64)
	res.Params["value"] = "exclusive (flat view); T_p from the main region's inclusive value"
	res.Params["rules"] = rulesFingerprint(c.rules)
}

func orAll(s string) string {
	if s == "" {
		return "all"
	}
	return s
}

// rulesFingerprint is "default" for the default rules, otherwise "custom "
// and a SHA-256 prefix of the rules file WriteRules makes of them.
func rulesFingerprint(rules []classify.Rule) string {
	var a, b strings.Builder
	_ = classify.WriteRules(&a, rules)
	_ = classify.WriteRules(&b, classify.Default())
	if a.String() == b.String() {
		return "default"
	}
	sum := sha256.Sum256([]byte(a.String()))
	return "custom sha256:" + hex.EncodeToString(sum[:8])
}

// collectSubs fixes the order of the sub-category rows: rule order for the
// rule categories (subs with a region in some experiment only), then the
// loss kinds.
func (c *config) collectSubs(exps []*expStats) {
	present := map[catSub]bool{}
	for _, e := range exps {
		for _, r := range e.regions {
			if r.cls.cat != Computation {
				present[catSub{r.cls.cat, r.cls.sub}] = true
			} else if r.kind != "" {
				present[catSub{LossOfParallelism, r.kind}] = true
			}
		}
	}
	seen := map[catSub]bool{}
	for _, r := range c.rules {
		k := catSub{r.Category, r.Sub}
		if present[k] && !seen[k] {
			seen[k] = true
			c.subOrder[r.Category] = append(c.subOrder[r.Category], r.Sub)
		}
	}
	for _, kind := range []string{SubUnparallelized, SubPartial, SubReplicated} {
		if present[catSub{LossOfParallelism, kind}] {
			c.subOrder[LossOfParallelism] = append(c.subOrder[LossOfParallelism], kind)
		}
	}
}

func (c *config) experimentsTable(exps []*expStats, unit string) analysis.Table {
	var cats, subs []string
	vals := make([][]float64, len(exps))
	row := func(cat, sub string, get func(e *expStats) float64) {
		cats = append(cats, cat)
		subs = append(subs, sub)
		for i, e := range exps {
			vals[i] = append(vals[i], get(e))
		}
	}
	for _, k := range OverheadCategories() {
		row(string(k), "", func(e *expStats) float64 { return e.cat[k] })
		for _, s := range c.subOrder[k] {
			row(string(k), s, func(e *expStats) float64 {
				if !e.defined {
					return math.NaN()
				}
				return e.sub[catSub{k, s}]
			})
		}
	}
	row("total identified", "", func(e *expStats) float64 { return e.identified })
	row("unidentified", "", func(e *expStats) float64 { return e.unident })
	row("total overhead", "", func(e *expStats) float64 { return e.to })
	row("total execution time", "", func(e *expStats) float64 { return e.tp })
	row("ideal time", "", func(e *expStats) float64 { return e.ideal })
	t := analysis.Table{Name: "experiments", Title: fmt.Sprintf(
		"SCALEA overhead table (Figure 13), %s over %s: categories (sub-categories below each), total identified, unidentified = T_o - identified, total overhead T_o = T_p - T_s/p, total execution time T_p, ideal time T_s/p (T_s = %s)",
		c.agg, plural(c.unit), c.tsRule)}
	t.AddText("category", cats)
	t.AddText("sub", subs)
	for i := range exps {
		t.AddNum(c.columns[i], unit, vals[i])
	}
	return t
}

func (c *config) totalsTable(exps []*expStats, unit string) analysis.Table {
	n := len(exps)
	t := analysis.Table{Name: "totals", Title: "Per experiment: T_p (of the processes the split describes), T_max (the last process), ideal time T_s/p, T_o = T_p - T_s/p, identified, unidentified = T_o - identified, the categories, speedup T_s/T_p, efficiency T_s/(p*T_p), overhead_percent 100*T_o/T_p"}
	label, trial, base := make([]string, n), make([]string, n), make([]string, n)
	num := func() []float64 { return make([]float64, n) }
	p, units, tp, tmax, ideal, to, id, un, sp, ef, op := num(), num(), num(), num(), num(), num(), num(), num(), num(), num(), num()
	cats := make([][]float64, len(OverheadCategories()))
	for i := range cats {
		cats[i] = num()
	}
	for i, e := range exps {
		label[i], trial[i] = c.labels[i], c.trials[i].Name
		base[i] = "no"
		if i == c.baseline {
			base[i] = "yes"
		}
		p[i], units[i], tp[i], tmax[i], ideal[i], to[i], id[i], un[i] = e.p, float64(e.units), e.tp, e.tmax, e.ideal, e.to, e.identified, e.unident
		for j, k := range OverheadCategories() {
			cats[j][i] = e.cat[k]
		}
		sp[i] = ratio(c.ts, e.tp)
		ef[i] = ratio(c.ts, e.p*e.tp)
		op[i] = 100 * ratio(e.to, e.tp)
	}
	t.AddText("experiment", label)
	t.AddText("trial", trial)
	t.AddNum("p", "", p)
	t.AddNum("units", "", units)
	t.AddText("baseline", base)
	t.AddNum("t_p", unit, tp)
	t.AddNum("t_max", unit, tmax)
	t.AddNum("ideal", unit, ideal)
	t.AddNum("t_o", unit, to)
	t.AddNum("identified", unit, id)
	t.AddNum("unidentified", unit, un)
	for j, k := range OverheadCategories() {
		t.AddNum(strings.ReplaceAll(string(k), " ", "_"), unit, cats[j])
	}
	t.AddNum("speedup", "", sp)
	t.AddNum("efficiency", "", ef)
	t.AddNum("overhead_percent", "%", op)
	return t
}

// ratio returns a/b, NaN when b is 0 or either is undefined.
func ratio(a, b float64) float64 {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return a / b
}

func (c *config) regionsTable(exps []*expStats, unit string) analysis.Table {
	type row struct {
		e int
		r *regionStat
	}
	byName := map[string][]row{}
	var names []string
	total := map[string]float64{}
	for i, e := range exps {
		for j := range e.regions {
			r := &e.regions[j]
			if c.regionQ != "" && !regionIs(&drg.Region{Name: r.name}, c.regionQ) {
				continue
			}
			if _, ok := byName[r.name]; !ok {
				names = append(names, r.name)
			}
			byName[r.name] = append(byName[r.name], row{i, r})
			if !math.IsNaN(r.overhead) {
				total[r.name] += r.overhead
			}
		}
	}
	sort.SliceStable(names, func(a, b int) bool { return total[names[a]] > total[names[b]] })
	t := analysis.Table{Name: "regions", Title: fmt.Sprintf("Region-to-overhead: per region and experiment, its category (by the rules), time = %s over %s of its exclusive value (absent as 0), overhead = its time for a rule category or its loss of parallelism for computation, percent_of_overhead = 100*overhead/T_o", c.agg, plural(c.unit))}
	var region, exp, trial, cat, sub, rule, kind []string
	var p, q, tm, ov, pct []float64
	for _, n := range names {
		for _, x := range byName[n] {
			e := exps[x.e]
			region = append(region, n)
			exp = append(exp, c.labels[x.e])
			trial = append(trial, c.trials[x.e].Name)
			cat = append(cat, string(x.r.cls.cat))
			sub = append(sub, x.r.cls.sub)
			rule = append(rule, x.r.cls.rule)
			kind = append(kind, x.r.kind)
			p = append(p, e.p)
			q = append(q, float64(x.r.q))
			tm = append(tm, x.r.time)
			ov = append(ov, x.r.overhead)
			pct = append(pct, 100*ratio(x.r.overhead, e.to))
		}
	}
	t.AddText("region", nonNil(region))
	t.AddText("experiment", nonNil(exp))
	t.AddText("trial", nonNil(trial))
	t.AddNum("p", "", nonNilF(p))
	t.AddText("category", nonNil(cat))
	t.AddText("sub", nonNil(sub))
	t.AddText("rule", nonNil(rule))
	t.AddNum("units", "", nonNilF(q))
	t.AddNum("time", unit, nonNilF(tm))
	t.AddNum("overhead", unit, nonNilF(ov))
	t.AddText("loss_kind", nonNil(kind))
	t.AddNum("percent_of_overhead", "%", nonNilF(pct))
	return t
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilF(s []float64) []float64 {
	if s == nil {
		return []float64{}
	}
	return s
}

// causes returns the regions of experiment e that cause overhead in
// category k, largest first (ties by name).
func causes(e *expStats, k Category) []*regionStat {
	var out []*regionStat
	for j := range e.regions {
		r := &e.regions[j]
		switch {
		case k == LossOfParallelism && r.cls.cat == Computation && r.kind != "":
		case k != LossOfParallelism && r.cls.cat == k:
		default:
			continue
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].overhead != out[b].overhead {
			return out[a].overhead > out[b].overhead
		}
		return out[a].name < out[b].name
	})
	return out
}

func (c *config) categoryTable(exps []*expStats, unit string) analysis.Table {
	t := analysis.Table{Name: "category", Title: fmt.Sprintf("Overhead-to-region: per category and experiment, the regions causing it, largest overhead first; percent_of_category = 100*overhead/category, percent_of_overhead = 100*overhead/T_o (%s over %s)", c.agg, plural(c.unit))}
	var cat, sub, exp, region []string
	var p, rank, ov, pc, po []float64
	for _, k := range OverheadCategories() {
		if c.catFilter != "" && k != c.catFilter {
			continue
		}
		for i, e := range exps {
			if !e.defined {
				continue
			}
			list := causes(e, k)
			if c.opt.Top > 0 && len(list) > c.opt.Top {
				list = list[:c.opt.Top]
			}
			for n, r := range list {
				s := r.cls.sub
				if k == LossOfParallelism {
					s = r.kind
				}
				cat = append(cat, string(k))
				sub = append(sub, s)
				exp = append(exp, c.labels[i])
				region = append(region, r.name)
				p = append(p, e.p)
				rank = append(rank, float64(n+1))
				ov = append(ov, r.overhead)
				pc = append(pc, 100*ratio(r.overhead, e.cat[k]))
				po = append(po, 100*ratio(r.overhead, e.to))
			}
		}
	}
	t.AddText("category", nonNil(cat))
	t.AddText("sub", nonNil(sub))
	t.AddText("experiment", nonNil(exp))
	t.AddNum("p", "", nonNilF(p))
	t.AddNum("rank", "", nonNilF(rank))
	t.AddText("region", nonNil(region))
	t.AddNum("overhead", unit, nonNilF(ov))
	t.AddNum("percent_of_category", "%", nonNilF(pc))
	t.AddNum("percent_of_overhead", "%", nonNilF(po))
	return t
}
