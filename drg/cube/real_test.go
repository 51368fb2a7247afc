package cube

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// sharedCubex returns Hatchet's Score-P test file (see
// ../shared/data/other-formats/SOURCES.md), skipping when it is absent.
func sharedCubex(t testing.TB) string {
	t.Helper()
	p := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", "scorep-cpi-cubex", "profile.cubex")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s: shared data absent", p)
	}
	return p
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func cell(t *testing.T, tr *drg.Trial, metric int, node string, th int) (incl, excl float64) {
	t.Helper()
	i := tr.NodeIndex(node)
	if i < 0 {
		t.Fatalf("no node %q", node)
	}
	c := tr.Cell(i, th)
	if metric < 0 {
		return tr.Calls[c], tr.Subroutines[c]
	}
	return tr.Values[metric].Inclusive[c], tr.Values[metric].Exclusive[c]
}

// TestCPIMatchesHatchet reads Hatchet's Score-P cpi profile. Numbers from
// hatchet/tests/scorep.py: 10 distinct names (test_graphframe); on rank 0
// inclusive time 5.056 s for cpi, 0.507 s for MPI_Init, 4.539 s for
// iteration, and visits 1 for cpi and 100082 for iteration (test_tree,
// printed with 3 decimals). The full-precision values are from decoding
// the bytes of 1.data and 0.data by hand (Python struct, little-endian
// doubles and uint64, rows in the order of 1.index's cnode ids 0..10).
func TestCPIMatchesHatchet(t *testing.T) {
	tr, err := Reader{Path: sharedCubex(t)}.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Regions) != 10 {
		t.Errorf("%d regions, Hatchet's test asserts 10 names", len(tr.Regions))
	}
	if len(tr.Threads) != 4 {
		t.Errorf("%d threads, want the 4 MPI ranks of the system tree", len(tr.Threads))
	}
	callpaths := 0
	for _, n := range tr.Nodes {
		if n.Parent >= 0 {
			callpaths++
		}
	}
	// Hatchet's graph: cpi plus 9 distinct callpaths (the two MPI_Bcast
	// regions under iteration share one, as Hatchet merges them).
	if callpaths != 9 {
		t.Errorf("%d callpath nodes, want 9", callpaths)
	}
	m := tr.MetricIndex("TIME")
	if m < 0 || tr.Source.DataSource != 8 || tr.Metadata["CUBE Creator"] != "Score-P 7.1" {
		t.Fatalf("metrics %v, source %+v, metadata %v", tr.Metrics, tr.Source, tr.Metadata)
	}
	hatchet := []struct {
		node string
		sec  float64
	}{{"cpi", 5.056}, {"cpi => main => MPI_Init", 0.507}, {"cpi => main => iteration", 4.539}}
	for _, h := range hatchet {
		if in, _ := cell(t, tr, m, h.node, 0); math.Abs(in/1e6-h.sec) > 0.0005 {
			t.Errorf("%s: inclusive %v µs, Hatchet prints %.3f s", h.node, in, h.sec)
		}
	}
	if c, _ := cell(t, tr, -1, "cpi", 0); c != 1 {
		t.Errorf("cpi visits %v, Hatchet 1", c)
	}
	if c, _ := cell(t, tr, -1, "cpi => main => iteration", 0); c != 100082 {
		t.Errorf("iteration visits %v, Hatchet 100082", c)
	}
	root := []float64{5.055625617385637, 5.055637080469832, 5.055616575148446, 5.055628709258258}
	for th, want := range root {
		if in, _ := cell(t, tr, m, "cpi", th); !near(in, want*1e6) {
			t.Errorf("rank %d: cpi inclusive %v µs, the data holds %v s", th, in, want)
		}
	}
	// iteration (cnode 5) minus its children MPI_Bcast (cnodes 6, 10) and
	// MPI_Reduce (cnode 7), rank 0.
	wantEx := (4.539142315657635 - 0.0020281095124839916 - 0.0 - 0.004361493084857271) * 1e6
	if _, ex := cell(t, tr, m, "cpi => main => iteration", 0); !near(ex, wantEx) {
		t.Errorf("iteration exclusive %v, want %v", ex, wantEx)
	}
	if c, _ := cell(t, tr, -1, "cpi => main => iteration", 1); c != 100098 {
		t.Errorf("iteration visits on rank 1: %v, the data holds 100098", c)
	}
	found := false
	for _, w := range tr.Warnings {
		found = found || strings.Contains(w, "min_time")
	}
	if !found {
		t.Errorf("no warning about the MINDOUBLE metric left out: %q", tr.Warnings)
	}
}
