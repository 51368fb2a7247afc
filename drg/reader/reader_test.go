package reader

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
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

func TestDetect(t *testing.T) {
	ppkPath := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/2.ppk")
	xmlPath := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/MetadataCorrelation/tauprofile-unweighted.xml")
	dir := t.TempDir()
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
		realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi"): "profile",
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
