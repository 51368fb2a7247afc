package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// HistorySpec describes a performance history: the same benchmark run at
// Points successive points (commits, nightly builds), each point run 1 to
// MaxReps times, with zero or more step changes (Shifts) injected in chosen
// regions. It is the ground truth for testing change-point detection
// (analysis.Regress).
//
// A run is a one-thread trial of the regions "main" and kernel_0 ..
// kernel_{Regions−1} (flat entries; main's inclusive value is the program
// time). Region i's base exclusive time is 0.98·Base·(i+1)/Σ_j(j+1) µs and
// main keeps 0.02·Base exclusive. At point k a region's time is its base
// time times Π(1 + Size) over the shifts s with s.At ≤ k that name it,
// times a noise factor (1 + Noise·g), g standard normal from a seeded
// generator, drawn independently for every region, run and point (clamped
// so that a time stays positive).
//
// Every trial has the metadata OrderKey (a UTC date, one day per point,
// RFC 3339, so that the lexical order is the time order), "Build" (the
// point's 0-based index), "Repetition", "Commit" (a made-up id unique per
// point), "Compiler Flags" ("-O2" unless a shift changes it) and each
// shift's Meta from its point on.
type HistorySpec struct {
	// Points is the number of points in the history (2 to 10,000).
	Points int
	// MinReps and MaxReps bound the repetitions per point (1 ≤ MinReps ≤
	// MaxReps ≤ 100); each point draws its count uniformly.
	MinReps, MaxReps int
	// Regions is the number of regions besides main (1 to 1,000).
	Regions int
	// Base is the program time at the first point in µs (default 1e6).
	Base float64
	// Noise is the relative standard deviation of a region's time per run
	// (0.02 = 2%), in [0, 0.5).
	Noise float64
	// Shifts are the injected step changes.
	Shifts []Shift
	// Seed makes the history reproducible.
	Seed uint64
	// OrderKey names the metadata key holding the order (default
	// "Commit Date").
	OrderKey string
}

// Shift is a step change injected into a history.
type Shift struct {
	// At is the index of the first point at the new level (1 ≤ At < Points).
	At int
	// Regions are the indexes of the regions that change (0-based).
	Regions []int
	// Size is the relative change of those regions' time: +0.05 makes them
	// 5% slower (a regression), −0.05 5% faster. Size > −1.
	Size float64
	// Meta is metadata whose value changes from point At on.
	Meta map[string]string
}

// History is a generated history and its ground truth.
type History struct {
	// Trials are the runs, point by point, repetitions together.
	Trials []*drg.Trial
	// Point is each trial's point index, parallel to Trials.
	Point []int
	// Truth describes each shift as it should be detected, in Shifts order.
	Truth []ShiftTruth
	// RegionNames are the regions' full names, by region index.
	RegionNames []string
}

// ShiftTruth is where and how big an injected shift is.
type ShiftTruth struct {
	// At is the first point at the new level.
	At int
	// Regions are the full names of the regions that changed.
	Regions []string
	// Size is the regions' relative change (Shift.Size).
	Size float64
	// ProgramShift is the program's relative change at At in the noise-free
	// model: Σ (changed regions' time before At)·Size / program time before At.
	ProgramShift float64
}

// OrderKeyDefault is the order metadata key when HistorySpec.OrderKey is "".
const OrderKeyDefault = "Commit Date"

func (s *HistorySpec) check() error {
	switch {
	case s.Points < 2 || s.Points > 10000:
		return fmt.Errorf("synth: history points must be between 2 and 10000, got %d", s.Points)
	case s.MinReps < 1 || s.MaxReps < s.MinReps || s.MaxReps > 100:
		return fmt.Errorf("synth: repetitions %d..%d: want 1 ≤ min ≤ max ≤ 100", s.MinReps, s.MaxReps)
	case s.Regions < 1 || s.Regions > 1000:
		return fmt.Errorf("synth: history regions must be between 1 and 1000, got %d", s.Regions)
	case !(s.Noise >= 0 && s.Noise < 0.5):
		return fmt.Errorf("synth: noise %v: want [0, 0.5)", s.Noise)
	case s.Base < 0 || math.IsNaN(s.Base) || math.IsInf(s.Base, 0):
		return fmt.Errorf("synth: base time %v: want a finite positive number", s.Base)
	}
	for i, sh := range s.Shifts {
		if sh.At < 1 || sh.At >= s.Points {
			return fmt.Errorf("synth: shift %d at point %d: want 1 to %d", i+1, sh.At, s.Points-1)
		}
		if !(sh.Size > -1) || math.IsInf(sh.Size, 0) {
			return fmt.Errorf("synth: shift %d size %v: want a finite number > -1", i+1, sh.Size)
		}
		for _, r := range sh.Regions {
			if r < 0 || r >= s.Regions {
				return fmt.Errorf("synth: shift %d names region %d of %d", i+1, r, s.Regions)
			}
		}
	}
	return nil
}

