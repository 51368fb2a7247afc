package analysis

import (
	"fmt"
	"strings"
)

// Aggregate is how a multi-experiment analysis reduces one experiment's
// threads (or processes) to the one value it compares across experiments.
// Every analysis of a series takes this one type: the series analyses
// (SeriesOptions.Aggregate) reduce each region's value over the threads,
// the overhead analysis (overhead.Options.Aggregate) chooses the process
// its figures describe by its time T_k.
type Aggregate string

const (
	// AggregateMax takes the largest value: over the threads that have a
	// record, the slowest thread, which sets a parallel program's run
	// time; over processes, the process that finishes last.
	AggregateMax Aggregate = "max"
	// AggregateMean takes the mean: over the threads that have a record
	// (nulls ignored, TAUdb's MEAN; for the program time, the main
	// region's inclusive value, the mean over all threads), or the
	// average process.
	AggregateMean Aggregate = "mean"
	// AggregateMin takes the smallest value: the process that finishes
	// first (overhead only).
	AggregateMin Aggregate = "min"
)

// ParseAggregate reads an aggregate, ignoring case and surrounding space:
// "" gives allowed[0], the default, and any other value must be one of
// allowed. The error lists them, the default first.
func ParseAggregate(a Aggregate, allowed ...Aggregate) (Aggregate, error) {
	got := Aggregate(strings.ToLower(strings.TrimSpace(string(a))))
	if got == "" {
		return allowed[0], nil
	}
	for _, x := range allowed {
		if got == x {
			return got, nil
		}
	}
	want := make([]string, len(allowed))
	for i, x := range allowed {
		want[i] = fmt.Sprintf("%q", string(x))
	}
	list := strings.Join(want[:len(want)-1], ", ") + " or " + want[len(want)-1]
	return "", fmt.Errorf("aggregate %q: want %s (default %s)", string(a), list, want[0])
}

// Baseline returns the index in s of the baseline experiment, the one rule
// every analysis of a series follows: the experiment named name (its Name,
// else its trial's name), or with name "" the experiment with the smallest
// P, the first given among equal P (the 1-process run of a scaling series,
// when there is one, since P >= 1 for process counts).
func (s Series) Baseline(name string) (int, error) {
	names := s.Names()
	trials := make([]string, len(s))
	for i, e := range s {
		if e.Trial != nil {
			trials[i] = e.Trial.Name
		}
	}
	return pickBaseline(s.Ps(), names, trials, name)
}

// pickBaseline is Series.Baseline over the experiments' P, names and trial
// names.
func pickBaseline(ps []float64, names, trials []string, name string) (int, error) {
	if len(ps) == 0 {
		return -1, fmt.Errorf("no experiment to take as the baseline")
	}
	if name == "" {
		b := 0
		for i, p := range ps {
			if p < ps[b] {
				b = i
			}
		}
		return b, nil
	}
	for i, n := range names {
		if n == name {
			return i, nil
		}
	}
	for i, n := range trials {
		if n == name {
			return i, nil
		}
	}
	return -1, fmt.Errorf("baseline %q is none of the experiments (%s)", name, strings.Join(names, ", "))
}
