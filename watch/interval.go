package watch

import (
	"math"
	"sort"

	"github.com/taudb-analyze/taudb-analyze/cluster"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Stat summarizes one quantity across the ranks that reported it in an
// interval: Count ranks, Sum, Mean = Sum/Count, Min, Max, StdDev (the
// population standard deviation √(Σ(x−Mean)²/Count)), and the ranks
// holding the minimum and the maximum (the first in rank order on ties).
type Stat struct {
	Count                       int
	Sum, Mean, Min, Max, StdDev float64
	MinRank, MaxRank            drg.ThreadID
}

// RegionStat is the Stat of one region's exclusive time (µs) in an
// interval, over the ranks that executed it in the interval (calls or
// exclusive time changed), with its calls summed over them.
type RegionStat struct {
	Region string
	Calls  float64
	Stat
}

// Histogram counts ranks by their value in an interval: Bins equal-width
// bins from Min to Max (µs); the value Max falls in the last bin. With
// Min = Max every rank is in the first bin.
type Histogram struct {
	Region   string
	Min, Max float64
	Counts   []int
}

// Cluster is one group of the k-means of ranks in an interval: its size,
// its first ranks (at most 16, in rank order), its centre (mean exclusive
// time per feature region, µs) and its mean program time (µs).
type Cluster struct {
	Size        int
	Ranks       []drg.ThreadID
	Center      []float64
	ProgramMean float64
}

// Interval is what the ranks did between two dumps: dump k minus dump k−1
// of every rank (dump −1 being the program start, all zeros).
type Interval struct {
	// Index is k, from 0.
	Index int
	// Start and End are in µs since the epoch: End is the latest time of
	// the ranks' dumps k, Start the previous interval's End (0 for k = 0).
	Start, End int64
	// Ranks is the number of ranks in the interval; Missing lists the
	// known ranks that did not report it (stopped, or not yet started).
	Ranks   int
	Missing []drg.ThreadID
	// Program is the Stat of the ranks' program time: each rank's largest
	// inclusive delta (its main region).
	Program Stat
	// Regions holds every region executed in the interval, by Sum
	// (largest first).
	Regions []RegionStat
	// Histograms holds the program's and the largest regions' histograms.
	Histograms []Histogram
	// Features names the regions the k-means used; Clusters its groups
	// (one when no k reached MinSilhouette) and Silhouette the chosen k's
	// mean silhouette (NaN for one group).
	Features   []string
	Clusters   []Cluster
	Silhouette float64
	// Anomalies are the departures the rules found (see Rules).
	Anomalies []Anomaly
	// Deltas holds every rank's deltas, only while the OnInterval
	// callbacks run (nil afterwards: memory does not grow with intervals).
	Deltas *Deltas
}

// Deltas are the per-rank values of one interval: for rank position p
// (Ranks[p]) and region j (Regions[j]) the change in calls, exclusive and
// inclusive time since the rank's previous dump.
type Deltas struct {
	Ranks   []drg.ThreadID
	Regions []string
	values  [][]float64
}

// Get returns rank position p's deltas of region j.
func (d *Deltas) Get(p, j int) (calls, excl, incl float64) {
	v := d.values[p]
	if 3*j+2 >= len(v) {
		return 0, 0, 0
	}
	return v[3*j], v[3*j+1], v[3*j+2]
}

// histTop is the number of regions whose histograms an interval keeps.
const histTop = 10

// close computes interval k from the open deltas.
func (w *Watcher) close(k int, oi *openInterval) *Interval {
	names, _ := w.reg.snapshot()
	iv := &Interval{Index: k, Start: w.lastEnd}
	pos := make([]int, 0, len(oi.deltas))
	for i := range oi.deltas {
		pos = append(pos, i)
	}
	sort.Ints(pos)
	d := &Deltas{Regions: names, Ranks: make([]drg.ThreadID, len(pos)), values: make([][]float64, len(pos))}
	for p, i := range pos {
		d.Ranks[p], d.values[p] = w.ranks[i].id, oi.deltas[i]
		iv.End = max(iv.End, oi.ts[i])
	}
	for i, r := range w.ranks {
		if oi.deltas[i] == nil {
			iv.Missing = append(iv.Missing, r.id)
		}
	}
	w.lastEnd = iv.End
	iv.Ranks, iv.Deltas = len(pos), d
	prog := programTimes(d)
	iv.Program = statOf(prog, d.Ranks)
	iv.Regions = regionStats(d)
	iv.Histograms = append([]Histogram{histogramOf("program", prog, iv.Program, w.opt.Bins)}, regionHistograms(d, iv.Regions, w.opt.Bins)...)
	iv.Features, iv.Clusters, iv.Silhouette = clusterRanks(d, iv.Regions, prog, w.opt.Features, w.opt.Clusters, k)
	iv.Anomalies = w.hist.judge(iv, prog)
	return iv
}

// programTimes returns each rank's program time: its largest inclusive
// delta.
func programTimes(d *Deltas) []float64 {
	out := make([]float64, len(d.values))
	for p, v := range d.values {
		m := 0.0
		for c := 2; c < len(v); c += 3 {
			m = max(m, v[c])
		}
		out[p] = m
	}
	return out
}

// statOf returns the Stat of xs, xs[p] being rank ranks[p]'s value.
func statOf(xs []float64, ranks []drg.ThreadID) Stat {
	s := Stat{Count: len(xs)}
	if len(xs) == 0 {
		return s
	}
	s.Min, s.Max = math.Inf(1), math.Inf(-1)
	for p, x := range xs {
		s.Sum += x
		if x < s.Min {
			s.Min, s.MinRank = x, ranks[p]
		}
		if x > s.Max {
			s.Max, s.MaxRank = x, ranks[p]
		}
	}
	s.Mean = s.Sum / float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += (x - s.Mean) * (x - s.Mean)
	}
	s.StdDev = math.Sqrt(ss / float64(len(xs)))
	return s
}

