package cube

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBig writes a .cubex of cnodes call-tree nodes (main with children of
// 10 children each) × locs locations, with an INCLUSIVE DOUBLE time and an
// EXCLUSIVE UINT64 visits metric, plain data; it returns the file's size.
func writeBig(tb testing.TB, path string, cnodes, locs int) int64 {
	var a strings.Builder
	a.WriteString(`<?xml version="1.0" encoding="UTF-8"?><cube version="4.4"><metrics>
<metric id="0" type="EXCLUSIVE"><uniq_name>visits</uniq_name><dtype>UINT64</dtype><uom>occ</uom></metric>
<metric id="1" type="INCLUSIVE"><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom></metric>
</metrics><program>`)
	for r := 0; r < cnodes; r++ {
		fmt.Fprintf(&a, `<region id="%d" mod="a.c" begin="1" end="2"><name>f%d</name><paradigm>user</paradigm></region>`, r, r)
	}
	// cnode 0 is the root; cnode i > 0 has parent (i-1)/10.
	var tree func(i int)
	tree = func(i int) {
		fmt.Fprintf(&a, `<cnode id="%d" calleeId="%d">`, i, i)
		for c := 10*i + 1; c <= 10*i+10 && c < cnodes; c++ {
			tree(c)
		}
		a.WriteString("</cnode>")
	}
	tree(0)
	a.WriteString(`</program><system><systemtreenode Id="0"><name>m</name>`)
	for l := 0; l < locs; l++ {
		fmt.Fprintf(&a, `<locationgroup Id="%d"><name>r</name><rank>%d</rank><type>process</type><location Id="%d"><name>t</name><rank>0</rank><type>thread</type></location></locationgroup>`, l, l, l)
	}
	a.WriteString(`</systemtreenode></system></cube>`)
	o := binary.LittleEndian
	ids := make([]int, cnodes)
	for i := range ids {
		ids[i] = i
	}
	// Inclusive time: a node's subtree size in seconds, so that the
	// exclusive time of every node is 1 s.
	size := make([]float64, cnodes)
	for i := cnodes - 1; i >= 0; i-- {
		size[i]++
		if i > 0 {
			size[(i-1)/10] += size[i]
		}
	}
	tb2 := make([]byte, 0, 10+cnodes*locs*8)
	vb := make([]byte, 0, 10+cnodes*locs*8)
	tb2, vb = append(tb2, dataMagic...), append(vb, dataMagic...)
	for i := 0; i < cnodes; i++ {
		for l := 0; l < locs; l++ {
			tb2 = o.AppendUint64(tb2, math.Float64bits(size[i]))
			vb = o.AppendUint64(vb, uint64(1+l%3))
		}
	}
	writeTar(tb, path, []testMember{
		{"0.index", indexBytes(o, ids)}, {"0.data", vb},
		{"1.index", indexBytes(o, ids)}, {"1.data", tb2},
		{"anchor.xml", []byte(a.String())},
	})
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return st.Size()
}

// BenchmarkRead reads a .cubex of 1,000 cnodes × 2,048 locations (32 MB
// of values); its MB/s is per byte of the file, to be set against
// drg/profile's BenchmarkRead (per byte of text profiles, where a value
// takes about 4 times the bytes), and values/s per value read.
func BenchmarkRead(b *testing.B) {
	p := filepath.Join(b.TempDir(), "big.cubex")
	const cnodes, locs = 1000, 2048
	b.SetBytes(writeBig(b, p, cnodes, locs))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr, err := Reader{Path: p}.Read()
		if err != nil {
			b.Fatal(err)
		}
		if i == b.N-1 {
			b.ReportMetric(float64(b.N*cnodes*locs*2)/b.Elapsed().Seconds(), "values/s")
		}
		if i == 0 {
			m := tr.MetricIndex("TIME")
			if got := tr.Values[m].Exclusive[tr.Cell(tr.NodeIndex("f0"), 7)]; got != 1e6 {
				b.Fatalf("exclusive of the root %v µs, want 1 s", got)
			}
		}
	}
}
