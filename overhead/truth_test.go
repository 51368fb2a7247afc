package overhead

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// TestRecoversGeneratedOverheads runs the analysis on series whose every
// overhead component is known (synth.OverheadSpec: serial code on rank 0,
// replicated setup, divided work with imbalance, point-to-point time,
// MPI_Init/Finalize) and requires each category within 2% of the
// generator's value, identified + unidentified = T_o and no negative
// category.
func TestRecoversGeneratedOverheads(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 17))
	specs := []synth.OverheadSpec{
		{Serial: 2e5, Work: 8e6, Replicated: 1e5, Comm: 3e4, Control: 5e4, Imbalance: 0.2},
		{Serial: 0, Work: 1e7, Replicated: 0, Comm: 0, Control: 1e3, Imbalance: 0},
		{Serial: 1e6, Work: 1e6, Replicated: 5e5, Comm: 1e5, Control: 0, Imbalance: 1.5},
	}
	for i := 0; i < 20; i++ {
		specs = append(specs, synth.OverheadSpec{
			Serial: rng.Float64() * 1e6, Work: 1e5 + rng.Float64()*1e8, Replicated: rng.Float64() * 1e6,
			Comm: rng.Float64() * 1e5, Control: rng.Float64() * 1e5, Imbalance: rng.Float64() * 1.5,
		})
	}
	ps := []int{1, 2, 4, 8, 16, 32}
	for si, s := range specs {
		var trials []*drg.Trial
		var p []float64
		for _, n := range ps {
			tr, err := s.Generate(n, fmt.Sprintf("s%d-p%d", si, n))
			if err != nil {
				t.Fatal(err)
			}
			trials = append(trials, tr)
			p = append(p, float64(n))
		}
		res, err := analyzeP(trials, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkExact(t, res)
		if hasFinding(res, "oversubscribed") {
			t.Errorf("spec %d: oversubscribed without host metadata: %q", si, res.Findings)
		}
		for j, n := range ps {
			want := s.Overheads(n)
			col := fmt.Sprintf("p%d", n)
			for _, c := range []struct {
				cat, sub string
				want     float64
			}{
				{"total execution time", "", want.Tp}, {"total overhead", "", want.To},
				{"data movement", "", want.DataMovement}, {"synchronization", "", want.Synchronization},
				{"control of parallelism", "", want.Control}, {"additional computation", "", 0},
				{"loss of parallelism", "", want.Loss}, {"loss of parallelism", SubUnparallelized, want.Unparallelized},
				{"loss of parallelism", SubReplicated, want.Replicated}, {"unidentified", "", 0},
			} {
				got := 0.0
				if c.sub == "" || hasRow(res, c.cat, c.sub) {
					got = cell(t, res, c.cat, c.sub, col)
				}
				if math.Abs(got-c.want) > 0.02*math.Abs(c.want)+1e-9*want.Tp {
					t.Errorf("spec %d (%+v) p=%d: %s / %s = %v, want %v", si, s, n, c.cat, c.sub, got, c.want)
				}
			}
			if tot := res.Table("totals"); tot.Num("p", j) != float64(n) {
				t.Errorf("spec %d: experiment %d has p %v, want %d (p order)", si, j, tot.Num("p", j), n)
			}
		}
	}
}
