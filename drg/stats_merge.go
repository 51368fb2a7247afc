package drg

import "math"

// StatsMerger combines the derived statistics of the parts of one trial
// that hold disjoint runs of its threads (a trial read a chunk of threads
// at a time) into the statistics of the whole trial, as Trial.Statistics
// would compute them on the whole trial.
//
// Parts are added in thread order. Per node and column it keeps the count
// k of threads with a record, the number N of threads, Σx as the sum of
// the parts' totals (Mean = Σx/k, MeanAll = Σx/N), min and max, and the
// sums of squared deviations merged pairwise (Chan, Golub and LeVeque):
// for a running (k_a, m_a, M2_a) and a part (k_b, m_b, M2_b),
//
//	δ   = m_b − m_a
//	M2  = M2_a + M2_b + δ²·k_a·k_b/(k_a+k_b)
//
// so StdDev = √(M2/k) and StdDevAll = √(M2all/N) carry no cancellation
// error. Count, Min and Max are the whole trial's exactly; the sums and
// what comes from them agree with Trial.Statistics to rounding (the
// additions are grouped by part), not to the bit.
type StatsMerger struct {
	nodes int
	n     int // threads added so far
	count []int
	calls mergeColumn
	subrs mergeColumn
	incl  []mergeColumn
	excl  []mergeColumn
}

// mergeColumn is the running state of one value column for every node.
type mergeColumn struct {
	total, min, max []float64
	mean, m2        []float64 // over the k threads with a record
	meanAll, m2All  []float64 // over all N threads, absent ones as 0
}

// NewStatsMerger returns a merger for a trial of nodes call-graph nodes and
// metrics metrics.
func NewStatsMerger(nodes, metrics int) *StatsMerger {
	m := &StatsMerger{nodes: nodes, count: make([]int, nodes), calls: newMergeColumn(nodes), subrs: newMergeColumn(nodes)}
	for range metrics {
		m.incl = append(m.incl, newMergeColumn(nodes))
		m.excl = append(m.excl, newMergeColumn(nodes))
	}
	return m
}

func newMergeColumn(n int) mergeColumn {
	c := mergeColumn{total: make([]float64, n), min: make([]float64, n), max: make([]float64, n),
		mean: make([]float64, n), m2: make([]float64, n), meanAll: make([]float64, n), m2All: make([]float64, n)}
	for i := range c.min {
		c.min[i] = math.Inf(1)
	}
	return c
}

// Grow makes room for nodes call-graph nodes in all, for parts that bring
// nodes the earlier ones lacked.
func (m *StatsMerger) Grow(nodes int) {
	if nodes <= m.nodes {
		return
	}
	extra := nodes - m.nodes
	m.count = append(m.count, make([]int, extra)...)
	grow := func(c *mergeColumn) {
		for _, s := range []*[]float64{&c.total, &c.max, &c.mean, &c.m2, &c.meanAll, &c.m2All} {
			*s = append(*s, make([]float64, extra)...)
		}
		for range extra {
			c.min = append(c.min, math.Inf(1))
		}
	}
	grow(&m.calls)
	grow(&m.subrs)
	for i := range m.incl {
		grow(&m.incl[i])
		grow(&m.excl[i])
	}
	m.nodes = nodes
}

// Add merges the statistics s of a part holding the next run of threads
// (threads of them; s = part.Statistics()), whose node i is node nodeOf[i]
// of the whole trial (below the nodes given to NewStatsMerger or Grow).
func (m *StatsMerger) Add(s *Statistics, nodeOf []int, threads int) {
	nb := threads
	for i, g := range nodeOf {
		kb := s.Count[i]
		ka := m.count[g]
		m.calls.add(&s.Calls, i, g, ka, kb, m.n, nb)
		m.subrs.add(&s.Subroutines, i, g, ka, kb, m.n, nb)
		for k := range m.incl {
			m.incl[k].add(&s.Inclusive[k], i, g, ka, kb, m.n, nb)
			m.excl[k].add(&s.Exclusive[k], i, g, ka, kb, m.n, nb)
		}
		m.count[g] = ka + kb
	}
	// Nodes the part lacks: its threads count as absent (0) for the "nulls
	// as 0" statistics.
	seen := make([]bool, m.nodes)
	for _, g := range nodeOf {
		seen[g] = true
	}
	for g := range m.nodes {
		if seen[g] {
			continue
		}
		m.calls.addAbsent(g, m.n, nb)
		m.subrs.addAbsent(g, m.n, nb)
		for k := range m.incl {
			m.incl[k].addAbsent(g, m.n, nb)
			m.excl[k].addAbsent(g, m.n, nb)
		}
	}
	m.n += nb
}

// add merges node i of part column p (kb of nb threads with a record) into
// node g (ka of na threads so far).
func (c *mergeColumn) add(p *Column, i, g, ka, kb, na, nb int) {
	c.total[g] += p.Total[i]
	if kb > 0 {
		c.min[g] = math.Min(c.min[g], p.Min[i])
		c.max[g] = math.Max(c.max[g], p.Max[i])
		c.mean[g], c.m2[g] = chan3(c.mean[g], c.m2[g], ka, p.Mean[i], p.StdDev[i]*p.StdDev[i]*float64(kb), kb)
	}
	c.meanAll[g], c.m2All[g] = chan3(c.meanAll[g], c.m2All[g], na, p.MeanAll[i], p.StdDevAll[i]*p.StdDevAll[i]*float64(nb), nb)
}

// addAbsent merges nb threads without a record for node g.
func (c *mergeColumn) addAbsent(g, na, nb int) {
	c.meanAll[g], c.m2All[g] = chan3(c.meanAll[g], c.m2All[g], na, 0, 0, nb)
}

// chan3 merges (mean a, M2 a, count na) with (mean b, M2 b, count nb).
func chan3(ma, m2a float64, na int, mb, m2b float64, nb int) (mean, m2 float64) {
	if nb == 0 {
		return ma, m2a
	}
	if na == 0 {
		return mb, m2b
	}
	n := float64(na + nb)
	d := mb - ma
	return ma + d*float64(nb)/n, m2a + m2b + d*d*float64(na)*float64(nb)/n
}

// Statistics returns the whole trial's statistics from the parts added so
// far (see Trial.Statistics for the formulas).
func (m *StatsMerger) Statistics() *Statistics {
	s := &Statistics{Count: append([]int(nil), m.count...)}
	s.Calls = m.calls.column(m.count, m.n)
	s.Subroutines = m.subrs.column(m.count, m.n)
	for k := range m.incl {
		s.Inclusive = append(s.Inclusive, m.incl[k].column(m.count, m.n))
		s.Exclusive = append(s.Exclusive, m.excl[k].column(m.count, m.n))
	}
	return s
}

// column turns the running state into the seven statistics.
func (c *mergeColumn) column(count []int, n int) Column {
	out := newColumn(len(count))
	for g, k := range count {
		out.Total[g], out.Max[g] = c.total[g], c.max[g]
		if k > 0 {
			out.Min[g] = c.min[g]
			out.Mean[g] = c.total[g] / float64(k)
		}
		if k > 1 {
			out.StdDev[g] = math.Sqrt(c.m2[g] / float64(k))
		}
		if n > 0 {
			out.MeanAll[g] = c.total[g] / float64(n)
			out.StdDevAll[g] = math.Sqrt(c.m2All[g] / float64(n))
		}
	}
	return out
}
