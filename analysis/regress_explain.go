package analysis

import (
	"math"
	"sort"
	"strings"
)

// regionShare is one region's part of a program change.
type regionShare struct {
	region        int
	before, after float64 // medians of the region's per-point values (absent = 0)
	share         float64 // (after − before) / the program's (after − before)
}

// metaChange is a metadata key whose values differ between the two sides
// of a change.
type metaChange struct {
	key           string
	before, after []string
}

// explainChange returns the regions that explain program change c: those
// whose shift has the program's sign, largest first, until their shares
// sum to at least want (all such regions when they never do), and the sum.
func (h *historyData) explainChange(c regressChange, want float64) ([]regionShare, float64) {
	delta := c.after - c.before
	if !(delta != 0) {
		return nil, 0
	}
	var all []regionShare
	for r, vals := range h.regs {
		b := medianRange(vals, c.prev, c.point)
		a := medianRange(vals, c.point, c.next)
		if s := (a - b) / delta; s > 0 {
			all = append(all, regionShare{region: r, before: b, after: a, share: s})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].share > all[j].share })
	cum := 0.0
	for i, s := range all {
		cum += s.share
		if cum >= want {
			return all[:i+1], cum
		}
	}
	return all, cum
}

// medianRange is the median of vals[from:to] with absent (NaN) values
// counted as 0: a region that is not run takes no time.
func medianRange(vals []float64, from, to int) float64 {
	x := make([]float64, 0, to-from)
	for _, v := range vals[from:to] {
		if !defined(v) {
			v = 0
		}
		x = append(x, v)
	}
	return median(x)
}

// metadataChanges returns the trial metadata keys whose sets of values on
// the two sides of change c (the trials of points [prev, point) and
// [point, next)) are disjoint, in key order. Keys with more distinct values
// than max(2, half the points of both sides) identify runs (dates, commit
// ids, build numbers) and are left out. A missing key counts as "".
func (h *historyData) metadataChanges(c regressChange) []metaChange {
	side := func(from, to int) map[string]map[string]bool {
		out := map[string]map[string]bool{}
		for _, pt := range h.points[from:to] {
			for _, k := range pt.exps {
				for key, v := range h.d.exps[k].Trial.Metadata {
					if out[key] == nil {
						out[key] = map[string]bool{}
					}
					out[key][v] = true
				}
			}
		}
		return out
	}
	bs, as := side(c.prev, c.point), side(c.point, c.next)
	limit := max(2, (c.next-c.prev)/2)
	var out []metaChange
	for key := range union(bs, as) {
		b, a := valuesOf(bs[key]), valuesOf(as[key])
		if len(b)+len(a) > limit || !disjoint(bs[key], as[key]) {
			continue
		}
		out = append(out, metaChange{key: key, before: b, after: a})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// union returns the keys of two maps.
func union(a, b map[string]map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// valuesOf returns a set's values sorted ("" when the set is empty: the
// key is missing on that side).
func valuesOf(set map[string]bool) []string {
	if len(set) == 0 {
		return []string{""}
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// disjoint reports whether two value sets share no value (a missing set is
// {""}).
func disjoint(a, b map[string]bool) bool {
	if len(a) == 0 {
		a = map[string]bool{"": true}
	}
	if len(b) == 0 {
		b = map[string]bool{"": true}
	}
	for v := range a {
		if b[v] {
			return false
		}
	}
	return true
}

// shareNames lists explaining regions as "name (+12.3%)" for findings.
func (h *historyData) shareNames(shares []regionShare) []string {
	out := make([]string, len(shares))
	for i, s := range shares {
		out[i] = h.d.regions[s.region] + " (" + fmtPercent(s.share) + ")"
	}
	return out
}

// valuesText joins a side's values for tables and findings.
func valuesText(v []string) string {
	for i := range v {
		if v[i] == "" {
			v[i] = "(none)"
		}
	}
	return strings.Join(v, " | ")
}

// relSpread is 100·(population sd)/mean of vals at idx (NaN with fewer than
// two defined values or a zero mean): a point's noise between repetitions.
func relSpread(vals []float64, idx []int) float64 {
	var s, ss float64
	n := 0
	for _, i := range idx {
		if defined(vals[i]) {
			s += vals[i]
			ss += vals[i] * vals[i]
			n++
		}
	}
	if n < 2 || s == 0 {
		return math.NaN()
	}
	m := s / float64(n)
	return 100 * math.Sqrt(math.Max(0, ss/float64(n)-m*m)) / m
}
