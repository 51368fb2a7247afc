package caliper

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// otherFormat returns the path of rel under the shared data's
// other-formats/hatchet-hatchet folder (Hatchet's test data, see its
// SOURCES.md), skipping the test when it is absent.
func otherFormat(t testing.TB, rel string) string {
	t.Helper()
	p := otherFormatPath(rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s: shared other-formats data absent", rel)
	}
	return p
}

func otherFormatPath(rel string) string {
	return filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", rel)
}

func read(t testing.TB, rel string) *drg.Trial {
	t.Helper()
	tr, err := Reader{Path: otherFormat(t, rel)}.Read()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// near reports whether got equals want within 1e-9 relative (absolute
// 1e-12 near zero).
func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Max(math.Abs(want), 1e-3)
}

// flat returns the flat node of the region named name.
func flat(t testing.TB, tr *drg.Trial, name string) int {
	t.Helper()
	r := tr.RegionIndex(name)
	if r < 0 {
		t.Fatalf("no region %q", name)
	}
	return tr.Regions[r].Flat
}

// cell returns the exclusive and inclusive value of metric m at node n on
// the thread of MPI rank rank.
func cell(t testing.TB, tr *drg.Trial, m, n, rank int) (excl, incl float64) {
	t.Helper()
	th := tr.ThreadIndex(rank, 0, 0)
	if th < 0 {
		t.Fatalf("no thread of rank %d", rank)
	}
	c := tr.Cell(n, th)
	return tr.Values[m].Exclusive[c], tr.Values[m].Inclusive[c]
}

// children returns, per node, the callpath nodes whose parent it is.
func children(tr *drg.Trial) [][]int {
	ch := make([][]int, len(tr.Nodes))
	for i, n := range tr.Nodes {
		if n.Parent >= 0 {
			ch[n.Parent] = append(ch[n.Parent], i)
		}
	}
	return ch
}
