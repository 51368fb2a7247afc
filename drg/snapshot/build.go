package snapshot

import (
	"fmt"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// build turns parsed streams (one per file) into a trial, and the derived
// profiles of merged files into a Derived aligned with it (nil when there
// are none).
func build(streams []*stream, name string, src drg.Source) (*drg.Trial, *Derived, error) {
	var ids []drg.ThreadID
	where := map[drg.ThreadID]string{}
	for _, s := range streams {
		for _, ts := range s.threads {
			if other, ok := where[ts.id]; ok {
				return nil, nil, &Error{Path: s.path, Line: ts.line, Err: fmt.Errorf("thread %s is also in %s", ts.id, other)}
			}
			where[ts.id] = s.path
			ids = append(ids, ts.id)
		}
	}
	sparse, err := checkSize(streams, len(ids))
	if err != nil {
		return nil, nil, &Error{Path: src.Path, Err: err}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		return nil, nil, &Error{Path: src.Path, Err: err}
	}
	b.Sparse = true
	if sparse {
		b.StartSparse() // before the nodes, whose dense columns would be mostly empty
	}
	maps := make([]streamMap, len(streams))
	nmetrics := 0
	for i, s := range streams {
		maps[i] = mapStream(b, s)
		for _, m := range maps[i].metrics {
			nmetrics = max(nmetrics, m+1)
		}
	}
	cells := newCellSet(b.NumNodes(), nmetrics)
	counters := newCounterSet(maxCounter(maps) + 1)
	var series [][]drg.Snapshot // per thread, its earlier snapshots
	for i, s := range streams {
		m := &maps[i]
		for _, ts := range s.threads {
			col := b.Column(ts.id)
			for _, a := range ts.meta {
				b.ThreadMetadata(col, a.name, a.value, a.context)
			}
			if len(ts.profiles) == 0 {
				continue
			}
			var earlier []drg.Snapshot
			for _, pr := range ts.profiles[:len(ts.profiles)-1] {
				cells.collect(pr, m)
				earlier = append(earlier, cells.snapshot(col, pr))
			}
			series = append(series, earlier)
			last := ts.profiles[len(ts.profiles)-1]
			cells.collect(last, m)
			cells.add(b, col)
			counters.collect(last, m)
			counters.add(b, col)
		}
	}
	// Oldest first: every thread's first snapshot, then every second one...
	for k := 0; ; k++ {
		more := false
		for _, th := range series {
			if k < len(th) {
				b.AddSnapshot(th[k])
				more = true
			}
		}
		if !more {
			break
		}
	}
	t, err := b.Finish(name, src)
	if err != nil {
		return nil, nil, &Error{Path: src.Path, Err: err}
	}
	return t, buildDerived(t, streams), nil
}

// Limits of checkSize: a trial may need this many bytes whatever its
// input, and this many times the size of its input beyond that.
const (
	minSizeLimit    = 1 << 30
	sizeLimitFactor = 1000
)

// checkSize refuses input whose trial would be out of all proportion with
// it. The builder stores a trial's values densely (nodes × threads per
// metric) or, when more than drg.SparseEmptyRatio cells per filled one
// would be empty, sparsely (the filled cells only), so the values take at
// most min(nodes × threads, (drg.SparseEmptyRatio+1) × filled) cells; a
// filled cell needs a line of the input. User events stay dense, so a
// small file that defines many threads and user events is refused.
// sparse says whether the values are to be stored sparsely from the start.
func checkSize(streams []*stream, threads int) (sparse bool, err error) {
	var input, series float64
	metricSet, nodeSet, counterSet := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range streams {
		input += float64(s.size)
		for _, m := range s.metrics {
			metricSet[m] = true
		}
		for i, u := range s.eventUsed {
			if u {
				nodeSet[drg.CanonicalName(s.events[i].name)] = true
			}
		}
		for i, u := range s.userEventsUsed {
			if u {
				counterSet[drg.CanonicalName(s.userEvents[i])] = true
			}
		}
	}
	metrics, nodes, counters := float64(len(metricSet)), float64(len(nodeSet)), float64(len(counterSet))
	for name := range nodeSet {
		// The builder adds at most a node per callpath prefix and a flat
		// node per leaf.
		nodes += 2 * float64(strings.Count(name, drg.CallpathSeparator))
	}
	width := 8 * (2*metrics + 2) // bytes per cell: calls, subroutines, excl and incl per metric
	for _, s := range streams {
		for _, ts := range s.threads {
			for i, pr := range ts.profiles {
				if i == len(ts.profiles)-1 {
					break
				}
				for _, blk := range pr.intervals {
					series += float64(len(blk.events)) * width
				}
			}
		}
	}
	// The values, the counters, the earlier snapshots, and the seven
	// derived statistics per cell of a node (read from the file or computed
	// by Trial.Statistics).
	dense, filled := nodes*float64(threads), filledCells(streams)
	sparse = dense > drg.SparseFloorCells && dense > drg.SparseEmptyRatio*filled
	cells := min(dense, (drg.SparseEmptyRatio+1)*filled)
	need := cells*width + counters*float64(threads)*48 + series + 7*nodes*width
	if need > minSizeLimit && need > sizeLimitFactor*input {
		return false, fmt.Errorf("the trial would need %.3g GB for %g threads × %g events × %g metrics, more than %d times the %.3g MB read: refused as malformed",
			need/1e9, float64(threads), nodes, metrics, sizeLimitFactor, input/1e6)
	}
	return sparse, nil
}

// streamMap maps the indexes of one stream to the builder's: metrics,
// nodes (-1 for events no thread measured) and counters (-1 likewise).
type streamMap struct {
	metrics, nodes, counters []int
}

// mapStream adds the metrics, measured events and user events of s to b in
// order of definition.
func mapStream(b *drg.Builder, s *stream) streamMap {
	var m streamMap
	for _, name := range s.metrics {
		m.metrics = append(m.metrics, b.Metric(name))
	}
	m.nodes = make([]int, len(s.events))
	for i, ev := range s.events {
		m.nodes[i] = -1
		if s.eventUsed[i] {
			n := b.Node(ev.name)
			if ev.hasGroups {
				b.SetGroups(n, ev.groups)
			}
			m.nodes[i] = n
		}
	}
	m.counters = make([]int, len(s.userEvents))
	for i, name := range s.userEvents {
		m.counters[i] = -1
		if s.userEventsUsed[i] {
			m.counters[i] = b.Counter(name)
		}
	}
	return m
}

func maxCounter(maps []streamMap) int {
	c := -1
	for _, m := range maps {
		for _, x := range m.counters {
			c = max(c, x)
		}
	}
	return c
}

// cellSet collects the values of one snapshot of one thread by builder
// node. A later line for the same node (an event defined twice under
// different ids) overwrites the calls and the values of the metrics it
// gives, as TAU's Java loader does.
type cellSet struct {
	pos          []int32 // per builder node: index into nodes, or -1
	nodes        []int
	calls, subrs []float64
	excl, incl   [][]float64 // per builder metric, parallel to nodes
}

func newCellSet(nodes, metrics int) *cellSet {
	c := &cellSet{pos: make([]int32, nodes), excl: make([][]float64, metrics), incl: make([][]float64, metrics)}
	for i := range c.pos {
		c.pos[i] = -1
	}
	return c
}

// collect clears the set and gathers the interval lines of pr.
func (c *cellSet) collect(pr *profile, m *streamMap) {
	for _, n := range c.nodes {
		c.pos[n] = -1
	}
	c.nodes, c.calls, c.subrs = c.nodes[:0], c.calls[:0], c.subrs[:0]
	for i := range c.excl {
		c.excl[i], c.incl[i] = c.excl[i][:0], c.incl[i][:0]
	}
	for _, blk := range pr.intervals {
		w := blk.width()
		for r, ev := range blk.events {
			node := m.nodes[ev]
			p := c.pos[node]
			if p < 0 {
				p = int32(len(c.nodes))
				c.pos[node] = p
				c.nodes = append(c.nodes, node)
				c.calls = append(c.calls, 0)
				c.subrs = append(c.subrs, 0)
				for i := range c.excl {
					c.excl[i] = append(c.excl[i], 0)
					c.incl[i] = append(c.incl[i], 0)
				}
			}
			row := blk.nums[r*w : (r+1)*w]
			c.calls[p], c.subrs[p] = row[0], row[1]
			for j, sm := range blk.metrics {
				bm := m.metrics[sm]
				c.excl[bm][p], c.incl[bm][p] = row[2+2*j], row[3+2*j]
			}
		}
	}
}

// snapshot returns a copy of the set as an earlier snapshot of thread col.
func (c *cellSet) snapshot(col int, pr *profile) drg.Snapshot {
	s := drg.Snapshot{
		Thread:      col,
		Name:        pr.name,
		Timestamp:   pr.timestamp,
		Nodes:       append([]int(nil), c.nodes...),
		Calls:       append([]float64(nil), c.calls...),
		Subroutines: append([]float64(nil), c.subrs...),
	}
	for i := range c.excl {
		s.Exclusive = append(s.Exclusive, append([]float64(nil), c.excl[i]...))
		s.Inclusive = append(s.Inclusive, append([]float64(nil), c.incl[i]...))
	}
	return s
}

// add gives the set to b as the profile of thread col.
func (c *cellSet) add(b *drg.Builder, col int) {
	for p, n := range c.nodes {
		b.AddCalls(n, col, c.calls[p], c.subrs[p])
		for m := range c.excl {
			b.AddValues(n, col, m, c.excl[m][p], c.incl[m][p])
		}
	}
}

// counterSet collects the user-event lines of one snapshot by builder
// counter; a later line for the same counter overwrites an earlier one.
type counterSet struct {
	pos      []int32
	counters []int
	values   []drg.CounterValue
}

func newCounterSet(n int) *counterSet {
	c := &counterSet{pos: make([]int32, n)}
	for i := range c.pos {
		c.pos[i] = -1
	}
	return c
}

// collect clears the set and gathers the atomic lines of pr.
func (c *counterSet) collect(pr *profile, m *streamMap) {
	for _, k := range c.counters {
		c.pos[k] = -1
	}
	c.counters, c.values = c.counters[:0], c.values[:0]
	for _, row := range pr.atomics {
		k := m.counters[row.event]
		if p := c.pos[k]; p >= 0 {
			c.values[p] = row.value
			continue
		}
		c.pos[k] = int32(len(c.counters))
		c.counters = append(c.counters, k)
		c.values = append(c.values, row.value)
	}
}

// add gives the set to b as the user events of thread col.
func (c *counterSet) add(b *drg.Builder, col int) {
	for p, k := range c.counters {
		b.AddCounter(k, col, c.values[p])
	}
}

// filledCells bounds the (node, thread) cells with a value: a line of a
// thread's last snapshot fills its node's cell and, for a call path, at
// most two more per separator (the flat node of its leaf and the nodes of
// its prefixes).
func filledCells(streams []*stream) float64 {
	var cells float64
	for _, s := range streams {
		per := make([]float64, len(s.events)) // cells per line of each event, 0 unknown
		for _, ts := range s.threads {
			if len(ts.profiles) == 0 {
				continue
			}
			for _, blk := range ts.profiles[len(ts.profiles)-1].intervals {
				for _, ev := range blk.events {
					if int(ev) >= len(per) {
						cells++
						continue
					}
					if per[ev] == 0 {
						per[ev] = 1 + 2*float64(strings.Count(s.events[ev].name, drg.CallpathSeparator))
					}
					cells += per[ev]
				}
			}
		}
	}
	return cells
}
