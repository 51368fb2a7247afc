package analysis

import (
	"fmt"
	"math"
	"strings"
)

// historyTable adds table "history": per point, its order value, the
// number of repetitions, the program's median, min and max time, the
// spread between repetitions and the program's change there, if any.
func (h *historyData) historyTable(res *Result, changes []regressChange) {
	mark := map[int]string{}
	for _, c := range changes {
		if c.region < 0 {
			mark[c.point] = c.verdict()
		}
	}
	tb := Table{Name: "history", Title: fmt.Sprintf("History of the program's %s (main region's inclusive value, %s), per point: median over the repetitions; spread = 100*sd/mean of the repetitions",
		h.d.metric, h.d.aggregateLabel())}
	n := len(h.points)
	pt, reps, med, lo, hi, spread := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	keys, change := make([]string, n), make([]string, n)
	for i, p := range h.points {
		pt[i], keys[i], reps[i], med[i] = float64(i+1), p.key, float64(len(p.exps)), h.prog[i]
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
		for _, k := range p.exps {
			lo[i], hi[i] = math.Min(lo[i], h.d.main[k]), math.Max(hi[i], h.d.main[k])
		}
		spread[i] = relSpread(h.d.main, p.exps)
		change[i] = mark[i]
	}
	tb.AddNum("point", "", pt)
	tb.AddText("order_value", keys)
	tb.AddNum("repetitions", "", reps)
	tb.AddNum("time", h.d.unit, med)
	tb.AddNum("time_min", h.d.unit, lo)
	tb.AddNum("time_max", h.d.unit, hi)
	tb.AddNum("spread_percent", "%", spread)
	tb.AddText("change", change)
	res.AddTable(tb)
}

// changesTable adds table "changes": one row per change point.
func (h *historyData) changesTable(res *Result, changes []regressChange, explain float64) {
	tb := Table{Name: "changes", Title: fmt.Sprintf("Change points (E-divisive means) of the program's time and of each region's exclusive %s; shift = after/before − 1 of the medians of the two sides, 95%% bootstrap interval; up = regression",
		h.d.metric)}
	var series, keys, verdicts, current, explained []string
	var pt, before, after, shift, lo, hi, p []float64
	for _, c := range changes {
		series = append(series, c.series)
		pt = append(pt, float64(c.point+1))
		keys = append(keys, h.points[c.point].key)
		before, after = append(before, c.before), append(after, c.after)
		shift, lo, hi = append(shift, 100*c.shift), append(lo, 100*c.lo), append(hi, 100*c.hi)
		p = append(p, c.p)
		verdicts = append(verdicts, c.verdict())
		current = append(current, yesNo(c.current))
		by := ""
		if c.region < 0 {
			shares, _ := h.explainChange(c, explain)
			by = strings.Join(h.shareNames(shares), "; ")
		}
		explained = append(explained, by)
	}
	tb.AddText("series", series)
	tb.AddNum("point", "", pt)
	tb.AddText("order_value", keys)
	tb.AddNum("before", h.d.unit, before)
	tb.AddNum("after", h.d.unit, after)
	tb.AddNum("shift_percent", "%", shift)
	tb.AddNum("ci_low_percent", "%", lo)
	tb.AddNum("ci_high_percent", "%", hi)
	tb.AddNum("p_value", "", p)
	tb.AddText("verdict", verdicts)
	tb.AddText("current", current)
	tb.AddText("explained_by", explained)
	res.AddTable(tb)
}

