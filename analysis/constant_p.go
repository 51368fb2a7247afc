package analysis

import (
	"fmt"
	"strconv"
)

// ConstantPError reports that a scaling analysis (speedup, scalability,
// overhead) was given trials that all ran with the same number of
// processes p: a parameter study (a power cap, an input, a compiler
// sweep), not a scaling series. It is the user's choice of analysis that is
// wrong, so front ends treat it as a usage error (Usage reports true).
type ConstantPError struct {
	// Analysis is the analysis that refused the trials.
	Analysis string
	// P is the number of processes every trial has.
	P float64
	// Trials is how many trials were given.
	Trials int
}

// Error names the parameter study to run instead.
func (e *ConstantPError) Error() string {
	p := strconv.FormatFloat(e.P, 'f', -1, 64)
	return fmt.Sprintf("%s: all %d trials ran with p = %s, so there is no scaling to measure; "+
		"this is a parameter study: compare its experiments with `multiset --by meta:KEY` "+
		"(or --by experiment) and `multiregion`, or `compare` two of them", e.Analysis, e.Trials, p)
}

// Usage reports that the error is in the request, not in the data.
func (e *ConstantPError) Usage() bool { return true }

// CheckPVaries returns a *ConstantPError when there are at least two
// trials and every p is the same; nil otherwise.
func CheckPVaries(analysis string, p []float64) error {
	if len(p) < 2 {
		return nil
	}
	for _, x := range p[1:] {
		if x != p[0] {
			return nil
		}
	}
	return &ConstantPError{Analysis: analysis, P: p[0], Trials: len(p)}
}
