package drg

import (
	"errors"
	"fmt"
)

// A dense trial stores one value per (node, thread) cell for every metric
// (and one per (user event, thread) cell), present or not: memory grows as
// nodes × threads. When every rank has regions of its own (8,000 ranks,
// each with one timer nobody else has) that is quadratic in the ranks for
// data linear in them, so a trial whose cells are mostly empty is, once it
// is large, stored sparsely (SparseValues) by a Builder with Sparse set,
// and refused before the memory is taken otherwise (user events, readers
// that do not allow sparse trials).
const (
	// DenseFloorCells is the number of cells (nodes × threads, or user
	// events × threads) up to which a trial is never refused: 2 Mi, 64 MiB
	// of values and counts for one metric.
	DenseFloorCells = 1 << 21
	// MaxEmptyRatio is how many cells a trial beyond DenseFloorCells may
	// have per cell that holds a value.
	MaxEmptyRatio = 64
	// SparseFloorCells is the number of cells beyond which a Builder with
	// Sparse set switches to the sparse layout, as it adds nodes, when
	// more than SparseEmptyRatio of them per cell with a value would be
	// empty: 256 Ki, so that the dense columns built before the switch
	// stay small (8 MiB for one metric). Code that needs the dense layout
	// converts a sparse trial of up to DenseFloorCells cells back
	// (Trial.MakeDense).
	SparseFloorCells = 1 << 18
	// SparseEmptyRatio is the empty cells per full one beyond which a
	// Builder with Sparse set switches (a sparse cell takes 4 bytes more
	// than a dense one, an empty cell 8 bytes per column less).
	SparseEmptyRatio = 8
)

// ErrTooSparse is wrapped by a *SparseError.
var ErrTooSparse = errors.New("trial too sparse to store densely")

// SparseError is the error of a trial refused by CheckDensity.
type SparseError struct {
	// Rows names the rows ("call-graph nodes", "user events"); Nodes and
	// Threads are the counts, Present the cells with values (at most).
	Rows                  string
	Nodes, Threads        int
	Cells, Present, Ratio int64
}

// Error gives the counts and the ratio.
func (e *SparseError) Error() string {
	return fmt.Sprintf("%d %s × %d threads make %d cells, but only about %d of them hold values (1 in %d): "+
		"a trial is stored with every cell, and one sparser than 1 in %d beyond %d cells is refused (%v)",
		e.Nodes, e.Rows, e.Threads, e.Cells, e.Present, e.Ratio, MaxEmptyRatio, DenseFloorCells, ErrTooSparse)
}

// Unwrap returns ErrTooSparse.
func (e *SparseError) Unwrap() error { return ErrTooSparse }

// CheckDensity returns a *SparseError when nodes × threads cells exceed
// DenseFloorCells and more than MaxEmptyRatio times present, the number of
// cells that hold values; rows names the rows in the message.
func CheckDensity(rows string, nodes, threads int, present int64) error {
	return checkDensity(rows, nodes, threads, present, DenseFloorCells, MaxEmptyRatio)
}

// checkDensity is CheckDensity with floor and ratio in place of
// DenseFloorCells and MaxEmptyRatio.
func checkDensity(rows string, nodes, threads int, present, floor, ratio int64) error {
	cells := int64(nodes) * int64(threads)
	if cells <= floor || cells <= ratio*max(present, 1) {
		return nil
	}
	return &SparseError{Rows: rows, Nodes: nodes, Threads: threads, Cells: cells, Present: present, Ratio: cells / max(present, 1)}
}

// density is the Builder's record of the cells that hold values, to
// refuse a sparse trial while it is read (see CheckDensity). As rows are
// added before the values of later threads, the final number of present
// cells is estimated from the threads seen so far: present × threads /
// touched.
type density struct {
	present, counters int64
	touched           []bool
	nTouched          int64
}

// mark records a value in cell c of thread column th; isNew says whether
// the cell was empty.
func (d *density) mark(th int, isNew bool) {
	if isNew {
		d.present++
	}
	if !d.touched[th] {
		d.touched[th] = true
		d.nTouched++
	}
}

// estimate returns the expected number of present cells at the end, from
// n present so far.
func (d *density) estimate(n int64) int64 {
	if d.nTouched == 0 {
		return -1
	}
	return n * int64(len(d.touched)) / d.nTouched
}
