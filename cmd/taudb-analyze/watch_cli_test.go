package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/synth"
)

// writeJob writes every interval of a job with a slow rank (5 from
// interval 6) and a phase change (compute_2 ×3 from interval 4).
func writeJob(t *testing.T, dumps bool) string {
	t.Helper()
	job, err := synth.NewJob(synth.JobSpec{Ranks: 8, Regions: 6, Intervals: 10, Noise: 0.02, Seed: 7,
		SlowRank: 5, SlowFrom: 6, SlowFactor: 2, PhaseRegion: 2, PhaseAt: 4, PhaseFactor: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "job")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w := &synth.Writer{Job: job, Dir: dir, Dumps: dumps}
	for {
		k, err := w.Next()
		if err != nil {
			t.Fatal(err)
		}
		if k < 0 {
			return dir
		}
	}
}

// TestWatchStoresAndFlags watches a finished job as a user would: the
// intervals are printed with their flags, the live page is written, and
// the trial stored at the end is one every analysis reads.
func TestWatchStoresAndFlags(t *testing.T) {
	dir := writeJob(t, false)
	db := "sqlite:" + t.TempDir() + "/taudb.db"
	out := filepath.Join(t.TempDir(), "live")
	r := cli(t, nil, "--db", db, "watch", dir, "--out", out, "--idle-exit", "300ms", "--poll", "20ms", "-n", "live-job")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"interval 9: 8 ranks (0 missing)", "anomaly (region-vs-history): region compute_2",
		"anomaly (rank-vs-ranks): rank 5.0.0", `stored trial "live-job"`} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, r.stdout, r.stderr)
		}
	}
	if head := r.stdout[:strings.Index(r.stdout, "interval 6:")]; strings.Contains(head, "anomaly (rank") {
		t.Errorf("rank 5 flagged before its slowdown:\n%s", head)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !strings.Contains(string(page), `"status":"ended"`) || strings.Contains(string(page), "http-equiv") {
		t.Errorf("the final page should say ended and stop reloading (%v)", err)
	}
	imb := cli(t, nil, "--db", db, "--format", "json", "imbalance", "--trial", "live-job", "--no-save")
	if imb.code != 0 || !strings.Contains(imb.stdout, "compute_5") {
		t.Fatalf("imbalance on the watched trial: exit %d: %s", imb.code, imb.stderr)
	}
}

// TestWatchJSONNoSave checks --format json and --no-save on text dumps.
func TestWatchJSONNoSave(t *testing.T) {
	dir := writeJob(t, true)
	db := "sqlite:" + t.TempDir() + "/none.db"
	r := cli(t, nil, "--db", db, "--format", "json", "watch", dir, "--no-save", "--idle-exit", "300ms", "--poll", "20ms")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var doc struct {
		Trial     int64
		Intervals []struct {
			Interval  int
			Ranks     int
			Anomalies []struct{ Kind, Rank, Region string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, r.stdout)
	}
	if len(doc.Intervals) != 10 || doc.Trial != 0 {
		t.Fatalf("%d intervals, trial %d; want 10 and none stored", len(doc.Intervals), doc.Trial)
	}
	if _, err := os.Stat(strings.TrimPrefix(db, "sqlite:")); err == nil {
		t.Errorf("--no-save created the database")
	}
	found := false
	for _, a := range doc.Intervals[6].Anomalies {
		found = found || a.Kind == "rank-vs-ranks" && a.Rank == "5.0.0"
	}
	if !found {
		t.Errorf("interval 6 lacks the slow rank's flag: %+v", doc.Intervals[6])
	}
}

func TestWatchBadArguments(t *testing.T) {
	if r := cli(t, nil, "watch", "/nonexistent/folder", "--no-save"); r.code != 2 || !strings.Contains(r.stderr, "not a folder") {
		t.Errorf("missing folder: exit %d %s", r.code, r.stderr)
	}
	dir := t.TempDir()
	if r := cli(t, nil, "watch", dir, "--no-save", "--serve", "nonsense"); r.code != 2 || !strings.Contains(r.stderr, "--serve") {
		t.Errorf("bad --serve: exit %d %s", r.code, r.stderr)
	}
}

// TestWatchInterrupt stops a watch with SIGINT, as Ctrl-C does: it exits 0
// after storing every interval read and the trial.
func TestWatchInterrupt(t *testing.T) {
	dir := writeJob(t, false)
	db := "sqlite:" + t.TempDir() + "/taudb.db"
	cmd := exec.Command(binary, "--db", db, "watch", dir, "--poll", "20ms", "-n", "stopped")
	var out, errOut lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), "interval 8:") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGINT: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "interval 9:") || !strings.Contains(errOut.String(), `stored trial "stopped"`) {
		t.Errorf("after SIGINT: stdout %s\nstderr %s", out.String(), errOut.String())
	}
	if r := cli(t, nil, "--db", db, "trials"); !strings.Contains(r.stdout, "stopped") {
		t.Errorf("trial not stored: %s", r.stdout)
	}
}

// lockedBuffer is a bytes.Buffer safe to read while a process writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSynthJob writes a job with synth --job and watches it.
func TestSynthJob(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	r := cli(t, nil, "synth", "--job", dir, "--job-ranks", "4", "--job-intervals", "6", "--every", "1ms", "--regions", "5",
		"--slow-rank", "1", "--slow-from", "4")
	if r.code != 0 || !strings.Contains(r.stdout, "interval 5 written") {
		t.Fatalf("synth --job: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	w := cli(t, nil, "watch", dir, "--no-save", "--idle-exit", "200ms", "--poll", "20ms")
	if w.code != 0 || !strings.Contains(w.stdout, "interval 5: 4 ranks") || !strings.Contains(w.stdout, "anomaly (rank-vs-history): rank 1.0.0") {
		t.Errorf("watch of the synth job: exit %d:\n%s%s", w.code, w.stdout, w.stderr)
	}
	if bad := cli(t, nil, "synth", "--job", dir, "--job-ranks", "0"); bad.code != 2 {
		t.Errorf("--job-ranks 0: exit %d", bad.code)
	}
}
