package hpctoolkit

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestV4CPI reads Hatchet's cpi database in the 2022+ format. Hatchet's
// tests assert no number for it, so the checks are the database's own
// totals: for every context, the sum over the 16 thread profiles of the
// inclusive value equals the summary profile's sum statistic (profile 0 of
// profile.db, which hpcprof computed); per thread, the global context's
// value equals the sum of the entry points' inclusive values; no
// exclusive value is negative; the trial has the 4 ranks × 4 threads the
// identifier tuples give.
func TestV4CPI(t *testing.T) {
	dir := otherFormats(t, "hatchet_cpi_v4_database")
	tree, m, err := readTree4(dir)
	if err != nil {
		t.Fatal(err)
	}
	nt := len(tree.Threads)
	if nt != 16 || len(m.metrics) != 1 || m.metrics[0].execSum < 0 || tree.Metrics[0] != "CPUTIME (usec)" {
		t.Fatalf("%d threads, metrics %+v %q", nt, m.metrics, tree.Metrics)
	}
	ranks := map[int]int{}
	for _, id := range tree.Threads {
		ranks[id.Node]++
	}
	if len(ranks) != 4 || ranks[0] != 4 {
		t.Errorf("threads per rank %v, want 4 ranks of 4", ranks)
	}
	p, err := openProfiles(filepath.Join(dir, "profile.db"), m.kinds)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	sums := map[uint32]float64{}
	if err := p.values(0, func(ctx uint32, metric uint16, v float64) error {
		if int(metric) == m.metrics[0].execSum {
			sums[ctx] = v * 1e6
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for id, n := range m.node {
		if n < 0 {
			continue
		}
		var s float64
		for th := 0; th < nt; th++ {
			s += tree.Incl[0][n*nt+th]
		}
		if math.Abs(s-sums[id]) > 1e-9*math.Max(1, s) {
			t.Errorf("context %d %s: Σ inclusive %v, summary profile %v", id, tree.Nodes[n].Name, s, sums[id])
		}
		checked++
	}
	col := 0
	for i := range p.profiles {
		if p.profiles[i].summary {
			continue
		}
		var global, roots float64
		p.values(i, func(ctx uint32, metric uint16, v float64) error {
			if ctx == 0 && int(metric) == m.metrics[0].exec {
				global = v * 1e6
			}
			return nil
		})
		for n, node := range tree.Nodes {
			if node.Parent < 0 {
				roots += tree.Incl[0][n*nt+col]
			}
		}
		if math.Abs(global-roots) > 1e-9*math.Max(1, global) {
			t.Errorf("thread %v: global context %v, entry points %v", tree.Threads[col], global, roots)
		}
		col++
	}
	for c, v := range tree.Excl[0] {
		if v < 0 {
			t.Errorf("node %s thread %v: exclusive %v", tree.Nodes[c/nt].Name, tree.Threads[c%nt], v)
		}
	}
	tr, err := Reader{Path: dir}.Read()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range tr.Warnings {
		if strings.Contains(w, "negative") {
			t.Errorf("warning %q", w)
		}
	}
	if tr.Metadata["HPCToolkit program"] != "cpi" || tr.Source.DataSource != 9 {
		t.Errorf("metadata %v source %+v", tr.Metadata, tr.Source)
	}
	t.Logf("%d contexts checked against the summary profile; %d trial nodes", checked, len(tr.Nodes))
}
