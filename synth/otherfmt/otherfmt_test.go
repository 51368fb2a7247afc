package otherfmt

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/caliper"
	"github.com/taudb-analyze/taudb-analyze/drg/cube"
	"github.com/taudb-analyze/taudb-analyze/drg/hpctoolkit"
)

// The trees are big enough in threads (300) that the readers add values
// from two goroutines (each takes at least 128 threads), so that `go test
// -race` sees that path.
const testNodes, testThreads = 123, 300

// checkFlat compares the flat node name(i) of every generated node i with
// the generator's values on every thread: exclusive Excl × scale,
// inclusive the subtree sum × scale (when incl), calls Visits (when
// calls), within 1e-9 relative.
func checkFlat(t *testing.T, tr *drg.Trial, name func(int) string, scale float64, incl, calls bool) {
	t.Helper()
	if len(tr.Threads) != testThreads {
		t.Fatalf("%d threads, want %d", len(tr.Threads), testThreads)
	}
	bad := 0
	for l := 0; l < testThreads; l++ {
		in := inclusive(testNodes, l, nil)
		for i := 0; i < testNodes; i++ {
			n := tr.NodeIndex(name(i))
			if n < 0 {
				t.Fatalf("no node %q", name(i))
			}
			c := tr.Cell(n, l)
			got := []float64{tr.Values[0].Exclusive[c]}
			want := []float64{Excl(i, l) * scale}
			if incl {
				got, want = append(got, tr.Values[0].Inclusive[c]), append(want, in[i]*scale)
			}
			if calls {
				got, want = append(got, tr.Calls[c]), append(want, float64(Visits(i, l)))
			}
			for k := range got {
				if math.Abs(got[k]-want[k]) > 1e-9*math.Abs(want[k]) && bad < 5 {
					bad++
					t.Errorf("%s on thread %d: value %d is %v, want %v", name(i), l, k, got[k], want[k])
				}
			}
		}
	}
}

func TestCubexValues(t *testing.T) {
	for _, compress := range []bool{false, true} {
		p := filepath.Join(t.TempDir(), "gen.cubex")
		if _, err := WriteCubex(p, testNodes, testThreads, compress); err != nil {
			t.Fatal(err)
		}
		tr, err := cube.Reader{Path: p}.Read()
		if err != nil {
			t.Fatal(err)
		}
		checkFlat(t, tr, func(i int) string { return fmt.Sprintf("f%d", i) }, 1e6, true, true)
	}
}

func TestHPCToolkitValues(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteHPCToolkit(dir, testNodes, testThreads); err != nil {
		t.Fatal(err)
	}
	tr, err := hpctoolkit.Reader{Path: dir}.Read()
	if err != nil {
		t.Fatal(err)
	}
	checkFlat(t, tr, func(i int) string { return fmt.Sprintf("f%d", i+1) }, 1e6, true, false)
}

func TestCaliValues(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gen.cali")
	if _, err := WriteCali(p, testThreads, testNodes); err != nil {
		t.Fatal(err)
	}
	tr, err := caliper.Reader{Path: p}.Read()
	if err != nil {
		t.Fatal(err)
	}
	checkFlat(t, tr, func(i int) string { return fmt.Sprintf("region_%d", i) }, 1, true, false)
}

// TestInflateCubex inflates a compressed generated file and refuses a
// plain one (whose data members are not zlib segments).
func TestInflateCubex(t *testing.T) {
	dir := t.TempDir()
	for _, compress := range []bool{true, false} {
		p := filepath.Join(dir, fmt.Sprint(compress, ".cubex"))
		if _, err := WriteCubex(p, 30, 20, compress); err != nil {
			t.Fatal(err)
		}
		if err := InflateCubex(p); (err == nil) != compress {
			t.Errorf("compress %v: InflateCubex gave %v", compress, err)
		}
	}
}
