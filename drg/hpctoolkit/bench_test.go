package hpctoolkit

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBig writes an experiment.xml of n procedure frames (node i > 1
// called from node (i-2)/10+1) and one metric-db file per thread, with
// inclusive = the subtree size and exclusive = 1 per node; it returns the
// bytes written.
func writeBig(tb testing.TB, dir string, n, threads int) int64 {
	var x strings.Builder
	x.WriteString(`<?xml version="1.0"?><HPCToolkitExperiment version="2.0"><Header n="big"/><SecCallPathProfile i="0" n="big"><SecHeader><MetricDBTable>
<MetricDB i="0" n="CPUTIME (usec) (I)" t="inclusive" partner="1" db-id="0"/><MetricDB i="1" n="CPUTIME (usec) (E)" t="exclusive" partner="0" db-id="1"/>
</MetricDBTable><ProcedureTable>`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&x, `<Procedure i="%d" n="f%d"/>`, i, i)
	}
	x.WriteString(`</ProcedureTable></SecHeader><SecCallPathProfileData>`)
	var tree func(i int)
	tree = func(i int) {
		fmt.Fprintf(&x, `<PF i="%d" l="1" n="%d"><C i="%d" l="2">`, i, i, n+i)
		for c := 10*(i-1) + 2; c <= 10*(i-1)+11 && c <= n; c++ {
			tree(c)
		}
		x.WriteString(`</C></PF>`)
	}
	tree(1)
	x.WriteString(`</SecCallPathProfileData></SecCallPathProfile></HPCToolkitExperiment>`)
	total := int64(x.Len())
	if err := os.WriteFile(filepath.Join(dir, "experiment.xml"), []byte(x.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	size := make([]float64, n+1)
	for i := n; i >= 1; i-- {
		size[i]++
		if i > 1 {
			size[(i-2)/10+1] += size[i]
		}
	}
	rows := 2 * n // call sites have rows too
	var b bytes.Buffer
	b.WriteString(metricDBMagic + "00.10b")
	binary.Write(&b, binary.BigEndian, uint32(rows))
	binary.Write(&b, binary.BigEndian, uint32(2))
	for id := 1; id <= rows; id++ {
		v := [2]float64{0, 0}
		if id <= n {
			v = [2]float64{size[id], 1}
		}
		binary.Write(&b, binary.BigEndian, v)
	}
	for th := 0; th < threads; th++ {
		p := filepath.Join(dir, fmt.Sprintf("big-%06d-000-a-%d-0.metric-db", th, th))
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
		total += int64(b.Len())
	}
	return total
}

// BenchmarkRead reads a database of 1,000 procedure frames × 1,024
// threads (32 MB of metric-db files); MB/s per byte read, values/s per
// value of the contexts read.
func BenchmarkRead(b *testing.B) {
	dir := b.TempDir()
	const n, threads = 1000, 1024
	b.SetBytes(writeBig(b, dir, n, threads))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr, err := Reader{Path: dir}.Read()
		if err != nil {
			b.Fatal(err)
		}
		if i == b.N-1 {
			b.ReportMetric(float64(b.N*n*threads*2)/b.Elapsed().Seconds(), "values/s")
		}
		if i == 0 {
			if got := tr.Values[0].Exclusive[tr.Cell(tr.NodeIndex("f1"), 3)]; got != 1 {
				b.Fatalf("exclusive of the root %v, want 1", got)
			}
		}
	}
}
