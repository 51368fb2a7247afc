package analysis_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/caliper"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestImbalanceCaliper runs the imbalance analysis on Hatchet's LULESH
// Caliper JSON (8 MPI ranks). main's exclusive time per rank, read by hand
// from the file's rows: 121489, 105528, 110799, 113830, 118953, 133256,
// 114035, 137098.
func TestImbalanceCaliper(t *testing.T) {
	p := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", "caliper-lulesh-json", "lulesh-annotation-profile.json")
	if _, err := os.Stat(p); err != nil {
		t.Skip("shared other-formats data absent")
	}
	tr, err := caliper.Reader{Path: p}.Read()
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Imbalance(tr, analysis.ImbalanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ranks := []float64{121489, 105528, 110799, 113830, 118953, 133256, 114035, 137098}
	mean, mx := 0.0, 0.0
	for _, v := range ranks {
		mean += v / 8
		mx = math.Max(mx, v)
	}
	tb := res.Table("imbalance")
	for i := 0; i < tb.NumRows(); i++ {
		if tb.Text("region", i) != "main" {
			continue
		}
		if got := tb.Num("imbalance", i); math.Abs(got-mx/mean) > 1e-12 || tb.Num("max", i) != mx || tb.Text("max_thread", i) != "7.0.0" {
			t.Errorf("main: imbalance %v max %v on %s, want %v, %v on 7.0.0", got, tb.Num("max", i), tb.Text("max_thread", i), mx/mean, mx)
		}
		return
	}
	t.Fatal("no row for main")
}

// splitProfile writes a cali-query json-split profile of p ranks: main with
// 2 time units of its own and work with 96/p on every rank.
func splitProfile(t *testing.T, dir string, p int) *drg.Trial {
	var rows []string
	for r := 0; r < p; r++ {
		rows = append(rows, fmt.Sprintf("[2, %d, 0]", r), fmt.Sprintf("[%g, %d, 1]", 96/float64(p), r))
	}
	doc := `{"data": [` + strings.Join(rows, ",") + `],
 "columns": ["sum#time.duration", "mpi.rank", "path"],
 "column_metadata": [{"is_value": true}, {"is_value": true}, {"is_value": false}],
 "nodes": [{"label": "main", "column": "path"}, {"label": "work", "column": "path", "parent": 0}]}`
	path := filepath.Join(dir, fmt.Sprintf("np%d.json", p))
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := caliper.Reader{Path: path}.Read()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestSpeedupCaliper runs speedup on a series of generated Caliper
// profiles whose program time is T(p) = 2 + 96/p (main's inclusive time,
// derived by the reader from the exclusive times): speedup T(1)/T(p).
func TestSpeedupCaliper(t *testing.T) {
	dir := t.TempDir()
	var trials []*drg.Trial
	for _, p := range []int{1, 2, 4} {
		trials = append(trials, splitProfile(t, dir, p))
	}
	series, err := analysis.NewSeries(trials, "", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := analysis.Speedup(series, analysis.SpeedupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	prog := res.Table("program")
	for i, want := range []float64{1, 98.0 / 50, 98.0 / 26} {
		if got := prog.Num("speedup", i); math.Abs(got-want) > 1e-12 || prog.Num("p", i) != float64(int(1)<<i) {
			t.Errorf("row %d: p %v speedup %v, want %v", i, prog.Num("p", i), got, want)
		}
	}
}
