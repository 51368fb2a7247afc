package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// TestRegressPage: a noise-free history whose region 2 of 3 gets 10%
// slower at point 31 gives the program's history chart (40 points, the
// change marked) and, for the regression, the moved region's history and
// its medians before and after, 490,000 and 539,000 µs (0.98·10⁶·3/6 and
// 10% more, the generator's figures).
func TestRegressPage(t *testing.T) {
	h, err := synth.GenerateHistory(synth.HistorySpec{Points: 40, MinReps: 1, MaxReps: 2, Regions: 3, Seed: 1,
		Shifts: []synth.Shift{{At: 30, Regions: []int{2}, Size: 0.10}}})
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]string, len(h.Trials))
	for i, tr := range h.Trials {
		vals[i] = tr.Metadata[synth.OrderKeyDefault]
	}
	s, err := analysis.NewHistory(h.Trials, vals)
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Regress(s, analysis.RegressOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cs := Charts(res)
	if len(cs) != 3 {
		t.Fatalf("%d charts, want the history and two for the regression", len(cs))
	}
	if n := cs[0].Table.NumRows(); n != 40 || cs[0].Table.Text("change", 30) != analysis.VerdictRegression {
		t.Errorf("history chart: %d rows, change at point 31 %q", n, cs[0].Table.Text("change", 30))
	}
	if n := cs[1].Table.NumRows(); n != 40 || cs[1].Table.Text("region", 0) != h.RegionNames[2] {
		t.Errorf("moved regions chart: %d rows of %q, want 40 of %s", n, cs[1].Table.Text("region", 0), h.RegionNames[2])
	}
	bt := cs[2].Table
	if bt.NumRows() != 1 || math.Abs(bt.Num("before", 0)-490000) > 1e-6 || math.Abs(bt.Num("after", 0)-539000) > 1e-6 {
		t.Errorf("before/after: %d rows, %v → %v; want 490000 → 539000", bt.NumRows(), bt.Num("before", 0), bt.Num("after", 0))
	}
	dir := t.TempDir()
	if _, err := Write(dir, []*analysis.Result{res}, Meta{}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "01-regress.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"change points", "Regression at point 31", "medians before and after"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