// regionStats computes every region's Stat in two passes over the ranks
// (sums, then squared deviations), in memory proportional to the regions.
func regionStats(d *Deltas) []RegionStat {
	n := len(d.Regions)
	st := make([]RegionStat, n)
	for j := range st {
		st[j].Region, st[j].Min, st[j].Max = d.Regions[j], math.Inf(1), math.Inf(-1)
	}
	for p, v := range d.values {
		for j := 0; j < n && 3*j+2 < len(v); j++ {
			calls, x := v[3*j], v[3*j+1]
			if calls == 0 && x == 0 {
				continue
			}
			s := &st[j]
			s.Count++
			s.Calls += calls
			s.Sum += x
			if x < s.Min {
				s.Min, s.MinRank = x, d.Ranks[p]
			}
			if x > s.Max {
				s.Max, s.MaxRank = x, d.Ranks[p]
			}
		}
	}
	for j := range st {
		if st[j].Count > 0 {
			st[j].Mean = st[j].Sum / float64(st[j].Count)
		}
	}
	for _, v := range d.values {
		for j := 0; j < n && 3*j+2 < len(v); j++ {
			if v[3*j] != 0 || v[3*j+1] != 0 {
				dev := v[3*j+1] - st[j].Mean
				st[j].StdDev += dev * dev
			}
		}
	}
	out := st[:0]
	for _, s := range st {
		if s.Count > 0 {
			s.StdDev = math.Sqrt(s.StdDev / float64(s.Count))
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Sum > out[b].Sum })
	return out
}

// histogramOf bins xs between s.Min and s.Max.
func histogramOf(name string, xs []float64, s Stat, bins int) Histogram {
	h := Histogram{Region: name, Min: s.Min, Max: s.Max, Counts: make([]int, bins)}
	if s.Count == 0 {
		h.Min, h.Max = 0, 0
		return h
	}
	w := (s.Max - s.Min) / float64(bins)
	for _, x := range xs {
		b := 0
		if w > 0 {
			b = min(int((x-s.Min)/w), bins-1)
		}
		h.Counts[b]++
	}
	return h
}

