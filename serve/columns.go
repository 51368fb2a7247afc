package serve

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/metrics"
)

// columnKey names one value column of a trial: a metric's (or a derived
// metric's) exclusive or inclusive values.
type columnKey struct {
	// Metric is a metric's name, or with Expr a derived metric's
	// expression (package metrics' language).
	Metric    string
	Expr      bool
	Inclusive bool
}

// column is one value column with its statistics across threads, per node.
type column struct {
	// values are indexed node*threads+thread, as drg.MetricValues.
	values []float64
	stats  []nodeStat
	// overview is the threads overview, made on first use (ct.mu held).
	overview *barSeries
}

// nodeStat is the statistics of one node's values over the threads that
// have a record of it (k of them): Mean = Σx/k, Min, Max, StdDev =
// √(Σ(x−mean)²/k) (population), Total = Σx and MeanAll = Σx/N over all N
// threads (an absent record as 0), as TAUdb's derived threads −1, −4, −5,
// −3, −2 and −6. With k = 0 every statistic is 0.
type nodeStat struct {
	Count                                  int
	Mean, Min, Max, StdDev, Total, MeanAll float64
	MinThread, MaxThread                   int
}

// maxDerivedColumns bounds the derived-metric columns kept per trial; the
// oldest go when more are asked for.
const maxDerivedColumns = 4

// column returns the column k of the trial, computing it on first use.
// A derived metric's expression is compiled against the trial's metrics;
// its error (a *metrics.Error) says what is wrong.
func (ct *cachedTrial) column(k columnKey) (*column, error) {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	if c, ok := ct.columns[k]; ok {
		return c, nil
	}
	vals, err := columnValues(ct.trial, k)
	if err != nil {
		return nil, err
	}
	if k.Expr {
		ct.dropDerived()
	}
	c := &column{values: vals, stats: nodeStats(ct.trial, vals)}
	ct.columns[k] = c
	return c, nil
}

// dropDerived forgets the derived columns when maxDerivedColumns are kept
// (ct.mu held).
func (ct *cachedTrial) dropDerived() {
	n := 0
	for k := range ct.columns {
		if k.Expr {
			n++
		}
	}
	if n < maxDerivedColumns {
		return
	}
	for k := range ct.columns {
		if k.Expr {
			delete(ct.columns, k)
		}
	}
}

// columnValues returns the values of column k.
func columnValues(t *drg.Trial, k columnKey) ([]float64, error) {
	if !k.Expr {
		m := t.MetricIndex(k.Metric)
		if m < 0 {
			return nil, &inputError{fmt.Sprintf("the trial has no metric %q (it has %s)", k.Metric, quoteList(metrics.Names(t)))}
		}
		if k.Inclusive {
			return t.Values[m].Inclusive, nil
		}
		return t.Values[m].Exclusive, nil
	}
	e, err := metrics.Compile(k.Metric, metrics.Names(t))
	if err != nil {
		return nil, &inputError{err.Error()}
	}
	incl, excl, err := metrics.Evaluate(t, e)
	if err != nil {
		return nil, &inputError{err.Error()}
	}
	if k.Inclusive {
		return incl, nil
	}
	return excl, nil
}

// nodeStats computes the statistics of every node of vals (see nodeStat).
// A value that is not a number (a derived metric's undefined cell) is
// left out like an absent record.
// The nodes are split among the processors.
func nodeStats(t *drg.Trial, vals []float64) []nodeStat {
	nn, nt := len(t.Nodes), len(t.Threads)
	out := make([]nodeStat, nn)
	workers := min(runtime.GOMAXPROCS(0), max(1, nn))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for n := lo; n < hi; n++ {
				off := n * nt
				if t.Present.Count(off, off+nt) == nt {
					out[n] = statDense(vals[off : off+nt])
					continue
				}
				out[n] = statOf(vals[off:off+nt], func(th int) bool { return t.Present.Get(off + th) })
			}
		}(w*nn/workers, (w+1)*nn/workers)
	}
	wg.Wait()
	return out
}

// statOf computes the statistics of xs over the indices present says
// hold a record (see nodeStat), in two passes so that the standard
// deviation carries no cancellation error.
func statOf(xs []float64, present func(int) bool) nodeStat {
	s := nodeStat{MinThread: -1, MaxThread: -1}
	for i, x := range xs {
		if !present(i) || math.IsNaN(x) {
			continue
		}
		if s.Count == 0 || x < s.Min {
			s.Min, s.MinThread = x, i
		}
		if s.Count == 0 || x > s.Max {
			s.Max, s.MaxThread = x, i
		}
		s.Count++
		s.Total += x
	}
	if s.Count == 0 {
		return s
	}
	s.Mean = s.Total / float64(s.Count)
	s.MeanAll = s.Total / float64(len(xs))
	var ss float64
	for i, x := range xs {
		if present(i) && !math.IsNaN(x) {
			ss += (x - s.Mean) * (x - s.Mean)
		}
	}
	s.StdDev = math.Sqrt(ss / float64(s.Count))
	return s
}

// statDense is statOf when every index holds a record: the common case of
// a region every thread ran, without a call per value.
func statDense(xs []float64) nodeStat {
	s := nodeStat{MinThread: -1, MaxThread: -1}
	for i, x := range xs {
		if x != x { // NaN: a derived metric's undefined cell
			continue
		}
		if s.Count == 0 || x < s.Min {
			s.Min, s.MinThread = x, i
		}
		if s.Count == 0 || x > s.Max {
			s.Max, s.MaxThread = x, i
		}
		s.Count++
		s.Total += x
	}
	if s.Count == 0 {
		return s
	}
	s.Mean = s.Total / float64(s.Count)
	s.MeanAll = s.Total / float64(len(xs))
	var ss float64
	for _, x := range xs {
		if x == x {
			ss += (x - s.Mean) * (x - s.Mean)
		}
	}
	s.StdDev = math.Sqrt(ss / float64(s.Count))
	return s
}
