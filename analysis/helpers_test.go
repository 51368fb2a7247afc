package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// rec is one profile record of a hand-built trial: node (flat name or
// callpath "A => B") on thread column th.
type rec struct {
	node           string
	th             int
	excl, incl     float64
	calls, subrs   float64
	groups         string
	alsoFlatOfLeaf bool // also add the values to the leaf's flat node, as TAU writes both
	metric         int  // index of the metric the values belong to
}

// spec describes a hand-built trial.
type spec struct {
	name    string
	threads []drg.ThreadID
	metrics []string
	recs    []rec
	// meta holds per-thread metadata by thread column.
	meta map[int]map[string]string
}

// build makes a trial from s with drg.Builder. Callpath records with
// alsoFlatOfLeaf add the same values to the leaf region's flat node.
func build(t *testing.T, s spec) *drg.Trial {
	t.Helper()
	b, err := drg.NewBuilder(s.threads)
	if err != nil {
		t.Fatal(err)
	}
	metrics := s.metrics
	if metrics == nil {
		metrics = []string{"TIME"}
	}
	for _, m := range metrics {
		b.Metric(m)
	}
	add := func(name string, r rec) {
		n := b.Node(name)
		if r.groups != "" {
			b.SetGroups(n, r.groups)
		}
		b.AddCalls(n, r.th, r.calls, r.subrs)
		b.AddValues(n, r.th, r.metric, r.excl, r.incl)
	}
	for _, r := range s.recs {
		add(r.node, r)
		if r.alsoFlatOfLeaf {
			_, leaf := drg.SplitCallpath(r.node)
			add(leaf, r)
		}
	}
	for th, kv := range s.meta {
		for k, v := range kv {
			b.ThreadMetadata(th, k, v, false)
		}
	}
	tr, err := b.Finish(s.name, drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// Names of the hand trial's regions.
const (
	hMain     = "main"
	hWork     = "work"
	hRecv     = "MPI_Recv()"
	hParallel = "parallel (parallel) [OpenMP location: file:a.c <3, 9>]"
	hWrite    = "fwrite()"
)

// handTrial is a 4-thread trial (threads 0.0.0, 0.0.1, 1.0.0, 1.0.1) with a
// complete call tree rooted at main; every thread's main has inclusive 100:
//
//	                     0.0.0  0.0.1  1.0.0  1.0.1
//	main      excl        30     40     50     45    calls 1
//	main => work          40     20     30     10    calls 2      (TAU_USER)
//	main => MPI_Recv()    10     30     20     40    calls 5,5,5,0 (MPI)
//	main => parallel      20     10      -      -    calls 1      (OpenMP)
//	main => fwrite()       -      -      -      5    calls 1      (TAU_IO)
//
// Callpath and flat records are equal (one calling context each).
// Metadata: "Node Name" hostA on 0.0.0 and hostB on 1.0.0 (their sibling
// threads inherit it), "size" 10, 0, 5, -5 (so work = 20 + 2*size exactly),
// "partial" only on two threads, "const" 1 everywhere.
func handTrial(t *testing.T) *drg.Trial {
	t.Helper()
	s := spec{
		name:    "hand",
		threads: threads("1.0.1", "0.0.0", "1.0.0", "0.0.1"),
		meta: map[int]map[string]string{
			0: {"Node Name": "hostA", "size": "10", "partial": "1", "const": "1"},
			1: {"size": "0", "partial": "2", "const": "1"},
			2: {"Node Name": "hostB", "size": "5", "const": "1"},
			3: {"size": "-5", "const": "1"},
		},
	}
	mainEx := []float64{30, 40, 50, 45}
	work := []float64{40, 20, 30, 10}
	recv := []float64{10, 30, 20, 40}
	recvCalls := []float64{5, 5, 5, 0}
	for th := 0; th < 4; th++ {
		s.recs = append(s.recs,
			rec{node: hMain, th: th, excl: mainEx[th], incl: 100, calls: 1, subrs: 3, groups: "TAU_DEFAULT"},
			rec{node: hMain + " => " + hWork, th: th, excl: work[th], incl: work[th], calls: 2, groups: "TAU_USER", alsoFlatOfLeaf: true},
			rec{node: hMain + " => " + hRecv, th: th, excl: recv[th], incl: recv[th], calls: recvCalls[th], groups: "MPI", alsoFlatOfLeaf: true},
		)
	}
	s.recs = append(s.recs,
		rec{node: hMain + " => " + hParallel, th: 0, excl: 20, incl: 20, calls: 1, groups: "OpenMP", alsoFlatOfLeaf: true},
		rec{node: hMain + " => " + hParallel, th: 1, excl: 10, incl: 10, calls: 1, groups: "OpenMP", alsoFlatOfLeaf: true},
		rec{node: hMain + " => " + hWrite, th: 3, excl: 5, incl: 5, calls: 1, groups: "TAU_IO", alsoFlatOfLeaf: true},
	)
	return build(t, s)
}

// readReal reads a real trial from the shared data (skipping when absent).
func readReal(t *testing.T, rel string) *drg.Trial {
	t.Helper()
	tr, err := reader.Read(realdata.Real(t, rel), "")
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return tr
}

const (
	cpiMPI   = "LLNL-hatchet/tau-cpi-mpi"
	mm7      = "ParaToolsInc-taucmdr/jupyter/east02-mm-profile/7"
	mm0      = "ParaToolsInc-taucmdr/jupyter/east02-mm-profile/0"
	ompPPK   = "UO-OACISS-tau2/perfexplorer/HeatMapSamples/matmult.ppk"
	workflow = "UO-OACISS-tau2/examples/workflow_consolidation/xmain_0"
)

// near reports a failure when got and want differ by more than a relative
// 1e-9 (absolute below 1).
func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.IsNaN(want) {
		if !math.IsNaN(got) {
			t.Errorf("%s = %v, want NaN", what, got)
		}
		return
	}
	if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// row returns the row of tb whose Text column col is value, failing the
// test when there is none.
func row(t *testing.T, tb *Table, col, value string) int {
	t.Helper()
	i := tb.Find(col, value)
	if i < 0 {
		t.Fatalf("table %s: no row with %s = %q", tb.Name, col, value)
	}
	return i
}

// mustTable returns r's table name, failing the test when absent or invalid.
func mustTable(t *testing.T, r *Result, name string) *Table {
	t.Helper()
	tb := r.Table(name)
	if tb == nil {
		t.Fatalf("result %s has no table %q", r.Analysis, name)
	}
	if err := tb.Validate(); err != nil {
		t.Fatal(err)
	}
	return tb
}

// wantErr checks that err is an error whose message contains every part.
func wantErr(t *testing.T, what string, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %q does not mention %q", what, err, p)
		}
	}
}

// threads parses thread names "N.C.T".
func threads(ids ...string) []drg.ThreadID {
	out := make([]drg.ThreadID, len(ids))
	for i, s := range ids {
		id, ok := parseThreadID(s)
		if !ok {
			panic("bad thread " + s)
		}
		out[i] = id
	}
	return out
}