// seriesTable adds table "series": one row per series (the program, then
// every region in order of first appearance) with its number of points,
// of changes, and its last change (the level of the newest point against
// the segment before): point, shift and verdict ("" and NaN when none).
func (h *historyData) seriesTable(res *Result, changes []regressChange) {
	last := map[int]regressChange{}
	count := map[int]int{}
	for _, c := range changes {
		count[c.region]++
		if c.current {
			last[c.region] = c
		}
	}
	tb := Table{Name: "series", Title: "Every series with its last change: the newest point's level against the segment before it (shift = after/before − 1)"}
	var names, verdicts []string
	var pts, nch, lp, ls []float64
	for r := -1; r < len(h.regs); r++ {
		name, vals := ProgramSeries, h.prog
		if r >= 0 {
			name, vals = h.d.regions[r], h.regs[r]
		}
		n := 0
		for _, v := range vals {
			if defined(v) {
				n++
			}
		}
		names, pts, nch = append(names, name), append(pts, float64(n)), append(nch, float64(count[r]))
		c, ok := last[r]
		if !ok {
			lp, ls, verdicts = append(lp, math.NaN()), append(ls, math.NaN()), append(verdicts, "")
			continue
		}
		lp, ls, verdicts = append(lp, float64(c.point+1)), append(ls, 100*c.shift), append(verdicts, c.verdict())
	}
	tb.AddText("series", names)
	tb.AddNum("points", "", pts)
	tb.AddNum("changes", "", nch)
	tb.AddNum("last_change_point", "", lp)
	tb.AddNum("last_shift_percent", "%", ls)
	tb.AddText("last_verdict", verdicts)
	res.AddTable(tb)
}

// movedTable adds table "moved": the per-point exclusive value (median
// over the repetitions) of every region that changed or that explains a
// program change, for the report's history charts; one row per (region,
// point) where the region is present.
func (h *historyData) movedTable(res *Result, changes []regressChange, explain float64) {
	moved := map[int]bool{}
	for _, c := range changes {
		if c.region >= 0 {
			moved[c.region] = true
			continue
		}
		shares, _ := h.explainChange(c, explain)
		for _, s := range shares {
			moved[s.region] = true
		}
	}
	tb := Table{Name: "moved", Title: fmt.Sprintf("History of the regions that moved: exclusive %s per point, median over the repetitions", h.d.metric)}
	var names []string
	var pts, vals []float64
	for r := range h.regs {
		if !moved[r] {
			continue
		}
		for i, v := range h.regs[r] {
			if defined(v) {
				names, pts, vals = append(names, h.d.regions[r]), append(pts, float64(i+1)), append(vals, v)
			}
		}
	}
	tb.AddText("region", names)
	tb.AddNum("point", "", pts)
	tb.AddNum("value", h.d.unit, vals)
	res.AddTable(tb)
}

// yesNo renders a flag.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// explainTables adds tables "explain" and "metadata" for the program's
// changes.
func (h *historyData) explainTables(res *Result, changes []regressChange, explain float64) {
	ex := Table{Name: "explain", Title: fmt.Sprintf("Regions explaining each program change: own shift Δ = median after − median before (exclusive %s), share = Δ/Δ_program, largest first until %s is covered",
		h.d.metric, fmtPercent(explain))}
	md := Table{Name: "metadata", Title: "Trial metadata whose values differ between the two sides of each program change (run identifiers left out)"}
	var ept, mpt, eb, ea, ed, es, ec []float64
	var regs, keys, mb, ma []string
	for _, c := range changes {
		if c.region >= 0 {
			continue
		}
		shares, _ := h.explainChange(c, explain)
		cum := 0.0
		for _, s := range shares {
			cum += s.share
			ept = append(ept, float64(c.point+1))
			regs = append(regs, h.d.regions[s.region])
			eb, ea, ed = append(eb, s.before), append(ea, s.after), append(ed, s.after-s.before)
			es, ec = append(es, 100*s.share), append(ec, 100*cum)
		}
		for _, m := range h.metadataChanges(c) {
			mpt = append(mpt, float64(c.point+1))
			keys = append(keys, m.key)
			mb, ma = append(mb, valuesText(m.before)), append(ma, valuesText(m.after))
		}
	}
	ex.AddNum("point", "", ept)
	ex.AddText("region", regs)
	ex.AddNum("before", h.d.unit, eb)
	ex.AddNum("after", h.d.unit, ea)
	ex.AddNum("shift", h.d.unit, ed)
	ex.AddNum("share_percent", "%", es)
	ex.AddNum("cumulative_percent", "%", ec)
	res.AddTable(ex)
	md.AddNum("point", "", mpt)
	md.AddText("key", keys)
	md.AddText("before", mb)
	md.AddText("after", ma)
	res.AddTable(md)
}

