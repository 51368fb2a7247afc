package watch

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/synth"
)

// fakeClock is a settable clock for the rank time-outs.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// writePiece appends (or writes) what rank r writes at interval k.
func writePiece(t *testing.T, wr *synth.Writer, k, r int) {
	t.Helper()
	path, data, appendTo := wr.Piece(k, r)
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendTo {
		flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
}

func poll(t *testing.T, w *Watcher, job *synth.Job) []*Interval {
	t.Helper()
	ivs, err := w.Poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, iv := range ivs {
		checkSomeDeltas(t, job, iv)
	}
	return ivs
}

// checkSomeDeltas is checkDeltas for the ranks the interval has.
func checkSomeDeltas(t *testing.T, job *synth.Job, iv *Interval) {
	t.Helper()
	col := map[string]int{}
	for j, r := range iv.Deltas.Regions {
		col[r] = j
	}
	for p, id := range iv.Deltas.Ranks {
		for i := 0; i < job.Spec.Regions; i++ {
			_, excl, _ := iv.Deltas.Get(p, col[synth.JobRegionName(i)])
			if want := job.Delta(iv.Index, id.Node, i); excl != want {
				t.Fatalf("interval %d rank %s compute_%d: %g, want %g", iv.Index, id, i, excl, want)
			}
		}
	}
}

// TestRankStopsAndComesBack: a rank that stops writing is left out after
// the time-out (listed as missing); what it writes later is read without
// error and its later deltas are right. A rank whose file appears after
// the first intervals closed joins the same way.
func TestRankStopsAndComesBack(t *testing.T) {
	job, _ := synth.NewJob(synth.JobSpec{Ranks: 5, Regions: 3, Intervals: 6, Noise: 0.02, Seed: 9, SlowRank: -1, PhaseRegion: -1})
	dir := t.TempDir()
	wr := &synth.Writer{Job: job, Dir: dir}
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	w, err := New(dir, Options{RankTimeout: 10 * time.Second, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	write := func(k int, ranks ...int) {
		for _, r := range ranks {
			writePiece(t, wr, k, r)
		}
	}
	for k := 0; k < 3; k++ {
		write(k, 0, 1, 2, 3) // rank 4 has not started writing
	}
	write(3, 0, 1, 2) // rank 3 stops after interval 2
	write(4, 0, 1, 2)
	if ivs := poll(t, w, job); len(ivs) != 3 || ivs[0].Ranks != 4 {
		t.Fatalf("before the time-out: %d intervals closed", len(ivs))
	}
	clock.t = clock.t.Add(11 * time.Second)
	ivs := poll(t, w, job)
	if len(ivs) != 2 || ivs[0].Index != 3 || ivs[0].Ranks != 3 || len(ivs[0].Missing) != 1 || ivs[0].Missing[0].Node != 3 {
		t.Fatalf("after the time-out: %+v", ivs)
	}
	write(3, 3)
	write(4, 3)
	for k := 0; k < 5; k++ {
		write(k, 4) // rank 4 starts late
	}
	write(5, 0, 1, 2, 3, 4)
	if ivs = poll(t, w, job); len(ivs) != 0 {
		t.Fatalf("interval 5 closed right after a new rank appeared: %+v", ivs)
	}
	clock.t = clock.t.Add(4 * time.Second) // the start-up wait for more new ranks
	ivs = poll(t, w, job)
	if len(ivs) != 1 || ivs[0].Index != 5 || ivs[0].Ranks != 5 {
		t.Fatalf("after the ranks came back: %+v", ivs)
	}
	if w.late != 2+5 {
		t.Errorf("%d late dumps, want 7", w.late)
	}
	notes := strings.Join(w.notes, "\n")
	if !strings.Contains(notes, "rank 3.0.0 stopped") || !strings.Contains(notes, "rank 3.0.0 sent data again") {
		t.Errorf("notes: %s", notes)
	}
	tr, err := w.Trial("t")
	if err != nil {
		t.Fatal(err)
	}
	_, excl, _ := job.Cumulative(5, 4, 1)
	if got := tr.Values[0].Exclusive[tr.Cell(tr.NodeIndex("compute_1"), 4)]; got != excl {
		t.Errorf("the trial's last values: rank 4 compute_1 %g, want %g", got, excl)
	}
}

// TestIntervalFoldersAndRewrittenDumps reads profiles written one folder
// per interval, and dump.N.C.T files rewritten at every dump.
func TestIntervalFoldersAndRewrittenDumps(t *testing.T) {
	job, _ := synth.NewJob(synth.JobSpec{Ranks: 3, Regions: 4, Intervals: 4, Noise: 0.02, Seed: 2, SlowRank: -1, PhaseRegion: -1})
	rows := make([][][][3]float64, 4)
	for k := range rows {
		rows[k] = job.Rows(k)
	}
	folders, rewritten := t.TempDir(), t.TempDir()
	wf, _ := New(folders, Options{Ranks: 3})
	wd, _ := New(rewritten, Options{Ranks: 3})
	n := 0
	for k := 0; k < 4; k++ {
		step := filepath.Join(folders, "step-"+strconv.Itoa(k))
		if err := os.Mkdir(step, 0o755); err != nil {
			t.Fatal(err)
		}
		for r := 0; r < 3; r++ {
			_, text := job.DumpFile(k, r, rows[k][r])
			name := "profile." + strconv.Itoa(r) + ".0.0"
			os.WriteFile(filepath.Join(step, name), text, 0o644)
			os.WriteFile(filepath.Join(rewritten, "dump."+strconv.Itoa(r)+".0.0"), text, 0o644)
		}
		for range 2 { // a dump is read once it has not changed for a poll
			n += len(poll(t, wf, job)) + len(poll(t, wd, job))
		}
	}
	if n != 8 {
		t.Errorf("%d intervals from the two layouts, want 8", n)
	}
}

// TestMalformedSnapshot: a complete document with a bad line is an error
// naming the file and the line; a document cut short is not.
func TestMalformedSnapshot(t *testing.T) {
	job, _ := synth.NewJob(synth.JobSpec{Ranks: 1, Regions: 2, Intervals: 2, SlowRank: -1, PhaseRegion: -1})
	dir := t.TempDir()
	wr := &synth.Writer{Job: job, Dir: dir}
	path, doc0, _ := wr.Piece(0, 0)
	_, doc1, _ := wr.Piece(1, 0)
	os.WriteFile(path, append(doc0, doc1[:len(doc1)/2]...), 0o644)
	w, _ := New(dir, Options{})
	if _, err := w.Poll(context.Background()); err != nil {
		t.Fatalf("a half-written document is not an error: %v", err)
	}
	bad := strings.Replace(string(doc1), "2 ", "2 x ", 1)
	os.WriteFile(path, append(doc0, bad...), 0o644)
	_, err := w.Poll(context.Background())
	line := strings.Count(string(doc0)+bad[:strings.Index(bad, "2 x ")], "\n") + 1
	want := filepath.Base(path) + ":" + strconv.Itoa(line) + ":"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one naming %s", err, want)
	}
}

// TestRunStopsCleanly: cancelling the context (Ctrl-C) ends Run without
// error, after every interval written so far was handed over.
func TestRunStopsCleanly(t *testing.T) {
	job, _ := synth.NewJob(synth.JobSpec{Ranks: 4, Regions: 3, Intervals: 5, Noise: 0.01, Seed: 4, SlowRank: -1, PhaseRegion: -1})
	dir := t.TempDir()
	wr := &synth.Writer{Job: job, Dir: dir}
	for range 5 {
		wr.Next()
	}
	w, _ := New(dir, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	var got []int
	var views int
	err := w.Run(ctx, RunOptions{Poll: 10 * time.Millisecond,
		OnInterval: func(iv *Interval) error {
			checkDeltas(t, job, iv)
			got = append(got, iv.Index)
			if len(got) == 2 {
				cancel()
			}
			return nil
		},
		OnUpdate: func([]byte) error { views++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || views < 2 || !strings.Contains(string(w.View()), `"status":"ended"`) {
		t.Errorf("intervals %v, %d views", got, views)
	}
}

// TestIdleExitWaitsForSlowWrites: bytes arriving count as activity, so a
// dump written more slowly than --idle-exit is waited for.
func TestIdleExitWaitsForSlowWrites(t *testing.T) {
	job, _ := synth.NewJob(synth.JobSpec{Ranks: 1, Regions: 3, Intervals: 2, SlowRank: -1, PhaseRegion: -1})
	dir := t.TempDir()
	wr := &synth.Writer{Job: job, Dir: dir}
	writePiece(t, wr, 0, 0)
	path, doc, _ := wr.Piece(1, 0)
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return
		}
		defer f.Close()
		step := len(doc)/8 + 1
		for i := 0; i < len(doc); i += step {
			time.Sleep(80 * time.Millisecond)
			f.Write(doc[i:min(i+step, len(doc))])
		}
	}()
	w, _ := New(dir, Options{Ranks: 1})
	n := 0
	err := w.Run(context.Background(), RunOptions{Poll: 20 * time.Millisecond, IdleExit: 250 * time.Millisecond,
		OnInterval: func(iv *Interval) error { checkDeltas(t, job, iv); n++; return nil }})
	<-done
	if err != nil || n != 2 {
		t.Errorf("%d intervals (%v), want 2: the watch stopped while the second was being written", n, err)
	}
}

// TestMalformedDump: a text dump that stays unparsable past Settle is an
// error naming the file; before that it is taken as being written.
func TestMalformedDump(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.0.0.0")
	os.WriteFile(path, []byte("2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n\"main\" 1 0 x 10 0 GROUP=\"TAU_DEFAULT\"\n"), 0o644)
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	w, _ := New(dir, Options{Settle: 5 * time.Second, Now: clock.now})
	for range 3 {
		if _, err := w.Poll(context.Background()); err != nil {
			t.Fatalf("before Settle: %v", err)
		}
	}
	clock.t = clock.t.Add(6 * time.Second)
	_, err := w.Poll(context.Background())
	if err == nil || !strings.Contains(err.Error(), "dump.0.0.0:3") {
		t.Errorf("error %v, want one naming dump.0.0.0:3", err)
	}
}

// TestMaxOpenBoundsOpenIntervals: a rank far ahead of another is read only
// MaxOpen intervals ahead; the rest is read as the other catches up, with
// the same deltas.
func TestMaxOpenBoundsOpenIntervals(t *testing.T) {
	job, _ := synth.NewJob(synth.JobSpec{Ranks: 2, Regions: 3, Intervals: 10, Noise: 0.02, Seed: 6, SlowRank: -1, PhaseRegion: -1})
	dir := t.TempDir()
	wr := &synth.Writer{Job: job, Dir: dir}
	w, _ := New(dir, Options{Ranks: 2, MaxOpen: 3})
	for k := 0; k < 10; k++ {
		writePiece(t, wr, k, 0)
	}
	n := 0
	for k := 0; k < 10; k++ {
		writePiece(t, wr, k, 1)
		n += len(poll(t, w, job))
		if len(w.open) > 3 {
			t.Fatalf("%d intervals open, MaxOpen 3", len(w.open))
		}
		if ahead := w.ranks[0].seq - w.next; ahead > 3 {
			t.Fatalf("rank 0 read %d intervals ahead", ahead)
		}
	}
	if n != 10 {
		t.Errorf("%d intervals, want 10", n)
	}
}
