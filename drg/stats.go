package drg

import (
	"math"
	"runtime"
	"sync"
)

// DerivedThread is the code of a derived thread, as TAUdb stores it in
// thread_index, node_rank, context_rank and thread_rank.
type DerivedThread int

// The derived threads of TAUdb. "Nulls ignored" statistics are taken over
// the k threads that have a record for the node; "nulls as 0" ones over all
// N threads, an absent record counting as 0. Standard deviations are the
// population form, as ParaProf computes them.
const (
	// Mean is Σx/k (0 when k = 0).
	Mean DerivedThread = -1
	// Total is Σx.
	Total DerivedThread = -2
	// StdDev is √(Σ(x−Σx/k)²/k), 0 when k ≤ 1.
	StdDev DerivedThread = -3
	// Min is the smallest x over the k records (0 when k = 0).
	Min DerivedThread = -4
	// Max is max(0, x...) over the k records.
	Max DerivedThread = -5
	// MeanAll is Σx/N.
	MeanAll DerivedThread = -6
	// StdDevAll is √(Σ(x−Σx/N)²/N) over all N threads, absent ones as 0.
	StdDevAll DerivedThread = -7
)

// DerivedThreads lists the derived threads in the order TAU's loader
// writes their thread rows.
var DerivedThreads = []DerivedThread{Mean, StdDev, Total, Max, Min, MeanAll, StdDevAll}

// String returns TAUdb's derived_thread_type description.
func (d DerivedThread) String() string {
	switch d {
	case Mean:
		return "MEAN"
	case Total:
		return "TOTAL"
	case StdDev:
		return "STDDEV"
	case Min:
		return "MIN"
	case Max:
		return "MAX"
	case MeanAll:
		return "MEAN (nulls as 0)"
	case StdDevAll:
		return "STDDEV (nulls as 0)"
	}
	return "thread"
}

// Column holds the seven derived statistics of one value column (a metric's
// inclusive or exclusive values, calls or subroutines) for every node.
type Column struct {
	Mean, Total, StdDev, Min, Max, MeanAll, StdDevAll []float64
}

// Get returns the statistic of derived thread d, one value per node.
func (c *Column) Get(d DerivedThread) []float64 {
	switch d {
	case Mean:
		return c.Mean
	case Total:
		return c.Total
	case StdDev:
		return c.StdDev
	case Min:
		return c.Min
	case Max:
		return c.Max
	case MeanAll:
		return c.MeanAll
	case StdDevAll:
		return c.StdDevAll
	}
	return nil
}

// Statistics holds the derived statistics of a trial for every node.
type Statistics struct {
	// Count is the number of threads that have a record for each node (k).
	Count []int
	// Calls and Subroutines summarize the call counts.
	Calls, Subroutines Column
	// Inclusive and Exclusive summarize each metric, parallel to
	// Trial.Metrics.
	Inclusive, Exclusive []Column
}

// Statistics computes the derived statistics of every node, metric and
// column over the real threads (see DerivedThread for the formulas). Nodes
// are split among the processors; the standard deviations use two passes
// over each node's values, so they carry no cancellation error.
func (t *Trial) Statistics() *Statistics {
	nn, nt := len(t.Nodes), len(t.Threads)
	s := &Statistics{
		Count:       make([]int, nn),
		Calls:       newColumn(nn),
		Subroutines: newColumn(nn),
	}
	for range t.Metrics {
		s.Inclusive = append(s.Inclusive, newColumn(nn))
		s.Exclusive = append(s.Exclusive, newColumn(nn))
	}
	if sp := t.Sparse; sp != nil {
		parallelRange(nn, max(1, sp.Cells()/max(nn, 1)), func(lo, hi int) {
			for n := lo; n < hi; n++ {
				s.deriveSparse(sp, n, nt)
			}
		})
		return s
	}
	work := func(lo, hi int) {
		for n := lo; n < hi; n++ {
			k := 0
			for th := 0; th < nt; th++ {
				if t.Present.Get(n*nt + th) {
					k++
				}
			}
			s.Count[n] = k
			s.Calls.derive(n, t.Calls[n*nt:(n+1)*nt], &t.Present, n*nt, k)
			s.Subroutines.derive(n, t.Subroutines[n*nt:(n+1)*nt], &t.Present, n*nt, k)
			for m := range t.Values {
				s.Inclusive[m].derive(n, t.Values[m].Inclusive[n*nt:(n+1)*nt], &t.Present, n*nt, k)
				s.Exclusive[m].derive(n, t.Values[m].Exclusive[n*nt:(n+1)*nt], &t.Present, n*nt, k)
			}
		}
	}
	parallelRange(nn, nt, work)
	return s
}

