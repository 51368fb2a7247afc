package watch

import (
	"fmt"
	"math"
	"sort"
)

// Rules are the thresholds of the anomaly flags. A value x departs from a
// reference set R (the other ranks, or its own recent past) when
//
//	|x − median(R)| > max(Z · 1.4826 · MAD(R), Rel · |median(R)|)
//
// MAD being the median absolute deviation (1.4826·MAD estimates the
// standard deviation of normal noise, robustly: the outliers being looked
// for do not inflate it) and Rel a floor on the relative change worth
// reporting, so that a perfectly regular run (MAD 0) does not flag noise.
// Four rules apply to every interval:
//
//   - rank-vs-ranks: a rank's program time against all ranks' program
//     times in the interval (Rel = RankRel; at least 4 ranks);
//   - rank-vs-history: a rank's program time relative to the interval's
//     median (x/median) against its own last History ratios (Rel =
//     RankRel; at least MinHistory of them). Relative to the median, so a
//     change of every rank (a phase) is not a change of any one rank;
//   - region-vs-history: a region's mean exclusive time per rank against
//     its own last History intervals (Rel = RegionRel), for regions that
//     hold at least MinShare of the program time now or in that past; a
//     region seen for the first time after MinHistory intervals, with
//     that share, is flagged as new;
//   - program-vs-history: the ranks' mean program time against its last
//     History intervals (Rel = RegionRel).
//
// After a history rule flags a value, that history restarts from the
// value: a lasting change (a new phase) is flagged once, where it starts.
type Rules struct {
	// Z is the number of robust standard deviations (default 6).
	Z float64
	// RankRel is the relative floor of the rank rules (default 0.2).
	RankRel float64
	// RegionRel is the relative floor of the region rules (default 0.25).
	RegionRel float64
	// MinShare is the share of the program time below which a region is
	// not judged (default 0.01).
	MinShare float64
	// History is the number of past intervals a history rule looks at
	// (default 8); MinHistory how many it needs (default 3).
	History, MinHistory int
	// MaxRankFlags bounds the rank flags per interval and rule (default
	// 20); the rest are counted in one more flag.
	MaxRankFlags int
}

func (r *Rules) fill() {
	if r.Z == 0 {
		r.Z = 6
	}
	if r.RankRel == 0 {
		r.RankRel = 0.2
	}
	if r.RegionRel == 0 {
		r.RegionRel = 0.25
	}
	if r.MinShare == 0 {
		r.MinShare = 0.01
	}
	if r.History == 0 {
		r.History = 8
	}
	if r.MinHistory == 0 {
		r.MinHistory = 3
	}
	if r.MaxRankFlags == 0 {
		r.MaxRankFlags = 20
	}
}

func (r *Rules) check() error {
	switch {
	case r.Z < 0 || r.RankRel < 0 || r.RegionRel < 0 || r.MinShare < 0:
		return fmt.Errorf("anomaly rules: thresholds must not be negative")
	case r.MinHistory < 1 || r.History < r.MinHistory:
		return fmt.Errorf("anomaly rules: need 1 ≤ min history (%d) ≤ history (%d)", r.MinHistory, r.History)
	}
	return nil
}

// Anomaly is one flag: in interval Interval, the rank (empty for a
// region or the program) or region departed by rule Kind; Value is what
// was seen, Expected the reference median (same unit: µs, or a ratio for
// rank-vs-history).
type Anomaly struct {
	Interval        int
	Kind            string
	Rank            string
	Region          string
	Value, Expected float64
	Message         string
}

// history holds the recent past the history rules compare with: a ring of
// ratios per rank and of means per region (memory: History values per
// rank and per region, whatever the number of intervals).
type history struct {
	rules   Rules
	rank    map[string]*ring
	region  map[string]*ring
	program ring
	seen    map[string]bool
	n       int // intervals judged
}

func newHistory(r Rules) *history {
	return &history{rules: r, rank: map[string]*ring{}, region: map[string]*ring{}, seen: map[string]bool{}}
}

// ring keeps the last values pushed (at most cap).
type ring struct {
	v   []float64
	cap int
}

func (r *ring) push(x float64) {
	if len(r.v) == r.cap {
		copy(r.v, r.v[1:])
		r.v = r.v[:len(r.v)-1]
	}
	r.v = append(r.v, x)
}

// medianMAD returns the median of xs and the median absolute deviation
// from it (xs is not changed).
func medianMAD(xs []float64) (med, mad float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	s := append([]float64(nil), xs...)
	med = median(s)
	for i := range s {
		s[i] = math.Abs(s[i] - med)
	}
	return med, median(s)
}

