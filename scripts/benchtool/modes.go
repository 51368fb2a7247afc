package main

import "fmt"

// Size is a trial size: threads × regions (besides main) × metrics.
type Size struct{ Threads, Regions, Metrics int }

// Mode holds the sizes one run of the benchmark uses.
type Mode struct {
	Name string
	// Parse is the generated profile folder (callpath depth 2, one metric).
	Parse Size
	// XML is the generated merged snapshot XML: threads × events (2 metrics).
	XML Size
	// Ingest is the trial saved into and loaded from the databases (depth 2).
	Ingest Size
	// Ingest2 is a second, bigger trial saved into PostgreSQL (row 2 only);
	// zero for none.
	Ingest2 Size
	// Analyses are the thread counts of the analyses; AnalysisRegions their
	// regions (depth 1, one metric).
	Analyses        []int
	AnalysisRegions int
	// EndToEnd is the trial of the CLI run (depth 1).
	EndToEnd Size
	// E2EFactor divides EndToEnd's threads for the end-to-end reference
	// run (0: e2eSmallFactor).
	E2EFactor int
	// Foreign is the size of the generated inputs of the readers of other
	// profilers' formats (row 1).
	Foreign Foreign
	// ResultRegions are the regions of each trial of the speedup study
	// whose result is stored (row 3b).
	ResultRegions int
}

// Modes are the modes benchtool knows: tiny (the test's, seconds), quick
// (minutes) and full (the sizes).
var Modes = map[string]Mode{
	"tiny": {Name: "tiny", Parse: Size{64, 20, 1}, XML: Size{8, 50, 2}, Ingest: Size{64, 20, 2},
		Analyses: []int{64, 128, 256}, AnalysisRegions: 20, EndToEnd: Size{64, 20, 2}, ResultRegions: 20, Foreign: Foreign{50, 64}},
	"quick": {Name: "quick", Parse: Size{1024, 500, 1}, XML: Size{64, 2000, 2}, Ingest: Size{256, 500, 2}, Ingest2: Size{4096, 300, 2},
		Analyses: []int{1024, 4096, 16384}, AnalysisRegions: 100, EndToEnd: Size{4096, 1000, 2}, ResultRegions: 1000, Foreign: Foreign{1000, 2048}},
	"full": {Name: "full", Parse: Size{8192, 1000, 1}, XML: Size{256, 2000, 2}, Ingest: Size{1024, 1000, 2}, Ingest2: Size{4096, 300, 2},
		Analyses: []int{1024, 8192, 65536}, AnalysisRegions: 100, EndToEnd: Size{65536, 1000, 2}, ResultRegions: 1000, Foreign: Foreign{1000, 16384}},
	// huge is full with the end to end at the 131,072 threads,
	// its reference at 65,536: run it with -only "end to end" (about an
	// hour, 70 GB of disk at the peak).
	"huge": {Name: "huge", Parse: Size{8192, 1000, 1}, XML: Size{256, 2000, 2}, Ingest: Size{1024, 1000, 2}, Ingest2: Size{4096, 300, 2},
		Analyses: []int{1024, 8192, 65536}, AnalysisRegions: 100, EndToEnd: Size{131072, 1000, 2}, E2EFactor: 2, ResultRegions: 1000, Foreign: Foreign{1000, 16384}},
}

// LookupMode returns the mode of that name.
func LookupMode(name string) (Mode, error) {
	m, ok := Modes[name]
	if !ok {
		return Mode{}, fmt.Errorf("unknown mode %q: want tiny, quick, full or huge", name)
	}
	return m, nil
}

func (s Size) String() string {
	metrics := "metrics"
	if s.Metrics == 1 {
		metrics = "metric"
	}
	return fmt.Sprintf("%d threads × %d regions × %d %s", s.Threads, s.Regions, s.Metrics, metrics)
}
