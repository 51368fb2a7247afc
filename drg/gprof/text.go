package gprof

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
)

// TimeMetric names the metric of gprof's text output. gprof prints
// seconds; the reader stores microseconds, TAU's unit for time.
const TimeMetric = "TIME"

// MaxLine is the longest line of gprof text read (bytes).
const MaxLine = 1 << 20

var (
	// "[12]   45.6   0.10   0.20   3+1   name [12]"
	primaryLine = regexp.MustCompile(`^\[(\d+)\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*([\d+]*)\s+(.*?)\s*$`)
	// "   0.10   0.20   3/5   name [7]" (also parent lines; called may be "3")
	relLine = regexp.MustCompile(`^\s+([\d.]+)\s+([\d.]+)\s+(\d+)(?:/(\d+))?\s+(.*?)\s*$`)
	// flat profile row: "%time cumulative self [calls self/call total/call] name"
	flatLine = regexp.MustCompile(`^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(?:(\d+)\s+([\d.]+)\s+([\d.]+)\s+)?(\S.*?)\s*$`)
	// a recursive or cycle line with calls only: "   6   bar <cycle 1> [5]"
	callsOnly = regexp.MustCompile(`^\s+\d+(?:/\d+)?\s+\S`)
	indexTag  = regexp.MustCompile(`\s*\[\d+\]$`)
	cycleTag  = regexp.MustCompile(`\s*<cycle \d+>$`)
)

// gprofText collects gprof's flat profile and call graph.
type gprofText struct {
	flat     map[string]flatRow
	order    []string
	entries  []cgEntry
	section  string
	cur      *cgEntry
	children bool
}

type flatRow struct {
	self, calls float64
	hasCalls    bool
}

type cgEntry struct {
	name        string
	self, child float64
	calls       float64
	callees     []cgEdge
}

type cgEdge struct {
	name        string
	self, child float64
	calls       float64
}

// cleanName drops gprof's " [N]" index and " <cycle N>" tag.
func cleanName(s string) string {
	return cycleTag.ReplaceAllString(indexTag.ReplaceAllString(strings.TrimSpace(s), ""), "")
}

