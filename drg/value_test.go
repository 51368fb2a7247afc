package drg

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestCheckValues builds a two-thread trial and puts values at the edge:
// MaxValue itself passes, the next double above it, 1e154 (whose square
// overflows), +Inf and NaN are refused naming the node, the thread and
// the column.
func TestCheckValues(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{MaxValue, ""},
		{-MaxValue, ""},
		{math.Nextafter(MaxValue, math.Inf(1)), `TIME exclusive value of "b" on thread 1.0.0: 1.0000000000000002e+100 is beyond`},
		{1e154, `TIME exclusive value of "b" on thread 1.0.0: 1e+154 is beyond the range of values accepted (±1e+100)`},
		{math.Inf(1), `TIME exclusive value of "b" on thread 1.0.0: +Inf is not a finite number`},
		{math.NaN(), `TIME exclusive value of "b" on thread 1.0.0: NaN is not a finite number`},
	} {
		b, err := NewBuilder([]ThreadID{{0, 0, 0}, {1, 0, 0}})
		if err != nil {
			t.Fatal(err)
		}
		m := b.Metric("TIME")
		b.AddValues(b.Node("a"), 0, m, 1, 1)
		b.AddValues(b.Node("b"), 1, m, c.v, 1)
		tr, err := b.Finish("t", Source{})
		if err != nil {
			t.Fatal(err)
		}
		err = tr.CheckValues()
		if c.want == "" {
			if err != nil {
				t.Errorf("%g: %v", c.v, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrValueRange) {
			t.Errorf("%g: error %v, want %q", c.v, err, c.want)
		}
	}
}
