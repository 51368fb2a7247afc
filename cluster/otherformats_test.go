package cluster

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestHPCToolkitTrial runs imbalance and clustering on the OSU allgather
// HPCToolkit database (10 ranks × 2 threads). Imbalance: every row's mean
// and max equal those computed here from the trial's exclusive values of
// the present threads. Clustering: all 20 threads are clustered, the
// cluster sizes add up to 20, with k = 2 as asked.
func TestHPCToolkitTrial(t *testing.T) {
	p := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", "hpctoolkit-allgather-database")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s: shared data absent", p)
	}
	tr, err := reader.Read(p, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Imbalance(tr, analysis.ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab := res.Table("imbalance")
	if tab == nil || tab.NumRows() == 0 {
		t.Fatal("no imbalance rows")
	}
	m, nt := tr.TimeMetric(), len(tr.Threads)
	for i := 0; i < tab.NumRows(); i++ {
		r := tr.RegionIndex(tab.Text("region", i))
		if r < 0 {
			t.Fatalf("row %d: region %q not in the trial", i, tab.Text("region", i))
		}
		var sum, mx float64
		n := 0
		for th := 0; th < nt; th++ {
			c := tr.Cell(tr.Regions[r].Flat, th)
			if tr.Present.Get(c) {
				v := tr.Values[m].Exclusive[c]
				sum, mx, n = sum+v, math.Max(mx, v), n+1
			}
		}
		if mean := sum / float64(n); math.Abs(tab.Num("mean", i)-mean) > 1e-9*math.Max(1, mean) || tab.Num("max", i) != mx {
			t.Errorf("%s: mean %v max %v, want %v %v", tab.Text("region", i), tab.Num("mean", i), tab.Num("max", i), mean, mx)
		}
	}
	cres, err := Cluster([]*drg.Trial{tr}, Options{K: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	sizes := cres.Table("sizes")
	total := 0.0
	for i := 0; i < sizes.NumRows(); i++ {
		total += sizes.Num("size", i)
	}
	if sizes.NumRows() != 2 || total != 20 || cres.Table("membership").NumRows() != 20 {
		t.Errorf("%d clusters of %v threads, membership %d rows; want 2 clusters of 20", sizes.NumRows(), total, cres.Table("membership").NumRows())
	}
}
