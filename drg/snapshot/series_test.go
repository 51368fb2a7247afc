package snapshot

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// The hand-made files in testdata/snapshots are two threads of one
// process (snapshot.0.0.0 and snapshot.0.0.1), three snapshots each
// ("iteration 1", "iteration 2", "final"), laid out as TauSnapshot.cpp
// writes them. The threads number their events and metrics differently
// (thread 1 defines PAPI_FP_OPS as metric 0); MPI_Recv() (thread 0) and
// MPI_Send() (thread 1) are first defined in snapshot 2; thread 0 defines
// "unused_timer", which is never called.

// Node indexes: events in order of definition, those never measured left
// out.
const (
	nApp = iota
	nCompute
	nSend
	nCallpath
	nRecv
)

// Metric indexes: in order of definition (thread 0 first).
const (
	mTime = iota
	mFP
)

func readSnapshots(t *testing.T) *drg.Trial {
	t.Helper()
	tr, err := Reader{Path: snapshotDir}.Read()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestSnapshotTrial(t *testing.T) {
	tr := readSnapshots(t)
	if tr.Name != "snapshots" || tr.Source != (drg.Source{Format: "snapshot", Path: snapshotDir, DataSource: 10}) {
		t.Errorf("name %q, source %+v", tr.Name, tr.Source)
	}
	if len(tr.Threads) != 2 || tr.Threads[1].Thread != 1 || tr.Threads[1].Index != 1 {
		t.Fatalf("threads %+v", tr.Threads)
	}
	if len(tr.Metrics) != 2 || tr.Metrics[mTime].Name != "TIME" || tr.Metrics[mFP].Name != "PAPI_FP_OPS" {
		t.Fatalf("metrics %+v", tr.Metrics)
	}
	names := []string{
		".TAU application",
		"compute [{matmult.c} {10,1}-{20,1}]",
		"MPI_Send()",
		".TAU application => compute [{matmult.c} {10,1}-{20,1}]",
		"MPI_Recv()",
	}
	if len(tr.Nodes) != len(names) {
		t.Fatalf("%d nodes, want %d", len(tr.Nodes), len(names))
	}
	for i, n := range names {
		if tr.Nodes[i].Name != n {
			t.Errorf("node %d is %q, want %q", i, tr.Nodes[i].Name, n)
		}
	}
	cp := tr.Nodes[nCallpath]
	if cp.Parent != nApp || cp.Region != tr.Nodes[nCompute].Region {
		t.Errorf("callpath node %+v", cp)
	}
	if r := tr.Regions[tr.Nodes[nCompute].Region]; r.ShortName != "compute" || r.SourceFile != "matmult.c" || r.LineStart != 10 || !r.HasGroup("TAU_USER") {
		t.Errorf("compute region %+v", r)
	}
	if r := tr.Regions[tr.Nodes[nSend].Region]; !r.HasGroup("MPI") {
		t.Errorf("MPI_Send() region %+v", r)
	}

	// The final snapshot is the trial's profile:
	// node: {calls, subrs, TIME excl, TIME incl, FP excl, FP incl}.
	want := [2]map[int][6]float64{
		{
			nApp:      {1, 4, 400, 5000, 80, 200},
			nCompute:  {30, 0, 2400, 2400, 120, 120},
			nSend:     {8, 0, 800, 800, 0, 0},
			nCallpath: {30, 0, 2400, 2400, 120, 120},
			nRecv:     {4, 0, 1400, 1400, 0, 0},
		},
		{ // thread 1 wrote PAPI_FP_OPS first: "0 1 4 15 95 350 4700"
			nApp:     {1, 4, 350, 4700, 15, 95},
			nCompute: {20, 0, 3100, 3100, 80, 80},
			nSend:    {2, 0, 600, 600, 0, 0},
			nRecv:    {2, 0, 650, 650, 0, 0},
		},
	}
	for th := range 2 {
		for n := range tr.Nodes {
			w, ok := want[th][n]
			if tr.Has(n, th) != ok {
				t.Errorf("thread %d node %q present %v, want %v", th, tr.Nodes[n].Name, tr.Has(n, th), ok)
			}
			c := tr.Cell(n, th)
			got := [6]float64{tr.Calls[c], tr.Subroutines[c],
				tr.Values[mTime].Exclusive[c], tr.Values[mTime].Inclusive[c],
				tr.Values[mFP].Exclusive[c], tr.Values[mFP].Inclusive[c]}
			if got != w {
				t.Errorf("thread %d node %q = %v, want %v", th, tr.Nodes[n].Name, got, w)
			}
		}
	}

	// User events of the final snapshot; names in CDATA and with entities.
	counters := []string{"Message size sent to all nodes", "x < y & z", `Bytes "sent" <all>`, "Message size received"}
	if len(tr.Counters) != len(counters) {
		t.Fatalf("counters %+v", tr.Counters)
	}
	for i, n := range counters {
		if tr.Counters[i].Name != n {
			t.Errorf("counter %d is %q, want %q", i, tr.Counters[i].Name, n)
		}
	}
	wantCV := map[[2]int]drg.CounterValue{
		{0, 0}: {NumEvents: 8, Max: 128, Min: 64, Mean: 96, SumSquares: 81920},
		{1, 0}: {NumEvents: 3, Max: 7.5, Min: 0.5, Mean: 3.25, SumSquares: 59.5625},
		{2, 0}: {NumEvents: 1, Max: 1500, Min: 1500, Mean: 1500, SumSquares: 2.25e6},
		{3, 0}: {NumEvents: 4, Max: 32, Min: 16, Mean: 24, SumSquares: 2560},
		{3, 1}: {NumEvents: 2, Max: 32, Min: 16, Mean: 24, SumSquares: 1280},
	}
	for c := range tr.Counters {
		for th := range 2 {
			w, ok := wantCV[[2]int{c, th}]
			i := c*2 + th
			if tr.CounterPresent.Get(i) != ok || tr.CounterValues[i] != w {
				t.Errorf("counter %q thread %d = %+v (present %v), want %+v", tr.Counters[c].Name, th, tr.CounterValues[i], tr.CounterPresent.Get(i), w)
			}
		}
	}

	// Metadata: UTF-8 and entities kept; TAU's rule keeps keys a thread
	// lacks trial-level and makes context keys per thread.
	wantTrial := map[string]string{
		"Hostname": "node1", "pid": "4242", "Executable": "/home/jürgen/matmult",
		"CPU Type": "Intel(R) Xeon(R) & co", "File Type Index": "2", "File Type Name": "TAU Snapshot",
	}
	if !reflect.DeepEqual(tr.Metadata, wantTrial) {
		t.Errorf("trial metadata %v, want %v", tr.Metadata, wantTrial)
	}
	if m := tr.Threads[0].Metadata; !reflect.DeepEqual(m, map[string]string{"Starting Timestamp": "999000", "iteration marker": "first"}) {
		t.Errorf("thread 0 metadata %v", m)
	}
	if m := tr.Threads[1].Metadata; !reflect.DeepEqual(m, map[string]string{"Starting Timestamp": "999100", "tid": "1"}) {
		t.Errorf("thread 1 metadata %v", m)
	}
}

func TestSnapshotSeries(t *testing.T) {
	tr := readSnapshots(t)
	f := func(v ...float64) []float64 { return v }
	// Oldest first: snapshot 1 of each thread, then snapshot 2; the final
	// snapshot is the trial itself. Values are cumulative, as in the files.
	want := []drg.Snapshot{
		{
			Thread: 0, Name: "iteration 1", Timestamp: 1000000,
			Nodes: []int{nApp, nCompute, nCallpath}, Calls: f(1, 10, 10), Subroutines: f(1, 0, 0),
			Exclusive: [][]float64{f(200, 800, 800), f(10, 40, 40)},
			Inclusive: [][]float64{f(1000, 800, 800), f(50, 40, 40)},
		},
		{
			Thread: 1, Name: "iteration 1", Timestamp: 1000100,
			Nodes: []int{nApp, nCompute}, Calls: f(1, 5), Subroutines: f(1, 0),
			Exclusive: [][]float64{f(150, 750), f(5, 20)},
			Inclusive: [][]float64{f(900, 750), f(25, 20)},
		},
		{
			Thread: 0, Name: "iteration 2", Timestamp: 2000000,
			Nodes: []int{nApp, nCompute, nSend, nCallpath, nRecv}, Calls: f(1, 20, 5, 20, 2), Subroutines: f(3, 0, 0, 0, 0),
			Exclusive: [][]float64{f(300, 1600, 500, 1600, 600), f(20, 80, 0, 80, 0)},
			Inclusive: [][]float64{f(3000, 1600, 500, 1600, 600), f(100, 80, 0, 80, 0)},
		},
		{
			Thread: 1, Name: "iteration 2", Timestamp: 2000100,
			Nodes: []int{nApp, nRecv, nCompute, nSend}, Calls: f(1, 1, 15, 2), Subroutines: f(3, 0, 0, 0),
			Exclusive: [][]float64{f(250, 300, 1650, 300), f(10, 0, 60, 0)},
			Inclusive: [][]float64{f(2500, 300, 1650, 300), f(70, 0, 60, 0)},
		},
	}
	if !reflect.DeepEqual(tr.Series, want) {
		t.Errorf("series\n%+v\nwant\n%+v", tr.Series, want)
	}
	// The event first defined in snapshot 2 (MPI_Recv() on thread 0) is
	// absent before, i.e. 0 there; the time between snapshots is the
	// difference of the cumulative values.
	for _, n := range tr.Series[0].Nodes {
		if n == nRecv {
			t.Error("MPI_Recv() in thread 0's first snapshot")
		}
	}
	if d := tr.Values[mTime].Inclusive[tr.Cell(nApp, 0)] - tr.Series[2].Inclusive[mTime][0]; d != 2000 {
		t.Errorf("thread 0 .TAU application from snapshot 2 to final: %v µs, want 2000", d)
	}
}

// TestSnapshotOneStream reads the two threads' files concatenated into one
// stream (as TAU's buffer output does): the per-thread ids must not mix.
// Each file on its own gives its thread.
func TestSnapshotOneStream(t *testing.T) {
	dir := readSnapshots(t)
	var all []byte
	for _, f := range []string{"snapshot.0.0.0", "snapshot.0.0.1"} {
		all = append(all, readFile(t, filepath.Join(snapshotDir, f))...)
	}
	one, err := Decode(bytes.NewReader(all), "both.xml")
	if err != nil {
		t.Fatal(err)
	}
	if one.Name != "both" {
		t.Errorf("name %q", one.Name)
	}
	sameTrial(t, dir, one)

	single, err := Reader{Path: filepath.Join(snapshotDir, "snapshot.0.0.1")}.Read()
	if err != nil {
		t.Fatal(err)
	}
	if single.Name != "snapshots" || len(single.Threads) != 1 || single.Threads[0].Thread != 1 || len(single.Series) != 2 {
		t.Errorf("snapshot.0.0.1 alone: name %q, threads %+v, %d snapshots", single.Name, single.Threads, len(single.Series))
	}
	// Its metric order is its own: PAPI_FP_OPS first.
	if single.Metrics[0].Name != "PAPI_FP_OPS" {
		t.Errorf("metrics %+v", single.Metrics)
	}
}

// TestDuplicateNamesLastWins: two event ids with one (canonical) name are
// one node, and the later line replaces the earlier one.
func TestDuplicateNamesLastWins(t *testing.T) {
	doc := `<profile_xml>
<thread id="0.0.0.1" node="0" context="0" thread="0"></thread>
<definitions thread="0.0.0.1">
<metric id="0"><name>TIME</name></metric>
<event id="0"><name>f </name><group>A</group></event>
<event id="1"><name>f</name><group>B</group></event>
<userevent id="0"><name>u</name></userevent>
<userevent id="1"><name>u  </name></userevent>
</definitions>
<profile thread="0.0.0.1"><timestamp>5</timestamp>
<interval_data metrics="0 ">
0 1 0 10 10
1 2 0 20 20
</interval_data>
<atomic_data>
0 1 1 1 1 1
1 2 2 2 2 8
</atomic_data>
</profile>
</profile_xml>`
	tr, err := Decode(bytes.NewReader([]byte(doc)), "dup.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Nodes) != 1 || tr.Calls[0] != 2 || tr.Values[0].Exclusive[0] != 20 {
		t.Errorf("nodes %+v calls %v excl %v", tr.Nodes, tr.Calls, tr.Values[0].Exclusive)
	}
	if g := tr.Regions[0].Groups; len(g) != 1 || g[0] != "A" {
		t.Errorf("groups %q, want the first definition's", g)
	}
	if len(tr.Counters) != 1 || tr.CounterValues[0] != (drg.CounterValue{NumEvents: 2, Max: 2, Min: 2, Mean: 2, SumSquares: 8}) {
		t.Errorf("counters %+v %+v", tr.Counters, tr.CounterValues)
	}
}

// TestSeriesAfterThrottledFold: Builder.Finish folds the empty flat node
// "f" (made as the parent of "f => g") into "f [THROTTLED]" and renumbers
// the nodes after it; the series must still point at the right nodes.
func TestSeriesAfterThrottledFold(t *testing.T) {
	doc := `<profile_xml>
<thread id="0.0.0.1" node="0" context="0" thread="0"></thread>
<definitions thread="0.0.0.1">
<metric id="0"><name>TIME</name></metric>
<event id="0"><name>f [THROTTLED]</name><group>TAU_DISABLE</group></event>
<event id="1"><name>f => g</name><group>TAU_CALLPATH</group></event>
<event id="2"><name>g</name><group>TAU_USER</group></event>
<event id="3"><name>h</name><group>TAU_USER</group></event>
</definitions>
<profile thread="0.0.0.1"><name>s1</name><timestamp>1</timestamp>
<interval_data metrics="0 ">
2 1 0 10 10
3 1 0 20 20
</interval_data>
</profile>
</profile_xml>
<profile_xml>
<profile thread="0.0.0.1"><name>final</name><timestamp>2</timestamp>
<interval_data metrics="0 ">
0 1 1 5 50
1 1 0 30 30
2 2 0 30 30
3 2 0 40 40
</interval_data>
</profile>
</profile_xml>`
	tr, err := Decode(bytes.NewReader([]byte(doc)), "fold.xml")
	if err != nil {
		t.Fatal(err)
	}
	if tr.NodeIndex("f") >= 0 {
		t.Fatalf("flat node f not folded: %+v", tr.Nodes)
	}
	if len(tr.Series) != 1 {
		t.Fatalf("%d snapshots", len(tr.Series))
	}
	s := tr.Series[0]
	var got []string
	for _, n := range s.Nodes {
		got = append(got, tr.Nodes[n].Name)
	}
	if !reflect.DeepEqual(got, []string{"g", "h"}) || !reflect.DeepEqual(s.Inclusive[0], []float64{10, 20}) {
		t.Errorf("series nodes %q, inclusive %v; want g, h and 10, 20", got, s.Inclusive[0])
	}
	if p := tr.Nodes[tr.NodeIndex("f => g")].Parent; tr.Nodes[p].Name != "f [THROTTLED]" {
		t.Errorf("parent of f => g is %q", tr.Nodes[p].Name)
	}
}
