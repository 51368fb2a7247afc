package snapshot

import (
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// stream is what one snapshot XML stream (one file) holds, with every id
// resolved: the builder turns one or more streams into a trial.
type stream struct {
	path string
	// metrics lists the distinct metric names in order of definition.
	metrics   []string
	metricIdx map[string]int
	// events and userEvents list the definitions in order; an index into
	// them is a stream event (user event). used marks those that some
	// thread's data line refers to.
	events         []eventDef
	userEvents     []string
	eventUsed      []bool
	userEventsUsed []bool
	// global holds the ids of <definitions thread="*">.
	global defs
	// threads lists the threads in order of first appearance.
	threads []*threadState
	byID    map[string]*threadState
	byRank  map[drg.ThreadID]*threadState
	// derived lists the derived profiles (TAU_PRECOMPUTE) in file order.
	derived []*derivedProfile
	// size is the number of (decompressed) bytes read.
	size int64
}

func newStream(path string) *stream {
	return &stream{
		path:      path,
		metricIdx: map[string]int{},
		byID:      map[string]*threadState{},
		byRank:    map[drg.ThreadID]*threadState{},
	}
}

// eventDef is one interval event definition.
type eventDef struct {
	name, groups string
	hasGroups    bool
}

// defs maps the ids of one definition scope to stream indexes.
type defs struct {
	metrics, events, userEvents idMap
}

// idMap maps ids to indexes: densely for ids that grow in order, as TAU
// writes them, and through a map for scattered ones, so that large ids
// cannot make it allocate more than a few entries per definition.
type idMap struct {
	dense  []int32 // -1 = undefined
	sparse map[int]int32
	n      int // number of definitions
}

func (m *idMap) set(id int, v int) {
	m.n++
	if id < len(m.dense) {
		m.dense[id] = int32(v)
		return
	}
	if id <= 2*m.n+1024 {
		for len(m.dense) < id {
			x := int32(-1)
			if v, ok := m.sparse[len(m.dense)]; ok {
				x = v
				delete(m.sparse, len(m.dense))
			}
			m.dense = append(m.dense, x)
		}
		m.dense = append(m.dense, int32(v))
		if m.sparse != nil {
			delete(m.sparse, id)
		}
		return
	}
	if m.sparse == nil {
		m.sparse = map[int]int32{}
	}
	m.sparse[id] = int32(v)
}

func (m *idMap) get(id int) (int, bool) {
	if id < len(m.dense) {
		v := m.dense[id]
		return int(v), v >= 0
	}
	v, ok := m.sparse[id]
	return int(v), ok
}

// attribute is one metadata attribute of a thread.
type attribute struct {
	name, value string
	context     bool
}

// threadState is one thread of a stream.
type threadState struct {
	id   drg.ThreadID
	line int // line of its first <thread> element
	// meta holds the attributes in order of first appearance; a later
	// <thread> element for the same thread overwrites values.
	meta    []attribute
	metaIdx map[string]int
	defs    defs
	// profiles lists the thread's snapshots, oldest first.
	profiles []*profile
}

func (t *threadState) setMeta(a attribute) {
	if i, ok := t.metaIdx[a.name]; ok {
		t.meta[i] = a
		return
	}
	t.metaIdx[a.name] = len(t.meta)
	t.meta = append(t.meta, a)
}

// profile is one <profile> snapshot of a thread.
type profile struct {
	line      int
	name      string
	timestamp int64
	intervals []*intervalBlock
	atomics   []atomicRow
}

// intervalBlock holds the lines of one <interval_data> (or
// <derivedinterval_data>) element.
type intervalBlock struct {
	// metrics lists the stream metric of each (excl, incl) pair.
	metrics []int
	// events holds the stream event of each line; nums holds 2+2k numbers
	// per line: calls, subroutines, then exclusive and inclusive per metric.
	events []int32
	nums   []float64
}

// width returns the number of values stored per line.
func (b *intervalBlock) width() int { return 2 + 2*len(b.metrics) }

// atomicRow is one line of <atomic_data> (or <derivedatomic_data>).
type atomicRow struct {
	event int32
	value drg.CounterValue
}

// derivedProfile is one derived profile of a merged file.
type derivedProfile struct {
	line      int
	entity    string
	intervals []*intervalBlock
	atomics   []atomicRow
}
