package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSynthetic writes a trial of threads profile files with regions flat
// timers and as many depth-2 callpaths, each file about the size TAU writes.
func writeSynthetic(tb testing.TB, dir string, threads, regions int) int64 {
	tb.Helper()
	var total int64
	for th := 0; th < threads; th++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "%d templated_functions_MULTI_TIME\n", 2*regions)
		sb.WriteString(`# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>TIME</value></attribute><attribute><name>pid</name><value>`)
		fmt.Fprintf(&sb, "%d</value></attribute></metadata>\n", 1000+th)
		for r := 0; r < regions; r++ {
			fmt.Fprintf(&sb, "\"void region_%d(int, double *) C [{src/file_%d.c} {%d,1}-{%d,1}]  \" %d %d %.16G %.16G 0 GROUP=\"TAU_USER\" \n",
				r, r%17, r, r+10, 1+r%5, r%3, 1234.5678*float64(r+th), 98765.4321*float64(r+1))
			fmt.Fprintf(&sb, "\"main => void region_%d(int, double *) C [{src/file_%d.c} {%d,1}-{%d,1}]  \" %d %d %.16G %.16G 0 GROUP=\"TAU_CALLPATH|TAU_USER\" \n",
				r, r%17, r, r+10, 1+r%5, r%3, 1234.5678*float64(r+th), 98765.4321*float64(r+1))
		}
		sb.WriteString("0 aggregates\n1 userevents\n# eventname numevents max min mean sumsqr\n\"Message size\" 10 4096 8 1024.5 1.566704712030692E+07\n")
		p := filepath.Join(dir, fmt.Sprintf("profile.%d.0.0", th))
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		total += int64(sb.Len())
	}
	return total
}

// BenchmarkRead reads a 256-thread × 1000-node profile directory; its MB/s
// is to be compared with BenchmarkReadBytes on the same files.
func BenchmarkRead(b *testing.B) {
	dir := b.TempDir()
	size := writeSynthetic(b, dir, 256, 500)
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr, err := Reader{Path: dir}.Read()
		if err != nil {
			b.Fatal(err)
		}
		// Memory per stored value: the value arrays of the model (inclusive,
		// exclusive, calls, subroutines and the presence bit) per cell.
		if i == 0 {
			cells := len(tr.Nodes) * len(tr.Threads)
			bytes := cells*8*(2*len(tr.Metrics)+2) + (cells+7)/8
			b.ReportMetric(float64(bytes)/float64(cells*(2*len(tr.Metrics)+2)), "B/value")
		}
	}
}

// BenchmarkReadBytes only reads the bytes of the same files: the reference
// for BenchmarkRead's MB/s.
func BenchmarkReadBytes(b *testing.B) {
	dir := b.TempDir()
	size := writeSynthetic(b, dir, 256, 500)
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if _, err := os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
				b.Fatal(err)
			}
		}
	}
}