// deriveSparse fills node n's statistics from the cells of a sparse
// trial of nt threads.
func (s *Statistics) deriveSparse(sp *SparseValues, n, nt int) {
	lo, hi := sp.Start[n], sp.Start[n+1]
	s.Count[n] = hi - lo
	s.Calls.deriveCells(n, sp.Calls[lo:hi], nt)
	s.Subroutines.deriveCells(n, sp.Subroutines[lo:hi], nt)
	for m := range sp.Inclusive {
		s.Inclusive[m].deriveCells(n, sp.Inclusive[m][lo:hi], nt)
		s.Exclusive[m].deriveCells(n, sp.Exclusive[m][lo:hi], nt)
	}
}

// deriveCells is derive for the k = len(x) values x of the threads that
// have a record, among N threads: the absent ones count as 0 for the
// "nulls as 0" statistics, so Σ(x−Σx/N)² over all N threads is the sum
// over x plus (N−k)(Σx/N)².
func (c *Column) deriveCells(n int, x []float64, N int) {
	k := len(x)
	var sum float64
	mn, mx := math.Inf(1), 0.0
	for _, v := range x {
		sum += v
		mn = math.Min(mn, v)
		mx = math.Max(mx, v)
	}
	if k == 0 {
		mn = 0
	}
	c.Total[n], c.Min[n], c.Max[n] = sum, mn, mx
	if N == 0 {
		return
	}
	meanAll := sum / float64(N)
	c.MeanAll[n] = meanAll
	mean := 0.0
	if k > 0 {
		mean = sum / float64(k)
	}
	c.Mean[n] = mean
	var ssAll, ssNoNull float64
	for _, v := range x {
		d, e := v-meanAll, v-mean
		ssAll += d * d
		ssNoNull += e * e
	}
	ssAll += float64(N-k) * meanAll * meanAll
	c.StdDevAll[n] = math.Sqrt(ssAll / float64(N))
	if k > 1 {
		c.StdDev[n] = math.Sqrt(ssNoNull / float64(k))
	}
}

func newColumn(n int) Column {
	return Column{
		Mean: make([]float64, n), Total: make([]float64, n), StdDev: make([]float64, n),
		Min: make([]float64, n), Max: make([]float64, n),
		MeanAll: make([]float64, n), StdDevAll: make([]float64, n),
	}
}

// derive fills node n's statistics from the node's row x; bit i of the row
// is bit off+i of present; k is the number of present cells.
func (c *Column) derive(n int, x []float64, present *Bitmap, off, k int) {
	N := float64(len(x))
	var sum float64
	mn, mx := math.Inf(1), 0.0
	for i, v := range x {
		if !present.Get(off + i) {
			continue
		}
		sum += v
		mn = math.Min(mn, v)
		mx = math.Max(mx, v)
	}
	if k == 0 {
		mn = 0
	}
	c.Total[n] = sum
	c.Min[n] = mn
	c.Max[n] = mx
	if len(x) == 0 {
		return
	}
	c.MeanAll[n] = sum / N
	var ssAll, ssNoNull float64
	mean := 0.0
	if k > 0 {
		mean = sum / float64(k)
	}
	c.Mean[n] = mean
	for i, v := range x {
		d := v - c.MeanAll[n]
		ssAll += d * d
		if present.Get(off + i) {
			e := v - mean
			ssNoNull += e * e
		}
	}
	c.StdDevAll[n] = math.Sqrt(ssAll / N)
	if k > 1 {
		c.StdDev[n] = math.Sqrt(ssNoNull / float64(k))
	}
}

// parallelRange runs work over [0, n) split into chunks, one goroutine per
// processor, when the work (n rows of width values) is large enough to pay
// for it.
func parallelRange(n, width int, work func(lo, hi int)) {
	p := runtime.GOMAXPROCS(0)
	if p == 1 || n*width < 1<<16 || n < 2 {
		work(0, n)
		return
	}
	var wg sync.WaitGroup
	chunk := (n + p - 1) / p
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(lo, hi)
		}()
	}
	wg.Wait()
}
