package main

import (
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// generate builds a synthetic trial of s (one process per thread) with
// callpath depth 1 or 2 and synth's default model (1 s serial, 9 s
// parallel, 50 ms × log2 p, 2% noise, 10% imbalance).
func generate(s Size, depth int, name string) (*drg.Trial, error) {
	tr, err := synth.Generate(synth.Spec{
		Processes: s.Threads, ThreadsPerProcess: 1, Regions: s.Regions, Depth: depth, Metrics: s.Metrics,
		Serial: 1e6, Parallel: 9e6, Log: 5e4, Noise: 0.02, Imbalance: 0.1, Seed: 1, Name: name,
	})
	if err != nil {
		return nil, fmt.Errorf("generate a trial of %s: %w", s, err)
	}
	return tr, nil
}

// values returns the number of values of t: nodes × threads × metrics.
func values(t *drg.Trial) int {
	return len(t.Nodes) * len(t.Threads) * len(t.Metrics)
}
