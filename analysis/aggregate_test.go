package analysis

import (
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

func TestParseAggregate(t *testing.T) {
	for _, c := range []struct {
		in      Aggregate
		allowed []Aggregate
		want    Aggregate
		err     string
	}{
		{"", []Aggregate{AggregateMax, AggregateMean}, AggregateMax, ""},
		{"", []Aggregate{AggregateMean, AggregateMax, AggregateMin}, AggregateMean, ""},
		{" Mean ", []Aggregate{AggregateMax, AggregateMean}, AggregateMean, ""},
		{"min", []Aggregate{AggregateMax, AggregateMean}, "", `aggregate "min": want "max" or "mean" (default "max")`},
		{"median", []Aggregate{AggregateMean, AggregateMax, AggregateMin}, "", `want "mean", "max" or "min" (default "mean")`},
	} {
		got, err := ParseAggregate(c.in, c.allowed...)
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("ParseAggregate(%q, %v) = %q, %v; want %q, %q", c.in, c.allowed, got, err, c.want, c.err)
		}
	}
}

// TestSeriesBaseline checks the one baseline rule: the named experiment
// (its name, else its trial's), else the smallest P, the first given
// among equal P.
func TestSeriesBaseline(t *testing.T) {
	tr := func(name string) *drg.Trial { return &drg.Trial{Name: name} }
	s := Series{
		{Trial: tr("t8"), P: 8},
		{Trial: tr("t2a"), Name: "two", P: 2},
		{Trial: tr("t2b"), P: 2},
		{Trial: tr("t4"), P: 4},
	}
	for name, want := range map[string]int{"": 1, "two": 1, "t2a": 1, "t2b": 2, "t8": 0} {
		if got, err := s.Baseline(name); err != nil || got != want {
			t.Errorf("Baseline(%q) = %d, %v; want %d", name, got, err, want)
		}
	}
	if _, err := s.Baseline("t16"); err == nil || !strings.Contains(err.Error(), `baseline "t16" is none of the experiments (t8, two, t2b, t4)`) {
		t.Errorf("unknown baseline: %v", err)
	}
	if _, err := (Series{}).Baseline(""); err == nil {
		t.Error("empty series: want an error")
	}
}
