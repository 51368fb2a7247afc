package analysis

import (
	"errors"
	"strings"
	"testing"
)

// TestConstantPRefused: a power-cap style sweep (every trial at the same
// p) is not a scaling series: speedup and scalability refuse it with a
// usage error that names the parameter study to run.
func TestConstantPRefused(t *testing.T) {
	var s Series
	for i, name := range []string{"cap-100W", "cap-150W", "cap-200W"} {
		tr := lawTrial(t, name, 27, 1, func(p float64) float64 { return 1000 + 100*float64(i) }, testLaws[:1], nil)
		s = append(s, Experiment{Trial: tr, Name: name, P: 27})
	}
	_, errSp := Speedup(s, SpeedupOptions{})
	_, errSc := Scalability(s, ScalabilityOptions{})
	for _, err := range []error{errSp, errSc} {
		var cp *ConstantPError
		if !errors.As(err, &cp) || cp.P != 27 || cp.Trials != 3 || !cp.Usage() || !strings.Contains(err.Error(), "multiset --by meta:KEY") {
			t.Errorf("error %v, want a ConstantPError naming multiset", err)
		}
	}
	if CheckPVaries("x", []float64{4}) != nil || CheckPVaries("x", []float64{4, 8, 4}) != nil {
		t.Error("one trial, or varying p, must pass")
	}
}
