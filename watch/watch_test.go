package watch

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/synth"
)

// testSpec is a small job with a slow rank from interval 6 and a phase
// change (compute_2 three times slower) from interval 4.
func testSpec(slow, phase bool) synth.JobSpec {
	s := synth.JobSpec{Ranks: 8, Regions: 6, Intervals: 10, Noise: 0.02, Seed: 7, SlowRank: -1, PhaseRegion: -1}
	if slow {
		s.SlowRank, s.SlowFrom, s.SlowFactor = 5, 6, 2
	}
	if phase {
		s.PhaseRegion, s.PhaseAt, s.PhaseFactor = 2, 4, 3
	}
	return s
}

// watchJob writes the job interval by interval, polling after each write
// (twice: whole-file dumps are read once stable), and returns every
// interval with its deltas checked against the generator.
func watchJob(t *testing.T, spec synth.JobSpec, dumps bool) []*Interval {
	t.Helper()
	job, err := synth.NewJob(spec)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wr := &synth.Writer{Job: job, Dir: dir, Dumps: dumps}
	w, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var got []*Interval
	keep := func(ivs []*Interval) {
		for _, iv := range ivs {
			checkDeltas(t, job, iv)
			iv.Deltas = nil
			got = append(got, iv)
		}
	}
	for {
		k, err := wr.Next()
		if err != nil {
			t.Fatal(err)
		}
		if k < 0 {
			break
		}
		for range 2 {
			ivs, err := w.Poll(ctx)
			if err != nil {
				t.Fatal(err)
			}
			keep(ivs)
		}
	}
	ivs, err := w.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	keep(ivs)
	if len(got) != spec.Intervals {
		t.Fatalf("%d intervals, want %d", len(got), spec.Intervals)
	}
	return got
}

// checkDeltas compares every rank's and region's deltas with the
// generator's.
func checkDeltas(t *testing.T, job *synth.Job, iv *Interval) {
	t.Helper()
	d := iv.Deltas
	if len(d.Ranks) != job.Spec.Ranks {
		t.Fatalf("interval %d: %d ranks, want %d", iv.Index, len(d.Ranks), job.Spec.Ranks)
	}
	col := map[string]int{}
	for j, r := range d.Regions {
		col[r] = j
	}
	for p, id := range d.Ranks {
		r := id.Node
		for i := -1; i < job.Spec.Regions; i++ {
			j, ok := col[synth.JobRegionName(i)]
			if !ok {
				t.Fatalf("region %s missing", synth.JobRegionName(i))
			}
			calls, excl, incl := d.Get(p, j)
			wantCalls, wantIncl := float64(i+1), job.Delta(iv.Index, r, i)
			if i < 0 {
				wantCalls, wantIncl = 0, job.ProgramDelta(iv.Index, r)
				if iv.Index == 0 {
					wantCalls = 1
				}
			}
			if calls != wantCalls || excl != job.Delta(iv.Index, r, i) || incl != wantIncl {
				t.Fatalf("interval %d rank %d %s: deltas (%g, %g, %g), want (%g, %g, %g)", iv.Index, r, synth.JobRegionName(i),
					calls, excl, incl, wantCalls, job.Delta(iv.Index, r, i), wantIncl)
			}
		}
	}
}

// flagsByInterval lists each interval's anomalies as "kind rank region".
func flagsByInterval(ivs []*Interval) map[int][]string {
	out := map[int][]string{}
	for _, iv := range ivs {
		for _, a := range iv.Anomalies {
			out[iv.Index] = append(out[iv.Index], fmt.Sprintf("%s %s %s", a.Kind, a.Rank, a.Region))
		}
	}
	return out
}

func TestCleanRunFlagsNothing(t *testing.T) {
	for _, dumps := range []bool{false, true} {
		ivs := watchJob(t, testSpec(false, false), dumps)
		if f := flagsByInterval(ivs); len(f) > 0 {
			t.Errorf("dumps=%v: clean run flagged: %v", dumps, f)
		}
	}
}

