// Package overhead is SCALEA's classification of temporal overheads (Truong
// and Fahringer, section 3 and Figure 2) applied to TAU trials: the
// overhead of each experiment, T_o = T_p - T_s/p, split into data movement,
// synchronization, control of parallelism, additional computation, loss of
// parallelism and unidentified overhead, per experiment (the paper's Figure
// 13 table), per region (region-to-overhead) and per category
// (overhead-to-region).
//
// # Figures
//
// Analyze takes a series of experiments, analysis.Series, the type every
// multi-experiment analysis takes: each trial with its number of processes
// p (analysis.NewSeries counts them by analysis.ProcessCount, the distinct
// TAU node ranks by default), the baseline chosen by the series' one rule
// (analysis.Series.Baseline) and the aggregate of the one type
// analysis.Aggregate. Its documentation holds every formula; in short:
//
//	T_p          = A_k T_k, T_k = a process's main-region inclusive time
//	T_s          = T_1 of a 1-process baseline, or p_b*T_b of the
//	               smallest-p baseline, or a given sequential time
//	T_o          = T_p - T_s/p (negative with superlinear speedup)
//	category     = A_k of the per-process sums of the exclusive times of
//	               the regions the rules put in the category
//	loss(r)      = A_{k ran r} t_k(r) - S(r)/p  for a region executed by
//	               q < p processes (unparallelized: q = 1; partially
//	               parallelized: 1 < q < p), S(r) = Σ_k t_k(r)
//	             = A_{k ran r} t_k(r) * (p-1)/p  for replicated code
//	identified   = data movement + synchronization + control of
//	               parallelism + additional computation + loss
//	unidentified = T_o - identified (exactly: see the exact grid below)
//
// A is the aggregate over processes (Options.Aggregate): the mean by
// default, the average process, since only the average splits T_o without
// one process's waiting standing for another's work; the maximum (the
// process that finishes last, whose T_k is SCALEA's execution time) and the
// minimum are options. With the maximum or the minimum every figure is that
// one process's, so the categories add up to its T_o. Loss of parallelism
// is computed per region (from the processes that executed the region) and
// summed over the regions.
//
// Only computation regions (no rule, or a rule that says "computation") are
// tested for loss of parallelism: a region a rule counts in a category is
// never counted twice. A region is replicated code when every process
// executed it and its time per process did not shrink versus the baseline
// as a divided work would: m/m_b >= p_b/p + θ(1 - p_b/p) with m = S(r)/q,
// m_b the baseline's, θ = 0.5 by default.
//
// Exact grid: all the figures of one experiment are rounded to a common
// power of two q, so small that 2^53*q exceeds twice the sum of their
// magnitudes; every sum and difference of grid values is then exact, and
// identified + unidentified == T_o, T_p - T_s/p == T_o and the sum of the
// category rows == identified hold to the last bit.
//
// # Rules
//
// Regions are put in a category and sub-category by the rules of package
// classify, the one classifier shared with imbalance, summary and every
// split of time by class: classify.Default, changed by a user's YAML rules
// file (classify.LoadRules; docs/rules.md has the format). A region no rule
// matches is computation. RulesTable renders rules as a table.
package overhead