// median sorts s and returns its median.
func median(s []float64) float64 {
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// departs applies the rule to x against (med, mad) with floor rel.
func (h *history) departs(x, med, mad, rel float64) bool {
	return math.Abs(x-med) > max(h.rules.Z*1.4826*mad, rel*math.Abs(med))
}

// judge applies the rules to interval iv (prog: the ranks' program times,
// parallel to iv.Deltas.Ranks) and moves the histories on.
func (h *history) judge(iv *Interval, prog []float64) []Anomaly {
	med, mad := medianMAD(prog)
	out := h.rankVsRanks(iv, prog, med, mad)
	out = append(out, h.rankVsHistory(iv, prog, med)...)
	out = append(out, h.regionVsHistory(iv)...)
	out = append(out, h.programVsHistory(iv)...)
	h.n++
	return out
}

// capped appends a to out unless n flags of the rule were made already;
// the flag past the cap says how many more there were.
func (h *history) capped(out []Anomaly, n *int, a Anomaly) []Anomaly {
	*n++
	switch {
	case *n <= h.rules.MaxRankFlags:
		return append(out, a)
	case *n == h.rules.MaxRankFlags+1:
		return append(out, Anomaly{Interval: a.Interval, Kind: a.Kind, Message: "more ranks flagged by this rule (not listed)"})
	}
	return out
}

func (h *history) rankVsRanks(iv *Interval, prog []float64, med, mad float64) []Anomaly {
	if len(prog) < 4 {
		return nil
	}
	var out []Anomaly
	n := 0
	for p, x := range prog {
		if !h.departs(x, med, mad, h.rules.RankRel) {
			continue
		}
		rank := iv.Deltas.Ranks[p]
		msg := fmt.Sprintf("rank %s: program time %.4g µs is %.3g× the median of the %d ranks (%.4g µs)", rank, x, ratio(x, med), len(prog), med)
		if r := excessRegion(iv, p); r != "" {
			msg += "; most of the difference is in " + r
		}
		out = h.capped(out, &n, Anomaly{Interval: iv.Index, Kind: "rank-vs-ranks", Rank: rank.String(), Region: "program", Value: x, Expected: med, Message: msg})
	}
	return out
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.Inf(1)
	}
	return a / b
}

// excessRegion names the region in which rank position p departs most
// from the region's mean over the ranks.
func excessRegion(iv *Interval, p int) string {
	mean := make(map[string]float64, len(iv.Regions))
	for _, s := range iv.Regions {
		mean[s.Region] = s.Sum / float64(iv.Ranks)
	}
	best, name := 0.0, ""
	for j, r := range iv.Deltas.Regions {
		_, x, _ := iv.Deltas.Get(p, j)
		if d := math.Abs(x - mean[r]); d > best {
			best, name = d, r
		}
	}
	return name
}

func (h *history) rankVsHistory(iv *Interval, prog []float64, med float64) []Anomaly {
	if med <= 0 {
		return nil
	}
	var out []Anomaly
	n := 0
	for p, x := range prog {
		rank := iv.Deltas.Ranks[p].String()
		r := h.rank[rank]
		if r == nil {
			r = &ring{cap: h.rules.History}
			h.rank[rank] = r
		}
		q := x / med
		if len(r.v) >= h.rules.MinHistory {
			m, md := medianMAD(r.v)
			if h.departs(q, m, md, h.rules.RankRel) {
				msg := fmt.Sprintf("rank %s: program time %.3g× the interval's median, against %.3g× over its last %d intervals", rank, q, m, len(r.v))
				out = h.capped(out, &n, Anomaly{Interval: iv.Index, Kind: "rank-vs-history", Rank: rank, Region: "program", Value: q, Expected: m, Message: msg})
				r.v = r.v[:0]
			}
		}
		r.push(q)
	}
	return out
}

// regionVsHistory judges every region with a history or executed now; x is
// the region's exclusive time per rank of the interval (Sum / Ranks).
func (h *history) regionVsHistory(iv *Interval) []Anomaly {
	if iv.Ranks == 0 || iv.Program.Sum <= 0 {
		return nil
	}
	now := make(map[string]float64, len(iv.Regions))
	for _, s := range iv.Regions {
		now[s.Region] = s.Sum / float64(iv.Ranks)
	}
	perRank := iv.Program.Sum / float64(iv.Ranks)
	var out []Anomaly
	n := 0
	judge := func(name string, x float64) {
		r := h.region[name]
		if r == nil {
			r = &ring{cap: h.rules.History}
			h.region[name] = r
			if h.n >= h.rules.MinHistory && x/perRank >= 5*h.rules.MinShare {
				msg := fmt.Sprintf("region %s appears in interval %d with %.1f%% of the program time", name, iv.Index, 100*x/perRank)
				out = h.capped(out, &n, Anomaly{Interval: iv.Index, Kind: "region-vs-history", Region: name, Value: x, Message: msg})
			}
		} else if len(r.v) >= h.rules.MinHistory {
			m, md := medianMAD(r.v)
			if max(x, m)/perRank >= h.rules.MinShare && h.departs(x, m, md, h.rules.RegionRel) {
				msg := fmt.Sprintf("region %s: %.4g µs per rank, %.3g× its median of the last %d intervals (%.4g µs)", name, x, ratio(x, m), len(r.v), m)
				out = h.capped(out, &n, Anomaly{Interval: iv.Index, Kind: "region-vs-history", Region: name, Value: x, Expected: m, Message: msg})
				r.v = r.v[:0]
			}
		}
		r.push(x)
	}
	for _, s := range iv.Regions {
		judge(s.Region, now[s.Region])
	}
	names := make([]string, 0, len(h.region))
	for name := range h.region {
		if _, ok := now[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		judge(name, 0)
	}
	return out
}

func (h *history) programVsHistory(iv *Interval) []Anomaly {
	if iv.Ranks == 0 {
		return nil
	}
	h.program.cap = h.rules.History
	x := iv.Program.Mean
	var out []Anomaly
	if len(h.program.v) >= h.rules.MinHistory {
		m, md := medianMAD(h.program.v)
		if h.departs(x, m, md, h.rules.RegionRel) {
			msg := fmt.Sprintf("program: mean time per rank %.4g µs, %.3g× its median of the last %d intervals (%.4g µs)", x, ratio(x, m), len(h.program.v), m)
			out = append(out, Anomaly{Interval: iv.Index, Kind: "program-vs-history", Region: "program", Value: x, Expected: m, Message: msg})
			h.program.v = h.program.v[:0]
		}
	}
	h.program.push(x)
	return out
}
