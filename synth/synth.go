// Package synth generates TAU trials of any size whose timings follow a
// chosen scaling model, with noise and load imbalance, and writes them as
// real TAU profile directories. Benchmarks and tests use it for big or
// known data.
//
// A generated trial has P processes × T threads each, R regions called from
// "main" (flat entries, plus callpaths "main => r_i" with Depth 2), one or
// more metrics (TIME first, in µs;
// others are counters proportional to time), and one user event. The time
// of the program on every thread follows the model
//
//	T(p) = Serial + Parallel/p + Log·log2(p)
//
// or, with a second parameter n = Size (trial metadata "SIZE"),
//
//	T(p, n) = Serial + Parallel·n^SizeExp/p + Log·log2(p)
//
// (the form c0 + c1·f(p)·g(n) + c2·h(p) with known exponents), split among the regions with fixed weights; each thread's region times
// are multiplied by (1 + Imbalance·(rank/(P−1) − ½)) and by a noise factor
// (1 + Noise·u), u uniform in [−1, 1) from a seeded generator.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Spec describes a trial to generate.
type Spec struct {
	// Processes (MPI ranks) and ThreadsPerProcess (threads per rank, ≥ 1).
	Processes, ThreadsPerProcess int
	// Regions is the number of regions besides main (≥ 1).
	Regions int
	// Depth is the callpath depth: 1 flat only, 2 adds "main => r" (a
	// complete tree rooted at main).
	Depth int
	// Metrics is the number of metrics (≥ 1): TIME, then PAPI_TOT_CYC,
	// PAPI_TOT_INS, PAPI_FP_OPS, ... as counters proportional to time.
	Metrics int
	// Serial, Parallel and Log are the model's coefficients in µs.
	Serial, Parallel, Log float64
	// Size is the second parameter n, written as trial metadata "SIZE"
	// (0: none); SizeExp is the exponent of n in the parallel term.
	Size, SizeExp float64
	// Noise and Imbalance are relative amplitudes (0.05 = 5%).
	Noise, Imbalance float64
	// Seed makes the noise reproducible.
	Seed uint64
	// Name names the trial.
	Name string
}

// counterNames are the metrics after TIME, with their counts per µs.
var counterNames = []struct {
	name string
	rate float64
}{{"PAPI_TOT_CYC", 2300}, {"PAPI_TOT_INS", 1800}, {"PAPI_FP_OPS", 700}, {"PAPI_L1_DCM", 12}, {"PAPI_L2_TCM", 3}}

// Model returns T(p) of the spec in µs.
func (s Spec) Model(p float64) float64 {
	par := s.Parallel
	if s.Size > 0 {
		par *= math.Pow(s.Size, s.SizeExp)
	}
	return s.Serial + par/p + s.Log*math.Log2(p)
}

func (s Spec) check() error {
	switch {
	case s.Processes < 1 || s.ThreadsPerProcess < 1:
		return fmt.Errorf("synth: processes and threads per process must be at least 1")
	case s.Processes*s.ThreadsPerProcess > 1<<20:
		return fmt.Errorf("synth: %d threads is more than 1,048,576", s.Processes*s.ThreadsPerProcess)
	case s.Regions < 1 || s.Regions > 100000:
		return fmt.Errorf("synth: regions must be between 1 and 100000")
	case s.Depth < 1 || s.Depth > 2:
		return fmt.Errorf("synth: depth must be 1 or 2")
	case s.Metrics < 1 || s.Metrics > 1+len(counterNames):
		return fmt.Errorf("synth: metrics must be between 1 and %d", 1+len(counterNames))
	case s.Noise < 0 || s.Noise >= 1 || s.Imbalance < 0 || s.Imbalance >= 2:
		return fmt.Errorf("synth: noise must be in [0,1) and imbalance in [0,2)")
	case s.Size < 0 || math.IsInf(s.Size, 0) || math.IsNaN(s.SizeExp) || math.IsInf(s.SizeExp, 0):
		return fmt.Errorf("synth: size must be a finite number ≥ 0 and its exponent finite")
	case s.Model(float64(s.Processes)) <= 0:
		return fmt.Errorf("synth: the model gives a non-positive time at p=%d", s.Processes)
	}
	return nil
}

// Generate builds the trial the spec describes. Region i gets the weight
// (i+1)/Σ of the program's time below main; main keeps 2% exclusive.
func Generate(s Spec) (*drg.Trial, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	var ids []drg.ThreadID
	for n := 0; n < s.Processes; n++ {
		for t := 0; t < s.ThreadsPerProcess; t++ {
			ids = append(ids, drg.ThreadID{Node: n, Thread: t})
		}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		return nil, err
	}
	metrics := []int{b.Metric("TIME")}
	for i := 1; i < s.Metrics; i++ {
		metrics = append(metrics, b.Metric(counterNames[i-1].name))
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x7461756462))
	total := s.Model(float64(s.Processes))
	wsum := float64(s.Regions * (s.Regions + 1) / 2)
	name := func(i int) string {
		return fmt.Sprintf("void region_%d(int, double *) C [{src/kernel_%d.c} {%d,1}-{%d,1}]", i, i%17, 10+i, 40+i)
	}
	mainNode := b.Node("main")
	b.SetGroups(mainNode, "TAU_DEFAULT")
	b.TrialMetadata("Application", "synth")
	if s.Size > 0 {
		b.TrialMetadata("SIZE", strconv.FormatFloat(s.Size, 'g', -1, 64))
	}
	ev := b.Counter("Message size sent")
	for th := range ids {
		rank := float64(ids[th].Node)
		skew := 1.0
		if s.Processes > 1 {
			skew = 1 + s.Imbalance*(rank/float64(s.Processes-1)-0.5)
		}
		below, subrs := 0.0, 0.0
		for i := 0; i < s.Regions; i++ {
			v := 0.98 * total * float64(i+1) / wsum * skew * (1 + s.Noise*(2*rng.Float64()-1))
			below += v
			calls := float64(1 + i%7)
			subrs += calls
			flat := b.Node(name(i))
			b.SetGroups(flat, "TAU_USER")
			add(b, flat, th, metrics, calls, v, v)
			if s.Depth >= 2 {
				cp := b.Node("main => " + name(i))
				b.SetGroups(cp, "TAU_CALLPATH|TAU_USER")
				add(b, cp, th, metrics, calls, v, v)
			}
		}
		excl := 0.02 * total * skew
		add(b, mainNode, th, metrics, 1, excl, excl+below)
		b.AddCalls(mainNode, th, 0, subrs) // main's subroutine calls: every region's calls
		b.AddCounter(ev, th, drg.CounterValue{NumEvents: 10, Max: 4096, Min: 8, Mean: 1024, SumSquares: 10 * 1024 * 1024})
		b.ThreadMetadata(th, "pid", fmt.Sprint(1000+th), false)
	}
	n := s.Name
	if n == "" {
		n = fmt.Sprintf("synth-p%d", s.Processes)
	}
	return b.Finish(n, drg.Source{Format: "profile", Path: "synth", DataSource: 1})
}

// add records calls and the values of every metric (counters scaled from
// time) for one node and thread.
func add(b *drg.Builder, node, th int, metrics []int, calls, excl, incl float64) {
	b.AddCalls(node, th, calls, 0)
	for k, m := range metrics {
		rate := 1.0
		if k > 0 {
			rate = counterNames[k-1].rate
		}
		b.AddValues(node, th, m, math.Round(excl*rate), math.Round(incl*rate))
	}
}
