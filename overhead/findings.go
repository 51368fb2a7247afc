package overhead

import (
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"math"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// format renders a value of the analysis's metric for a finding.
func (c *config) format(v float64) string {
	if c.unitOfMetric() != "us" {
		return strconv.FormatFloat(v, 'g', 3, 64) + " " + c.metric
	}
	return analysis.FormatMicros(v)
}

func pct(a, b float64) string {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return "n/a"
	}
	return strconv.FormatFloat(100*a/b, 'f', 0, 64) + "%"
}

func (c *config) findings(res *analysis.Result, exps []*expStats) {
	b := c.baseline
	res.Findf("T_s = %s: %s (baseline %q, %s)", c.format(c.ts), c.tsRule, c.trials[b].Name, c.labels[b])
	if last := lastDefined(exps); last >= 0 {
		c.headline(res, exps[last], last)
	}
	for i, e := range exps {
		if e.defined {
			c.caveats(res, e, i)
		}
	}
	for i, t := range c.trials {
		if o, ok := analysis.Oversubscribed(t); ok {
			res.Findf("%s (%s) is oversubscribed: %s, so its overheads include contention for cores", c.labels[i], t.Name, o)
		}
	}
	for i, e := range exps {
		if !e.defined {
			res.Findf("%s (%s) has no %s %s: its figures are undefined", c.labels[i], c.trials[i].Name, map[int]string{1: "process", 2: "thread"}[c.restrict.kind], c.restrict.text)
		}
		if float64(e.units) != e.p {
			res.Findf("%s: trial %q has %d %ss in its profiles but p = %s was given; regions executed by fewer than p %ss count as loss of parallelism",
				c.labels[i], c.trials[i].Name, e.units, c.unit, strconv.FormatFloat(e.p, 'f', -1, 64), c.unit)
		}
	}
}

// lastDefined is the index of the experiment with the largest p that has
// figures, -1 when none has.
func lastDefined(exps []*expStats) int {
	last := -1
	for i, e := range exps {
		if e.defined && (last < 0 || e.p >= exps[last].p) {
			last = i
		}
	}
	return last
}

// headline states the split at the largest p and its largest cause.
func (c *config) headline(res *analysis.Result, e *expStats, i int) {
	top, topV := Category(""), math.Inf(-1)
	for _, k := range OverheadCategories() {
		if e.cat[k] > topV {
			top, topV = k, e.cat[k]
		}
	}
	res.Findf("At %s: T_p = %s, T_o = %s (%s of T_p); identified %s (%s of T_o), largest category %s with %s; unidentified %s",
		c.labels[i], c.format(e.tp), c.format(e.to), pct(e.to, e.tp), c.format(e.identified), pct(e.identified, e.to),
		top, c.format(topV), c.format(e.unident))
	var best *regionStat
	for j := range e.regions {
		r := &e.regions[j]
		if r.overhead > 0 && (best == nil || r.overhead > best.overhead) {
			best = r
		}
	}
	if best != nil {
		what := string(best.cls.cat) + ": " + best.cls.sub
		if best.cls.cat == Computation {
			what = string(LossOfParallelism) + ": " + best.kind
		}
		res.Findf("%s holds %s of the overhead at %s (%s)", classify.MatchName(best.name), pct(best.overhead, e.to), c.labels[i], what)
	}
}

// caveats says where the measurements force a figure outside [0, T_o] or
// where a claim could not be paid in full, and why.
func (c *config) caveats(res *analysis.Result, e *expStats, i int) {
	who := c.whoLabel(e)
	if e.to < 0 {
		res.Findf("Superlinear speedup at %s: T_o = %s < 0 (speedup T_s/T_p = %.3g > p = %s); every category exceeds T_o",
			c.labels[i], c.format(e.to), c.ts/e.tp, strconv.FormatFloat(e.p, 'f', -1, 64))
	}
	if e.unident < 0 {
		res.Findf("At %s the identified overhead exceeds T_o by %s: %s did %s of useful work, less than the ideal share T_s/p = %s "+
			"(superlinear effects such as caches, or T_s overstated by the baseline); unidentified is negative by that amount",
			c.labels[i], c.format(-e.unident), who, c.format(e.work), c.format(e.ideal))
	}
	if paid := e.cat[LossOfParallelism]; e.waitClaim+e.workClaim > paid*(1+1e-9)+1e-300 {
		res.Findf("At %s loss of parallelism claims %s but only %s is found in %s's synchronization time and work excess; "+
			"the rest of the waiting was recorded elsewhere (in point-to-point calls or MPI_Finalize) and stays there",
			c.labels[i], c.format(e.waitClaim+e.workClaim), c.format(paid), who)
	}
	if c.agg == analysis.AggregateMean && e.tmax > e.tp*1.01 {
		res.Findf("At %s the processes do not finish together: the last takes T_max = %s, %s more than the average process's T_p = %s that the split describes",
			c.labels[i], c.format(e.tmax), pct(e.tmax-e.tp, e.tp), c.format(e.tp))
	}
}

// whoLabel names the processes the figures describe.
func (c *config) whoLabel(e *expStats) string {
	if len(e.chosen) > 1 {
		return "the average process"
	}
	if c.restrict.kind != 0 {
		return c.unit + " " + c.restrict.text
	}
	return fmt.Sprintf("the %s that finishes %s", c.unit, map[analysis.Aggregate]string{analysis.AggregateMax: "last", analysis.AggregateMin: "first", analysis.AggregateMean: "alone"}[c.agg])
}

// plural gives the plural of a unit name ("process" → "processes").
func plural(unit string) string {
	if strings.HasSuffix(unit, "s") {
		return unit + "es"
	}
	return unit + "s"
}
