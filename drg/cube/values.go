package cube

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"

	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
)

// cellsPerDataByte bounds the values the reader allocates by what the
// archive holds: the call tree × locations of anchor.xml may not exceed 16
// values per byte of data members (a dense metric stores at least one byte
// per value; zlib segments of zeros compress further), with a floor of
// 65,536 values for tiny files.
const cellsPerDataByte = 16

// readable is a metric with data that this reader takes in.
type readable struct {
	m      metric
	dt     dtype
	name   string
	scale  float64
	visits bool
	index  member
	data   member
}

// selectMetrics picks the metrics with data members, a type that adds up
// along the call tree and a value type it decodes; it says why it leaves
// out the others.
func selectMetrics(a *anchor, ms map[string]member) ([]readable, []string) {
	var out []readable
	var warn []string
	for _, m := range sortedMetrics(a) {
		im, iok := ms[strconv.Itoa(m.id)+".index"]
		dm, dok := ms[strconv.Itoa(m.id)+".data"]
		if m.id < 0 || !iok || !dok {
			continue // derived metrics have no data: nothing to read
		}
		dt, ok := dtypes[m.dtype]
		if !ok {
			warn = append(warn, fmt.Sprintf("metric %q (%s) left out: values of type %s do not add up along the call tree", m.uniq, m.disp, m.dtype))
			continue
		}
		if m.kind != "EXCLUSIVE" && m.kind != "INCLUSIVE" {
			warn = append(warn, fmt.Sprintf("metric %q left out: type %q (only EXCLUSIVE and INCLUSIVE metrics hold values)", m.uniq, m.kind))
			continue
		}
		name, scale := metricName(m)
		out = append(out, readable{m: m, dt: dt, name: name, scale: scale, visits: m.uniq == "visits", index: im, data: dm})
	}
	return out, warn
}

// readTree reads the values of every readable metric into the calling
// context tree of anchor.xml.
func readTree(f *os.File, ms map[string]member, a *anchor, name string) (*cct.Tree, []string, error) {
	rs, warn := selectMetrics(a, ms)
	if len(rs) == 0 {
		return nil, nil, errorf(name, "", -1, "no metric with values this reader takes (EXCLUSIVE or INCLUSIVE, numeric)")
	}
	var dataBytes int64
	for _, r := range rs {
		dataBytes += r.data.size
	}
	cells := int64(len(a.cnodes)) * int64(len(a.locs))
	if cells > max(1<<16, cellsPerDataByte*dataBytes) {
		return nil, nil, errorf(name, "anchor.xml", -1, "%d call-tree nodes × %d locations need more values than the %d bytes of data members hold", len(a.cnodes), len(a.locs), dataBytes)
	}
	t := a.tree()
	t.Threads = threads(a)
	hasVisits := false
	for _, r := range rs {
		if r.visits {
			hasVisits = true
		} else {
			t.Metrics = append(t.Metrics, r.name)
		}
	}
	t.Alloc(hasVisits)
	byID := make(map[int]int, len(t.Nodes))
	for i, n := range t.Nodes {
		byID[int(n.ID)] = i
	}
	if err := readMetrics(f, rs, t, byID, name); err != nil {
		return nil, nil, err
	}
	return t, warn, nil
}

// readMetrics reads every metric of rs into t, up to GOMAXPROCS metrics at
// a time: each writes only its own value column (members are read with
// ReadAt, which is safe in parallel). The first error in metric order is
// returned, so that a bad file always gets the same message.
func readMetrics(f *os.File, rs []readable, t *cct.Tree, byID map[int]int, name string) error {
	errs := make([]error, len(rs))
	workers, visits := runtime.GOMAXPROCS(0), 0
	for _, r := range rs {
		if r.visits {
			visits++
		}
	}
	if visits > 1 {
		workers = 1 // two "visits" metrics both write the calls column
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	m := 0
	for i, r := range rs {
		wg.Add(1)
		sem <- struct{}{}
		go func(i, m int, r readable) {
			defer wg.Done()
			errs[i] = readMetric(f, r, t, m, byID, name)
			<-sem
		}(i, m, r)
		if !r.visits {
			m++
		}
	}
	wg.Wait()
	return firstError(errs)
}

// firstError returns the first error of errs that is not nil.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// readMetric reads one metric's index and data into metric m of t (or its
// calls) and derives the other half: an EXCLUSIVE metric stores exclusive
// values, an INCLUSIVE one inclusive values.
func readMetric(f *os.File, r readable, t *cct.Tree, m int, byID map[int]int, name string) error {
	imem := strconv.Itoa(r.m.id) + ".index"
	dmem := strconv.Itoa(r.m.id) + ".data"
	ix, err := readIndex(openMember(f, r.index), r.index.size, name, imem)
	if err != nil {
		return err
	}
	rows := make([]int, len(ix.rows))
	for i, id := range ix.rows {
		n, ok := byID[id]
		if !ok {
			return errorf(name, imem, int64(22+4*i), "row %d is cnode %d, which anchor.xml does not define", i, id)
		}
		rows[i] = n
	}
	nloc := len(t.Threads)
	want := int64(len(rows)) * int64(nloc) * int64(r.dt.size)
	dr, err := dataReader(openMember(f, r.data), ix, want, name, dmem)
	if err != nil {
		return err
	}
	var dst []float64
	switch {
	case r.visits:
		dst = t.Calls
	case r.m.kind == "INCLUSIVE":
		dst = t.Incl[m]
	default:
		dst = t.Excl[m]
	}
	if err := readValues(dr, r.dt, ix.order, rows, nloc, dst, name, dmem); err != nil {
		return err
	}
	if r.visits {
		return nil
	}
	for i := range dst {
		dst[i] *= r.scale
	}
	if r.m.kind == "INCLUSIVE" {
		t.DeriveExclusive(m)
	} else {
		t.DeriveInclusive(m)
	}
	return nil
}
