package watch

import (
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Trial returns the run as far as it was read, as a trial: every rank's
// last dump (cumulative since the program started, so at the end of the
// run it is the final profile), one node per region, the time metric.
// Ranks that sent nothing are left out. Its metadata records the watch:
// the folder, the number of intervals, and the dumps that came late.
func (w *Watcher) Trial(name string) (*drg.Trial, error) {
	var ids []drg.ThreadID
	var ranks []*rankState
	for _, r := range w.ranks {
		if r.seq > 0 {
			ids, ranks = append(ids, r.id), append(ranks, r)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("watch %s: no rank has written a complete dump", w.dir)
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		return nil, err
	}
	names, groups := w.reg.snapshot()
	m := b.Metric(w.metricName())
	nodes := make([]int, len(names))
	for j, n := range names {
		nodes[j] = b.Node(n)
		if groups[j] != "" {
			b.SetGroups(nodes[j], groups[j])
		}
	}
	for _, r := range ranks {
		th := b.Column(r.id)
		for j := 0; 3*j+2 < len(r.cum) && j < len(nodes); j++ {
			c := r.cum[3*j : 3*j+3]
			if c[0] == 0 && c[1] == 0 && c[2] == 0 {
				continue
			}
			b.AddCalls(nodes[j], th, c[0], 0)
			b.AddValues(nodes[j], th, m, c[1], c[2])
		}
	}
	b.TrialMetadata("Watched Folder", w.dir)
	b.TrialMetadata("Watch Intervals", fmt.Sprint(w.next))
	if w.late > 0 {
		b.TrialMetadata("Watch Late Dumps", fmt.Sprint(w.late))
	}
	src := drg.Source{Format: "profile", Path: w.dir, DataSource: 1}
	if w.metricFromSnapshots() != "" {
		src = drg.Source{Format: "snapshot", Path: w.dir, DataSource: 10}
	}
	return b.Finish(name, src)
}

// metricName is the time metric's name as the snapshots define it, or
// TIME.
func (w *Watcher) metricName() string {
	if m := w.metricFromSnapshots(); m != "" {
		return m
	}
	return "TIME"
}

// metricFromSnapshots is the time metric's name in the first snapshot
// file that defines one ("" when no rank writes snapshots).
func (w *Watcher) metricFromSnapshots() string {
	for _, r := range w.ranks {
		if s := r.src.snap; s != nil && s.metricName != "" {
			return s.metricName
		}
	}
	return ""
}
