package drg

import (
	"math"
	"strings"
)

// Counter is a TAU user event (TAUdb counter), such as "Message size for
// broadcast", or a context event "EVENT : A => B" recorded in a calling
// context.
type Counter struct {
	// Name is the canonical full name, context part included.
	Name string
	// Event is the name without its context ("EVENT").
	Event string
	// Context is the callpath after " : " ("A => B"), or "".
	Context string
	// Node is the index of the node named Context, or -1 when the event has
	// no context or the trial has no such node.
	Node int
}

// CounterValue holds what TAU records of one user event on one thread.
type CounterValue struct {
	// NumEvents is the number of samples.
	NumEvents float64
	// Max, Min and Mean are the largest, smallest and mean sample.
	Max, Min, Mean float64
	// SumSquares is the sum of the squared samples, Σx².
	SumSquares float64
}

// StdDev returns the population standard deviation of the samples,
// √|Σx²/n − mean²|, or 0 when there is no sample.
func (v CounterValue) StdDev() float64 {
	if v.NumEvents <= 0 {
		return 0
	}
	return math.Sqrt(math.Abs(v.SumSquares/v.NumEvents - v.Mean*v.Mean))
}

// merge combines two records of the same event on one thread, as TAU's
// loader does for duplicate names in one file: counts and Σx² add, the mean
// is count-weighted, max and min are the extremes.
func (v CounterValue) merge(w CounterValue) CounterValue {
	n := v.NumEvents + w.NumEvents
	out := CounterValue{
		NumEvents:  n,
		Max:        math.Max(v.Max, w.Max),
		Min:        math.Min(v.Min, w.Min),
		SumSquares: v.SumSquares + w.SumSquares,
	}
	if n > 0 {
		out.Mean = (v.Mean*v.NumEvents + w.Mean*w.NumEvents) / n
	}
	return out
}

// splitCounterName splits "EVENT : A => B" into ("EVENT", "A => B").
func splitCounterName(name string) (event, context string) {
	if e, c, ok := strings.Cut(name, " : "); ok {
		return strings.TrimSpace(e), strings.TrimSpace(c)
	}
	return name, ""
}
