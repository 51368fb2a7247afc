package callquery

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// propKind says what an attribute holds.
type propKind int

const (
	pText propKind = iota
	pNumber
)

// structProps are the attributes read from names and the graph's shape
// (everything else is a metric, read from values):
//
//	name        the region's full name (TAUdb timer.name), "MPI_Send()"
//	short_name  the name without its source location suffix " [{f.c} {1,1}]"
//	file        the source file of the location suffix; NONE without one
//	line        the first line of that location; NONE without one
//	group       each TAU group of the region ("MPI", "TAU_USER"); a
//	            condition holds when it holds for one of them; NONE without
//	path        the node's whole call path, "main => solve => MPI_Send()"
//	depth       the node's depth: 0 for a root (a flat node)
//	node_id     the node's position in the trial (drg.Trial.Nodes)
var structProps = map[string]propKind{
	"name": pText, "short_name": pText, "file": pText, "group": pText, "path": pText,
	"line": pNumber, "depth": pNumber, "node_id": pNumber,
}

// prop is an attribute resolved against one trial.
type prop struct {
	name string
	kind propKind
	// metric is the metric index for a value attribute; -1 for calls,
	// -2 for subroutines; unused for structural attributes.
	metric    int
	inclusive bool
	value     bool // a value attribute (metric, calls, subroutines)
}

// resolveProp finds what the attribute name means for trial t:
//
//	"M"             exclusive value of metric M (mean over the threads
//	                that executed the node, in the metric's unit)
//	"M (inc)"       inclusive value of metric M
//	"time", "time (inc)"  exclusive and inclusive value of the trial's
//	                time metric (Hatchet's names), whatever TAU called it
//	"calls", "subroutines"  mean calls and calls made to other regions
//
// Metric names are compared exactly first, then without regard to case.
func resolveProp(t *drg.Trial, name string) (prop, bool) {
	if k, ok := structProps[name]; ok {
		return prop{name: name, kind: k}, true
	}
	switch name {
	case "calls":
		return prop{name: name, kind: pNumber, metric: -1, value: true}, true
	case "subroutines":
		return prop{name: name, kind: pNumber, metric: -2, value: true}, true
	}
	base, inc := strings.CutSuffix(name, " (inc)")
	m := t.MetricIndex(base)
	if m < 0 && strings.EqualFold(base, "time") {
		if tm := t.TimeMetric(); tm >= 0 && t.Metrics[tm].IsTime() {
			m = tm
		}
	}
	if m < 0 {
		for i := range t.Metrics {
			if strings.EqualFold(t.Metrics[i].Name, base) {
				m = i
				break
			}
		}
	}
	if m < 0 {
		return prop{}, false
	}
	return prop{name: name, kind: pNumber, metric: m, inclusive: inc, value: true}, true
}

// attributeList names the attributes trial t offers, for an error message.
func attributeList(t *drg.Trial) string {
	names := make([]string, 0, len(structProps))
	for k := range structProps {
		names = append(names, k)
	}
	sort.Strings(names)
	names = append(names, "calls", "subroutines")
	for _, m := range t.Metrics {
		names = append(names, m.Name, m.Name+" (inc)")
	}
	if tm := t.TimeMetric(); tm >= 0 && t.Metrics[tm].IsTime() && t.Metrics[tm].Name != "time" {
		names = append(names, "time", "time (inc)")
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// texts returns the text values of a text attribute of node n; none
// reports that the node has no value (IS NONE).
func texts(t *drg.Trial, p prop, n int) (vals []string, none bool) {
	nd := &t.Nodes[n]
	r := &t.Regions[nd.Region]
	switch p.name {
	case "name":
		return []string{r.Name}, false
	case "short_name":
		return []string{r.ShortName}, false
	case "path":
		return []string{nd.Name}, false
	case "file":
		return []string{r.SourceFile}, r.SourceFile == ""
	case "group":
		return r.Groups, len(r.Groups) == 0
	}
	return nil, true
}

// number returns a numeric structural attribute of node n.
func number(t *drg.Trial, p prop, n int) (v float64, none bool) {
	switch p.name {
	case "depth":
		return float64(t.Nodes[n].Depth), false
	case "node_id":
		return float64(n), false
	case "line":
		l := t.Regions[t.Nodes[n].Region].LineStart
		return float64(l), l == 0
	}
	return math.NaN(), true
}
