package ppk

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/hostile"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestBombRefusedByTrailer reads gzip bombs of 1.5 GiB (a file of about
// 1.5 MB) that start as a version-2 packed profile: with an honest trailer, which states more than MaxPayload, and
// with a forged one stating 100 bytes. Each is refused naming the file and
// the limit, allocating under 64 MiB (the whole payload is 1.5 GiB; the
// reader used to read it all before looking at it).
func TestBombRefusedByTrailer(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 2 GiB")
	}
	forged := uint32(100)
	for _, c := range []struct {
		name   string
		stated *uint32
		want   string
	}{
		{"honest.ppk", nil, "honest.ppk: offset 1073741824: decompressed payload larger than 1073741824 bytes (the limit; its gzip trailer states 1610612750)"},
		{"forged.ppk", &forged, "forged.ppk: offset 100: decompressed payload larger than 100 bytes (the size its gzip trailer states)"},
	} {
		path := filepath.Join(t.TempDir(), c.name)
		if err := os.WriteFile(path, hostile.GzipBomb(append(slices.Clone(magic), 0, 0, 0, 2, 0, 0, 0, 2), 0, 1536, c.stated), 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		n := allocated(func() { _, err = Reader{Path: path}.Read() })
		if err == nil || strings.ReplaceAll(err.Error(), filepath.Dir(path)+"/", "") != c.want {
			t.Errorf("%s: error %v, want %s", c.name, err, c.want)
		}
		if n > 64<<20 {
			t.Errorf("%s: allocated %d bytes", c.name, n)
		}
	}
}

// TestFIFOAndDeviceRefused names a FIFO and /dev/zero as the packed
// profile: each is refused at once as not a regular file (the reader used
// to block on the FIFO and read /dev/zero until the limit).
func TestFIFOAndDeviceRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "x.ppk")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for path, kind := range map[string]string{fifo: "a named pipe (FIFO)", "/dev/zero": "a character device"} {
		_, err := Reader{Path: path}.Read()
		if err == nil || !strings.Contains(err.Error(), path+": "+kind+", not a regular file: not read") {
			t.Errorf("%s: error %v", path, err)
		}
		if !errorsIsNotRegular(err) {
			t.Errorf("%s: %v is not safefile.ErrNotRegular", path, err)
		}
	}
}

func errorsIsNotRegular(err error) bool {
	var k *safefile.KindError
	return errors.As(err, &k) && errors.Is(err, safefile.ErrNotRegular)
}

// TestSparseThreadsStoredSparsely encodes 12,000 threads that each
// measured one function of their own (12,000 values in 144 million cells,
// the 95 KB ppk that took 5.3 GB): the trial is stored sparsely
// (the dense columns would take 4.6 GB), allocating under 64 MB, with
// thread i's one cell holding its function's values. User events as
// sparse are still refused, naming the counts.
func TestSparseThreadsStoredSparsely(t *testing.T) {
	const n = 12000
	f := &tFile{version: 2, compatible: 1, metrics: []string{"TIME"}}
	for i := range n {
		f.functions = append(f.functions, tFunction{name: fmt.Sprintf("own %d", i)})
		f.threads = append(f.threads, tThread{id: [3]int32{int32(i), 0, 0},
			fps: []tFP{{fn: int32(i), calls: float64(i + 1), values: []float64{float64(2 * i), float64(3 * i)}}}})
	}
	var err error
	var tr *drg.Trial
	alloc := allocated(func() { tr, err = decodeBytes(f.encode(), "sparse.ppk") })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("allocated %d MiB", alloc>>20)
	if alloc > 64<<20 {
		t.Errorf("allocated %d MB", alloc>>20)
	}
	if !tr.IsSparse() || tr.PresentCells() != n {
		t.Fatalf("sparse %v with %d cells, want %d", tr.IsSparse(), tr.PresentCells(), n)
	}
	for node := range tr.Nodes {
		var i int
		if _, err := fmt.Sscanf(tr.Nodes[node].Name, "own %d", &i); err != nil || tr.RowLen(node) != 1 {
			t.Fatalf("node %q: %v, %d cells", tr.Nodes[node].Name, err, tr.RowLen(node))
		}
		for th, calls := range tr.Col(drg.ColCalls, 0).Row(node) {
			ex, _ := tr.Col(drg.ColExclusive, 0).At(node, th)
			in, _ := tr.Col(drg.ColInclusive, 0).At(node, th)
			if x := tr.Threads[th]; x.Node != i || calls != float64(i+1) || ex != float64(2*i) || in != float64(3*i) {
				t.Fatalf("node %q: thread %d.%d.%d, calls %v excl %v incl %v", tr.Nodes[node].Name, x.Node, x.Context, x.Thread, calls, ex, in)
			}
		}
	}

	f.userEvents = nil
	for i := range n {
		f.userEvents = append(f.userEvents, fmt.Sprintf("event %d", i))
		f.threads[i].ueps = []tUEP{{ue: int32(i), n: 1, min: 1, max: 1, mean: 1, sumsqr: 1}}
	}
	_, err = decodeBytes(f.encode(), "sparse.ppk")
	want := "12000 user events × 12000 threads make 144000000 cells, but only about 12000 of them hold values (1 in 12000)"
	if !errors.Is(err, drg.ErrTooSparse) || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestBombRefusedOnItsHeader gives a 1.5 GiB bomb whose payload starts
// with the magic and version 0: refused on its first 14 bytes, allocating
// under 1 MiB, with parse's message.
func TestBombRefusedOnItsHeader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v0.ppk")
	if err := os.WriteFile(path, hostile.GzipBomb(magic, 0, 1536, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	n := allocated(func() { _, err = Reader{Path: path}.Read() })
	if err == nil || !strings.HasSuffix(err.Error(), "v0.ppk: offset 6: unsupported version 0") {
		t.Errorf("error %v", err)
	}
	if n > 1<<20 {
		t.Errorf("allocated %d bytes", n)
	}
}
