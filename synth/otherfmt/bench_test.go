package otherfmt

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg/caliper"
	"github.com/taudb-analyze/taudb-analyze/drg/cube"
	"github.com/taudb-analyze/taudb-analyze/drg/hpctoolkit"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// writeTAU writes the reference input: a TAU profile folder of threads ×
// regions (callpath depth 2, one metric), as scripts/benchtool's parse row
// generates it; it returns the bytes written.
func writeTAU(tb testing.TB, dir string, threads, regions int) int64 {
	tr, err := synth.Generate(synth.Spec{Processes: threads, ThreadsPerProcess: 1, Regions: regions, Depth: 2, Metrics: 1,
		Serial: 1e6, Parallel: 9e6, Log: 5e4, Noise: 0.02, Imbalance: 0.1, Seed: 1, Name: "ref"})
	if err != nil {
		tb.Fatal(err)
	}
	if err := profile.Write(dir, tr); err != nil {
		tb.Fatal(err)
	}
	var size int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		st, err := os.Stat(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		size += st.Size()
	}
	return size
}

// timed returns the wall-clock and CPU seconds (user and system, of the
// whole process: nothing else runs in it meanwhile) that read takes, after
// a garbage collection so that one reader's garbage is not collected in
// the other's time.
func timed(tb testing.TB, read func() error) (wall, cpu float64) {
	runtime.GC()
	c0 := cpuSeconds(tb)
	start := time.Now()
	if err := read(); err != nil {
		tb.Fatal(err)
	}
	return time.Since(start).Seconds(), cpuSeconds(tb) - c0
}

// cpuSeconds returns the process's user and system CPU time so far.
func cpuSeconds(tb testing.TB) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// readerCase is one reader measured against the TAU profile reader:
// write makes its input in dir and returns its size in bytes as stored
// (compressed bytes counted) and the read to time.
type readerCase struct {
	name  string
	write func(tb testing.TB, dir string) (int64, func() error)
}

// BenchmarkReaders measures each reader of another profiler's format
// against the TAU profile reader in the same run: every iteration reads
// the TAU profile folder (256 threads × 500 regions, depth 2: 29 MB) and
// then the format's generated input, timing each. Reported: the format
// reader's MB/s ("MB/s" per byte of its input as stored, MB = 10^6 bytes),
// the TAU reader's ("tau-MB/s") and their ratio ("×tau"), and the ratio of
// their bytes per CPU second of the process ("cpu-×tau"). The zlib row
// counts the compressed bytes; "inflate-only" only decompresses the same
// file's data members (its MB/s per compressed byte bounds the zlib
// reader's).
func BenchmarkReaders(b *testing.B) {
	dir := b.TempDir()
	tauDir := filepath.Join(dir, "tau")
	if err := os.Mkdir(tauDir, 0o755); err != nil {
		b.Fatal(err)
	}
	tauSize := writeTAU(b, tauDir, 256, 500)
	readTAU := func() error { _, err := profile.Reader{Path: tauDir}.Read(); return err }
	for _, c := range readerCases {
		b.Run(c.name, func(b *testing.B) {
			size, read := c.write(b, dir)
			b.ResetTimer()
			var sec, tauSec, cpu, tauCPU float64
			for i := 0; i < b.N; i++ {
				w, c := timed(b, readTAU)
				tauSec, tauCPU = tauSec+w, tauCPU+c
				w, c = timed(b, read)
				sec, cpu = sec+w, cpu+c
			}
			mbs := float64(size) * float64(b.N) / 1e6 / sec
			tau := float64(tauSize) * float64(b.N) / 1e6 / tauSec
			b.ReportMetric(mbs, "MB/s")
			b.ReportMetric(tau, "tau-MB/s")
			b.ReportMetric(mbs/tau, "×tau")
			// Per CPU second, which a loaded machine disturbs less.
			b.ReportMetric((float64(size)/cpu)/(float64(tauSize)/tauCPU), "cpu-×tau")
			b.ReportMetric(float64(size)/1e6, "MB-input")
		})
	}
}

// readerCases are the generated inputs: .cali of 256 ranks × 1,000
// regions, .cubex of 1,000 cnodes × 2,048 locations plain and zlib, an
// HPCToolkit database of 1,000 frames × 1,024 threads.
var readerCases = []readerCase{
	{"cali", func(tb testing.TB, dir string) (int64, func() error) {
		p := filepath.Join(dir, "gen.cali")
		size, err := WriteCali(p, 256, 1000)
		check(tb, err)
		return size, func() error { _, err := caliper.Reader{Path: p}.Read(); return err }
	}},
	{"cube", func(tb testing.TB, dir string) (int64, func() error) {
		p := filepath.Join(dir, "plain.cubex")
		size, err := WriteCubex(p, 1000, 2048, false)
		check(tb, err)
		return size, func() error { _, err := cube.Reader{Path: p}.Read(); return err }
	}},
	{"cube-zlib", func(tb testing.TB, dir string) (int64, func() error) {
		p := filepath.Join(dir, "zlib.cubex")
		size, err := WriteCubex(p, 1000, 2048, true)
		check(tb, err)
		return size, func() error { _, err := cube.Reader{Path: p}.Read(); return err }
	}},
	{"cube-zlib-inflate-only", func(tb testing.TB, dir string) (int64, func() error) {
		p := filepath.Join(dir, "zlib.cubex")
		size, err := WriteCubex(p, 1000, 2048, true)
		check(tb, err)
		return size, func() error { return InflateCubex(p) }
	}},
	{"hpctoolkit", func(tb testing.TB, dir string) (int64, func() error) {
		p := filepath.Join(dir, "hpctoolkit")
		check(tb, os.MkdirAll(p, 0o755))
		size, err := WriteHPCToolkit(p, 1000, 1024)
		check(tb, err)
		return size, func() error { _, err := hpctoolkit.Reader{Path: p}.Read(); return err }
	}},
}

// check fails the benchmark on err.
func check(tb testing.TB, err error) {
	if err != nil {
		tb.Helper()
		tb.Fatal(err)
	}
}
