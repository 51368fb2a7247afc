package cube

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// testAnchor is a small hand-written anchor.xml: main calls work (which
// calls MPI_Send) and MPI_Send; three locations: rank 0 threads 0 and 1,
// rank 1 thread 0.
const testAnchor = `<?xml version="1.0" encoding="UTF-8"?>
<cube version="4.4">
<attr key="Creator" value="hand"/>
<metrics>
<metric id="0" type="EXCLUSIVE"><disp_name>Visits</disp_name><uniq_name>visits</uniq_name><dtype>UINT64</dtype><uom>occ</uom></metric>
<metric id="1" type="INCLUSIVE"><disp_name>Time</disp_name><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom>
<metric id="3" type="POSTDERIVED"><disp_name>Derived</disp_name><uniq_name>derived</uniq_name><dtype>DOUBLE</dtype></metric>
</metric>
<metric id="2" type="EXCLUSIVE"><disp_name>Bytes sent</disp_name><uniq_name>bytes_sent</uniq_name><dtype>UINT64</dtype><uom>bytes</uom></metric>
</metrics>
<program>
<region id="0" mod="a.c" begin="1" end="9"><name>main</name><paradigm>user</paradigm></region>
<region id="1" mod="MPI" begin="-1" end="-1"><name>MPI_Send</name><paradigm>mpi</paradigm></region>
<region id="2" mod="a.c" begin="11" end="19"><name>work</name><paradigm>compiler</paradigm></region>
<cnode id="0" calleeId="0"><cnode id="1" calleeId="2"><cnode id="2" calleeId="1"></cnode></cnode><cnode id="3" calleeId="1"></cnode></cnode>
</program>
<system><systemtreenode Id="0"><name>machine</name><class>machine</class>
<locationgroup Id="0"><name>MPI Rank 0</name><rank>0</rank><type>process</type>
<location Id="0"><name>Master thread</name><rank>0</rank><type>thread</type></location>
<location Id="1"><name>OMP thread 1</name><rank>1</rank><type>thread</type></location>
</locationgroup>
<locationgroup Id="1"><name>MPI Rank 1</name><rank>1</rank><type>process</type>
<location Id="2"><name>Master thread</name><rank>0</rank><type>thread</type></location>
</locationgroup>
</systemtreenode></system>
</cube>
`

// Values per cnode (rows) and location (columns).
var (
	testTime   = [][]float64{{10, 8, 9}, {6, 5, 4}, {1, 2, 0.5}, {3, 1, 2}}
	testVisits = [][]uint64{{1, 1, 1}, {2, 2, 2}, {4, 4, 4}, {1, 0, 3}}
	testBytes  = [][]uint64{{100, 0, 50}, {7, 0, 0}} // sparse: cnodes 2 and 3
)

func indexBytes(o binary.ByteOrder, ids []int) []byte {
	var b bytes.Buffer
	b.WriteString(indexMagic)
	binary.Write(&b, o, int32(1))
	binary.Write(&b, o, uint16(0))
	b.WriteByte(1)
	binary.Write(&b, o, uint32(len(ids)))
	for _, id := range ids {
		binary.Write(&b, o, int32(id))
	}
	return b.Bytes()
}

func valueBytes(o binary.ByteOrder, rows any) []byte {
	var b bytes.Buffer
	switch r := rows.(type) {
	case [][]float64:
		for _, row := range r {
			binary.Write(&b, o, row)
		}
	case [][]uint64:
		for _, row := range r {
			binary.Write(&b, o, row)
		}
	}
	return b.Bytes()
}

// zdata writes values as a ZCUBEX.DATA member, one zlib segment per
// split of the bytes.
func zdata(o binary.ByteOrder, raw []byte, splits ...int) []byte {
	var segs [][]byte
	prev := 0
	for _, s := range append(splits, len(raw)) {
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write(raw[prev:s])
		w.Close()
		segs = append(segs, z.Bytes())
		prev = s
	}
	var b bytes.Buffer
	b.WriteString(zdataMagic)
	binary.Write(&b, o, int64(len(segs)))
	for _, s := range segs {
		binary.Write(&b, o, []int64{0, 0, int64(len(s))})
	}
	for _, s := range segs {
		b.Write(s)
	}
	return b.Bytes()
}

type testMember struct {
	name string
	data []byte
}

