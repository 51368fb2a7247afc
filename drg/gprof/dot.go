package gprof

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
)

// PercentMetric names the metric of a gprof2dot graph: the share of the
// program's total time, in percent, that gprof2dot writes in its labels.
const PercentMetric = "PERCENT_OF_TOTAL"

// dotLabel is what a gprof2dot node label says.
type dotLabel struct {
	module, name string
	incl, excl   float64
	calls        float64
}

// parseNodeLabel reads a gprof2dot node label, whose lines are separated by
// a literal `\n`: [module,] name, inclusive "P%", exclusive "(P%)" and calls
// "N×" (the last may be missing).
func parseNodeLabel(label string) (dotLabel, error) {
	parts := strings.Split(label, `\n`)
	var d dotLabel
	i := 0
	for ; i < len(parts) && !isPercent(parts[i]); i++ {
	}
	if i == 0 || i >= len(parts) {
		return d, fmt.Errorf("label %q has no function name followed by an inclusive percentage", label)
	}
	d.name = parts[i-1]
	if i >= 2 {
		d.module = parts[i-2]
	}
	var err error
	if d.incl, err = percent(parts[i]); err != nil {
		return d, err
	}
	if i+1 >= len(parts) || !strings.HasPrefix(parts[i+1], "(") || !strings.HasSuffix(parts[i+1], ")") {
		return d, fmt.Errorf("label %q has no exclusive \"(P%%)\" after the inclusive percentage", label)
	}
	if d.excl, err = percent(strings.TrimSuffix(strings.TrimPrefix(parts[i+1], "("), ")")); err != nil {
		return d, err
	}
	if i+2 < len(parts) {
		if d.calls, err = callCount(parts[i+2]); err != nil {
			return d, err
		}
	}
	return d, nil
}

func isPercent(s string) bool { return strings.HasSuffix(s, "%") && !strings.HasPrefix(s, "(") }

func percent(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a percentage", s)
	}
	return v, nil
}

// callCount reads gprof2dot's "N×" (× is U+00D7).
func callCount(s string) (float64, error) {
	t := strings.TrimSuffix(strings.TrimSpace(s), "×")
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a call count (N×)", s)
	}
	return v, nil
}

// parseEdgeLabel reads "P%\nN×" (either part may be missing).
func parseEdgeLabel(label string) (incl, calls float64, err error) {
	for _, p := range strings.Split(label, `\n`) {
		switch {
		case p == "":
		case strings.HasSuffix(p, "%"):
			if incl, err = percent(p); err != nil {
				return 0, 0, err
			}
		case strings.HasSuffix(p, "×"):
			if calls, err = callCount(p); err != nil {
				return 0, 0, err
			}
		}
	}
	return incl, calls, nil
}

// decodeDOT reads a gprof2dot graph: one region per labelled node, with its
// inclusive and exclusive percentages and calls as the flat node, and one
// callpath "caller => callee" per edge, whose inclusive is the edge's
// percentage and whose exclusive is derived as the callee's exclusive times
// the edge's share of the callee's inclusive.
func decodeDOT(r io.Reader) (*cct.Collector, map[string]string, error) {
	g, err := parseDOT(r)
	if err != nil {
		return nil, nil, err
	}
	t := cct.NewCollector()
	th := drg.ThreadID{}
	m := t.Metric(PercentMetric)
	root := map[string]int{}
	labels := map[string]dotLabel{}
	names := map[string]string{}
	for _, id := range g.order {
		n := g.nodes[id]
		name := id
		if lab, ok := n.attrs["label"]; ok {
			d, err := parseNodeLabel(lab)
			if err != nil {
				return nil, nil, &Error{Line: n.line, Offset: -1, Err: fmt.Errorf("node %s: %w", id, err)}
			}
			labels[id], name = d, d.name
		}
		names[id] = name
		root[id], _ = t.Child(-1, name) // depth 0: no error
		if d, ok := labels[id]; ok {
			t.AddExclusive(root[id], th, m, d.excl)
			t.AddInclusive(root[id], th, m, d.incl)
			t.AddCalls(root[id], th, d.calls)
		}
	}
	if len(labels) == 0 {
		return nil, nil, &Error{Line: 1, Offset: -1, Err: fmt.Errorf("%w: no node has a gprof2dot label", ErrNotGprof)}
	}
	for _, e := range g.edges {
		incl, calls, err := parseEdgeLabel(e.attrs["label"])
		if err != nil {
			return nil, nil, &Error{Line: e.line, Offset: -1, Err: fmt.Errorf("edge %s -> %s: %w", e.from, e.to, err)}
		}
		c, _ := t.Child(root[e.from], names[e.to]) // depth 1
		excl := 0.0
		if d := labels[e.to]; d.incl > 0 {
			excl = d.excl * incl / d.incl
		}
		t.AddInclusive(c, th, m, incl)
		t.AddExclusive(c, th, m, excl)
		t.AddCalls(c, th, calls)
	}
	meta := map[string]string{
		"File Type Name":     "gprof2dot DOT",
		"Callpath exclusive": "derived: the callee's exclusive × (edge inclusive / callee inclusive)",
	}
	return t, meta, nil
}
