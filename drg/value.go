package drg

import (
	"errors"
	"fmt"
	"math"
)

// MaxValue is the largest magnitude of a measured value (a time, a count,
// a user-event statistic) that a trial may hold: 1e100. Analyses add,
// square and multiply values (variances, distances, regressions); from
// about 1e154 a square overflows a double to +Inf, and from 1.7e308 a
// single sum does, which then prints as Inf or NaN, fails to encode as
// JSON and broke index arithmetic in clustering. Real measurements stay
// below 1e30 (a sum of squares of byte counts); readers refuse a larger
// value with the file and line (or byte offset) instead of keeping it.
const MaxValue = 1e100

// ErrValueRange is wrapped by the error of a value that is NaN, infinite
// or beyond ±MaxValue.
var ErrValueRange = errors.New("beyond the range of values accepted")

// CheckValue returns an error wrapping ErrValueRange when v is NaN, ±Inf
// or larger in magnitude than MaxValue, and nil otherwise.
func CheckValue(v float64) error {
	switch {
	case math.IsNaN(v), math.IsInf(v, 0):
		return fmt.Errorf("%v is not a finite number: %w", v, ErrValueRange)
	case math.Abs(v) > MaxValue:
		return fmt.Errorf("%g is %w (±%g)", v, ErrValueRange, MaxValue)
	}
	return nil
}

// CheckValues checks every value of t (times, calls, user-event
// statistics) with CheckValue and returns the first problem, naming the
// node or user event, the thread and the column. Readers check as they
// parse; this is the check of last resort before a trial is stored.
func (t *Trial) CheckValues() error {
	nt := len(t.Threads)
	if nt == 0 {
		return nil
	}
	at := func(what string, names func(int) string, i int, err error) error {
		th := t.Threads[i%nt]
		return fmt.Errorf("%s of %q on thread %d.%d.%d: %w", what, names(i/nt), th.Node, th.Context, th.Thread, err)
	}
	node := func(n int) string { return t.Nodes[n].Name }
	if err := t.checkSparseValues(); err != nil {
		return err
	}
	for m, v := range t.Values {
		for _, col := range []struct {
			what string
			vals []float64
		}{{t.Metrics[m].Name + " inclusive value", v.Inclusive}, {t.Metrics[m].Name + " exclusive value", v.Exclusive}, {"call count", t.Calls}, {"subroutine count", t.Subroutines}} {
			for i, x := range col.vals {
				if err := CheckValue(x); err != nil {
					return at(col.what, node, i, err)
				}
			}
		}
	}
	counter := func(c int) string { return t.Counters[c].Name }
	for i, cv := range t.CounterValues {
		for _, x := range [...]float64{cv.NumEvents, cv.Min, cv.Max, cv.Mean, cv.SumSquares} {
			if err := CheckValue(x); err != nil {
				return at("user-event statistic", counter, i, err)
			}
		}
	}
	return nil
}

// checkSparseValues is CheckValues for the node values of a sparse trial.
func (t *Trial) checkSparseValues() error {
	sp := t.Sparse
	if sp == nil {
		return nil
	}
	type col struct {
		what string
		vals []float64
	}
	cols := []col{{"call count", sp.Calls}, {"subroutine count", sp.Subroutines}}
	for m := range sp.Inclusive {
		cols = append(cols, col{t.Metrics[m].Name + " inclusive value", sp.Inclusive[m]}, col{t.Metrics[m].Name + " exclusive value", sp.Exclusive[m]})
	}
	for n := range t.Nodes {
		for i := sp.Start[n]; i < sp.Start[n+1]; i++ {
			for _, c := range cols {
				if err := CheckValue(c.vals[i]); err != nil {
					th := t.Threads[sp.Thread[i]]
					return fmt.Errorf("%s of %q on thread %d.%d.%d: %w", c.what, t.Nodes[n].Name, th.Node, th.Context, th.Thread, err)
				}
			}
		}
	}
	return nil
}