// cubexMembers returns the members of the test file, anchor.xml last as
// Score-P writes it; compressed selects ZCUBEX.DATA for the time metric.
func cubexMembers(o binary.ByteOrder, compressed bool) []testMember {
	time := append([]byte(dataMagic), valueBytes(o, testTime)...)
	if compressed {
		time = zdata(o, valueBytes(o, testTime), 20, 50)
	}
	return []testMember{
		{"0.index", indexBytes(o, []int{0, 1, 2, 3})},
		{"0.data", append([]byte(dataMagic), valueBytes(o, testVisits)...)},
		{"1.index", indexBytes(o, []int{0, 1, 2, 3})},
		{"1.data", time},
		{"2.index", indexBytes(o, []int{2, 3})},
		{"2.data", append([]byte(dataMagic), valueBytes(o, testBytes)...)},
		{"anchor.xml", []byte(testAnchor)},
	}
}

func writeTar(t testing.TB, path string, ms []testMember) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, m := range ms {
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Mode: 0o600, Size: int64(len(m.data)), Format: tar.FormatUSTAR}); err != nil {
			t.Fatal(err)
		}
		tw.Write(m.data)
	}
	tw.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGenerated reads the hand-made file in four encodings (little and big
// endian, time plain and zlib-compressed in three segments) and checks
// every value against a hand computation from the tables above.
func TestGenerated(t *testing.T) {
	for _, o := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		for _, z := range []bool{false, true} {
			p := filepath.Join(t.TempDir(), "gen.cubex")
			writeTar(t, p, cubexMembers(o, z))
			if !Detect(p) {
				t.Fatalf("%v compressed=%v: not detected", o, z)
			}
			tr, err := Reader{Path: p}.Read()
			if err != nil {
				t.Fatalf("%v compressed=%v: %v", o, z, err)
			}
			checkGenerated(t, tr)
		}
	}
}

func checkGenerated(t *testing.T, trial *drg.Trial) {
	t.Helper()
	time, bytesSent := trial.MetricIndex("TIME"), trial.MetricIndex("bytes_sent")
	if len(trial.Metrics) != 2 || time < 0 || bytesSent < 0 {
		t.Fatalf("metrics %v, want TIME and bytes_sent (visits are calls, the derived metric has no data)", trial.Metrics)
	}
	if th := trial.ThreadIndex(0, 0, 1); th != 1 || trial.ThreadIndex(1, 0, 0) != 2 {
		t.Fatalf("threads %v", trial.Threads)
	}
	// Exclusive time = inclusive minus the children's inclusive, in µs.
	type want struct {
		node       string
		incl, excl []float64
	}
	for _, w := range []want{
		{"main", []float64{10, 8, 9}, []float64{10 - 6 - 3, 8 - 5 - 1, 9 - 4 - 2}},
		{"main => work", []float64{6, 5, 4}, []float64{6 - 1, 5 - 2, 4 - 0.5}},
		{"main => work => MPI_Send", []float64{1, 2, 0.5}, []float64{1, 2, 0.5}},
		{"main => MPI_Send", []float64{3, 1, 2}, []float64{3, 1, 2}},
		{"MPI_Send", []float64{1 + 3, 2 + 1, 0.5 + 2}, []float64{1 + 3, 2 + 1, 0.5 + 2}},
	} {
		for th := 0; th < 3; th++ {
			in, ex := cell(t, trial, time, w.node, th)
			if !near(in, w.incl[th]*1e6) || !near(ex, w.excl[th]*1e6) {
				t.Errorf("%s thread %d: TIME %v/%v, want %v/%v s", w.node, th, in, ex, w.incl[th], w.excl[th])
			}
		}
	}
	// bytes_sent is sparse and EXCLUSIVE: inclusive adds the children.
	if in, ex := cell(t, trial, bytesSent, "main", 0); in != 107 || ex != 0 {
		t.Errorf("main bytes_sent %v/%v, want 107/0", in, ex)
	}
	if in, _ := cell(t, trial, bytesSent, "main => work", 2); in != 50 {
		t.Errorf("work bytes_sent on rank 1: %v, want 50", in)
	}
	if c, s := cell(t, trial, -1, "main", 2); c != 1 || s != 2+3 {
		t.Errorf("main calls/subroutines on rank 1: %v/%v, want 1/5", c, s)
	}
	if c, _ := cell(t, trial, -1, "MPI_Send", 1); c != 4+0 {
		t.Errorf("flat MPI_Send calls on thread 0.0.1: %v, want 4", c)
	}
	if r := trial.RegionIndex("MPI_Send"); r < 0 || len(trial.Regions[r].Groups) != 1 || trial.Regions[r].Groups[0] != "MPI" {
		t.Errorf("MPI_Send region groups wrong: %+v", trial.Regions)
	}
}