// regressFindings states the noise, each program change with its
// explanation, the regions' changes and the state at the newest point.
func (h *historyData) regressFindings(res *Result, changes []regressChange, explain float64) {
	var spreads []float64
	for _, p := range h.points {
		if s := relSpread(h.d.main, p.exps); defined(s) {
			spreads = append(spreads, s)
		}
	}
	res.Findf("History of %d points (%d trials); noise between repetitions (median of 100*sd/mean over %d points with repetitions): %s.",
		len(h.points), len(h.d.exps), len(spreads), fmtPct(median(spreads)))
	nreg := 0
	for _, c := range changes {
		if c.region >= 0 {
			nreg++
			continue
		}
		h.programFinding(res, c, explain)
	}
	if len(changes) == nreg {
		res.Findf("No change in the program's time (significance %s).", res.Params["significance"])
	}
	if nreg > 0 {
		var names []string
		for _, c := range changes {
			if c.region >= 0 {
				names = append(names, fmt.Sprintf("%s %+.1f%% at point %d", c.series, 100*c.shift, c.point+1))
			}
		}
		res.Findf("%s of regions: %s.", plural(nreg, "change"), joinQuoted(names))
	}
	for _, c := range changes {
		if c.region < 0 && c.current && c.after > c.before {
			res.Findf("The newest point is in a regression of the program: %+.1f%% since %s.", 100*c.shift, h.pointLabel(c.point))
		}
	}
}

// programFinding states one program change.
func (h *historyData) programFinding(res *Result, c regressChange, explain float64) {
	s := fmt.Sprintf("At %s the program's time changed by %+.1f%% (95%% CI %+.1f%% to %+.1f%%, p = %.3g): %s, from %s to %s.",
		h.pointLabel(c.point), 100*c.shift, 100*c.lo, 100*c.hi, c.p, article(c.verdict()), formatMicrosOrValue(h.d, c.before), formatMicrosOrValue(h.d, c.after))
	shares, cum := h.explainChange(c, explain)
	if len(shares) > 0 {
		s += fmt.Sprintf(" Regions covering %s of it: %s.", fmtPercent(cum), joinQuoted(h.shareNames(shares)))
	}
	var meta []string
	for _, m := range h.metadataChanges(c) {
		meta = append(meta, fmt.Sprintf("%s (%s → %s)", m.key, valuesText(m.before), valuesText(m.after)))
	}
	if len(meta) > 0 {
		s += " Metadata that changed: " + joinQuoted(meta) + "."
	}
	res.Findf("%s", s)
}

// article prefixes a verdict with "a" or "an".
func article(v string) string {
	if v == VerdictImprovement {
		return "an " + v
	}
	return "a " + v
}

// fmtPct writes a percentage already in percent ("undefined" for NaN).
func fmtPct(x float64) string {
	if !defined(x) {
		return "undefined"
	}
	return fmt.Sprintf("%.2f%%", x)
}

// NewestRegression is a change whose later side reaches the newest point
// of the history and that made the series at least a threshold slower.
type NewestRegression struct {
	// Series is "program" or the region's name.
	Series string
	// Point is the 1-based point of the change; OrderValue its order value.
	Point      int
	OrderValue string
	// Shift, Low and High are the relative shift and its 95% interval
	// (0.05 = 5%).
	Shift, Low, High float64
}

// NewestRegressions reads a Regress result (fresh or stored) and returns
// the regressions of at least threshold (relative: 0.03 = 3%) that are
// current: the series' last change, so that the newest point is still at
// the regressed level. The program comes first.
func NewestRegressions(res *Result, threshold float64) ([]NewestRegression, error) {
	tb := res.Table("changes")
	if tb == nil {
		return nil, fmt.Errorf("result %q has no changes table: not a regress result", res.Analysis)
	}
	var out []NewestRegression
	for i := 0; i < tb.NumRows(); i++ {
		shift := tb.Num("shift_percent", i) / 100
		if tb.Text("current", i) != "yes" || tb.Text("verdict", i) != VerdictRegression || !(shift >= threshold) {
			continue
		}
		out = append(out, NewestRegression{Series: tb.Text("series", i), Point: int(tb.Num("point", i)),
			OrderValue: tb.Text("order_value", i), Shift: shift, Low: tb.Num("ci_low_percent", i) / 100, High: tb.Num("ci_high_percent", i) / 100})
	}
	return out, nil
}
