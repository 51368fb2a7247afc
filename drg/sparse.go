package drg

import (
	"fmt"
	"iter"
	"sort"
)

// SparseValues holds the node values of a sparse trial cell by cell: only
// the (node, thread) cells that hold a profile record take memory, 8 bytes
// per value column and 4 for the thread, instead of nodes × threads cells
// for every column. The Builder chooses it (see Builder.Sparse) when a
// trial is too sparse to store densely (see CheckDensity); the trial's
// dense columns (Values[m].Inclusive and .Exclusive, Calls, Subroutines,
// Present) are then empty, and its values are read through Trial.Col,
// Trial.Has and Trial.RowLen, which serve both layouts.
type SparseValues struct {
	// Start gives the cells of node n as [Start[n], Start[n+1]); it has
	// one entry per node and one more.
	Start []int
	// Thread is the thread column of every cell, ascending within a node.
	Thread []int32
	// Inclusive and Exclusive hold each metric's values per cell,
	// parallel to Trial.Metrics.
	Inclusive, Exclusive [][]float64
	// Calls and Subroutines hold the call counts per cell.
	Calls, Subroutines []float64
}

// Cells returns the number of cells that hold a record.
func (s *SparseValues) Cells() int { return len(s.Thread) }

// find returns the position of (node n, thread th), or -1.
func (s *SparseValues) find(n, th int) int {
	lo, hi := s.Start[n], s.Start[n+1]
	i := lo + sort.Search(hi-lo, func(k int) bool { return int(s.Thread[lo+k]) >= th })
	if i < hi && int(s.Thread[i]) == th {
		return i
	}
	return -1
}

// IsSparse reports whether the trial's node values are stored sparsely
// (Trial.Sparse set).
func (t *Trial) IsSparse() bool { return t.Sparse != nil }

// Vals is one value column of a trial (a metric's inclusive or exclusive
// values, the calls or the subroutine calls) in either layout.
type Vals struct {
	t      *Trial
	dense  []float64
	sparse []float64
}

// Which value column Col returns.
const (
	// ColInclusive and ColExclusive select a metric's values.
	ColInclusive = iota
	ColExclusive
	// ColCalls and ColSubroutines select the call counts (the metric is
	// ignored).
	ColCalls
	ColSubroutines
)

// Col returns value column kind (ColInclusive, ColExclusive, ColCalls,
// ColSubroutines) of metric m.
func (t *Trial) Col(kind, m int) Vals {
	v := Vals{t: t}
	s := t.Sparse
	switch kind {
	case ColInclusive:
		v.dense = t.Values[m].Inclusive
		if s != nil {
			v.sparse = s.Inclusive[m]
		}
	case ColExclusive:
		v.dense = t.Values[m].Exclusive
		if s != nil {
			v.sparse = s.Exclusive[m]
		}
	case ColCalls:
		v.dense = t.Calls
		if s != nil {
			v.sparse = s.Calls
		}
	case ColSubroutines:
		v.dense = t.Subroutines
		if s != nil {
			v.sparse = s.Subroutines
		}
	}
	return v
}

// Dense returns the column's values indexed node*threads+thread (an
// absent cell holds 0; Trial.Present marks the present ones), or nil for a
// sparse trial: the fast path of loops over every cell of a dense trial.
func (v Vals) Dense() []float64 {
	if v.t.Sparse != nil {
		return nil
	}
	return v.dense
}

// At returns the value of node n on thread th and whether the thread has a
// record for it (0, false when not).
func (v Vals) At(n, th int) (float64, bool) {
	if s := v.t.Sparse; s != nil {
		if i := s.find(n, th); i >= 0 {
			return v.sparse[i], true
		}
		return 0, false
	}
	c := n*len(v.t.Threads) + th
	if !v.t.Present.Get(c) {
		return 0, false
	}
	return v.dense[c], true
}

// Row yields (thread, value) for every thread that has a record for node
// n, in thread order.
func (v Vals) Row(n int) iter.Seq2[int, float64] {
	return func(yield func(int, float64) bool) {
		if s := v.t.Sparse; s != nil {
			for i := s.Start[n]; i < s.Start[n+1]; i++ {
				if !yield(int(s.Thread[i]), v.sparse[i]) {
					return
				}
			}
			return
		}
		nt := len(v.t.Threads)
		off := n * nt
		for th := range nt {
			if v.t.Present.Get(off+th) && !yield(th, v.dense[off+th]) {
				return
			}
		}
	}
}

// Has reports whether thread has a profile record for node.
func (t *Trial) Has(node, thread int) bool {
	if t.Sparse != nil {
		return t.Sparse.find(node, thread) >= 0
	}
	return t.Present.Get(t.Cell(node, thread))
}

// RowLen returns the number of threads that have a record for node n.
func (t *Trial) RowLen(n int) int {
	if s := t.Sparse; s != nil {
		return s.Start[n+1] - s.Start[n]
	}
	nt := len(t.Threads)
	return t.Present.Count(n*nt, (n+1)*nt)
}

// PresentCells returns the number of (node, thread) cells that hold a
// record.
func (t *Trial) PresentCells() int {
	if t.Sparse != nil {
		return t.Sparse.Cells()
	}
	return t.Present.Count(0, t.Present.Len())
}

// MakeDense prepares the trial for what (an analysis, a view) that indexes
// the dense columns: a sparse trial of at most DenseFloorCells cells
// (nodes × threads) is converted to the dense layout in place, and a
// larger one gives an error naming what, wrapping ErrTooSparse, as it
// would need nodes × threads cells. A dense trial is left alone. It must
// not run while other goroutines read t.
func (t *Trial) MakeDense(what string) error {
	sp := t.Sparse
	if sp == nil {
		return nil
	}
	nt := len(t.Threads)
	cells := int64(len(t.Nodes)) * int64(nt)
	if cells > DenseFloorCells {
		return fmt.Errorf("%s: trial %q is sparse (%d call-graph nodes × %d threads, %d cells hold values) and %s needs every cell: %w",
			what, t.Name, len(t.Nodes), nt, sp.Cells(), what, ErrTooSparse)
	}
	n := int(cells)
	t.Present = NewBitmap(n)
	t.Calls, t.Subroutines = make([]float64, n), make([]float64, n)
	for m := range t.Values {
		t.Values[m] = MetricValues{Inclusive: make([]float64, n), Exclusive: make([]float64, n)}
	}
	for node := range t.Nodes {
		for i := sp.Start[node]; i < sp.Start[node+1]; i++ {
			c := node*nt + int(sp.Thread[i])
			t.Present.Set(c)
			t.Calls[c], t.Subroutines[c] = sp.Calls[i], sp.Subroutines[i]
			for m := range t.Values {
				t.Values[m].Inclusive[c], t.Values[m].Exclusive[c] = sp.Inclusive[m][i], sp.Exclusive[m][i]
			}
		}
	}
	t.Sparse = nil
	return nil
}
