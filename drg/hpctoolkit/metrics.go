package hpctoolkit

import (
	"strings"
)

// baseName strips the " (I)" or " (E)" HPCToolkit appends to the halves of
// a metric.
func baseName(n string) string {
	for _, suf := range []string{" (I)", " (E)"} {
		if strings.HasSuffix(n, suf) {
			return strings.TrimSuffix(n, suf)
		}
	}
	return n
}

// pairMetrics makes one trial metric per inclusive/exclusive pair of
// metric-db columns. It returns where each column goes, which half each
// metric has when it has only one ("inclusive" or "exclusive"; "" for
// both), and each metric's scale (1e6 for "(sec)" metrics, renamed
// "(usec)").
func (e *experiment) pairMetrics(xmlPath string) ([]column, []string, []float64, error) {
	ncol := 0
	for _, m := range e.metrics {
		ncol = max(ncol, m.column+1)
	}
	cols := make([]column, ncol)
	seen := make([]bool, ncol)
	byName := map[string]int{}
	var halves []string
	var scale []float64
	for _, m := range e.metrics {
		if seen[m.column] {
			return nil, nil, nil, errorf(xmlPath, -1, "MetricDB %q: db-id %d used twice", m.name, m.column)
		}
		seen[m.column] = true
		name, s := baseName(m.name), 1.0
		if strings.Contains(name, "(sec)") {
			name, s = strings.Replace(name, "(sec)", "(usec)", 1), 1e6
		}
		incl := m.kind == "inclusive" || (m.kind == "" && strings.HasSuffix(m.name, " (I)"))
		idx, ok := byName[name]
		if !ok {
			idx = len(e.tree.Metrics)
			byName[name] = idx
			e.tree.Metrics = append(e.tree.Metrics, name)
			h := "exclusive"
			if incl {
				h = "inclusive"
			}
			halves = append(halves, h)
			scale = append(scale, s)
		} else if halves[idx] == "" || (halves[idx] == "inclusive") == incl {
			return nil, nil, nil, errorf(xmlPath, -1, "MetricDB %q: metric %q has two %s columns", m.name, name, halfName(incl))
		} else {
			halves[idx] = ""
		}
		cols[m.column] = column{metric: idx, incl: incl}
	}
	for c := range seen {
		if !seen[c] {
			return nil, nil, nil, errorf(xmlPath, -1, "no MetricDB has db-id %d (columns 0..%d expected)", c, ncol-1)
		}
	}
	return cols, halves, scale, nil
}

func halfName(incl bool) string {
	if incl {
		return "inclusive"
	}
	return "exclusive"
}
