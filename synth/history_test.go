package synth

import (
	"math"
	"strings"
	"testing"
)

// TestHistoryNoiseFree checks the generated times against the model by
// hand: 2 regions of base 1000 µs have weights 1/3 and 2/3 of 980 µs; a 10%
// shift of region 1 at point 3 adds 65.33 µs to the program (6.533%).
func TestHistoryNoiseFree(t *testing.T) {
	h, err := GenerateHistory(HistorySpec{Points: 5, MinReps: 2, MaxReps: 2, Regions: 2, Base: 1000,
		Shifts: []Shift{{At: 3, Regions: []int{1}, Size: 0.10, Meta: map[string]string{"Compiler Flags": "-O3"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Trials) != 10 {
		t.Fatalf("%d trials, want 5 points × 2", len(h.Trials))
	}
	r1 := 980.0 * 2 / 3
	for i, tr := range h.Trials {
		want := 1000.0
		flags := "-O2"
		if h.Point[i] >= 3 {
			want += 0.1 * r1
			flags = "-O3"
		}
		if got := tr.MainInclusive(0)[0]; math.Abs(got-want) > 1e-9 {
			t.Errorf("trial %s: program %v µs, want %v", tr.Name, got, want)
		}
		if tr.Metadata["Compiler Flags"] != flags || tr.Metadata["Build"] == "" {
			t.Errorf("trial %s: metadata %v", tr.Name, tr.Metadata)
		}
		if !strings.HasPrefix(tr.Metadata[OrderKeyDefault], "2026-01-0") {
			t.Errorf("trial %s: order key %q", tr.Name, tr.Metadata[OrderKeyDefault])
		}
	}
	tr := h.Truth[0]
	if tr.At != 3 || len(tr.Regions) != 1 || tr.Regions[0] != HistoryRegionName(1) || math.Abs(tr.ProgramShift-0.1*r1/1000) > 1e-12 {
		t.Errorf("truth %+v, want at 3, region 1, program shift %v", tr, 0.1*r1/1000)
	}
}

// TestHistoryNoise checks that the spread of a region's time matches the
// requested relative standard deviation (2%) within sampling error.
func TestHistoryNoise(t *testing.T) {
	h, err := GenerateHistory(HistorySpec{Points: 400, MinReps: 1, MaxReps: 5, Regions: 1, Noise: 0.02, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var s, ss float64
	n := 0
	reps := map[int]int{}
	for i, tr := range h.Trials {
		reps[h.Point[i]]++
		v := math.NaN()
		for _, f := range tr.Flat() {
			if tr.Regions[tr.Nodes[f].Region].Name == HistoryRegionName(0) {
				v = tr.Values[0].Exclusive[f]
			}
		}
		x := v/980000 - 1
		s += x
		ss += x * x
		n++
	}
	sd := math.Sqrt(ss/float64(n) - (s/float64(n))*(s/float64(n)))
	if math.Abs(sd-0.02) > 0.002 {
		t.Errorf("relative sd %v over %d runs, want 0.02", sd, n)
	}
	for p, r := range reps {
		if r < 1 || r > 5 {
			t.Errorf("point %d has %d repetitions", p, r)
		}
	}
}

func TestHistoryBadSpec(t *testing.T) {
	for _, s := range []HistorySpec{
		{Points: 1, MinReps: 1, MaxReps: 1, Regions: 1},
		{Points: 5, MinReps: 0, MaxReps: 1, Regions: 1},
		{Points: 5, MinReps: 1, MaxReps: 1, Regions: 1, Shifts: []Shift{{At: 5, Size: 0.1}}},
		{Points: 5, MinReps: 1, MaxReps: 1, Regions: 1, Shifts: []Shift{{At: 2, Regions: []int{1}, Size: 0.1}}},
		{Points: 5, MinReps: 1, MaxReps: 1, Regions: 1, Noise: math.NaN()},
	} {
		if _, err := GenerateHistory(s); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}