// HistoryRegionName is the full name of region i of a generated history.
func HistoryRegionName(i int) string {
	return fmt.Sprintf("void kernel_%d(double *) C [{src/kernel_%d.c} {%d,1}-{%d,1}]", i, i, 10+i, 60+i)
}

// GenerateHistory builds the history the spec describes.
func GenerateHistory(s HistorySpec) (*History, error) {
	if s.Base == 0 {
		s.Base = 1e6
	}
	if s.OrderKey == "" {
		s.OrderKey = OrderKeyDefault
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x6869737479))
	base := make([]float64, s.Regions)
	wsum := float64(s.Regions * (s.Regions + 1) / 2)
	h := &History{}
	for i := range base {
		base[i] = 0.98 * s.Base * float64(i+1) / wsum
		h.RegionNames = append(h.RegionNames, HistoryRegionName(i))
	}
	h.Truth = s.truth(base, h.RegionNames)
	start := time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)
	for k := 0; k < s.Points; k++ {
		level, meta := s.levelAt(k, base)
		meta[s.OrderKey] = start.AddDate(0, 0, k).Format(time.RFC3339)
		meta["Build"] = fmt.Sprint(k)
		meta["Commit"] = fmt.Sprintf("%08x", uint32(k)*2654435761)
		reps := s.MinReps + rng.IntN(s.MaxReps-s.MinReps+1)
		for r := 0; r < reps; r++ {
			meta["Repetition"] = fmt.Sprint(r + 1)
			t, err := s.run(rng, level, meta, fmt.Sprintf("build-%04d-run-%d", k, r+1))
			if err != nil {
				return nil, err
			}
			h.Trials = append(h.Trials, t)
			h.Point = append(h.Point, k)
		}
	}
	return h, nil
}

// levelAt returns the regions' noise-free times at point k and the
// metadata the shifts set there.
func (s *HistorySpec) levelAt(k int, base []float64) ([]float64, map[string]string) {
	level := append([]float64(nil), base...)
	meta := map[string]string{"Compiler Flags": "-O2"}
	for _, sh := range s.Shifts {
		if sh.At > k {
			continue
		}
		for _, r := range sh.Regions {
			level[r] *= 1 + sh.Size
		}
		for key, v := range sh.Meta {
			meta[key] = v
		}
	}
	return level, meta
}

// truth computes each shift's ground truth from the noise-free levels.
func (s *HistorySpec) truth(base []float64, names []string) []ShiftTruth {
	var out []ShiftTruth
	for _, sh := range s.Shifts {
		before, _ := s.levelAt(sh.At-1, base)
		after, _ := s.levelAt(sh.At, base)
		tb, ta := 0.02*s.Base, 0.02*s.Base
		for i := range before {
			tb += before[i]
			ta += after[i]
		}
		st := ShiftTruth{At: sh.At, Size: sh.Size, ProgramShift: ta/tb - 1}
		for _, r := range sh.Regions {
			st.Regions = append(st.Regions, names[r])
		}
		out = append(out, st)
	}
	return out
}

// run builds one run: every region at its level times its noise factor.
func (s *HistorySpec) run(rng *rand.Rand, level []float64, meta map[string]string, name string) (*drg.Trial, error) {
	b, err := drg.NewBuilder([]drg.ThreadID{{}})
	if err != nil {
		return nil, err
	}
	m := b.Metric("TIME")
	noisy := func(v float64) float64 {
		return v * math.Max(0.05, 1+s.Noise*rng.NormFloat64())
	}
	mainNode := b.Node("main")
	b.SetGroups(mainNode, "TAU_DEFAULT")
	below := 0.0
	for i, v := range level {
		n := b.Node(HistoryRegionName(i))
		b.SetGroups(n, "TAU_USER")
		x := noisy(v)
		below += x
		b.AddCalls(n, 0, 1, 0)
		b.AddValues(n, 0, m, x, x)
	}
	excl := noisy(0.02 * s.Base)
	b.AddCalls(mainNode, 0, 1, float64(len(level)))
	b.AddValues(mainNode, 0, m, excl, excl+below)
	b.TrialMetadata("Application", "synth-history")
	for k, v := range meta {
		b.TrialMetadata(k, v)
	}
	return b.Finish(name, drg.Source{Format: "profile", Path: "synth-history", DataSource: 1})
}