// decodeText reads gprof's text output: the flat profile and the call graph
// (with or without the explanations gprof prints unless -b).
func decodeText(r io.Reader) (*cct.Collector, map[string]string, error) {
	g := &gprofText{flat: map[string]flatRow{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	line := 0
	for sc.Scan() {
		line++
		if err := g.line(sc.Text()); err != nil {
			return nil, nil, &Error{Line: line, Offset: -1, Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, &Error{Line: line + 1, Offset: -1, Err: err}
	}
	if len(g.flat) == 0 && len(g.entries) == 0 {
		return nil, nil, &Error{Line: line, Offset: -1, Err: fmt.Errorf("%w: no flat profile row and no call graph entry", ErrNotGprof)}
	}
	return g.tree(), map[string]string{"File Type Name": "gprof", "gprof time unit": "microseconds (gprof's seconds × 1e6)"}, nil
}

func (g *gprofText) line(s string) error {
	t := strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(t, "Flat profile:"):
		g.section = "flat-head"
		return nil
	case strings.Contains(t, "Call graph") && !strings.HasPrefix(t, "This table"):
		g.section = "graph-head"
		return nil
	case strings.HasPrefix(t, "Index by function name"):
		g.section = ""
		return nil
	}
	switch g.section {
	case "flat-head":
		if strings.HasSuffix(t, "name") && strings.Contains(t, "seconds") {
			g.section = "flat"
		}
	case "flat":
		return g.flatRow(s, t)
	case "graph-head":
		if strings.HasPrefix(t, "index") && strings.HasSuffix(t, "name") {
			g.section = "graph"
		}
	case "graph":
		return g.graphLine(s, t)
	}
	return nil
}

func (g *gprofText) flatRow(s, t string) error {
	if t == "" {
		g.section = "" // the explanation follows the table
		return nil
	}
	m := flatLine.FindStringSubmatch(s)
	if m == nil {
		return fmt.Errorf("flat profile row %q: want %%time, cumulative, self seconds, [calls, self and total per call,] name", t)
	}
	self, err := strconv.ParseFloat(m[3], 64)
	if err != nil {
		return fmt.Errorf("flat profile: self seconds %q", m[3])
	}
	row := flatRow{self: self}
	if m[4] != "" {
		row.calls, _ = strconv.ParseFloat(m[4], 64)
		row.hasCalls = true
	}
	name := cleanName(m[7])
	if _, ok := g.flat[name]; !ok {
		g.order = append(g.order, name)
	}
	g.flat[name] = row
	return nil
}

func (g *gprofText) graphLine(s, t string) error {
	switch {
	case t == "":
		return nil
	case strings.HasPrefix(t, "---"):
		g.cur, g.children = nil, false
		return nil
	case strings.HasPrefix(t, "<spontaneous>"):
		return nil
	case strings.HasPrefix(t, "["):
		return g.primary(t)
	case strings.HasPrefix(t, "This table") || strings.HasPrefix(t, "granularity"):
		return nil
	}
	m := relLine.FindStringSubmatch(s)
	if m == nil && callsOnly.MatchString(s) {
		return nil
	}
	if m == nil {
		if g.cur == nil && len(g.entries) > 0 {
			g.section = "" // the explanation after the table
			return nil
		}
		return fmt.Errorf("call graph line %q: want self, children, called and name", t)
	}
	if !g.children || g.cur == nil {
		return nil // a parent line: the same numbers appear as its child line
	}
	name := cleanName(m[5])
	if strings.HasPrefix(name, "<cycle ") {
		return nil
	}
	e := cgEdge{name: name}
	e.self, _ = strconv.ParseFloat(m[1], 64)
	e.child, _ = strconv.ParseFloat(m[2], 64)
	e.calls, _ = strconv.ParseFloat(m[3], 64)
	g.cur.callees = append(g.cur.callees, e)
	return nil
}

func (g *gprofText) primary(t string) error {
	m := primaryLine.FindStringSubmatch(t)
	if m == nil {
		return fmt.Errorf("call graph entry %q: want [index] %%time self children called name", t)
	}
	g.entries = append(g.entries, cgEntry{name: cleanName(m[6])})
	e := &g.entries[len(g.entries)-1]
	e.self, _ = strconv.ParseFloat(m[3], 64)
	e.child, _ = strconv.ParseFloat(m[4], 64)
	for _, c := range strings.Split(m[5], "+") {
		v, _ := strconv.ParseFloat(c, 64)
		e.calls += v
	}
	g.cur, g.children = e, true
	if strings.HasPrefix(e.name, "<cycle ") {
		g.entries = g.entries[:len(g.entries)-1]
		g.cur = nil
	}
	return nil
}

// tree builds the trial's tree: one root per function (from the call graph,
// else from the flat profile) and one callpath per caller => callee line.
func (g *gprofText) tree() *cct.Collector {
	t := cct.NewCollector()
	th := drg.ThreadID{}
	m := t.Metric(TimeMetric)
	const us = 1e6
	root := map[string]int{}
	for _, e := range g.entries {
		n, _ := t.Child(-1, e.name) // depth 0: no error
		root[e.name] = n
		t.AddExclusive(n, th, m, e.self*us)
		t.AddInclusive(n, th, m, (e.self+e.child)*us)
		t.AddCalls(n, th, e.calls)
	}
	for _, name := range g.order {
		if _, ok := root[name]; ok {
			continue
		}
		f := g.flat[name]
		n, _ := t.Child(-1, name)
		root[name] = n
		t.AddExclusive(n, th, m, f.self*us)
		t.AddInclusive(n, th, m, f.self*us)
		t.AddCalls(n, th, f.calls)
	}
	for _, e := range g.entries {
		for _, c := range e.callees {
			n, _ := t.Child(root[e.name], c.name) // depth 1
			t.AddExclusive(n, th, m, c.self*us)
			t.AddInclusive(n, th, m, (c.self+c.child)*us)
			t.AddCalls(n, th, c.calls)
		}
	}
	return t
}