// regionHistograms returns the histograms of the histTop largest regions
// (ranks that executed the region in the interval only).
func regionHistograms(d *Deltas, st []RegionStat, bins int) []Histogram {
	col := map[string]int{}
	for j, name := range d.Regions {
		col[name] = j
	}
	var out []Histogram
	xs := make([]float64, 0, len(d.values))
	for _, s := range st[:min(histTop, len(st))] {
		j := col[s.Region]
		xs = xs[:0]
		for _, v := range d.values {
			if 3*j+2 < len(v) && (v[3*j] != 0 || v[3*j+1] != 0) {
				xs = append(xs, v[3*j+1])
			}
		}
		out = append(out, histogramOf(s.Region, xs, s.Stat, bins))
	}
	return out
}

// MinSilhouette is the mean silhouette a k-means of the ranks must reach
// for its clusters to be shown as groups (Kaufman and Rousseeuw: above 0.5
// "a reasonable structure has been found"). Ranks that differ by noise
// alone split into clusters of nearly equal centres with a lower one, and
// are shown as one group instead.
const MinSilhouette = 0.5

// silhouetteSample bounds the ranks the silhouette is computed on (a
// uniform sample, O(sample²·features)).
const silhouetteSample = 512

// clusterRanks groups the ranks by k-means (package cluster: k-means++
// seeding, Lloyd's iterations, the best of 3 restarts, seeded by the
// interval's index) on their exclusive times in the f largest regions,
// with k from 2 to maxK chosen by the largest mean silhouette; when none
// reaches MinSilhouette the ranks form one group (silhouette NaN).
func clusterRanks(d *Deltas, st []RegionStat, prog []float64, f, maxK, seed int) ([]string, []Cluster, float64) {
	if len(d.values) == 0 || len(st) == 0 {
		return nil, nil, math.NaN()
	}
	names, m := featureMatrix(d, st, f)
	rng := cluster.NewRand(uint64(seed) + 1)
	best, bestS := cluster.KMeans(m, 1, 1, 50, rng), math.NaN()
	for k := 2; k <= min(maxK, m.N); k++ {
		res := cluster.KMeans(m, k, 3, 50, rng)
		if s, _ := cluster.SampledSilhouette(m, res.Labels, silhouetteSample, rng); s >= MinSilhouette && !(s <= bestS) {
			best, bestS = res, s
		}
	}
	return names, groupsOf(best, d, prog), bestS
}

// featureMatrix returns the f largest regions' names and the ranks'
// exclusive times in them, a row per rank.
func featureMatrix(d *Deltas, st []RegionStat, f int) ([]string, cluster.Matrix) {
	f = min(f, len(st))
	col := map[string]int{}
	for j, name := range d.Regions {
		col[name] = j
	}
	names := make([]string, f)
	cols := make([]int, f)
	for i := range f {
		names[i], cols[i] = st[i].Region, col[st[i].Region]
	}
	m := cluster.Matrix{N: len(d.values), D: f, X: make([]float64, len(d.values)*f)}
	for p, v := range d.values {
		for i, j := range cols {
			if 3*j+1 < len(v) {
				m.X[p*f+i] = v[3*j+1]
			}
		}
	}
	return names, m
}

// groupsOf describes the clusters of a k-means: size, first ranks, centre
// and mean program time.
func groupsOf(res cluster.KMeansResult, d *Deltas, prog []float64) []Cluster {
	cs := make([]Cluster, res.Centers.N)
	for c := range cs {
		cs[c].Center = append([]float64(nil), res.Centers.Row(c)...)
	}
	for p, c := range res.Labels {
		cs[c].Size++
		cs[c].ProgramMean += prog[p]
		if len(cs[c].Ranks) < 16 {
			cs[c].Ranks = append(cs[c].Ranks, d.Ranks[p])
		}
	}
	for c := range cs {
		if cs[c].Size > 0 {
			cs[c].ProgramMean /= float64(cs[c].Size)
		}
	}
	return cs
}
