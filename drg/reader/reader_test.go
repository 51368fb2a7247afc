package reader

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg/ppk"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// TestReadEveryRealTrial reads every trial of the shared data folder
// with format detection and checks the counts of SOURCES.md.
func TestReadEveryRealTrial(t *testing.T) {
	for _, c := range append(realdata.ProfileTrials, realdata.FileTrials...) {
		t.Run(c.Rel, func(t *testing.T) {
			path := realdata.Real(t, c.Rel)
			tr, err := Read(path, "")
			if err != nil {
				t.Fatal(err)
			}
			timers := 0
			nt := len(tr.Threads)
			for i := range tr.Nodes {
				if tr.Present.Count(i*nt, (i+1)*nt) > 0 {
					timers++
				}
			}
			if nt != c.Threads || timers != c.Timers || len(tr.Counters) != c.Events {
				t.Errorf("threads/timers/events %d/%d/%d, SOURCES.md %d/%d/%d", nt, timers, len(tr.Counters), c.Threads, c.Timers, c.Events)
			}
		})
	}
}

// TestDetect tells the formats apart by content, on files the project
// makes: a generated trial written as TAU profiles and as a packed
// profile, and the hand-made snapshot file of testdata/snapshots, plain
// and gzipped.
func TestDetect(t *testing.T) {
	dir := t.TempDir()
	tr, err := synth.Generate(synth.Spec{Processes: 2, ThreadsPerProcess: 1, Regions: 3, Depth: 2, Metrics: 1, Parallel: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	profDir := filepath.Join(dir, "profiles")
	if err := os.Mkdir(profDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := profile.Write(profDir, tr); err != nil {
		t.Fatal(err)
	}
	ppkPath := filepath.Join(dir, "trial.ppk")
	if err := ppk.WriteFile(ppkPath, tr); err != nil {
		t.Fatal(err)
	}
	xmlPath := filepath.Join(realdata.Root(), "testdata", "snapshots", "snapshot.0.0.0")
	// A gzipped XML is told apart from a gzipped ppk by its content.
	gz := filepath.Join(dir, "trial.xml.gz")
	data, err := os.ReadFile(xmlPath)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(gz)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write(data)
	zw.Close()
	f.Close()
	junk := filepath.Join(dir, "junk.bin")
	os.WriteFile(junk, []byte("not a trial"), 0o644)
	for path, want := range map[string]string{
		profDir: "profile",
		ppkPath: "ppk",
		xmlPath: "snapshot",
		gz:      "snapshot",
	} {
		got, err := Detect(path)
		if err != nil || got != want {
			t.Errorf("Detect(%s) = %q, %v; want %q", path, got, err, want)
		}
	}
	if _, err := Detect(junk); err == nil || !strings.Contains(err.Error(), "junk.bin: not a trial this tool reads") {
		t.Errorf("junk: %v", err)
	}
	if _, err := Detect(dir + "/empty-missing"); err == nil {
		t.Error("missing path accepted")
	}
	empty := t.TempDir()
	if _, err := Detect(empty); err == nil || !strings.Contains(err.Error(), "no TAU profile files") {
		t.Errorf("empty folder: %v", err)
	}
	if _, err := Read(ppkPath, "bogus"); err == nil || !strings.Contains(err.Error(), `unknown format "bogus"`) {
		t.Errorf("bad format: %v", err)
	}
	// Forcing the wrong reader fails cleanly.
	if _, err := Read(ppkPath, "snapshot"); err == nil {
		t.Error("ppk read as XML")
	}
}

// TestFlatViewDoesNotDoubleCount checks an invariant of the flat view on
// every real trial: on each thread, the exclusive values of the flat view
// add up to no more than the thread's main-region inclusive value (plus
// rounding), also in sampled trials, whose [SAMPLE] and [CONTEXT] entries
// repeat time the timers already hold.
func TestFlatViewDoesNotDoubleCount(t *testing.T) {
	for _, c := range append(realdata.ProfileTrials, realdata.FileTrials...) {
		t.Run(c.Rel, func(t *testing.T) {
			tr, err := Read(realdata.Real(t, c.Rel), "")
			if err != nil {
				t.Fatal(err)
			}
			m := tr.TimeMetric()
			if !tr.Metrics[m].IsTime() {
				t.Skip("no time metric")
			}
			main := tr.MainInclusive(m)
			flat := tr.Flat()
			for th := range tr.Threads {
				var sum float64
				for _, n := range flat {
					sum += tr.Values[m].Exclusive[tr.Cell(n, th)]
				}
				if sum > main[th]*(1+1e-9)+1 {
					t.Errorf("thread %d: flat exclusive sum %v > main inclusive %v", th, sum, main[th])
				}
			}
		})
	}
}
