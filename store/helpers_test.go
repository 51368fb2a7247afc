package store_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// realTrial is one real trial of the test data.
type realTrial struct {
	rel   string // path under shared/data/real, or under testdata/ for the XML
	path  string
	trial *drg.Trial
}

// realTrials reads every trial of the test data that is present: the
// profile folders and packed/XML files of realdata (the shared real-data
// folder) and the hand-made snapshot XML of testdata/snapshots (rel
// "snapshots").
func realTrials(t testing.TB) []realTrial {
	t.Helper()
	var out []realTrial
	add := func(rel, path string) {
		tr, err := reader.Read(path, "")
		if err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
		out = append(out, realTrial{rel: rel, path: path, trial: tr})
	}
	for _, c := range realdata.ProfileTrials {
		if p, ok := realdata.Find(c.Rel); ok {
			add(c.Rel, p)
		}
	}
	for _, c := range realdata.FileTrials {
		if p, ok := realdata.Find(c.Rel); ok {
			add(c.Rel, p)
		}
	}
	if p := filepath.Join(realdata.Root(), "testdata", "snapshots"); exists(p) {
		add("snapshots", p)
	}
	if len(out) == 0 {
		t.Skip("no real trial found")
	}
	return out
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// genTrial builds a synthetic trial of threads threads (nodes of 4 threads
// each... laid out as node = i/4, thread = i%4), nodes call-graph nodes
// (half flat regions, half callpaths under the first region) and two
// metrics, with every seventh cell absent, two user events and metadata.
func genTrial(t testing.TB, name string, threads, nodes int) *drg.Trial {
	t.Helper()
	ids := make([]drg.ThreadID, threads)
	for i := range ids {
		ids[i] = drg.ThreadID{Node: i / 4, Thread: i % 4}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	tm, fp := b.Metric("TIME"), b.Metric("PAPI_FP_OPS")
	flat := (nodes + 1) / 2
	regionName := func(i int) string { return fmt.Sprintf("region_%04d [{gen.c} {%d,1}-{%d,9}]", i, 10*i+1, 10*i+8) }
	for i := range nodes {
		var n int
		if i < flat {
			n = b.Node(regionName(i))
			groups := "TAU_USER"
			if i%3 == 0 {
				groups = "MPI|TAU_USER"
			}
			b.SetGroups(n, groups)
		} else {
			n = b.Node(regionName(0) + " => " + regionName(i-flat+1))
			b.SetGroups(n, "TAU_CALLPATH|TAU_USER")
		}
		for th := range threads {
			if (i+th)%7 == 3 && i != 0 {
				continue
			}
			x := float64((i*131+th*17)%1000) + 0.25
			b.AddCalls(n, th, float64(1+(i+th)%5), float64(i%3))
			b.AddValues(n, th, tm, x, 2*x+float64(nodes-i))
			b.AddValues(n, th, fp, 3*x, 5*x)
		}
	}
	for k, ev := range []string{"Message size", "Heap memory : " + regionName(0)} {
		c := b.Counter(ev)
		for th := range threads {
			if (th+k)%5 == 0 {
				continue
			}
			v := float64(th + 1)
			b.AddCounter(c, th, drg.CounterValue{NumEvents: float64(1 + th%3), Max: 2 * v, Min: v / 2, Mean: v, SumSquares: v * v * 3})
		}
	}
	for th := range threads {
		b.ThreadMetadata(th, "Hostname", "host"+fmt.Sprint(th/8), false)
		b.ThreadMetadata(th, "OS", "Linux", false)
	}
	tr, err := b.Finish(name, drg.Source{Format: "profile", Path: "generated", DataSource: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// roundTrip returns what LoadTrial must give back for a saved trial t,
// following the package documentation: callpath nodes ParaProf derived
// (TAU_CALLPATH_DERIVED) keep no data, and are dropped unless an ancestor
// of a stored node; snapshot entries of such nodes are dropped; a region's
// groups come back sorted. Source.Path and Warnings are not compared.
func roundTrip(t *drg.Trial) *drg.Trial {
	nt := len(t.Threads)
	keep := make([]bool, len(t.Nodes))
	for i := range t.Nodes {
		if t.Nodes[i].Derived {
			continue
		}
		for j := i; j >= 0 && !keep[j]; j = t.Nodes[j].Parent {
			keep[j] = true
		}
	}
	newIdx := make([]int, len(t.Nodes))
	k := 0
	for i := range t.Nodes {
		newIdx[i] = -1
		if keep[i] {
			newIdx[i] = k
			k++
		}
	}
	out := *t
	out.Nodes = nil
	out.Values = make([]drg.MetricValues, len(t.Values))
	out.Calls, out.Subroutines = nil, nil
	out.Present = drg.NewBitmap(k * nt)
	for i, n := range t.Nodes {
		if !keep[i] {
			continue
		}
		if n.Parent >= 0 {
			n.Parent = newIdx[n.Parent]
		}
		out.Nodes = append(out.Nodes, n)
		data := !n.Derived
		for th := range nt {
			c := i*nt + th
			if data && t.Present.Get(c) {
				out.Present.Set(newIdx[i]*nt + th)
			}
		}
		row := func(col []float64) []float64 {
			if !data {
				return make([]float64, nt)
			}
			return col[i*nt : (i+1)*nt]
		}
		out.Calls = append(out.Calls, row(t.Calls)...)
		out.Subroutines = append(out.Subroutines, row(t.Subroutines)...)
		for m := range t.Values {
			out.Values[m].Inclusive = append(out.Values[m].Inclusive, row(t.Values[m].Inclusive)...)
			out.Values[m].Exclusive = append(out.Values[m].Exclusive, row(t.Values[m].Exclusive)...)
		}
	}
	out.Regions = slices.Clone(t.Regions)
	for r := range out.Regions {
		out.Regions[r].Flat = newIdx[out.Regions[r].Flat]
		out.Regions[r].Groups = slices.Sorted(slices.Values(out.Regions[r].Groups))
	}
	out.Counters = slices.Clone(t.Counters)
	for c := range out.Counters {
		if out.Counters[c].Node >= 0 {
			out.Counters[c].Node = newIdx[out.Counters[c].Node]
		}
	}
	out.Series = nil
	for _, s := range t.Series {
		ns := drg.Snapshot{Thread: s.Thread, Name: s.Name, Timestamp: s.Timestamp,
			Inclusive: make([][]float64, len(s.Inclusive)), Exclusive: make([][]float64, len(s.Exclusive))}
		for j, n := range s.Nodes {
			if newIdx[n] < 0 || t.Nodes[n].Derived {
				continue
			}
			ns.Nodes = append(ns.Nodes, newIdx[n])
			ns.Calls = append(ns.Calls, s.Calls[j])
			ns.Subroutines = append(ns.Subroutines, s.Subroutines[j])
			for m := range s.Inclusive {
				ns.Inclusive[m] = append(ns.Inclusive[m], s.Inclusive[m][j])
				ns.Exclusive[m] = append(ns.Exclusive[m], s.Exclusive[m][j])
			}
		}
		out.Series = append(out.Series, ns)
	}
	return &out
}

// diffs collects differences between two trials, up to a limit.
type diffs struct {
	list  []string
	limit int
}

func (d *diffs) add(format string, args ...any) {
	if len(d.list) < d.limit {
		d.list = append(d.list, fmt.Sprintf(format, args...))
	} else if len(d.list) == d.limit {
		d.list = append(d.list, "...")
	}
}

// same reports whether two floats are equal, bit for bit or both NaN.
func same(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
}

// compareTrials lists how got differs from want, value by value.
func compareTrials(want, got *drg.Trial) []string {
	d := &diffs{limit: 20}
	if want.Name != got.Name {
		d.add("name %q, want %q", got.Name, want.Name)
	}
	if want.Source.Format != got.Source.Format || want.Source.DataSource != got.Source.DataSource {
		d.add("source %+v, want %+v", got.Source, want.Source)
	}
	if !mapsEqual(want.Metadata, got.Metadata) {
		d.add("metadata %v, want %v", got.Metadata, want.Metadata)
	}
	if !slices.Equal(want.Metrics, got.Metrics) {
		d.add("metrics %v, want %v", got.Metrics, want.Metrics)
	}
	if len(want.Threads) != len(got.Threads) {
		d.add("%d threads, want %d", len(got.Threads), len(want.Threads))
		return d.list
	}
	for i, w := range want.Threads {
		g := got.Threads[i]
		if w.Node != g.Node || w.Context != g.Context || w.Thread != g.Thread || w.Index != g.Index {
			d.add("thread %d: %d.%d.%d index %d, want %d.%d.%d index %d", i, g.Node, g.Context, g.Thread, g.Index, w.Node, w.Context, w.Thread, w.Index)
		}
		if !mapsEqual(w.Metadata, g.Metadata) {
			d.add("thread %d metadata %v, want %v", i, g.Metadata, w.Metadata)
		}
	}
	if len(want.Regions) != len(got.Regions) {
		d.add("%d regions, want %d", len(got.Regions), len(want.Regions))
	} else {
		for i, w := range want.Regions {
			g := got.Regions[i]
			if w.Name != g.Name || w.ShortName != g.ShortName || w.SourceFile != g.SourceFile || w.LineStart != g.LineStart ||
				w.LineEnd != g.LineEnd || w.ColumnStart != g.ColumnStart || w.ColumnEnd != g.ColumnEnd || w.Flat != g.Flat ||
				!slices.Equal(w.Groups, g.Groups) || !slices.Equal(w.Params, g.Params) {
				d.add("region %d: %+v, want %+v", i, g, w)
			}
		}
	}
	if len(want.Nodes) != len(got.Nodes) {
		d.add("%d nodes, want %d", len(got.Nodes), len(want.Nodes))
		return d.list
	}
	for i, w := range want.Nodes {
		if g := got.Nodes[i]; w != g {
			d.add("node %d: %+v, want %+v", i, g, w)
		}
	}
	nt := len(want.Threads)
	cells := len(want.Nodes) * nt
	col := func(what string, w, g []float64) {
		if len(w) != len(g) {
			d.add("%s: %d values, want %d", what, len(g), len(w))
			return
		}
		for c := range w {
			if !same(w[c], g[c]) {
				d.add("%s of %q on thread %d: %v, want %v", what, want.Nodes[c/nt].Name, c%nt, g[c], w[c])
			}
		}
	}
	for c := range cells {
		if want.Present.Get(c) != got.Present.Get(c) {
			d.add("presence of %q on thread %d: %v, want %v", want.Nodes[c/nt].Name, c%nt, got.Present.Get(c), want.Present.Get(c))
		}
	}
	col("calls", want.Calls, got.Calls)
	col("subroutines", want.Subroutines, got.Subroutines)
	if len(want.Values) == len(got.Values) {
		for m := range want.Values {
			col(want.Metrics[m].Name+" inclusive", want.Values[m].Inclusive, got.Values[m].Inclusive)
			col(want.Metrics[m].Name+" exclusive", want.Values[m].Exclusive, got.Values[m].Exclusive)
		}
	}
	if !slices.Equal(want.Counters, got.Counters) {
		d.add("counters %+v, want %+v", got.Counters, want.Counters)
	} else {
		for c := range len(want.Counters) * nt {
			if want.CounterPresent.Get(c) != got.CounterPresent.Get(c) || want.CounterValues[c] != got.CounterValues[c] {
				d.add("counter %q on thread %d: %v %+v, want %v %+v", want.Counters[c/nt].Name, c%nt,
					got.CounterPresent.Get(c), got.CounterValues[c], want.CounterPresent.Get(c), want.CounterValues[c])
			}
		}
	}
	if len(want.Series) != len(got.Series) {
		d.add("%d snapshots, want %d", len(got.Series), len(want.Series))
	} else {
		for i, w := range want.Series {
			g := got.Series[i]
			if w.Thread != g.Thread || w.Name != g.Name || w.Timestamp != g.Timestamp || !slices.Equal(w.Nodes, g.Nodes) ||
				!slices.Equal(w.Calls, g.Calls) || !slices.Equal(w.Subroutines, g.Subroutines) ||
				!floats2Equal(w.Inclusive, g.Inclusive) || !floats2Equal(w.Exclusive, g.Exclusive) {
				d.add("snapshot %d: %+v, want %+v", i, g, w)
			}
		}
	}
	return d.list
}

func floats2Equal(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// describe is a one-line summary of a trial for test logs.
func describe(t *drg.Trial) string {
	return fmt.Sprintf("%d threads, %d metrics, %d nodes, %d counters, %d snapshots", len(t.Threads), len(t.Metrics), len(t.Nodes), len(t.Counters), len(t.Series))
}
