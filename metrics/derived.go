package metrics

import (
	"fmt"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Names returns the names of t's metrics in trial order: the list to give
// Compile for expressions over t.
func Names(t *drg.Trial) []string {
	names := make([]string, len(t.Metrics))
	for i, m := range t.Metrics {
		names[i] = m.Name
	}
	return names
}

// AddDerived evaluates e on t (see Evaluate) and appends the values to t as
// a new metric named name with Derived set, so that it can be saved as a
// TAUdb metric with derived = true and t.Statistics() summarizes it like any
// metric. It returns the new metric's index. The name must be new, not
// empty, and neither CALLS nor SUBROUTINES.
//
// Undefined cells (NaN, see the package documentation) are kept as NaN, so
// the statistics of a node with an undefined cell on some thread are NaN too
// (a sum, mean, minimum or maximum over an undefined value is undefined); a
// store should write NaN as NULL.
func AddDerived(t *drg.Trial, name string, e *Expr) (int, error) {
	if t == nil || e == nil {
		return -1, fmt.Errorf("metrics: AddDerived needs a trial and an expression")
	}
	switch {
	case strings.TrimSpace(name) == "":
		return -1, fmt.Errorf("a derived metric needs a name")
	case name == Calls || name == Subroutines:
		return -1, fmt.Errorf("%s is a pseudo-metric; choose another name for the derived metric", name)
	case t.MetricIndex(name) >= 0:
		return -1, fmt.Errorf("trial %q already has a metric named %q", t.Name, name)
	case len(t.Values) != len(t.Metrics):
		return -1, fmt.Errorf("trial %q has %d metrics but %d value columns", t.Name, len(t.Metrics), len(t.Values))
	}
	incl, excl, err := Evaluate(t, e)
	if err != nil {
		return -1, err
	}
	t.Metrics = append(t.Metrics, drg.Metric{Name: name, Derived: true})
	t.Values = append(t.Values, drg.MetricValues{Inclusive: incl, Exclusive: excl})
	return len(t.Metrics) - 1, nil
}
