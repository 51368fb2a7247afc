package synth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/drg/snapshot"
)

// TestJobFilesReadByTheReaders checks the job's files with the project's
// own readers of TAU formats: the snapshot files are one trial whose final
// values are the job's cumulative values and whose earlier snapshots are
// the series; the last text dump parses to the same values.
func TestJobFilesReadByTheReaders(t *testing.T) {
	spec := JobSpec{Ranks: 3, Regions: 4, Intervals: 3, Noise: 0.05, Seed: 11, SlowRank: 1, SlowFrom: 1, SlowFactor: 2, PhaseRegion: 0, PhaseAt: 2, PhaseFactor: 3}
	job, err := NewJob(spec)
	if err != nil {
		t.Fatal(err)
	}
	snaps, dumps := t.TempDir(), t.TempDir()
	ws, wd := &Writer{Job: job, Dir: snaps}, &Writer{Job: job, Dir: dumps, Dumps: true}
	for k := 0; k < spec.Intervals; k++ {
		if _, err := ws.Next(); err != nil {
			t.Fatal(err)
		}
		if _, err := wd.Next(); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := snapshot.Reader{Path: snaps}.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Threads) != 3 || len(tr.Series) != 3*(spec.Intervals-1) {
		t.Fatalf("%d threads, %d earlier snapshots", len(tr.Threads), len(tr.Series))
	}
	last := spec.Intervals - 1
	for r := 0; r < spec.Ranks; r++ {
		for i := -1; i < spec.Regions; i++ {
			calls, excl, incl := job.Cumulative(last, r, i)
			c := tr.Cell(tr.NodeIndex(JobRegionName(i)), r)
			if tr.Calls[c] != calls || tr.Values[0].Exclusive[c] != excl || tr.Values[0].Inclusive[c] != incl {
				t.Errorf("rank %d %s: (%g, %g, %g), want (%g, %g, %g)", r, JobRegionName(i),
					tr.Calls[c], tr.Values[0].Exclusive[c], tr.Values[0].Inclusive[c], calls, excl, incl)
			}
		}
	}
	rows := job.Rows(last)
	name, _ := job.DumpFile(last, 2, rows[2])
	text, err := os.ReadFile(filepath.Join(dumps, name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := profile.Parse(string(text), name)
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range f.Timers {
		var i int
		for i = -1; i < spec.Regions && JobRegionName(i)+" " != tm.Name; i++ {
		}
		calls, excl, incl := job.Cumulative(last, 2, i)
		if tm.Calls != calls || tm.Exclusive != excl || tm.Incl != incl {
			t.Errorf("dump %q: (%g, %g, %g), want (%g, %g, %g)", tm.Name, tm.Calls, tm.Exclusive, tm.Incl, calls, excl, incl)
		}
	}
	if len(f.Timers) != spec.Regions+1 {
		t.Errorf("%d timers in the dump", len(f.Timers))
	}
}

// TestJobInjections: the slow rank and the phase change are where the
// spec puts them, and nowhere else.
func TestJobInjections(t *testing.T) {
	job, _ := NewJob(JobSpec{Ranks: 4, Regions: 3, Intervals: 6, SlowRank: 2, SlowFrom: 3, SlowFactor: 2, PhaseRegion: 1, PhaseAt: 4, PhaseFactor: 3})
	for k := 0; k < 6; k++ {
		for r := 0; r < 4; r++ {
			for i := 0; i < 3; i++ {
				want := 1000 * float64(i+1)
				if r == 2 && k >= 3 {
					want *= 2
				}
				if i == 1 && k >= 4 {
					want *= 3
				}
				if got := job.Delta(k, r, i); got != want {
					t.Errorf("interval %d rank %d region %d: %g, want %g", k, r, i, got, want)
				}
			}
		}
	}
	if _, err := NewJob(JobSpec{Ranks: 0, Regions: 1, Intervals: 1}); err == nil {
		t.Error("0 ranks accepted")
	}
}