func TestSlowRankAndPhaseFlagged(t *testing.T) {
	for _, dumps := range []bool{false, true} {
		ivs := watchJob(t, testSpec(true, true), dumps)
		f := flagsByInterval(ivs)
		for k, flags := range f {
			for _, fl := range flags {
				switch {
				case k == 4 && (fl == "region-vs-history  compute_2" || fl == "program-vs-history  program"):
				case k >= 6 && fl == "rank-vs-ranks 5.0.0 program":
				case k == 6 && fl == "rank-vs-history 5.0.0 program":
				default:
					t.Errorf("dumps=%v: unexpected flag in interval %d: %s", dumps, k, fl)
				}
			}
		}
		want := map[int][]string{4: {"region-vs-history  compute_2"}, 6: {"rank-vs-ranks 5.0.0 program", "rank-vs-history 5.0.0 program"}}
		for k, ws := range want {
			for _, w := range ws {
				if !contains(f[k], w) {
					t.Errorf("dumps=%v: interval %d lacks %q (has %v)", dumps, k, w, f[k])
				}
			}
		}
		for k := 0; k < 6; k++ {
			for _, fl := range f[k] {
				if fl[:4] == "rank" {
					t.Errorf("dumps=%v: rank flagged before the slowdown, interval %d: %s", dumps, k, fl)
				}
			}
		}
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// TestPiecewiseWrites writes every document and dump in pieces of a few
// bytes, polling between pieces: no error, and the same deltas.
func TestPiecewiseWrites(t *testing.T) {
	for _, dumps := range []bool{false, true} {
		spec := synth.JobSpec{Ranks: 4, Regions: 3, Intervals: 4, Noise: 0.02, Seed: 3, SlowRank: -1, PhaseRegion: -1}
		job, _ := synth.NewJob(spec)
		dir := t.TempDir()
		wr := &synth.Writer{Job: job, Dir: dir, Dumps: dumps}
		w, err := New(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for k := 0; k < spec.Intervals; k++ {
			for r := 0; r < spec.Ranks; r++ {
				path, data, appendTo := wr.Piece(k, r)
				f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				_ = appendTo
				for i := 0; i < len(data); i += 7 {
					if _, err := f.Write(data[i:min(i+7, len(data))]); err != nil {
						t.Fatal(err)
					}
					if i%70 == 0 {
						time.Sleep(50 * time.Microsecond)
					}
					ivs, err := w.Poll(context.Background())
					if err != nil {
						t.Fatalf("dumps=%v: poll while %s was being written: %v", dumps, filepath.Base(path), err)
					}
					for _, iv := range ivs {
						checkDeltas(t, job, iv)
						n++
					}
				}
				f.Close()
			}
		}
		ivs, err := w.Finish(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, iv := range ivs {
			checkDeltas(t, job, iv)
			n++
		}
		if n != spec.Intervals {
			t.Errorf("dumps=%v: %d intervals, want %d", dumps, n, spec.Intervals)
		}
	}
}

// TestClustersOnlyWhenSeparated: in a clean run every interval's ranks
// form one group (their differences are noise), while from the slowdown
// on (interval 6) the slow rank 5 is a cluster of its own, with a mean
// silhouette of at least MinSilhouette.
func TestClustersOnlyWhenSeparated(t *testing.T) {
	for _, iv := range watchJob(t, testSpec(false, false), false) {
		if len(iv.Clusters) != 1 || !math.IsNaN(iv.Silhouette) {
			t.Errorf("clean run, interval %d: %d clusters (silhouette %v), want one group", iv.Index, len(iv.Clusters), iv.Silhouette)
		}
	}
	for _, iv := range watchJob(t, testSpec(true, false), false) {
		if iv.Index < 6 {
			continue
		}
		alone := false
		for _, c := range iv.Clusters {
			alone = alone || (c.Size == 1 && c.Ranks[0].Node == 5)
		}
		if !alone || !(iv.Silhouette >= MinSilhouette) {
			t.Errorf("slow rank, interval %d: clusters %+v (silhouette %v), want rank 5 alone", iv.Index, iv.Clusters, iv.Silhouette)
		}
	}
}
