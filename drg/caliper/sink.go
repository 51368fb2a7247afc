package caliper

import (
	"fmt"
	"math"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
)

// rankAttr names the attribute that gives a record's MPI rank, and
// threadAttrs those that give its thread, in order of preference.
const rankAttr = "mpi.rank"

var threadAttrs = []string{"omp.thread.id", "thread.id", "pthread.id"}

// isThreadAttr reports whether attr gives a record's rank or thread.
func isThreadAttr(attr string) bool {
	if attr == rankAttr {
		return true
	}
	for _, a := range threadAttrs {
		if a == attr {
			return true
		}
	}
	return false
}

// sink turns Caliper records (a region path, a thread and numeric
// attributes) into a calling-context tree.
type sink struct {
	tree    *cct.Collector
	alias   func(attr string) string
	metric  map[string]sinkMetric
	threads map[float64]int
	skipped int
	meta    map[string]string
}

type sinkMetric struct {
	index     int
	inclusive bool
}

func newSink() *sink {
	s := &sink{tree: cct.NewCollector(), metric: map[string]sinkMetric{}, threads: map[float64]int{}, meta: map[string]string{}}
	s.alias = func(string) string { return "" }
	return s
}

// splitInclusive returns the attribute name without Caliper's "inclusive#"
// marker and whether it had one ("min#inclusive#sum#time.duration" gives
// "min#sum#time.duration", true).
func splitInclusive(attr string) (string, bool) {
	if i := strings.Index(attr, "inclusive#"); i >= 0 && (i == 0 || attr[i-1] == '#') {
		return attr[:i] + attr[i+len("inclusive#"):], true
	}
	return attr, false
}

// metricOf returns the tree metric of a numeric attribute: the exclusive
// and the inclusive form of one quantity ("sum#time.duration" and
// "inclusive#sum#time.duration") share one metric, named by the alias of
// either (Caliper's attribute.alias) or else by the exclusive form's name.
func (s *sink) metricOf(attr string) sinkMetric {
	if m, ok := s.metric[attr]; ok {
		return m
	}
	base, incl := splitInclusive(attr)
	name := s.alias(base)
	if name == "" {
		name = s.alias(attr)
	}
	if name == "" {
		name = base
	}
	m := sinkMetric{index: s.tree.Metric(name), inclusive: incl}
	s.metric[attr] = m
	return m
}

// thread maps a record's rank and thread values to a drg thread. A thread
// value that is a small non-negative integer is used as is; any other (a
// pthread id) is numbered from 65536 up in order of appearance, apart from the small ids.
func (s *sink) thread(rank, thread float64, hasThread bool) (drg.ThreadID, error) {
	if math.IsNaN(rank) {
		rank = 0
	}
	if rank < 0 || rank != math.Trunc(rank) || rank > math.MaxInt32 {
		return drg.ThreadID{}, fmt.Errorf("mpi.rank %v is not a rank", rank)
	}
	id := drg.ThreadID{Node: int(rank)}
	if !hasThread {
		return id, nil
	}
	if thread >= 0 && thread == math.Trunc(thread) && thread < 1<<16 {
		id.Thread = int(thread)
		return id, nil
	}
	n, ok := s.threads[thread]
	if !ok {
		n = 1<<16 + len(s.threads)
		s.threads[thread] = n
	}
	id.Thread = n
	return id, nil
}

// value is one numeric attribute of a record.
type value struct {
	attr string
	v    float64
}

// add records the values of one record at the context named by path.
func (s *sink) add(path []string, th drg.ThreadID, vals []value) error {
	if len(path) == 0 {
		s.skipped++
		return nil
	}
	n := -1
	for _, name := range path {
		var err error
		if n, err = s.tree.Child(n, name); err != nil {
			return err
		}
	}
	s.addAt(n, th, vals)
	return nil
}

// addAt records the values of one record at context n.
func (s *sink) addAt(n int, th drg.ThreadID, vals []value) {
	s.tree.MarkPresent(n, th)
	for _, v := range vals {
		s.addValue(n, th, v.attr, v.v)
	}
}

// addValue records one numeric attribute's value at context n.
func (s *sink) addValue(n int, th drg.ThreadID, attr string, v float64) {
	m := s.metricOf(attr)
	if m.inclusive {
		s.tree.AddInclusive(n, th, m.index, v)
	} else {
		s.tree.AddExclusive(n, th, m.index, v)
	}
}

// rename gives metrics the aliases that plain JSON lists after its
// records (alias maps attribute names to aliases).
func (s *sink) rename(alias map[string]string) {
	for attr, m := range s.metric {
		base, _ := splitInclusive(attr)
		if a := alias[base]; a != "" {
			s.tree.RenameMetric(m.index, a)
		} else if a := alias[attr]; a != "" {
			s.tree.RenameMetric(m.index, a)
		}
	}
}

// preferSum makes the summed time (Caliper's sum#...time... attribute, the
// one Hatchet calls "time") the trial's first metric, so that analyses
// default to it rather than to a min, max or average.
func (s *sink) preferSum() {
	best := -1
	for attr, m := range s.metric {
		base, _ := splitInclusive(attr)
		if strings.HasPrefix(base, "sum#") && strings.Contains(base, "time") && (best < 0 || m.index < best) {
			best = m.index
		}
	}
	if best <= 0 {
		return
	}
	s.tree.MoveFirst(best)
	for attr, m := range s.metric {
		switch {
		case m.index == best:
			m.index = 0
		case m.index < best:
			m.index++
		}
		s.metric[attr] = m
	}
}

// finish builds the trial.
func (s *sink) finish(path, format string) (*drg.Trial, error) {
	s.preferSum()
	for attr, m := range s.metric {
		side := map[bool]string{true: " (inclusive)", false: " (exclusive)"}[m.inclusive]
		s.meta["Caliper attribute of "+s.tree.MetricName(m.index)+side] = attr
	}
	s.meta["File Type Name"] = "Caliper"
	s.meta["Caliper format"] = format
	if s.skipped > 0 {
		s.meta["Caliper records outside any region (not read)"] = fmt.Sprint(s.skipped)
	}
	src := drg.Source{Format: "caliper", Path: path, DataSource: DataSource}
	return s.tree.Build(trialName(path), src, s.meta)
}