// TestGzipAnchor reads the hand-made file with anchor.xml gzip-compressed.
func TestGzipAnchor(t *testing.T) {
	ms := cubexMembers(binary.LittleEndian, false)
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(ms[6].data)
	w.Close()
	ms[6].data = z.Bytes()
	p := filepath.Join(t.TempDir(), "gz.cubex")
	writeTar(t, p, ms)
	tr, err := Reader{Path: p}.Read()
	if err != nil {
		t.Fatal(err)
	}
	checkGenerated(t, tr)
}

// TestBadFiles refuses truncated and corrupted copies of the generated
// file, each with the file, the member and a byte offset.
func TestBadFiles(t *testing.T) {
	o := binary.LittleEndian
	cases := []struct {
		what   string
		edit   func(ms []testMember) []testMember
		member string
	}{
		{"data magic", func(ms []testMember) []testMember {
			ms[3].data = append([]byte("XUBEX.DATA"), ms[3].data[10:]...)
			return ms
		}, "1.data"},
		{"short data", func(ms []testMember) []testMember { ms[3].data = ms[3].data[:len(ms[3].data)-3]; return ms }, "1.data"},
		{"long data", func(ms []testMember) []testMember { ms[3].data = append(ms[3].data, 0); return ms }, "1.data"},
		{"index endianness", func(ms []testMember) []testMember { ms[2].data[12] = 7; return ms }, "1.index"},
		{"index count", func(ms []testMember) []testMember { ms[2].data[18] = 9; return ms }, "1.index"},
		{"unknown cnode", func(ms []testMember) []testMember { ms[4].data = indexBytes(o, []int{2, 9}); return ms }, "2.index"},
		{"NaN", func(ms []testMember) []testMember {
			binary.LittleEndian.PutUint64(ms[3].data[10:], math.Float64bits(math.NaN()))
			return ms
		}, "1.data"},
		{"anchor cut", func(ms []testMember) []testMember { ms[6].data = ms[6].data[:len(ms[6].data)/2]; return ms }, "anchor.xml"},
		{"anchor region", func(ms []testMember) []testMember {
			ms[6].data = []byte(strings.Replace(testAnchor, `calleeId="2"`, `calleeId="7"`, 1))
			return ms
		}, "anchor.xml"},
		{"zlib segment", func(ms []testMember) []testMember {
			ms[3].data = zdata(o, valueBytes(o, testTime), 20)
			ms[3].data[len(ms[3].data)-5] ^= 0xff
			return ms
		}, "1.data"},
		{"zlib too much", func(ms []testMember) []testMember {
			ms[3].data = zdata(o, append(valueBytes(o, testTime), 1, 2, 3), 20)
			return ms
		}, "1.data"},
	}
	for _, c := range cases {
		p := filepath.Join(t.TempDir(), "bad.cubex")
		writeTar(t, p, c.edit(cubexMembers(o, false)))
		_, err := Reader{Path: p}.Read()
		var e *Error
		if !errors.As(err, &e) || e.Path != p || e.Member != c.member {
			t.Errorf("%s: error %v, want a cube.Error in %s", c.what, err, c.member)
			continue
		}
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %q does not name the file", c.what, err)
		}
	}
}

// TestTruncated cuts the generated file every 97 bytes up to the end of
// its last member's data: each copy is refused with an Error, never read.
func TestTruncated(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.cubex")
	writeTar(t, full, cubexMembers(binary.LittleEndian, true))
	b, _ := os.ReadFile(full)
	f, _ := os.Open(full)
	ms, err := members(f, full)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	end := int64(0) // the end of the last member's data: the rest is padding
	for _, m := range ms {
		end = max(end, m.off+m.size)
	}
	for cut := 0; cut < int(end); cut += 97 {
		p := filepath.Join(dir, "cut.cubex")
		os.WriteFile(p, b[:cut], 0o644)
		_, err := Reader{Path: p}.Read()
		var e *Error
		if !errors.As(err, &e) || e.Path != p {
			t.Fatalf("cut at %d: error %v, want a cube.Error naming the file", cut, err)
		}
	}
}
