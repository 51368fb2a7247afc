package ppk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// writtenPPK returns a small generated trial as Write encodes it (gzip).
func writtenPPK(t testing.TB) []byte {
	t.Helper()
	tr, err := synth.Generate(synth.Spec{Processes: 4, ThreadsPerProcess: 2, Regions: 12, Depth: 2, Metrics: 1,
		Serial: 1e4, Parallel: 1e6, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// roundTrip writes tr with Write and decodes the result.
func roundTrip(t *testing.T, tr *drg.Trial) *drg.Trial {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte{0x1f, 0x8b}) {
		t.Fatalf("output starts with % x, not a gzip header", buf.Bytes()[:min(buf.Len(), 4)])
	}
	back, err := decodeBytes(buf.Bytes(), "back.ppk")
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Warnings) != 0 {
		t.Errorf("warnings reading back: %q", back.Warnings)
	}
	return back
}

// fileTypeKeys are the metadata keys a reader sets from the format.
var fileTypeKeys = []string{"File Type Index", "File Type Name"}

// compareTrials reports every difference between want and got in threads,
// metrics, regions, nodes, values, calls, subroutines, present bits,
// counters and metadata. The file-type keys of the trial metadata are
// compared only when want was read from a ppk; otherwise got must have the
// ppk ones.
func compareTrials(t *testing.T, want, got *drg.Trial) {
	t.Helper()
	wm, gm := maps.Clone(want.Metadata), maps.Clone(got.Metadata)
	if want.Source.Format != "ppk" {
		for _, k := range fileTypeKeys {
			delete(wm, k)
			delete(gm, k)
		}
		if got.Metadata["File Type Index"] != "0" || got.Metadata["File Type Name"] != "ParaProf Packed Profile" {
			t.Errorf("file type %q/%q", got.Metadata["File Type Index"], got.Metadata["File Type Name"])
		}
	}
	if !maps.Equal(wm, gm) {
		t.Errorf("trial metadata:\n got %q\nwant %q", gm, wm)
	}
	if len(want.Threads) != len(got.Threads) {
		t.Fatalf("%d threads, want %d", len(got.Threads), len(want.Threads))
	}
	for i, w := range want.Threads {
		g := got.Threads[i]
		if g.Node != w.Node || g.Context != w.Context || g.Thread != w.Thread || g.Index != w.Index || !maps.Equal(g.Metadata, w.Metadata) {
			t.Errorf("thread %d: %+v, want %+v", i, g, w)
		}
	}
	if !slices.Equal(want.Metrics, got.Metrics) {
		t.Errorf("metrics %+v, want %+v", got.Metrics, want.Metrics)
	}
	if len(want.Regions) != len(got.Regions) {
		t.Fatalf("%d regions, want %d", len(got.Regions), len(want.Regions))
	}
	for i, w := range want.Regions {
		g := got.Regions[i]
		if g.Name != w.Name || g.ShortName != w.ShortName || g.SourceFile != w.SourceFile || g.Flat != w.Flat ||
			[4]int{g.LineStart, g.ColumnStart, g.LineEnd, g.ColumnEnd} != [4]int{w.LineStart, w.ColumnStart, w.LineEnd, w.ColumnEnd} ||
			!slices.Equal(g.Groups, w.Groups) || !slices.Equal(g.Params, w.Params) {
			t.Errorf("region %d: %+v, want %+v", i, g, w)
		}
	}
	if !slices.Equal(want.Nodes, got.Nodes) {
		t.Fatalf("nodes differ:\n got %+v\nwant %+v", got.Nodes, want.Nodes)
	}
	cells := len(want.Nodes) * len(want.Threads)
	if len(want.Values) != len(got.Values) {
		t.Fatalf("%d value columns, want %d", len(got.Values), len(want.Values))
	}
	for m := range want.Values {
		if !slices.Equal(want.Values[m].Exclusive, got.Values[m].Exclusive) || !slices.Equal(want.Values[m].Inclusive, got.Values[m].Inclusive) {
			t.Errorf("metric %d values differ", m)
		}
	}
	if !slices.Equal(want.Calls, got.Calls) || !slices.Equal(want.Subroutines, got.Subroutines) {
		t.Errorf("calls or subroutines differ")
	}
	for k := range cells {
		if want.Present.Get(k) != got.Present.Get(k) {
			t.Errorf("present bit of cell %d: %v, want %v", k, got.Present.Get(k), want.Present.Get(k))
			break
		}
	}
	if !slices.Equal(want.Counters, got.Counters) {
		t.Errorf("counters %+v, want %+v", got.Counters, want.Counters)
	}
	if !slices.Equal(want.CounterValues, got.CounterValues) {
		t.Errorf("counter values differ")
	}
	for k := range len(want.Counters) * len(want.Threads) {
		if want.CounterPresent.Get(k) != got.CounterPresent.Get(k) {
			t.Errorf("counter present bit %d: %v, want %v", k, got.CounterPresent.Get(k), want.CounterPresent.Get(k))
			break
		}
	}
}

// TestWriteRoundTripPPK writes every real packed profile read by this
// package's tests and reads it back.
func TestWriteRoundTripPPK(t *testing.T) {
	for _, f := range realFiles {
		t.Run(f.path, func(t *testing.T) {
			tr, err := Reader{Path: filepath.Join(dataDir(t), f.path)}.Read()
			if err != nil {
				t.Fatal(err)
			}
			compareTrials(t, tr, roundTrip(t, tr))
		})
	}
}

// TestWriteRoundTripProfile writes the real TAU profile folders of the
// shared data folder and reads them back.
func TestWriteRoundTripProfile(t *testing.T) {
	found := 0
	for _, c := range realdata.ProfileTrials {
		path, ok := realdata.Find(c.Rel)
		if !ok {
			continue
		}
		found++
		t.Run(c.Rel, func(t *testing.T) {
			tr, err := profile.Reader{Path: path}.Read()
			if err != nil {
				t.Fatal(err)
			}
			compareTrials(t, tr, roundTrip(t, tr))
		})
	}
	if found == 0 {
		realdata.Missing(t, "no real profile trial in the shared data folder")
	}
}

// TestWriteRoundTripSynth writes a generated trial with several metrics,
// threads and callpaths.
func TestWriteRoundTripSynth(t *testing.T) {
	tr, err := synth.Generate(synth.Spec{Processes: 5, ThreadsPerProcess: 3, Regions: 40, Depth: 2, Metrics: 4,
		Serial: 1e5, Parallel: 1e6, Log: 10, Noise: 0.1, Imbalance: 0.5, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, tr)
	compareTrials(t, tr, back)
	if back.Nodes[tr.NodeIndex("main => "+tr.Regions[1].Name)].Derived {
		t.Error("a measured callpath came back derived")
	}
}

// TestWriteHandMade writes the trial decoded from the hand-made profile
// (a non-BMP character, a NUL, a context event, a thread with metadata
// only, a derived callpath) and reads it back.
func TestWriteHandMade(t *testing.T) {
	f := handMade()
	f.groups = append(f.groups, "TAU_CALLPATH_DERIVED")
	f.functions = append(f.functions, tFunction{name: handMain + " => " + handSend, groups: []int32{0, 1, 4}})
	f.threads[0].fps = append(f.threads[0].fps, tFP{fn: 4, calls: 1, values: []float64{1, 2, 3, 4}})
	tr, err := decodeBytes(f.encode(), "hand.ppk")
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Nodes[tr.NodeIndex(handMain+" => "+handSend)].Derived {
		t.Fatal("the hand-made derived callpath is not derived")
	}
	back := roundTrip(t, tr)
	compareTrials(t, tr, back)

	// The unmodified profile passes the reader's own checks once rewritten.
	tr, err = decodeBytes(handMade().encode(), "hand.ppk")
	if err != nil {
		t.Fatal(err)
	}
	checkHandMade(t, roundTrip(t, tr))
}

// TestWriteLayout compares the decompressed output with the test encoder's
// payload of the same profile, in the order the writer promises: metadata
// keys and groups sorted in UTF-16 order (a character above U+FFFF sorts
// before U+FF21 there, after it in Go's byte order), every thread in the
// header, a callpath's groups being its leaf's plus TAU_CALLPATH, profiles
// in node and counter order, and no user-event profile where none was read.
func TestWriteLayout(t *testing.T) {
	want := &tFile{
		version: 2, compatible: 1,
		trialMeta: []string{"Application", "hand", "File Type Index", "0", "File Type Name", "ParaProf Packed Profile",
			"\U0001F600", "smile", "\uFF21", "fullwidth A"},
		threadMeta: []tThreadMeta{
			{id: [3]int32{0, 0, 0}, kv: []string{"Hostname", "a", "pid", "100"}},
			{id: [3]int32{0, 0, 1}},
			{id: [3]int32{3, 1, 2}, kv: []string{"pid", "\x00102"}},
		},
		metrics: []string{"TIME", "PAPI_FP_INS"},
		groups:  []string{"MPI", "TAU_CALLPATH", "TAU_DEFAULT", "TAU_USER", "\U0001F600", "\uFF21"},
		functions: []tFunction{
			{name: handSend, groups: []int32{0, 5, 4}},
			{name: handLeaf, groups: []int32{3}},
			{name: handMain, groups: []int32{2}},
			{name: handCallpath, groups: []int32{3, 1}},
			{name: "idle"},
		},
		userEvents: []string{handContext, handEvent},
		threads: []tThread{
			{id: [3]int32{0, 0, 0},
				fps: []tFP{
					{fn: 1, calls: 3, subrs: 0, values: []float64{45, 45, 4500, 4500}},
					{fn: 2, calls: 1, subrs: 1, values: []float64{5, 50, 500, 5000}},
					{fn: 3, calls: 3, subrs: 0, values: []float64{45, 45, 4500, 4500}},
				},
				ueps: []tUEP{
					{ue: 0, n: 1, min: 4, max: 4, mean: 4, sumsqr: 16},
					{ue: 1, n: 3, min: 1, max: 3, mean: 2, sumsqr: 14},
				},
			},
			{id: [3]int32{0, 0, 1}},
			{id: [3]int32{3, 1, 2},
				fps:  []tFP{{fn: 0, calls: 2, values: []float64{90, 90, 0, 0}}, {fn: 4, values: []float64{0, 0, 0, 0}}},
				ueps: []tUEP{{ue: 1, n: 2, min: 8, max: 16, mean: 12, sumsqr: 320}},
			},
		},
	}
	payload := want.encode()
	tr, err := decodeBytes(payload, "layout.ppk")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	got := gunzip(t, buf.Bytes())
	if !bytes.Equal(got, payload) {
		i := 0
		for i < min(len(got), len(payload)) && got[i] == payload[i] {
			i++
		}
		t.Fatalf("payload differs from offset %d (sizes %d, %d):\n got % x\nwant % x", i, len(got), len(payload),
			got[i:min(len(got), i+32)], payload[i:min(len(payload), i+32)])
	}
}

// TestCompareUTF16 checks Java's String.compareTo order.
func TestCompareUTF16(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "a", -1}, {"ab", "abc", -1}, {"abc", "abd", -1},
		{"\U0001F600", "\uFF21", -1}, {"\uFF21", "\U0001F600", 1}, {"\uD7FF", "\U0001F600", -1},
		{"\U0001F600", "\U0001F601", -1}, {"x\U00010000", "x\U0010FFFF", -1}, {"\u00e9", "z", 1},
	} {
		if got := compareUTF16(c.a, c.b); got != c.want {
			t.Errorf("compareUTF16(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestWriteMUTF8 checks the encoder's strings against the test encoder and
// through the decoder.
func TestWriteMUTF8(t *testing.T) {
	for _, s := range []string{"", "plain", "\x00", handLeaf, "\u07ff\u0800\uffff\U00010000\U0010FFFF", "bad \xff byte"} {
		var out bytes.Buffer
		e := &encoder{w: bufio.NewWriter(&out), buf: make([]byte, 64)}
		e.utf(s)
		if err := e.w.Flush(); err != nil {
			t.Fatal(err)
		}
		want := encodeMUTF8(s)
		b := out.Bytes()
		if len(b) < 2 || int(b[0])<<8|int(b[1]) != len(want) || !bytes.Equal(b[2:], want) {
			t.Errorf("%q: % x, want length %d and % x", s, b, len(want), want)
		}
		if n, err := utfSize(s, "s"); err != nil || n != len(want) {
			t.Errorf("utfSize(%q) = %d, %v; want %d", s, n, err, len(want))
		}
	}
}

// failingWriter accepts n bytes, then fails.
type failingWriter struct {
	n   int
	err error
}

func (w *failingWriter) Write(b []byte) (int, error) {
	if len(b) <= w.n {
		w.n -= len(b)
		return len(b), nil
	}
	k := w.n
	w.n = 0
	return k, w.err
}

// bigTrial is a generated trial whose packed profile is several hundred
// kilobytes.
func bigTrial(t testing.TB) *drg.Trial {
	t.Helper()
	tr, err := synth.Generate(synth.Spec{Processes: 64, ThreadsPerProcess: 2, Regions: 200, Depth: 2, Metrics: 2,
		Serial: 1e5, Parallel: 1e6, Noise: 0.1, Imbalance: 0.2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestWriteFailingWriter checks that an error of the destination ends
// Write with that error, wherever it happens, and that the writer stops
// soon after it.
func TestWriteFailingWriter(t *testing.T) {
	tr := bigTrial(t)
	var full bytes.Buffer
	if err := Write(&full, tr); err != nil {
		t.Fatal(err)
	}
	disk := errors.New("disk full")
	for _, n := range []int{0, 5, 100, full.Len() / 2, full.Len() - 1} {
		w := &failingWriter{n: n, err: disk}
		err := Write(w, tr)
		if !errors.Is(err, disk) || !strings.HasPrefix(err.Error(), "write ppk: ") {
			t.Errorf("failing after %d bytes: %v", n, err)
		}
	}
	// A writer that takes less than it is given without saying why.
	short := writerFunc(func(b []byte) (int, error) { return len(b) / 2, nil })
	if err := Write(short, tr); !errors.Is(err, io.ErrShortWrite) {
		t.Errorf("short writer: %v", err)
	}
}

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestWriteFile checks that WriteFile writes a file Reader reads, keeps an
// older file when it fails, and leaves no file of its own behind.
func TestWriteFile(t *testing.T) {
	tr := bigTrial(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "p64.ppk")
	if err := WriteFile(path, tr); err != nil {
		t.Fatal(err)
	}
	back, err := Reader{Path: path}.Read()
	if err != nil {
		t.Fatal(err)
	}
	compareTrials(t, tr, back)
	if back.Name != "p64" {
		t.Errorf("name %q", back.Name)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("stat: %v %v", fi, err)
	}
	good, _ := os.ReadFile(path)

	defer func(f func(*os.File) io.Writer) { fileWriter = f }(fileWriter)
	disk := errors.New("no space left on device")
	for _, n := range []int{0, 1000, len(good) / 2} {
		fileWriter = func(f *os.File) io.Writer {
			return &failingWriter{n: n, err: disk}
		}
		// Over the good file: it stays as it was.
		err := WriteFile(path, tr)
		if !errors.Is(err, disk) || !strings.Contains(err.Error(), "write "+path+": ") {
			t.Errorf("failing after %d bytes: %v", n, err)
		}
		if b, _ := os.ReadFile(path); !bytes.Equal(b, good) {
			t.Errorf("failing after %d bytes changed the existing file", n)
		}
		// A new file: none appears.
		fresh := filepath.Join(dir, fmt.Sprintf("fresh%d.ppk", n))
		if err := WriteFile(fresh, tr); !errors.Is(err, disk) {
			t.Errorf("new file, failing after %d bytes: %v", n, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("failing after %d bytes left %v", n, entries)
		}
	}
	fileWriter = func(f *os.File) io.Writer { return f }

	// An invalid trial: nothing appears either.
	bad := bigTrial(t)
	bad.Metrics[0].Name = strings.Repeat("x", 70000)
	if err := WriteFile(filepath.Join(dir, "bad.ppk"), bad); err == nil || !strings.Contains(err.Error(), "65535") {
		t.Errorf("too long a name: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("an invalid trial left %v", entries)
	}
	// A folder that does not exist.
	missing := filepath.Join(dir, "no", "such", "x.ppk")
	if err := WriteFile(missing, tr); err == nil || !strings.Contains(err.Error(), "write "+missing) {
		t.Errorf("missing folder: %v", err)
	}
}

// TestWriteRefuses checks the trials Write refuses, and that it writes
// nothing for them.
func TestWriteRefuses(t *testing.T) {
	mk := func(edit func(tr *drg.Trial)) *drg.Trial {
		tr, err := synth.Generate(synth.Spec{Processes: 2, ThreadsPerProcess: 1, Regions: 3, Depth: 2, Metrics: 1, Serial: 10, Parallel: 10})
		if err != nil {
			t.Fatal(err)
		}
		edit(tr)
		return tr
	}
	long := strings.Repeat("\u00e9", 40000) // 80000 bytes
	for _, c := range []struct {
		name string
		tr   *drg.Trial
		want string
	}{
		{"nil", nil, "no trial"},
		{"no thread", mk(func(tr *drg.Trial) { tr.Threads = nil }), "trial has no thread"},
		{"no metric", mk(func(tr *drg.Trial) { tr.Metrics = nil }), "trial has no metric"},
		{"node name", mk(func(tr *drg.Trial) { tr.Nodes[1].Name = long }), "node name"},
		{"group name", mk(func(tr *drg.Trial) { tr.Regions[0].Groups = []string{long} }), "group name"},
		{"user event name", mk(func(tr *drg.Trial) { tr.Counters[0].Name = long }), "user event name"},
		{"trial metadata", mk(func(tr *drg.Trial) { tr.Metadata["Env"] = long }), `trial metadata: key "Env": value`},
		{"thread metadata", mk(func(tr *drg.Trial) { tr.Threads[1].Metadata[long] = "x" }), "thread 1.0.0 metadata: name"},
		{"sample count", mk(func(tr *drg.Trial) { tr.CounterValues[1].NumEvents = 2.5 }), "sample count 2.5"},
		{"negative sample count", mk(func(tr *drg.Trial) { tr.CounterValues[0].NumEvents = -1 }), "sample count -1"},
		{"huge sample count", mk(func(tr *drg.Trial) { tr.CounterValues[0].NumEvents = 1e10 }), "sample count 1e+10"},
		{"short column", mk(func(tr *drg.Trial) { tr.Values[0].Inclusive = tr.Values[0].Inclusive[1:] }), `metric "TIME"`},
		{"short calls", mk(func(tr *drg.Trial) { tr.Calls = nil }), "do not match"},
		{"region", mk(func(tr *drg.Trial) { tr.Nodes[0].Region = 99 }), "region 99 out of range"},
	} {
		var buf bytes.Buffer
		err := Write(&buf, c.tr)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "write ppk: ") {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written", c.name, buf.Len())
		}
	}
	// Just below the limit is fine: 65535 bytes.
	tr := mk(func(tr *drg.Trial) { tr.Metadata["Env"] = strings.Repeat("x", 65535) })
	if back := roundTrip(t, tr); len(back.Metadata["Env"]) != 65535 {
		t.Errorf("65535-byte value came back with %d bytes", len(back.Metadata["Env"]))
	}
}

// TestWriteAllocations checks that allocations do not grow with the
// number of values: 16 times the threads (each thread bringing 81 value
// cells of 2 metrics) costs less than one allocation per thread (the
// growth of the slice holding the threads' metadata keys).
func TestWriteAllocations(t *testing.T) {
	allocs := func(p int) float64 {
		tr, err := synth.Generate(synth.Spec{Processes: p, ThreadsPerProcess: 1, Regions: 40, Depth: 2, Metrics: 2, Serial: 1e5, Parallel: 1e6})
		if err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(3, func() {
			if err := Write(io.Discard, tr); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, big := allocs(8), allocs(128)
	if per := (big - small) / 120; per >= 1 {
		t.Errorf("%.0f allocations for 8 threads, %.0f for 128: %.1f per thread", small, big, per)
	}
}
